"""Argument errors as a model can act on them: the argument, what was wrong, what it takes.

The SDK reports a call whose arguments fail the tool's input schema with pydantic's own text
(class names, union branch tags, a pydantic.dev URL per line). Here each bad argument becomes
one sentence saying what was wrong, followed by what the argument accepts, read from the
same input schema the model was given (type, bounds, choices, its description):

    top_k: 1000 is more than 100. top_k takes an integer from 1 to 100: how many results at most.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

# Errors that only say the value is of another type: when an argument also has an error about
# its value (a union tried as a list and as one value), that one is the informative one.
_KINDS = {
    "string": "a string",
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "list": "a list",
    "dict": "an object",
    "model": "an object",
}
_LONG_INPUT = 40


def _kind_of(error_type: str) -> str | None:
    for suffix in ("_type", "_parsing"):
        if error_type.endswith(suffix):
            return _KINDS.get(error_type.removesuffix(suffix), error_type.removesuffix(suffix))
    return None


def _shown(value: Any) -> str:
    if isinstance(value, str) and len(value) > _LONG_INPUT:
        return f"a text of {len(value)} characters"
    if isinstance(value, list | tuple) and len(value) > 5:
        return f"a list of {len(value)} items"
    text = repr(value) if isinstance(value, str) else _json_like(value)
    return text if len(text) <= _LONG_INPUT else text[: _LONG_INPUT - 1] + "…"


def _json_like(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _problem(error: Mapping[str, Any]) -> str:
    """What was wrong with the value, in a few words."""
    kind = error["type"]
    ctx = error.get("ctx") or {}
    got = _shown(error.get("input"))
    if kind == "missing":
        return "missing"
    if kind == "extra_forbidden":
        return "not an argument of this tool"
    if kind in ("too_long", "string_too_long"):
        unit = "characters" if kind.startswith("string") else "items"
        return (
            f"{ctx.get('actual_length', _length(error))} {unit}, more than {ctx.get('max_length')}"
        )
    if kind in ("too_short", "string_too_short"):
        unit = "characters" if kind.startswith("string") else "items"
        return (
            f"{ctx.get('actual_length', _length(error))} {unit}, fewer than {ctx.get('min_length')}"
        )
    bounds = {
        "less_than_equal": ("is more than", "le"),
        "less_than": ("is not less than", "lt"),
        "greater_than_equal": ("is less than", "ge"),
        "greater_than": ("is not more than", "gt"),
    }
    if kind in bounds:
        words, key = bounds[kind]
        return f"{got} {words} {ctx.get(key)}"
    if kind == "literal_error":
        return f"{got} is not one of {ctx.get('expected', 'the choices')}"
    if kind == "string_pattern_mismatch":
        return f"{got} does not have the expected form"
    expected = _kind_of(kind)
    if expected is not None:
        return f"{got} is not {expected}"
    return f"{got}: {str(error.get('msg', 'invalid')).removeprefix('Value error, ')}"


def _length(error: Mapping[str, Any]) -> int | str:
    value = error.get("input")
    return len(value) if isinstance(value, str | list | tuple | dict) else "?"


def _argument(loc: Sequence[Any]) -> str:
    """`('tags', 3)` → `tags[3]`; union branch tags and dict keys are left out."""
    name = str(loc[0]) if loc else "arguments"
    return name + "".join(f"[{part}]" for part in loc[1:] if isinstance(part, int))


def _resolve(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = root.get("$defs", {}).get(ref.rsplit("/", 1)[-1])
        return target if isinstance(target, Mapping) else {}
    return schema


def _range(low: Any, high: Any, unit: str = "") -> str:
    unit = f" {unit}" if unit else ""
    if low is not None and high is not None:
        return f"{low} to {high}{unit}"
    if low is not None:
        return f"at least {low}{unit}"
    return f"at most {high}{unit}" if high is not None else ""


def accepts(schema: Mapping[str, Any], root: Mapping[str, Any]) -> str:
    """What a JSON schema accepts, in words: `an integer from 1 to 100`."""
    schema = _resolve(schema, root)
    options = schema.get("anyOf")
    if options:
        parts = [accepts(o, root) for o in options if _resolve(o, root).get("type") != "null"]
        return " or ".join(dict.fromkeys(p for p in parts if p)) or "a value"
    if "enum" in schema:
        return "one of " + ", ".join(str(v) for v in schema["enum"])
    if "const" in schema:
        return repr(schema["const"])
    kind = schema.get("type")
    if kind in ("integer", "number"):
        noun = "an integer" if kind == "integer" else "a number"
        if "minimum" in schema and "maximum" in schema:
            return f"{noun} from {schema['minimum']} to {schema['maximum']}"
        words = {"minimum": "at least", "exclusiveMinimum": "more than",
                 "maximum": "at most", "exclusiveMaximum": "less than"}  # fmt: skip
        bounds = [f"{w} {schema[k]}" for k, w in words.items() if k in schema]
        return " ".join([noun, " and ".join(bounds)]).strip()
    if kind == "string":
        span = _range(schema.get("minLength"), schema.get("maxLength"), "characters")
        text = f"a text of {span}" if span else "a text"
        return text + (" matching " + schema["pattern"] if "pattern" in schema else "")
    if kind == "boolean":
        return "true or false"
    if kind == "array":
        items = accepts(schema.get("items", {}), root)
        span = _range(schema.get("minItems"), schema.get("maxItems"), "items")
        return f"a list of {span or 'items'}, each {items}"
    if kind == "object":
        return "an object"
    return "a value"


def explain_arguments(
    tool: str, exc: ValidationError, schema: Mapping[str, Any]
) -> tuple[str, list[dict[str, Any]]]:
    """The model-facing text and the structured problems of one rejected call."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for error in exc.errors(include_url=False):
        grouped.setdefault(_argument(error["loc"]), []).append(dict(error))
    properties = schema.get("properties", {})
    problems: list[dict[str, Any]] = []
    sentences: list[str] = []
    for argument, errors in grouped.items():
        about_value = [e for e in errors if _kind_of(e["type"]) is None]
        if about_value:
            problem = _problem(about_value[0])
        else:
            kinds = dict.fromkeys(_kind_of(e["type"]) or "" for e in errors)
            problem = f"{_shown(errors[0].get('input'))} is not {' or '.join(kinds)}"
        name = argument.split("[", 1)[0]
        prop = properties.get(name)
        if prop is None:
            takes = "Its arguments are " + ", ".join(properties) + "." if properties else ""
        else:
            described = _resolve(prop, schema)
            takes = f"{name} takes {accepts(prop, schema)}"
            if described.get("description") or prop.get("description"):
                takes += f": {described.get('description') or prop.get('description')}"
            takes += "."
        sentences.append(f"{argument}: {problem}. {takes}".strip())
        problems.append(
            {"argument": argument, "problem": problem, "accepts": takes, "type": errors[0]["type"]}
        )
    return f"Invalid arguments for {tool}: " + " ".join(sentences), problems

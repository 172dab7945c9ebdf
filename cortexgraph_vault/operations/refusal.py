"""Refused arguments in words: the one translator every door uses.

A request model refuses a call (pydantic's `ValidationError`); here each bad argument becomes
`name: reason`, the reason saying what the argument takes (`top_k: must be from 1 to 100, got
500`), and an argument nobody declared is named with the one that was probably meant and the
ones there are (`q: unknown argument (did you mean query?)`). MCP, REST and the operation
route all say these sentences, as `InvalidArgument` (its `params` name the arguments, so the
CLI can say `--limit` where the others say `top_k`); the CLI's own parser says an unknown
option with `unknown_arguments` too.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import annotated_types
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from cortexgraph_vault.errors import InvalidArgument

_LONG_INPUT = 40
# Errors that only say the value is of another type; a union tried as each of its branches
# reports one per branch, and an error about the value itself says more.
_KINDS = {
    "string": "a text",
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "list": "a list",
    "dict": "an object",
    "model": "an object",
}


@dataclass(frozen=True)
class Problem:
    argument: str  # as the caller named it: `top_k`, `tags[3]`, `q`
    reason: str  # what was wrong and what it takes
    unknown: bool = False  # an argument that does not exist

    def __str__(self) -> str:
        return f"{self.argument}: {self.reason}"


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _shown(value: Any) -> str:
    """The refused value, short: a long text or list is described, not repeated."""
    if isinstance(value, str) and len(value) > _LONG_INPUT:
        return f"a text of {len(value)} characters"
    if isinstance(value, list | tuple) and len(value) > 5:
        return f"a list of {len(value)} items"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = _number(value) if isinstance(value, int | float) else repr(value)
    return text if len(text) <= _LONG_INPUT else text[: _LONG_INPUT - 1] + "…"


def _as_number(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def _kind_of(error_type: str) -> str | None:
    for suffix in ("_type", "_parsing"):
        if error_type.endswith(suffix):
            base = error_type.removesuffix(suffix)
            return _KINDS.get(base, base.replace("_", " "))
    return None


def _bounds(model: type[BaseModel], field: str) -> tuple[Any, Any]:
    """The field's lower and upper bound, as its annotation declares them."""
    info = _fields(model).get(field)
    low = high = None
    for item in info.metadata if info is not None else ():
        if isinstance(item, annotated_types.Ge):
            low = item.ge
        elif isinstance(item, annotated_types.Le):
            high = item.le
    return low, high


def _fields(model: type[BaseModel]) -> dict[str, FieldInfo]:
    """The model's fields by the name a caller gives (an alias where one is declared)."""
    return {(f.alias or name): f for name, f in model.model_fields.items()}


def _description(model: type[BaseModel], field: str) -> str:
    info = _fields(model).get(field)
    return " ".join((info.description or "").split()) if info is not None else ""


def _reason(model: type[BaseModel], field: str, nested: bool, error: Mapping[str, Any]) -> str:
    kind, ctx, given = error["type"], error.get("ctx") or {}, error.get("input")
    if kind == "missing":
        described = _description(model, field)
        return f"required ({described})" if described else "required"
    if isinstance(given, str) and kind.startswith(("greater_than", "less_than")):
        given = _as_number(given)  # a query string's `500` is the number 500, as JSON's is
    if kind in ("greater_than_equal", "less_than_equal"):
        low, high = (None, None) if nested else _bounds(model, field)
        if low is not None and high is not None:
            return f"must be from {_number(low)} to {_number(high)}, got {_shown(given)}"
        if kind == "less_than_equal":
            return f"must be at most {_number(ctx['le'])}, got {_shown(given)}"
        return f"must be at least {_number(ctx['ge'])}, got {_shown(given)}"
    if kind in ("greater_than", "less_than"):
        words = "more than" if kind == "greater_than" else "less than"
        return f"must be {words} {_number(ctx.get('gt', ctx.get('lt')))}, got {_shown(given)}"
    if kind == "string_too_long":
        return f"at most {ctx['max_length']} characters, got {len(str(given))}"
    if kind == "string_too_short":
        if ctx["min_length"] == 1:
            return "must not be empty"
        return f"at least {ctx['min_length']} characters, got {len(str(given))}"
    if kind == "too_long":
        return f"at most {ctx['max_length']} values, got {ctx.get('actual_length')}"
    if kind == "too_short":
        return f"at least {ctx['min_length']} values, got {ctx.get('actual_length', 0)}"
    if kind == "literal_error":
        return f"must be {ctx['expected']}, got {_shown(given)}"
    if kind == "string_pattern_mismatch":
        described = _description(model, field)
        form = f": {described}" if described else ""
        return f"{_shown(given)} does not have the expected form{form}"
    expected = _kind_of(kind)
    if expected is not None:
        return f"must be {expected}, got {_shown(given)}"
    message = str(error["msg"]).removeprefix("Value error, ")
    return message[:1].lower() + message[1:]


def _argument(loc: Sequence[Any]) -> tuple[str, bool]:
    """`('tags', 3)` → `tags[3]` (and whether it is inside the argument); a union's branch
    tags and an object's keys are left out."""
    name = str(loc[0]) if loc else ""
    items = [f"[{part}]" for part in loc[1:] if isinstance(part, int)]
    return name + "".join(items), bool(items)


def suggestion(name: str, known: Mapping[str, str]) -> str | None:
    """The argument probably meant by `name`: one spelt alike (`tagz`, `tag` → `tags`), one it
    begins (`q` → `query`), or the one whose description names it (`path` → `ref`, described
    as "path, title, alias…"). `known`: each argument with its description."""
    bare = {k.lstrip("-").replace("-", "_").lower(): k for k in known}
    word = name.lstrip("-").replace("-", "_").lower()
    if not word or len(word) > _LONG_INPUT:  # no argument is spelt like a paragraph
        return None
    if word in bare:
        return bare[word]
    close = difflib.get_close_matches(word, list(bare), n=1, cutoff=0.6)
    if close:
        return bare[close[0]]
    begun = [k for b, k in bare.items() if b.startswith(word) or word.startswith(b)]
    if len(begun) == 1:
        return begun[0]
    if len(word) < 3:  # "a" or "id" named in a description says nothing
        return None
    pattern = re.compile(rf"(?<![\w-]){re.escape(word)}s?(?![\w-])")
    named = [k for k, text in known.items() if pattern.search(text.lower())]
    return named[0] if len(named) == 1 else None


def unknown_argument(name: str, known: Mapping[str, str], *, suggest: bool = True) -> Problem:
    """An argument nobody declared; `known`: the arguments there are, with descriptions."""
    meant = suggestion(name, known) if suggest else None
    return Problem(
        name,
        f"unknown argument (did you mean {meant}?)" if meant else "unknown argument",
        unknown=True,
    )


MAX_PROBLEMS = 10  # a body of a million unknown keys must not earn a reply of a million lines


def sentence(problems: Sequence[Problem], known: Sequence[str]) -> str:
    """The problems in one message; when one is an unknown argument, the arguments there are."""
    text = "; ".join(str(p) for p in problems[:MAX_PROBLEMS])
    if len(problems) > MAX_PROBLEMS:
        text += f"; and {len(problems) - MAX_PROBLEMS} more"
    if any(p.unknown for p in problems):
        text += ". The arguments are: " + (", ".join(known) if known else "none")
    return text


def problems_of(model: type[BaseModel], exc: ValidationError) -> list[Problem]:
    """Each refused argument once, unknown ones first; a required argument an unknown one was
    probably meant for is not said twice (`path` for `ref`)."""
    fields = _fields(model)
    known = {name: " ".join((f.description or "").split()) for name, f in fields.items()}
    grouped: dict[str, list[Mapping[str, Any]]] = {}
    for error in exc.errors(include_url=False):
        grouped.setdefault(_argument(error["loc"])[0], []).append(error)
    # A list given to `str | list[str]` fails the text branch too: its items say what is wrong.
    with_items = {a.split("[", 1)[0] for a in grouped if "[" in a}
    unknown: list[Problem] = []
    others: list[Problem] = []
    for argument, errors in grouped.items():
        if argument in with_items and all(_kind_of(e["type"]) for e in errors):
            continue
        name, nested = argument.split("[", 1)[0], "[" in argument
        if errors[0]["type"] == "extra_forbidden":
            # only the ones the message will show earn a suggestion: a hostile body may
            # hold thousands of keys, and each suggestion is a fuzzy match over every name
            shown = len(unknown) < MAX_PROBLEMS
            unknown.append(unknown_argument(name, known, suggest=shown))
            continue
        about_value = [e for e in errors if _kind_of(e["type"]) is None]
        if about_value:
            reason = _reason(model, name, nested, about_value[0])
        else:
            kinds = " or ".join(dict.fromkeys(_kind_of(e["type"]) or "" for e in errors))
            reason = f"must be {kinds}, got {_shown(errors[0].get('input'))}"
        others.append(Problem(argument or "arguments", reason))
    meant = {suggestion(p.argument, known) for p in unknown[:MAX_PROBLEMS]}
    others = [p for p in others if not (p.argument in meant and p.reason.startswith("required"))]
    return unknown + others


def refusal(model: type[BaseModel], exc: ValidationError) -> InvalidArgument:
    """A refused request as the one error every door gives: each problem in words, `params`
    naming the arguments (so a door that calls them otherwise can say so)."""
    problems = problems_of(model, exc)
    names = tuple(dict.fromkeys(p.argument.split("[", 1)[0] for p in problems if not p.unknown))
    return InvalidArgument(sentence(problems, list(_fields(model))), params=names)

"""How a tool is registered: from an operation of the catalogue, with its annotations and
errors the model can act on; the service times each call and takes its change lock
(`MemoryService.run`).

The SDK turns a raised `ToolError` into an `is_error` result carrying its message; any other
exception reaches the model only as "Error executing tool X". So every `VaultError` (whose
message names the file or id, the reason and what to do next) is re-raised as a `ToolError`.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool as RegisteredTool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, JsonValue

from cortexgraph_vault.errors import Ambiguous, Conflict, VaultError
from cortexgraph_vault.mcp.quick_calls import result_text
from cortexgraph_vault.operations import REQUIRED, AnyOperation, params_of

if TYPE_CHECKING:
    from cortexgraph_vault.service import MemoryService


def explain(exc: VaultError) -> str:
    """The error as the model should read it: the reason and the next step (its kind is the
    `error` code of the structured content, not a class name in the text)."""
    text = str(exc)
    if isinstance(exc, Ambiguous) and exc.candidates:
        shown = exc.candidates[:20]
        more = len(exc.candidates) - len(shown)
        text += ". Candidates (id path): " + "; ".join(shown)
        text += f"; and {more} more" if more > 0 else ""
        text += ". Call again with one of these ids."
    elif isinstance(exc, Conflict):
        text += f". The file's content_hash is now {exc.actual_hash}."
    return text


# Keys whose values are data, not schemas: a "title" inside them is not a schema title.
_DATA_KEYS = frozenset({"default", "const", "enum", "examples"})


def without_arguments(schema: Any, names: frozenset[str]) -> Any:
    """A tool's input schema without the named arguments (taken, not listed)."""
    if not names or not isinstance(schema, dict):
        return schema
    kept = {k: v for k, v in schema.get("properties", {}).items() if k not in names}
    trimmed = {**schema, "properties": kept}
    if "required" in schema:
        trimmed["required"] = [r for r in schema["required"] if r not in names]
    return trimmed


def without_titles(schema: Any) -> Any:
    """A JSON schema without its `title` annotations (a property named title is kept)."""
    if isinstance(schema, dict):
        return {
            k: (v if k in _DATA_KEYS else without_titles(v))
            for k, v in schema.items()
            if not (k == "title" and isinstance(v, str))
        }
    if isinstance(schema, list):
        return [without_titles(v) for v in schema]
    return schema


def optional_as_absent(schema: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """An input schema whose optional arguments say their type without `null`: an argument
    that may be null and is null by default is one to leave out, and `{"anyOf": [X, {"type":
    "null"}], "default": null}` said so in forty characters more, for each of a hundred
    arguments in every session's context. A null sent anyway is still taken."""
    given = schema.get("properties")
    if not isinstance(given, dict):
        return schema
    properties: dict[str, JsonValue] = {}
    for name, prop in given.items():
        branches = prop.get("anyOf") if isinstance(prop, dict) else None
        if (
            isinstance(prop, dict)
            and isinstance(branches, list)
            and "default" in prop
            and prop["default"] is None
        ):
            kept = [b for b in branches if b != {"type": "null"}]
            rest = {k: v for k, v in prop.items() if k not in ("anyOf", "default")}
            if len(kept) == 1 and isinstance(kept[0], dict):
                prop = {**kept[0], **rest}
            elif kept:
                prop = {"anyOf": kept, **rest}
        properties[name] = prop
    return {**schema, "properties": properties}


def compact(result: Any) -> Any:
    """A model result as compact JSON text beside its structured content
    (`quick_calls.result_text`)."""
    if not isinstance(result, BaseModel):
        return result
    text, data = result_text(result)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def result_shape(schema: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """An output schema cut to what a client checks a result against: an object, and each
    top-level field with its JSON type(s). Every session pays for tools/list in context, while
    clients use an output schema only to validate `structuredContent`; the model reads the
    result itself. Fields stay open to additions, so a client that cached this list accepts a
    newer server's results. A field whose model allows null is typed without it: such a field
    is left out instead."""
    defs = schema.get("$defs")

    def types(field: JsonValue, seen: int = 0) -> list[str]:
        if not isinstance(field, dict) or seen > 8:
            return []
        ref = field.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            found_def = defs.get(ref.removeprefix("#/$defs/")) if isinstance(defs, dict) else None
            return types(found_def, seen + 1)
        kind = field.get("type")
        if isinstance(kind, str):
            return [kind]
        if isinstance(kind, list):
            return [k for k in kind if isinstance(k, str)]
        found: list[str] = []
        branches = field.get("anyOf", field.get("oneOf"))
        for branch in branches if isinstance(branches, list) else []:
            branch_types = types(branch, seen + 1)
            if not branch_types:
                return []  # a branch of any type: the field may be anything
            found += branch_types
        return list(dict.fromkeys(found))

    fields: dict[str, JsonValue] = {}
    given = schema.get("properties")
    for name, field in given.items() if isinstance(given, dict) else []:
        # a field with no value is left out of the result (`compact`), never sent as null
        kinds: list[JsonValue] = [k for k in types(field) if k != "null"]
        if "integer" in kinds and "number" in kinds:
            kinds.remove("integer")
        fields[name] = {"type": kinds[0] if len(kinds) == 1 else kinds} if kinds else {}
    return {"type": "object", "properties": fields}


def strict_arguments_lean_results(tool: RegisteredTool, unlisted: frozenset[str]) -> RegisteredTool:
    """Arguments the tool does not have are refused; its results leave out the fields that
    have no value (`compact`), so the SDK checks them no more against the result model, whose
    nullable fields it would require: the results are that model's instances already. Its
    schemas are the lean ones tools/list gives: schema titles repeat the property names
    ("top_k" → "Top K"), bytes every session pays for in context and no model needs."""
    output = tool.fn_metadata.output_schema
    tool.fn_metadata.output_model = None
    tool.fn_metadata.output_schema = None if output is None else result_shape(output)
    loose = tool.fn_metadata.arg_model
    strict: type[ArgModelBase] = type(
        loose.__name__,
        (loose,),
        {"model_config": ConfigDict(extra="forbid"), "__module__": loose.__module__},
    )
    tool.fn_metadata.arg_model = strict
    schema = without_arguments(strict.model_json_schema(by_alias=True), unlisted)
    tool.parameters = optional_as_absent(without_titles(schema))
    return tool


# What the SDK derives from a tool's signature (its argument model, its JSON schemas: most of
# a server's making) is the same for every server of the process: derived once per operation,
# each server's tool a copy calling its own service.
_derived: dict[str, tuple[AnyOperation, RegisteredTool]] = {}


def tool_for(service: MemoryService, op: AnyOperation) -> RegisteredTool:
    """The tool serving an operation of the catalogue on `service`: its parameters are the
    request's fields (limits and descriptions as declared there), its result the operation's."""
    answer = op.mcp_answer or (lambda result: result)

    def run(**kwargs: Any) -> Any:
        try:
            return compact(answer(service.run(op, op.parse(kwargs))))
        except VaultError as exc:
            raise ToolError(explain(exc)) from exc

    run.__name__ = op.name
    # inspect reads __signature__ off any function; typeshed's FunctionType does not declare it.
    run.__signature__ = inspect.Signature(  # type: ignore[attr-defined]  # see above
        [
            inspect.Parameter(
                p.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=inspect.Parameter.empty if p.default is REQUIRED else p.default,
                annotation=p.annotation,
            )
            for p in params_of(op.request)
        ],
        return_annotation=op.answer_model,
    )
    derived = _derived.get(op.name)
    if derived is not None and derived[0] is op:
        return derived[1].model_copy(update={"fn": run})
    tool = strict_arguments_lean_results(
        RegisteredTool.from_function(
            run,
            name=op.name,
            title=op.title,
            description=op.description,
            annotations=ToolAnnotations(
                read_only_hint=op.effect.read_only,
                destructive_hint=op.effect.destructive,
                idempotent_hint=op.effect.idempotent,
                open_world_hint=op.open_world,
            ),
        ),
        op.unlisted,
    )
    _derived[op.name] = (op, tool)
    return tool

"""A request the operation's model refuses, said as the service says its own refusals.

Every door that parses a request itself (the CLI, the daemon's operation route) turns pydantic's
`ValidationError` into one `InvalidArgument` whose message starts with the parameter's name
(`top_k: must be from 1 to 100, got 500`), so the CLI can name its flag instead (`--limit: ...`)
and the words are the same whether the CLI parsed the request or the daemon did.
"""

from __future__ import annotations

from typing import Any

import annotated_types
from pydantic import BaseModel, ValidationError

from cortexgraph_vault.errors import InvalidArgument


def _bounds(model: type[BaseModel], field: str) -> tuple[Any, Any]:
    """The field's lower and upper bound, as its annotation declares them."""
    info = model.model_fields.get(field)
    low = high = None
    for item in info.metadata if info is not None else ():
        if isinstance(item, annotated_types.Ge):
            low = item.ge
        elif isinstance(item, annotated_types.Le):
            high = item.le
    return low, high


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _reason(model: type[BaseModel], field: str, error: Any) -> str:
    kind, ctx, given = error["type"], error.get("ctx") or {}, error.get("input")
    if kind in ("greater_than_equal", "less_than_equal"):
        low, high = _bounds(model, field)
        if low is not None and high is not None:
            return f"must be from {_number(low)} to {_number(high)}, got {_number(given)}"
        if kind == "less_than_equal":
            return f"at most {_number(ctx['le'])}, got {_number(given)}"
        return f"at least {_number(ctx['ge'])}, got {_number(given)}"
    if kind == "string_too_long":
        return f"at most {ctx['max_length']} characters, got {len(str(given))}"
    if kind == "string_too_short":
        return (
            "must not be empty"
            if ctx["min_length"] == 1
            else (f"at least {ctx['min_length']} characters, got {len(str(given))}")
        )
    if kind == "too_long":
        return f"at most {ctx['max_length']} values, got {ctx.get('actual_length')}"
    if kind == "too_short":
        return f"at least {ctx['min_length']} values"
    if kind == "literal_error":
        return f"must be {ctx['expected']}, got {given!r}"
    if kind == "string_pattern_mismatch":
        return f"{given!r} does not have the expected form"
    if kind == "extra_forbidden":
        return "no such parameter"
    if kind == "missing":
        return "required"
    message = str(error["msg"])
    return message[:1].lower() + message[1:]


def refusal(model: type[BaseModel], exc: ValidationError) -> InvalidArgument:
    """The first problem of a refused request, naming its parameter (`params`)."""
    errors = exc.errors(include_url=False)
    # a union (`str | list[str]`) reports each branch: the first says enough
    error = errors[0]
    field = str(error["loc"][0]) if error["loc"] else ""
    reason = _reason(model, field, error)
    if not field:
        return InvalidArgument(reason)
    return InvalidArgument(f"{field}: {reason}", params=(field,))

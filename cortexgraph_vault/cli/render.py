"""Human output for the CLI: one renderer per result type, found by the result's class.

Each renderer module's `_functions` say one result model each in sentences and tables, the
model named by their argument's annotation (by name: showing a search imports no model but the
search's own); RENDERERS adds those that are no function of the module. `--json` bypasses all of this and prints the model as the MCP tools do.
"""

from __future__ import annotations

import functools
import importlib
import json
import sys
from collections.abc import Callable
from typing import Any

from cortexgraph_vault.cli.text_layout import terminal_safe
from cortexgraph_vault.errors import NotFound

RENDERER_MODULES = (
    "cortexgraph_vault.cli.render_memory",
    "cortexgraph_vault.cli.render_index",
    "cortexgraph_vault.cli.render_intelligence",
    "cortexgraph_vault.cli.render_consolidate",
    "cortexgraph_vault.cli.render_maintenance",
)

Renderer = Callable[[Any], str]


@functools.cache
def renderers() -> dict[str, Renderer]:
    """Result class name → its renderer (the names are unique: `models` exports them flat)."""
    table: dict[str, Renderer] = {}
    for name in RENDERER_MODULES:
        module = importlib.import_module(name)
        for fn_name, fn in vars(module).items():
            shown = [*getattr(fn, "__annotations__", {}).values()][:1]  # "OpenResult"
            if fn_name.startswith("_") and shown and str(shown[0])[:1].isupper():
                table[str(shown[0])] = fn
        table.update(getattr(module, "RENDERERS", {}))
    return table


def render(result: object) -> str:
    """`result` for a person. A type without a renderer is a bug: no repr ever reaches them."""
    for cls in type(result).__mro__:
        renderer = renderers().get(cls.__name__)
        if renderer is not None:
            return renderer(result)
    raise TypeError(f"the CLI has no renderer for {type(result).__name__}")


def as_json(result: object) -> str:
    from pydantic import BaseModel

    if isinstance(result, BaseModel):
        return result.model_dump_json(indent=2)
    if isinstance(result, list):
        items = [r.model_dump() if isinstance(r, BaseModel) else r for r in result]
        return json.dumps(items, indent=2, default=str)
    return json.dumps(result, indent=2, default=str)


def emit(result: object, json_output: bool) -> None:
    warning = getattr(result, "warning", None)
    if isinstance(warning, str):  # on stderr, so stdout stays the result (and valid JSON)
        print(terminal_safe(f"cortexgraph-vault: warning: {warning}"), file=sys.stderr)
    if json_output:
        print(as_json(result))  # for programs: JSON escapes what needs escaping
        return
    text = render(result)
    if text:
        print(terminal_safe(text))


def shortfall(result: object) -> NotFound | None:
    """What a result that is partly an answer lacks (`show a b` where b is no memory): the
    failure the command ends with, after printing what it found."""
    missing = getattr(result, "not_found", None)
    if not missing:
        return None
    which = " or ".join(repr(m) for m in missing)
    return NotFound(
        f"no memory matches {which} (by id, id prefix, path or title); "
        "search with search_memory to find its id",
        operations=("search_memory",),
    )

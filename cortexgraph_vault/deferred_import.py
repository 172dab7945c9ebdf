"""A module imported when one of its names is first used, not when the importer loads.

The service names every operation module, and a CLI call runs one of them: importing them all
(pydantic result models, regular expressions, git, numpy) cost a read command most of its
time. `deferred("cortexgraph_vault.handlers.browse.browse")` stands for the module until an attribute is
read; for the type checker the importer imports the module itself under TYPE_CHECKING.
"""

from __future__ import annotations

import importlib
from typing import Any


class DeferredModule:
    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        # import_module is a dictionary look-up once the module is loaded (and thread-safe)
        return getattr(importlib.import_module(self._name), attr)

    def __repr__(self) -> str:
        return f"<deferred module {self._name}>"


def deferred(name: str) -> Any:
    return DeferredModule(name)

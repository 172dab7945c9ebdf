"""A module imported when one of its names is first used, not when the importer loads.

The service names every operation module, and a CLI call runs one of them: importing them all
(pydantic result models, regular expressions, git, numpy) cost a read command most of its
time. `deferred("cortexgraph_vault.handlers.browse.browse")` stands for the module until an attribute is
read; for the type checker the importer imports the module itself under TYPE_CHECKING.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
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


def package_names(package: str, module_of: Mapping[str, str]) -> Callable[[str], Any]:
    """A package's `__getattr__` (PEP 562): a name is imported from its module (`module_of`,
    relative to the package) when first asked for, then kept in the package."""
    namespace = sys.modules[package].__dict__

    def first_use(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    return first_use

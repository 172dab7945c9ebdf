"""`cortexgraph_vault.models` names every output shape of its modules, importing each module
only when one of its names is asked for."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys

import pytest
from pydantic import BaseModel

import cortexgraph_vault.models as models


@pytest.mark.parametrize("module", sorted(models.EXPORTS))
def test_every_shape_of_a_module_is_named_by_the_package(module: str) -> None:
    mod = importlib.import_module(f"cortexgraph_vault.models.{module}")
    defined = {
        name
        for name, value in vars(mod).items()
        if inspect.isclass(value)
        and not name.startswith("_")
        and issubclass(value, BaseModel)
        and value.__module__ == mod.__name__
    }
    # what `from module import *` gives: its __all__, or else every public shape in it
    wanted = set(getattr(mod, "__all__", defined))
    assert wanted <= set(models.EXPORTS[module])
    for name in models.EXPORTS[module]:
        assert getattr(models, name) is getattr(mod, name)


def test_a_name_is_in_one_module_only() -> None:
    names = [name for names in models.EXPORTS.values() for name in names]
    assert len(names) == len(set(names))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="NoSuchShape"):
        models.NoSuchShape  # noqa: B018


def test_asking_for_one_shape_loads_its_module_alone() -> None:
    code = (
        "import sys\n"
        "from cortexgraph_vault.models import VaultStats\n"
        "loaded = {m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('cortexgraph_vault.models.')}\n"
        "print(sorted(loaded))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(sorted({"maintenance", "memory"}))

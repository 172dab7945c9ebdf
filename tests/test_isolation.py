"""The suite never touches the real user's files: HOME, XDG folders, our own folders and
pytest's temp folders all lie inside the run's own temp folder (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import platformdirs
import pytest

from cortexgraph_vault.config import user_cache_dir, user_config_dir, user_data_dir


def test_home_xdg_and_our_folders_are_the_runs_own(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    base = tmp_path_factory.getbasetemp().resolve()
    assert tmp_path.resolve().is_relative_to(base)
    inside = {
        "HOME": Path.home(),
        "XDG_CACHE_HOME": Path(os.environ["XDG_CACHE_HOME"]),
        "XDG_CONFIG_HOME": Path(os.environ["XDG_CONFIG_HOME"]),
        "XDG_DATA_HOME": Path(os.environ["XDG_DATA_HOME"]),
        "platformdirs cache": Path(platformdirs.user_cache_dir("cortexgraph-vault")),
        "our cache": user_cache_dir(),
        "our config": user_config_dir(),
        "our data": user_data_dir(),
    }
    outside = {name: p for name, p in inside.items() if not p.resolve().is_relative_to(base)}
    assert outside == {}


def test_a_subprocess_sees_the_same_home() -> None:
    code = "import pathlib, platformdirs; print(pathlib.Path.home()); print(platformdirs.user_cache_dir('x'))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0] == str(Path.home())
    assert out[1].startswith(os.environ["XDG_CACHE_HOME"])


def test_temp_files_of_this_process_and_its_children_lie_in_the_runs_folder(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    base = tmp_path_factory.getbasetemp().resolve()
    child = subprocess.run(
        [sys.executable, "-c", "import tempfile; print(tempfile.gettempdir())"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    assert Path(child).resolve().is_relative_to(base)
    assert Path(tempfile.gettempdir()).resolve().is_relative_to(base)


def test_the_runs_temp_folders_are_its_own(
    tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
) -> None:
    # A worker of pytest-xdist (-n) works in a folder of its own inside the run's.
    worker = getattr(pytestconfig, "workerinput", None)
    args = worker["mainargv"] if worker else pytestconfig.invocation_params.args
    if "--basetemp" in " ".join(args):
        pytest.skip("a --basetemp given on the command line is the caller's to keep")
    base = tmp_path_factory.getbasetemp()
    run = base.parent if worker else base
    assert run.name.startswith("cortexgraph-vault-tests-")

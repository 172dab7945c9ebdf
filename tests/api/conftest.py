"""The API tests' fixtures: a real `serve` subprocess on a free port over a git copy of the sample
vault, or the service the app is tested on in process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cortexgraph_vault.config import load_config
from cortexgraph_vault.service import MemoryService
from cortexgraph_vault.vault.sample import copy_sample_vault
from tests.api.daemon_process import Daemon, start_daemon
from tests.builders import a_vault
from tests.conftest import NOW, NOW_ISO


def git_sample_vault(dest: Path) -> Path:
    return a_vault(copy_sample_vault(dest, NOW), git_init=True, message="sample vault")


@pytest.fixture
def service(git_vault: Path) -> MemoryService:
    """A service over `git_vault`, for the app tested in process."""
    return MemoryService(load_config({"vault": str(git_vault), "now": NOW_ISO}))


@pytest.fixture
def daemon(git_vault: Path, tmp_path: Path) -> Iterator[Daemon]:
    """A daemon of this test's own, over `git_vault`."""
    d = start_daemon(tmp_path / "daemon-home", git_vault)
    yield d
    d.stop()


@pytest.fixture(scope="session")
def shared_daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    """One daemon for the tests that do not disturb each other (each uses memories of its
    own), to keep the suite fast: a daemon takes seconds to start on a slow machine."""
    base = tmp_path_factory.mktemp("shared-daemon")
    d = start_daemon(base / "home", git_sample_vault(base / "vault"))
    yield d
    d.stop()

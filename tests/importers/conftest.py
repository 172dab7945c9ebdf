"""The import tests' vault: a git repository with nothing in it yet."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.importers.helpers import empty_git_vault


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return empty_git_vault(tmp_path / "vault")

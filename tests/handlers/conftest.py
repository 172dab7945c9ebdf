"""The ops tests' default vault: an empty `_stm/` in a git repository with one commit (a
module whose tests need notes of their own gives its own `vault`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.builders import a_vault


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return a_vault(tmp_path / "vault", folders=["_stm"], git_init=True)

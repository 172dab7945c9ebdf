"""The link fixture vault (every link and tag form), copied for each test."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

LINK_VAULT = Path(__file__).resolve().parents[1] / "fixtures" / "link-vault"


@pytest.fixture
def link_vault(tmp_path: Path) -> Path:
    """A copy of tests/fixtures/link-vault plus one lonely note."""
    dest = tmp_path / "link-vault"
    shutil.copytree(LINK_VAULT, dest)
    (dest / "Lonely.md").write_text("Nobody links here and I link nowhere.\n", encoding="utf-8")
    return dest

"""The link fixture vault (every link and tag form), copied for each test."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cortexgraph_vault.index.inotify_watch import inotify_available

LINK_VAULT = Path(__file__).resolve().parents[1] / "fixtures" / "link-vault"


@pytest.fixture
def link_vault(tmp_path: Path) -> Path:
    """A copy of tests/fixtures/link-vault plus one lonely note."""
    dest = tmp_path / "link-vault"
    shutil.copytree(LINK_VAULT, dest)
    (dest / "Lonely.md").write_text("Nobody links here and I link nowhere.\n", encoding="utf-8")
    return dest


WATCHER_BACKENDS = ["inotify", "watchdog"] if inotify_available() else ["watchdog"]


@pytest.fixture(params=WATCHER_BACKENDS)
def watcher_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test of the watcher twice on Linux: with our inotify reader, and with watchdog
    (what macOS, Windows and a Linux that refuses inotify use)."""
    if request.param == "watchdog":
        monkeypatch.setenv("CORTEXGRAPH_WATCHER", "watchdog")
    else:
        monkeypatch.delenv("CORTEXGRAPH_WATCHER", raising=False)
    return str(request.param)

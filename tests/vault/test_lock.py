"""The vault lock, and telling whether a lock or daemon claim file is held right now."""

from __future__ import annotations

from pathlib import Path

from cortexgraph_vault.vault.lock import VaultLock, held_elsewhere


def test_held_elsewhere_only_while_someone_holds_the_lock(tmp_path: Path) -> None:
    lock = VaultLock(tmp_path / "vault", tmp_path / "locks", timeout=1)
    assert not held_elsewhere(lock.path)  # no file yet
    with lock.held():
        assert held_elsewhere(lock.path)
    assert lock.path.exists() and not held_elsewhere(lock.path)  # left behind, held by nobody

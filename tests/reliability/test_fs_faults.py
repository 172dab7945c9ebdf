"""Scenario 4a — the file system says no: disk full, permission denied, a read-only vault, a note
replaced by a folder, symlinks that point out of the vault.

Every refused write is a clear error naming the file and the system's reason (exit 5, REST
503 `write_failed`), the vault is exactly as it was, no temp file is left, and the same
command works once there is room again.
"""

from __future__ import annotations

import errno
import json
import os
import pathlib
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from cortexgraph_vault.config import load_config
from cortexgraph_vault.errors import GitError, WriteFailed
from cortexgraph_vault.service import MemoryService
from cortexgraph_vault.vault import files
from tests.builders import path_at
from tests.conftest import NOW_ISO
from tests.reliability.vault_audit import (
    fingerprint,
    memory_vault,
    temp_files,
    unreadable_notes,
)


@pytest.fixture
def cli(cli_in_process):  # type: ignore[no-untyped-def]
    """This module's tests are about what the commands answer: the CLI's main in this process
    (tests/cli/test_main.py and others start the program for real)."""
    return cli_in_process


FRESH_ID = "00000000-0000-4000-8000-000000000000"
WRITES = {
    "save": ("--json", "save", "A memory written to a full disk."),
    "touch": ("--json", "touch", FRESH_ID),
    "update": ("--json", "update", FRESH_ID, "--content", "New words for a full disk."),
    "gc": ("--json", "gc", "--yes"),
    "promote": ("--json", "promote", "--auto", "--yes"),
}


@contextmanager
def tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir(parents=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here: {mounted.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def fill(folder: Path) -> Path:
    """Write until the file system is full; returns the filler to delete for room again."""
    filler = folder / ".filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


def test_disk_full_refuses_every_write_cleanly_and_works_again_with_room(
    tmp_path: Path,
    cli,
    figures: dict[str, object],  # type: ignore[no-untyped-def]
) -> None:
    with tmpfs(tmp_path / "mnt", "4m") as mnt:
        vault = mnt / "vault"
        memory_vault(vault, 3, faded=2, promotable=2)
        filler = fill(mnt)
        refused = {}
        for name, args in WRITES.items():
            before = fingerprint(vault)
            done = cli(*args, vault=vault)
            assert done.code == 5, f"{name}: {done.code} {done.out} {done.err}"
            # Ours say the system's words; git's say "Out of diskspace".
            assert "No space left on device" in done.err or "Out of diskspace" in done.err, done.err
            assert "Traceback" not in done.err
            assert fingerprint(vault) == before, name
            assert temp_files(vault) == [] and unreadable_notes(vault) == []
            refused[name] = done.err.strip()[-120:]
        filler.unlink()
        for name, args in WRITES.items():
            done = cli(*args, vault=vault)
            assert done.code == 0, f"{name} with room again: {done.err}"
        assert unreadable_notes(vault) == []
    figures.update(refused_writes=len(refused), lost=0, example=refused["touch"])


def test_a_read_only_vault_refuses_writes_with_the_reason(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    with tmpfs(tmp_path / "mnt", "8m") as mnt:
        vault = mnt / "vault"
        memory_vault(vault, 3, faded=2, promotable=2)
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        before = fingerprint(vault)
        for name, args in WRITES.items():
            done = cli(*args, vault=vault)
            assert done.code == 5, f"{name}: {done.code} {done.err}"
            assert "Read-only file system" in done.err, done.err
        assert fingerprint(vault) == before
        shown = cli("--json", "show", FRESH_ID, vault=vault)  # reading still works
        assert shown.code == 0 and json.loads(shown.out)["memories"][0]["id"] == FRESH_ID


@pytest.mark.parametrize("reason", [errno.EACCES, errno.ENOSPC, errno.EIO])
def test_a_refused_rename_or_delete_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reason: int
) -> None:
    """Permission denied (root ignores modes, so the refusal is injected at the system call)."""
    vault = tmp_path / "vault"
    memory_vault(vault, 3, faded=2, promotable=2)
    service = MemoryService(load_config({"vault": str(vault), "now": NOW_ISO}))
    before = fingerprint(vault)

    def refused(real, *, spare_temp: bool = False):  # type: ignore[no-untyped-def]
        def call(src, *args, **kwargs):  # type: ignore[no-untyped-def]
            spared = spare_temp and files.TEMP_MARK in str(src)  # our own cleanup may go on
            named = path_at(src, kwargs.get("dir_fd", kwargs.get("src_dir_fd")))
            if str(named).startswith(str(vault)) and not spared:
                raise OSError(reason, os.strerror(reason))
            return real(src, *args, **kwargs)

        return call

    for name in ("replace", "rename", "mkdir"):
        monkeypatch.setattr(os, name, refused(getattr(os, name)))
    monkeypatch.setattr(os, "unlink", refused(os.unlink, spare_temp=True))
    monkeypatch.setattr(pathlib.Path, "unlink", refused(pathlib.Path.unlink, spare_temp=True))
    attempts = {
        "save": lambda: service.save("Refused by the file system."),
        "touch": lambda: service.touch(FRESH_ID),
        "update": lambda: service.update(FRESH_ID, tags=["x"]),
        "gc": lambda: service.gc(dry_run=False),
        "promote": lambda: service.promote(auto_detect=True),
        "delete": lambda: service.delete(FRESH_ID, mode="remove"),
    }
    for name, attempt in attempts.items():
        with pytest.raises((WriteFailed, GitError)) as caught:
            attempt()
        assert os.strerror(reason) in str(caught.value), f"{name}: {caught.value}"
        assert fingerprint(vault) == before, name
        assert temp_files(vault) == [], name
    monkeypatch.undo()
    assert service.touch(FRESH_ID).use_count == 2  # the refusal left nothing behind


def test_a_note_replaced_by_a_folder(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    vault = tmp_path / "vault"
    ids = memory_vault(vault, 3)
    path = vault / ids[FRESH_ID]
    assert cli("--json", "stats", vault=vault).code == 0  # indexed (cached) as a note first
    path.unlink()
    path.mkdir()
    # used at the tests' clock: its file's time (today) must not stand in for one (gc runs)
    (path / "inside.md").write_text(
        f"---\nlast_used: {NOW_ISO}\n---\nA note inside a folder named like a note.\n"
    )
    touched = cli("--json", "touch", FRESH_ID, vault=vault)
    assert touched.code == 4 and FRESH_ID in touched.err, touched.err
    by_path = cli("--json", "touch", ids[FRESH_ID], vault=vault)
    assert by_path.code in (2, 4) and "Traceback" not in by_path.err, by_path.err
    saved = cli("--json", "save", "Another one", "--title", "Memory 000", vault=vault)
    assert saved.code == 0, saved.err
    assert json.loads(saved.out)["path"] == "_stm/Memory 000 2.md"
    for args in (("--json", "gc", "--yes"), ("--json", "stats"), ("--json", "search", "folder")):
        done = cli(*args, vault=vault)
        assert done.code == 0 and "Traceback" not in done.err, (args, done.err)
    assert path.is_dir() and "A note inside" in (path / "inside.md").read_text()


def test_symlinks_out_of_the_vault_are_never_followed(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    vault, outside = tmp_path / "vault", tmp_path / "outside"
    memory_vault(vault, 3)
    outside.mkdir()
    secret = outside / "secret.md"
    secret.write_text("---\nid: outside-1\nuse_count: 1\n---\nzanzibarquux lives outside.\n")
    (outside / "other.md").write_text("zanzibarquux in a folder outside.\n")
    (vault / "_stm" / "Linked.md").symlink_to(secret)
    (vault / "Outside").symlink_to(outside, target_is_directory=True)
    (vault / "memories").symlink_to(outside, target_is_directory=True)
    before_outside = fingerprint(outside)

    found = cli("--json", "search", "zanzibarquux", "--status", "all", vault=vault)
    assert found.code == 0 and json.loads(found.out)["results"] == [], found.out
    stats = json.loads(cli("--json", "stats", vault=vault).out)
    assert "outside" not in json.dumps(stats)
    for args in (("touch", "outside-1"), ("touch", "_stm/Linked.md")):
        done = cli("--json", *args, vault=vault)
        assert done.code in (2, 4) and "Traceback" not in done.err, (args, done.err)
    shown = cli("--json", "show", "Outside/other.md", "_stm/Linked.md", vault=vault)
    assert json.loads(shown.out) == {
        "memories": [],
        "not_found": ["Outside/other.md", "_stm/Linked.md"],
        "next_cursor": None,
        "notice": None,
    }
    # A save never writes through the link's name, and promote never moves into the linked folder.
    saved = cli("--json", "save", "Not through the link", "--title", "Linked", vault=vault)
    assert saved.code == 0 and json.loads(saved.out)["path"] == "_stm/Linked 2.md", saved.out
    promoted = cli("--json", "promote", FRESH_ID, "--force", "--yes", vault=vault)
    assert promoted.code != 0 and "outside the vault" in promoted.err, promoted.err
    assert fingerprint(outside) == before_outside
    assert (vault / "_stm" / "Linked.md").is_symlink()

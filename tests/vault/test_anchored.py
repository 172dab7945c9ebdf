"""Every file below a vault root is reached from the root without following a symlink at any
level: a symlinked folder anywhere on the way is refused, and nothing outside is read, written,
created, renamed or removed through it."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from cortexgraph_vault.errors import UnsafePath
from cortexgraph_vault.vault.anchored import HeldFolder, SymlinkedFolder, folder_of, register
from cortexgraph_vault.vault.fd_reads import read_fd
from cortexgraph_vault.vault.files import (
    TEMP_MARK,
    atomic_write,
    open_stat,
    read_bytes,
    remove_file,
    rename_file,
    sweep_temp_files,
    write_new_unsynced,
)

NOTE = b"---\nid: abc\nuse_count: 1\n---\nInside.\n"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    (root / "_stm" / "deep" / "er").mkdir(parents=True)
    (root / "_stm" / "deep" / "er" / "n.md").write_bytes(NOTE)
    outside = tmp_path / "outside"
    (outside / "er").mkdir(parents=True)
    (outside / "n.md").write_bytes(b"OUTSIDE\n")
    (outside / "er" / "n.md").write_bytes(b"OUTSIDE\n")
    (outside / f".old{TEMP_MARK}dead").write_bytes(b"not ours to sweep")
    (root / "_stm" / "link").symlink_to(outside, target_is_directory=True)
    register(root)
    return root


def outside_state(vault: Path) -> dict[str, str]:
    outside = vault.parent / "outside"
    return {
        str(p.relative_to(outside)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(outside.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("rel", ["_stm/link/n.md", "_stm/link/er/n.md"])
def test_a_symlinked_folder_at_any_level_is_refused_for_every_operation(
    vault: Path, rel: str
) -> None:
    before = outside_state(vault)
    path = vault / rel
    with pytest.raises(UnsafePath, match=r"_stm/link/ is a symlinked folder"):
        atomic_write(path, b"written through\n")
    with pytest.raises(UnsafePath, match="a symlinked folder"):
        remove_file(path)
    with pytest.raises(UnsafePath, match="a symlinked folder"):
        rename_file(vault / "_stm" / "deep" / "er" / "n.md", path)
    with pytest.raises(UnsafePath, match="a symlinked folder"):
        write_new_unsynced(path.with_name("new.md"), b"new\n")
    with pytest.raises(OSError, match=r"symlinked folder.*never read"):
        read_bytes(path)
    assert outside_state(vault) == before
    assert (vault / "_stm" / "deep" / "er" / "n.md").read_bytes() == NOTE


def test_a_folder_of_the_vault_made_a_symlink_is_refused_below_the_root(vault: Path) -> None:
    # The short-term folder itself swapped for a link: its notes are out of reach.
    os.rename(vault / "_stm", vault / "_stm-real")
    (vault / "_stm").symlink_to(vault / "_stm-real", target_is_directory=True)
    with pytest.raises(SymlinkedFolder), folder_of(vault / "_stm" / "deep" / "er" / "n.md"):
        pass


def test_folders_missing_on_the_way_are_made_inside_the_vault(vault: Path) -> None:
    atomic_write(vault / "memories" / "new" / "m.md", NOTE)
    assert (vault / "memories" / "new" / "m.md").read_bytes() == NOTE
    assert not (vault / "memories" / "new").is_symlink()


def test_the_temp_sweep_never_enters_a_symlinked_folder(vault: Path) -> None:
    litter = vault / "_stm" / "deep" / f".n.md{TEMP_MARK}dead"
    litter.write_bytes(b"half")
    os.utime(litter, (0, 0))
    before = outside_state(vault)
    assert sweep_temp_files(vault, ["_stm"], older_than_seconds=0) == 1
    assert not litter.exists()
    assert outside_state(vault) == before


def test_paths_outside_every_vault_are_our_own_and_opened_as_named(tmp_path: Path) -> None:
    cache = tmp_path / "cache" / "index.bin"
    atomic_write(cache, b"ours")
    assert cache.read_bytes() == b"ours"


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors in /proc")
def test_a_held_folder_reads_many_files_and_keeps_one_folder_open(vault: Path) -> None:
    (vault / "_stm" / "deep" / "m.md").write_bytes(b"M\n")
    paths = [vault / "_stm" / "deep" / "er" / "n.md", vault / "_stm" / "deep" / "m.md"]
    before = _open_descriptors()
    with HeldFolder() as held:
        for path in [*paths, paths[0]]:
            fd, _ = open_stat(path, held=held)
            try:
                assert read_fd(fd) == path.read_bytes()
            finally:
                os.close(fd)
            assert _open_descriptors() == before + 1  # the folder of the last read alone
    assert _open_descriptors() == before


def test_a_held_folder_refuses_a_symlinked_folder_as_folder_of_does(vault: Path) -> None:
    with HeldFolder() as held:
        os.close(open_stat(vault / "_stm" / "deep" / "er" / "n.md", held=held)[0])
        for rel in ("_stm/link/n.md", "_stm/link/er/n.md"):
            with pytest.raises(OSError, match=r"symlinked folder.*never read"):
                open_stat(vault / rel, held=held)


def test_a_folder_held_then_swapped_for_a_symlink_is_still_the_vaults_folder(
    vault: Path,
) -> None:
    # The descriptor stands for the folder reached without a symlink: a later swap of its
    # name for a link elsewhere leads no read outside.
    deep = vault / "_stm" / "deep" / "er"
    (deep / "m.md").write_bytes(b"M\n")
    with HeldFolder() as held:
        os.close(open_stat(deep / "n.md", held=held)[0])
        os.rename(deep, vault / "_stm" / "deep" / "er-real")
        deep.symlink_to(vault.parent / "outside" / "er", target_is_directory=True)
        fd, _ = open_stat(deep / "m.md", held=held)
        try:
            assert read_fd(fd) == b"M\n"
        finally:
            os.close(fd)


def test_a_held_folder_replaced_whole_still_reads_the_notes_of_the_new_one(vault: Path) -> None:
    # A sync tool or a restore swaps a folder whole: the descriptor held from the first read
    # leads to the old folder, where the next note is missing; the note is not called gone.
    deep = vault / "_stm" / "deep" / "er"
    with HeldFolder() as held:
        os.close(open_stat(deep / "n.md", held=held)[0])
        os.rename(deep, vault / "_stm" / "deep" / "er-old")
        deep.mkdir()
        (deep / "m.md").write_bytes(b"new folder\n")
        fd, _ = open_stat(deep / "m.md", held=held)
        try:
            assert read_fd(fd) == b"new folder\n"
        finally:
            os.close(fd)
        with pytest.raises(FileNotFoundError):
            open_stat(deep / "gone.md", held=held)

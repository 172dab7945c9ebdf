"""Reading a note's bytes up to the cap: exactly what a buffered read of the cap gives, for a
file shorter or longer than the cap, empty, or grown or shrunk since it was stat'ed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cortexgraph_vault.index.catalog.file_reads import read_note_file
from cortexgraph_vault.vault.fd_reads import read_fd


def _read(path: Path, limit: int, size: int) -> bytes:
    fd = os.open(path, os.O_RDONLY)
    try:
        return read_fd(fd, limit, size)
    finally:
        os.close(fd)


@pytest.mark.parametrize("length", [0, 1, 99, 100, 101, 5000, 3_000_000])
@pytest.mark.parametrize("stated", ["as is", "grew since", "shrank since"])
def test_reads_what_a_buffered_read_of_the_cap_reads(
    tmp_path: Path, length: int, stated: str
) -> None:
    path = tmp_path / "note.md"
    data = bytes(range(256)) * (length // 256) + bytes(length % 256)
    path.write_bytes(data)
    size = {"as is": length, "grew since": max(0, length - 50), "shrank since": length + 50}
    for limit in (1, 100, 101, 2_000_000, 5_000_001):
        with path.open("rb") as fh:
            expected = fh.read(limit)
        assert _read(path, limit, size[stated]) == expected


def test_a_note_over_the_cap_is_read_to_one_byte_past_it(tmp_path: Path) -> None:
    path = tmp_path / "big.md"
    path.write_bytes(b"x" * 1000)
    got = read_note_file(path, os.path.realpath(tmp_path), max_bytes=100)
    assert got.data == b"x" * 101 and got.st is not None and got.st.st_size == 1000

"""Long operations draw a progress bar (tqdm) on a terminal; off a terminal or with --json they
stay quiet (tests/importers/test_maintenance_cli.py checks that side)."""

from __future__ import annotations

import fcntl
import io
import json
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time
from datetime import timedelta
from pathlib import Path

from cortexgraph_vault.cli.progress import PROGRESS_FROM, TerminalBar, terminal_progress
from tests.conftest import NOW, NOW_ISO, git


def run_on_a_terminal(
    *args: str, vault: Path, env: dict[str, str] | None = None
) -> tuple[int, str, str]:
    """The real CLI with its stderr on a pseudo-terminal, as a person at a shell has it."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))  # 100 columns
    # stdout to a file, not a pipe read at the end: an answer past the pipe's 64 KiB would
    # block the CLI until the loop below gave up
    with tempfile.TemporaryFile() as stdout:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cortexgraph_vault.cli.main", "--vault", str(vault), "--now",
             NOW_ISO, *args],
            stdout=stdout, stderr=slave, stdin=subprocess.DEVNULL,
            env={**os.environ, **(env or {})},
        )  # fmt: skip
        os.close(slave)
        chunks: list[bytes] = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # every writer closed the terminal
                    break
                chunks.append(data)
            elif proc.poll() is not None:
                break
        code = proc.wait(timeout=120)
        os.close(master)
        stdout.seek(0)
        out = stdout.read().decode()
    return code, out, b"".join(chunks).decode(errors="replace")


def a_vault_of(tmp_path: Path, notes: int) -> Path:
    vault = tmp_path / "vault"
    (vault / "_stm").mkdir(parents=True)
    for i in range(notes):
        (vault / "_stm" / f"fact {i:04d}.md").write_text(f"Fact number {i} about the garden.\n")
    git(vault, "init", "-q", "-b", "main")
    return vault


def test_a_cold_reindex_of_many_notes_draws_a_bar_on_a_terminal(tmp_path: Path) -> None:
    vault = a_vault_of(tmp_path, 300)
    code, out, terminal = run_on_a_terminal("reindex", vault=vault)
    assert code == 0, terminal
    assert "indexed 300 notes (300 memories)" in out
    assert "indexing: 100%" in terminal and "300/300" in terminal


def test_an_import_of_many_memories_draws_a_bar_on_a_terminal(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    records = [
        {"id": f"m-{i:04d}", "content": f"Fact number {i} about the garden", "created_at": 1793523600 + i,
         "last_used": 1793523600 + i, "use_count": 1, "strength": 1.0, "status": "active"}
        for i in range(250)
    ]  # fmt: skip
    (store / "memories.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    vault = a_vault_of(tmp_path, 0)
    code, out, terminal = run_on_a_terminal("import", "cortexgraph", str(store), vault=vault)
    assert code == 0, terminal
    assert "importing: 100%" in terminal and "250/250" in terminal
    # With --json even a terminal gets no bar: the output is for a program.
    code, out, terminal = run_on_a_terminal(
        "--json", "import", "cortexgraph", str(store), vault=vault
    )
    assert code == 0 and "importing" not in terminal
    assert json.loads(out)["unchanged"] == 250


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_small_operations_draw_nothing_and_a_pipe_gets_no_bars() -> None:
    screen = FakeTerminal()
    bar = TerminalBar("forgetting", screen)
    for done in range(1, PROGRESS_FROM):
        bar(done, PROGRESS_FROM - 1)
    assert screen.getvalue() == ""
    assert terminal_progress(False, io.StringIO()) is None  # not a terminal
    assert terminal_progress(True, FakeTerminal()) is None  # --json
    factory = terminal_progress(False, screen)
    assert factory is not None
    big = factory("forgetting")
    for done in range(1, 301):
        big(done, 300)
    assert "forgetting: 100%" in screen.getvalue() and "300/300" in screen.getvalue()


# Every long step draws its bar from this many notes up (the setting progress_min_items): a
# few notes stand in for the thousands that take seconds.
FEW = {"CORTEXGRAPH_PROGRESS_MIN_ITEMS": "1"}


# Eleven months before the tests' clock: long faded, whichever way the clock is shifted.
LONG_AGO = (NOW - timedelta(days=334)).strftime("%Y-%m-%dT%H:%M:%SZ")


def a_vault_of_faded_memories(tmp_path: Path, notes: int) -> Path:
    vault = tmp_path / "faded"
    (vault / "_stm").mkdir(parents=True)
    for i in range(notes):
        (vault / "_stm" / f"old fact {i}.md").write_text(
            f"---\nid: 00000000-0000-4000-8000-00000000000{i}\ncreated: {LONG_AGO}\n"
            f"last_used: {LONG_AGO}\nuse_count: 1\n---\nAn old fact {i} about the shed.\n"
        )
    git(vault, "init", "-q", "-b", "main")
    git(vault, "add", "-A")
    git(vault, "commit", "-q", "-m", "faded memories")
    return vault


def test_every_long_step_draws_its_bar_on_a_terminal_and_none_with_json(tmp_path: Path) -> None:
    vault = a_vault_of_faded_memories(tmp_path, 3)
    steps = [
        (("search", "shed"), ("indexing", "embedding")),  # the first index of the vault
        (("reindex",), ("indexing",)),
        (("export", "json", str(tmp_path / "all.json"), "--force"), ("exporting",)),
        (("gc", "--yes"), ("forgetting", "committing")),
        (("import", "memory-json", str(tmp_path / "memory.json")), ("importing",)),
    ]
    (tmp_path / "memory.json").write_text(json.dumps(
        {"type": "entity", "name": "Shed", "entityType": "place", "observations": ["It leaks"]}
    ) + "\n")  # fmt: skip
    for args, bars in steps:
        quiet_code, _, quiet = run_on_a_terminal("--json", *args, vault=vault, env=FEW)
        assert quiet_code == 0, quiet
        assert not [bar for bar in bars if f"{bar}:" in quiet], (args, quiet)
        if args[0] in ("gc", "import"):  # done by the --json run: the same again, anew
            git(vault, "reset", "-q", "--hard", "HEAD~1")
        if args[0] == "search":
            shutil.rmtree(os.environ["CORTEXGRAPH_CACHE_DIR"], ignore_errors=True)
        code, _, terminal = run_on_a_terminal(*args, vault=vault, env=FEW)
        assert code == 0, terminal
        for bar in bars:
            assert f"{bar}: 100%" in terminal, (args, bar, terminal)

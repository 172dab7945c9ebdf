"""The CLI through the daemon serving its vault gives what it gives alone (issue 16): the same
`--json` output, the same stderr line and exit code, for every command that runs an operation
of the catalogue. A daemon that is gone (its claim left behind), or that serves another vault,
is detected and the CLI works alone."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cortexgraph_vault.cli.command import Command
from cortexgraph_vault.cli.main import registry
from cortexgraph_vault.history.vault_history import CLONE_ID_KEY
from cortexgraph_vault.vault.sample import copy_sample_vault
from tests.api.daemon_process import Daemon, isolated_env, start_daemon
from tests.cli.in_process import run_main
from tests.conftest import NOW, NOW_ISO, CliResult, git

RUST = "Curious about Rust"
# Each catalogue-backed command, reads and writes, successes and failures, in an order where
# each step's state is the same on both vaults.
SCRIPT: list[tuple[str, ...]] = [
    ("search", "rust"),
    ("search",),
    ("search", "coffee", "--tags", "work", "--status", "all", "--explain"),
    ("search", "rust", "--limit", "500"),
    ("show", RUST),
    ("show", RUST, "no such memory"),
    ("search-all", "coffee", "--limit", "3"),
    ("search-all", "x" * 2001),
    ("links", "--limit", "5"),
    ("links", "--around", RUST),
    ("links", "--around", "no such note"),
    ("analyze", "I always take my coffee black"),
    ("analyze", "--for-recall", "what coffee do I like?"),
    ("review", "--limit", "5"),
    ("cluster",),
    ("history", RUST),
    ("history", RUST, "--at", "zzzz"),
    ("restore", "--list"),
    ("save", "Standup moves to Tuesdays", "--tags", "work", "schedule"),
    ("save", "x", "--strength", "3"),
    ("touch", RUST),
    ("touch", "no such memory"),
    ("observe", RUST),
    ("update", RUST, "--tags", "rust", "learning"),
    ("update", RUST, "--content", "new", "--expected-hash", "0" * 64),
    ("relate", RUST, "Standup moves to Tuesdays", "--type", "supports"),
    ("recall", "how is my rust going?"),
    ("gc",),
    ("promote", "--auto"),
    ("promote", RUST),
    ("consolidate", "--cluster-id", "no-such-cluster"),
    ("delete", "Standup moves to Tuesdays"),
    ("restore", "Standup moves to Tuesdays"),
]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
# commits, and hashes of what holds a new id (a relation's id, a note's content_hash)
SHA = re.compile(r"\b[0-9a-f]{7,64}\b")
TIMING = re.compile(r'"(\w*(?:_ms|_seconds|elapsed\w*|took\w*))": [0-9.e-]+')


def normalised(text: str) -> str:
    """Timings, and the ids and commits each vault made itself (a new memory's id is random,
    a commit's sha has its second, hashes of what holds them differ with them), numbered in
    order of appearance: the same id stays the same number."""
    text = TIMING.sub(r'"\1": 0', text)
    for pattern, name in ((UUID, "id"), (SHA, "sha")):
        text = _numbered(pattern, name, text)
    return text


def _numbered(pattern: re.Pattern[str], name: str, text: str) -> str:
    seen: dict[str, str] = {}
    return pattern.sub(lambda m: seen.setdefault(m.group(), f"<{name}{len(seen)}>"), text)


def git_sample_vault(dest: Path) -> Path:
    vault = copy_sample_vault(dest, NOW)
    git(vault, "init", "-q", "-b", "main")
    git(vault, "add", "-A")
    git(vault, "commit", "-q", "-m", "sample vault")
    return vault


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Daemon, Path, Path]]:
    """A daemon over vault `a`, and `b`, the same vault that no daemon serves."""
    a = git_sample_vault(tmp_path / "a")
    # one clone id for both (git config), or each would stamp its own on every use it records
    git(a, "config", "--local", CLONE_ID_KEY, "c10ae1")
    b = tmp_path / "b"
    shutil.copytree(a, b)
    d = start_daemon(tmp_path / "home", a)
    yield d, a, b
    d.stop()


def cli(home: Path, vault: Path, *args: str, **env: str) -> CliResult:
    """The program in a process of its own, as a person runs it."""
    argv = [sys.executable, "-m", "cortexgraph_vault.cli.main", "--vault", str(vault)]
    proc = subprocess.run(
        [*argv, "--now", NOW_ISO, *args],
        capture_output=True, text=True, timeout=120, env=isolated_env(home, **env),
    )  # fmt: skip
    return CliResult(proc.returncode, proc.stdout, proc.stderr)


def cli_in_process(home: Path, vault: Path, *args: str) -> CliResult:
    """What `cli` runs, in this process: the script's every command twice costs a minute of
    processes starting, and what they answer is the same (the other tests here, and
    tests/cli/test_main.py, start the program for real)."""
    return CliResult(
        *run_main(["--vault", str(vault), "--now", NOW_ISO, *args], isolated_env(home))
    )


def test_the_script_runs_every_command_of_the_catalogue() -> None:
    served_commands = {e.name for e in registry() if isinstance(e, Command) and e.operations}
    local = {e.name for e in registry() if isinstance(e, Command) and not e.through_daemon}
    # in this process: status (this process's index and watcher), those that read or write
    # files of this machine or set up its vault, the counts as this process sees them
    assert local == {"status", "init", "snapshot", "stats", "reindex", "graph",
                     "import cortexgraph", "import memory-json", "export cortexgraph",
                     "export json"}  # fmt: skip
    # and sync (git's progress on the terminal; its request is still checked)
    assert {s[0] for s in SCRIPT} == served_commands - {"sync"} - local


def test_json_output_and_errors_are_the_same_through_the_daemon_and_alone(
    served: tuple[Daemon, Path, Path],
) -> None:
    daemon, a, b = served
    for step in SCRIPT:
        through = cli_in_process(daemon.home, a, "-v", "--json", *step)
        alone = cli_in_process(daemon.home, b, "-v", "--json", *step)
        asked = [line for line in through.err.splitlines() if "by the daemon" in line]
        assert asked, (step, through.err)  # the daemon answered (or refused) it
        assert "by the daemon" not in alone.err, step  # b's daemon: none; a's is not b's
        said = [line for line in through.err.splitlines() if not line.startswith("INFO ")]
        said_alone = [line for line in alone.err.splitlines() if not line.startswith("INFO ")]
        assert (through.code, said) == (alone.code, said_alone), step
        # (the two vaults are two folders: `status` names its own)
        seen_a = normalised(through.out.replace(str(a), "<vault>"))
        assert seen_a == normalised(alone.out.replace(str(b), "<vault>")), step
        if through.code == 0:
            json.loads(through.out)


def test_a_refusal_is_the_same_line_and_exit_code_and_changes_nothing(
    served: tuple[Daemon, Path, Path],
) -> None:
    daemon, a, _ = served
    before = git(a, "status", "--porcelain")
    refused = cli(daemon.home, a, "-v", "save", "x", "--strength", "3")
    assert refused.code == 2 and "refused by the daemon" in refused.err
    assert (
        refused.err.splitlines()[-1] == "cortexgraph-vault: --strength: must be from 0 to 2, got 3"
    )
    assert git(a, "status", "--porcelain") == before


def test_a_daemon_that_is_gone_leaves_the_cli_working_alone(
    served: tuple[Daemon, Path, Path],
) -> None:
    daemon, a, _ = served
    claims = list((daemon.home / "cache" / "daemons").glob("*.json"))
    daemon.stop()
    # what a daemon killed with -9 leaves: its claim file, with its pid and port, held by none
    (claim,) = claims
    claim.write_text(json.dumps({"pid": 999_999, "port": daemon.port, "vault": str(a.resolve())}))
    alone = cli(daemon.home, a, "-v", "--json", "search", "rust")
    assert alone.code == 0 and "daemon" not in alone.err
    assert json.loads(alone.out)["results"]


def test_a_daemon_that_refuses_the_token_leaves_the_cli_working_alone(
    served: tuple[Daemon, Path, Path], tmp_path: Path
) -> None:
    daemon, a, _ = served
    # this CLI's config folder holds another token than the daemon's (its cache folder, where
    # the daemon's claim is, is the same)
    other = tmp_path / "other-config"
    other.mkdir()
    (other / "token").write_text("A" * 43 + "\n")
    (other / "token").chmod(0o600)
    result = cli(
        daemon.home, a, "-v", "--json", "search", "rust", CORTEXGRAPH_CONFIG_DIR=str(other)
    )
    assert result.code == 0, result.err
    assert "cannot be asked (401" in result.err and "working alone" in result.err
    assert json.loads(result.out)["results"]

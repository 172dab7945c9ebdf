"""The README's promises about the command line, from the outside (the real executable)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cortexgraph_vault.daemon.claim_files import claim_file
from tests.conftest import NOW_ISO, git

# Put on PYTHONPATH: every folder listed by name, and by which process (an audit hook is
# inherited by a forked child).
LOG_LISTINGS = """
import os, sys
def _listed(event, args):
    if event == "os.scandir" and isinstance(args[0], str):
        with open(os.environ["LISTINGS_LOG"], "a", encoding="utf-8") as log:
            log.write(f"{os.getpid()}\\t{args[0]}\\n")
sys.addaudithook(_listed)
"""


def test_an_unknown_id_fails_with_one_line_on_stderr(git_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    missing = cli("show", "no such memory", vault=git_vault)
    assert missing.code == 4 and missing.out == ""
    assert missing.err.count("\n") == 1
    assert missing.err.startswith("cortexgraph-vault: no memory matches 'no such memory'")
    assert "`cortexgraph-vault search`" in missing.err and "search_memory" not in missing.err
    # what was found is still shown; what was not still fails the command
    partly = cli("show", "Curious about Rust", "no such memory", vault=git_vault)
    assert partly.code == 4 and "Curious about Rust" in partly.out
    assert "no such memory" in partly.err and "no such memory" not in partly.out


def test_json_output_is_kept_when_a_reference_is_not_found(git_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    missing = cli("--json", "show", "Curious about Rust", "nothing", vault=git_vault)
    assert missing.code == 4
    data = missing.json()
    assert data["not_found"] == ["nothing"] and data["memories"][0]["title"] == "Curious about Rust"


def test_bad_arguments_fail_with_one_line_naming_the_flag(git_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    for args, said in (
        (("search", "milk", "--limit", "many"), "argument --limit: invalid int value: 'many'"),
        (("search", "milk", "--limit", "0"), "--limit: must be from 1 to 100, got 0"),
        (("touch",), "the following arguments are required: ID"),
        (
            ("update", "Curious about Rust"),
            "give --content, --tags, --entities, --strength or --supersedes",
        ),
    ):
        result = cli(*args, vault=git_vault)
        assert result.code == 2, (args, result.err)
        assert result.out == "" and result.err.count("\n") == 1, (args, result.err)
        assert said in result.err, (args, result.err)


def test_a_refused_secret_says_which_flag_forces_it(git_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    refused = cli("save", "the router password is hunter2hunter2", vault=git_vault)
    assert refused.code == 8 and refused.err.count("\n") == 1
    assert "pass --force to save it anyway" in refused.err
    forced = cli("save", "the router password is hunter2hunter2", "--force", vault=git_vault)
    assert forced.code == 0, forced.err


def test_list_options_take_several_words(git_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    saved = cli("--json", "save", "Standup moves to Tuesdays", "--tags", "work", "schedule",
                vault=git_vault)  # fmt: skip
    assert saved.code == 0, saved.err
    shown = cli("--json", "show", saved.json()["id"], vault=git_vault)
    assert shown.json()["memories"][0]["tags"] == ["work", "schedule"]


def test_init_says_a_sentence_and_its_json_is_a_message(sample_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    said = cli("init", vault=sample_vault)
    assert said.code == 0, said.err
    assert said.out.startswith(f"initialised git in {sample_vault}") and "{" not in said.out
    again = cli("--json", "init", vault=sample_vault)
    assert list(again.json()) == ["message"]  # type: ignore[arg-type]
    assert again.json()["message"].startswith("already a git repository")  # type: ignore[index]
    assert git(sample_vault, "rev-parse", "--is-inside-work-tree").strip() == "true"


def test_restore_list_json_stays_a_list(git_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    cli("gc", "--yes", vault=git_vault)
    listed = cli("--json", "restore", "--list", vault=git_vault)
    assert listed.code == 0, listed.err
    data = listed.json()
    assert isinstance(data, list) and data and {"id", "title", "kind"} <= set(data[0])
    human = cli("restore", "--list", vault=git_vault)
    assert data[0]["title"] in human.out and data[0]["id"][:8] in human.out


def _search_listing(vault: Path, tmp_path: Path, **env: str) -> tuple[str, set[str]]:
    """A real `search` on `vault`: its pid, and the pids that listed the vault's root."""
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(LOG_LISTINGS, encoding="utf-8")
    log = tmp_path / "listings.log"
    log.unlink(missing_ok=True)
    path = [str(site), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path), "LISTINGS_LOG": str(log), **env}
    argv = [sys.executable, "-m", "cortexgraph_vault.cli.main", "--vault", str(vault),
            "--now", NOW_ISO, "--json", "search", "coffee"]  # fmt: skip
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert b'"results"' in out
    root = str(vault.resolve())
    listed = [line.split("\t") for line in log.read_text(encoding="utf-8").splitlines()]
    in_vault = [(pid, folder) for pid, folder in listed if (folder + "/").startswith(root + "/")]
    assert {folder for _, folder in in_vault} >= {root, f"{root}/_stm"}
    walkers = {pid for pid, folder in in_vault if folder == root}
    assert {pid for pid, _ in in_vault} == walkers  # the vault is walked by one process
    return str(proc.pid), walkers


@pytest.mark.skipif(sys.platform != "linux", reason="the early walk is forked on Linux only")
def test_a_read_command_walks_the_vault_in_a_child_begun_before_its_service(
    git_vault: Path, tmp_path: Path
) -> None:
    """The command's own process lists no folder of the vault: one child it forked walked
    all of them, and the command answers."""
    pid, walkers = _search_listing(git_vault, tmp_path, CORTEXGRAPH_NO_DAEMON="1")
    assert len(walkers) == 1 and pid not in walkers


def test_a_command_a_daemon_may_answer_begins_no_walk_of_its_own(
    git_vault: Path, tmp_path: Path
) -> None:
    """A daemon holds the vault's claim (here one not listening yet, so the command works
    alone after all): the command forks no walker, which the daemon's answer would leave
    unused; its own start walks the vault."""
    claim = claim_file(git_vault)
    claim.parent.mkdir(parents=True, exist_ok=True)
    claim.write_text("{}", encoding="utf-8")
    with open(claim, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        pid, walkers = _search_listing(git_vault, tmp_path)
    assert walkers == {pid}

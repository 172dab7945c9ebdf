"""Every command takes the options of every command (`--json`, `--vault`, `--now`, `--set`,
`-v`) before its name or after it, free text without quotes, and describes each option in its
`--help`."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from cortexgraph_vault.cli.command import Command
from cortexgraph_vault.cli.main import build_parser, registry
from tests.conftest import NOW, NOW_ISO


@pytest.fixture
def cli(cli_in_process):  # type: ignore[no-untyped-def]
    """This module's tests are about what the commands answer: the CLI's main in this process
    (tests/cli/test_main.py and others start the program for real)."""
    return cli_in_process


COMMANDS = [e for e in registry() if isinstance(e, Command)]


def test_options_after_the_command_mean_what_they_mean_before_it(git_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    saved = cli("--json", "save", "the spare bicycle is a green Brompton", vault=git_vault)
    assert saved.code == 0, saved.err
    memory_id = saved.json()["memory_id"]  # type: ignore[attr-defined]
    before = cli("--json", "show", memory_id[:8], vault=git_vault)
    after = cli("show", memory_id[:8], "--json", "--vault", str(git_vault),
                "--now", NOW_ISO, now=None)  # fmt: skip
    assert after.code == 0, after.err
    assert json.loads(after.out) == json.loads(before.out)
    assert json.loads(after.out)["memories"][0]["id"] == memory_id
    later = (NOW + timedelta(hours=12)).strftime("%Y-%m-%dT%H:%M:%SZ")
    found = cli("search", "brompton", "--vault", str(git_vault), "--json", "--now", later,
                now=None)  # fmt: skip
    assert found.code == 0, found.err
    assert json.loads(found.out)["results"][0]["id"] == memory_id


def test_a_query_of_several_words_needs_no_quotes(git_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    assert cli("save", "deploy", "to", "staging", "every", "friday", vault=git_vault).code == 0
    unquoted = cli("search", "deploy", "staging", "--vault", str(git_vault), "--json")
    quoted = cli("--json", "search", "deploy staging", vault=git_vault)
    assert unquoted.code == 0, unquoted.err
    assert json.loads(unquoted.out) == json.loads(quoted.out)
    hit = json.loads(unquoted.out)["results"][0]
    assert hit["content"] == "deploy to staging every friday"  # the save's words joined too


def test_a_setting_given_before_and_after_the_command_both_count(git_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    shown = cli("--set", "forget_threshold=0.07", "config", "--json", "--set",
                "decay_model=exponential", vault=git_vault)  # fmt: skip
    assert shown.code == 0, shown.err
    settings = {s["name"]: s for s in json.loads(shown.out)["settings"]}
    assert settings["forget_threshold"]["value"] == 0.07
    assert settings["decay_model"]["value"] == "exponential"


def test_the_vault_after_the_command_is_the_nearer_one(
    tmp_path: Path, git_vault: Path, cli
) -> None:  # type: ignore[no-untyped-def]
    listed = cli("--vault", str(tmp_path / "nowhere"), "stats", "--json", "--vault", str(git_vault))
    assert listed.code == 0, listed.err


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_every_option_and_argument_is_described_in_help(command: Command) -> None:
    assert all(arg.help for arg in command.args), [a.name for a in command.args if not a.help]
    parser = build_parser()
    sub = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    words = command.name.split(" ")
    leaf = sub[words[0]]
    if len(words) == 2:
        leaf = leaf._subparsers._group_actions[0].choices[words[1]]  # type: ignore[union-attr]
    shown = leaf.format_help()
    for option in ("--json", "--vault", "--now", "--set", "--verbose"):
        assert option in shown, (command.name, option)
    for action in leaf._actions:
        assert action.help, (command.name, action.option_strings or action.dest)


def test_search_help_describes_its_options(cli) -> None:  # type: ignore[no-untyped-def]
    shown = cli("search", "--help", now=None)
    assert shown.code == 0
    for option, words in (("--limit N", "how many results"), ("--status", "which memories"),
                          ("--page N", "page N of the results"), ("--preview CHARS", "characters"),
                          ("--now TIME", "writes this time into its note")):  # fmt: skip
        assert option in shown.out and words in shown.out, option

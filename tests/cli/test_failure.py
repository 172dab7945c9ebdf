"""Failures in the CLI's words: one line, flags for parameters, commands for MCP tools."""

from __future__ import annotations

import pytest

from cortexgraph_vault.cli.command import Command
from cortexgraph_vault.cli.failure import cli_wording, report
from cortexgraph_vault.cli.main import registry
from cortexgraph_vault.errors import Ambiguous, InvalidArgument, NotFound, SecretRefused


def command(name: str) -> Command:
    return next(e for e in registry() if isinstance(e, Command) and e.name == name)


def test_a_parameter_the_error_names_becomes_the_commands_flag() -> None:
    exc = SecretRefused(
        "content looks like it holds a password (force); ... or pass force to save it anyway",
        params=("force",),
    )
    said = cli_wording(exc, command("save"), registry())
    # the last mention is the hint; the quoted text before it is left as it was
    assert (
        said
        == "content looks like it holds a password (force); ... or pass --force to save it anyway"
    )
    assert str(exc).endswith("pass force to save it anyway")  # MCP and REST keep their words


def test_a_parameter_whose_flag_differs_is_named_by_its_flag() -> None:
    exc = InvalidArgument("top_k: must be from 1 to 100, got 0")
    assert cli_wording(exc, command("search")) == "--limit: must be from 1 to 100, got 0"
    # a command without that parameter leaves the name alone
    assert cli_wording(exc, command("stats")) == "top_k: must be from 1 to 100, got 0"
    empty = InvalidArgument("query: give some words to search for")
    assert cli_wording(empty, command("search-all")) == "QUERY: give some words to search for"


def test_an_operation_the_error_names_becomes_the_command_that_runs_it() -> None:
    exc = NotFound(
        "no memory matches 'x'; search with search_memory to find its id",
        operations=("search_memory",),
    )
    said = cli_wording(exc, command("touch"), registry())
    assert said == "no memory matches 'x'; search with `cortexgraph-vault search` to find its id"


def test_an_ambiguous_reference_lists_its_candidates_on_the_same_line() -> None:
    exc = Ambiguous(
        "2 memories are titled 'tea'; give one of their ids", ["a1 _stm/tea.md", "b2 x/tea.md"]
    )
    said = cli_wording(exc, command("show"))
    assert said == "2 memories are titled 'tea'; give one of their ids: a1 _stm/tea.md; b2 x/tea.md"


@pytest.mark.parametrize(
    ("exc", "code", "line"),
    [
        (NotFound("no\nmemory"), 4, "cortexgraph-vault: no memory"),
        (FileNotFoundError(2, "No such file or directory", "/x/plan.json"), 1,
         "cortexgraph-vault: /x/plan.json: No such file or directory"),
        (KeyError("boom"), 1,
         "cortexgraph-vault: unexpected KeyError: 'boom' (run with -v for the traceback)"),
    ],
)  # fmt: skip
def test_every_failure_is_one_line_on_stderr_and_a_non_zero_exit(
    exc: Exception, code: int, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert report(exc, command("show"), registry()) == code
    out, err = capsys.readouterr()
    assert out == "" and err == line + "\n"


def test_a_failure_line_shows_control_characters_escaped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report(NotFound("no memory matches 'a\x1b[2Jb'"), None)
    assert capsys.readouterr().err == "cortexgraph-vault: no memory matches 'a\\x1b[2Jb'\n"

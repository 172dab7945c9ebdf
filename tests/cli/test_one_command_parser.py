"""A command is parsed by a parser holding only its own subparser when the options before it
are spelled out: the same arguments, the same help and the same errors as the whole parser."""

from __future__ import annotations

import argparse
import contextlib
import io

import pytest

from cortexgraph_vault.cli.command import Command
from cortexgraph_vault.cli.main import build_parser, given_command, main, registry


def _argv_for(command: Command) -> list[str]:
    """The command's name words and a value for each required argument."""
    out = command.name.split(" ")
    for arg in command.args:
        if arg.positional and not arg.optional:
            out += ["x"] if not arg.choices else [arg.choices[0]]
        elif arg.required:
            out += [arg.name, "x" if not arg.choices else arg.choices[0]]
    return out


def _outcome(parser: argparse.ArgumentParser, argv: list[str]) -> tuple[object, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            args = vars(parser.parse_args(argv))
            result: object = args
        except SystemExit as exit:
            result = ("exit", exit.code)
    return result, out.getvalue(), err.getvalue()


COMMANDS = [e for e in registry() if isinstance(e, Command)]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_each_command_parses_alike_with_its_subparser_alone(command: Command) -> None:
    before = ["--vault", "v", "--json", "--set=decay_model=exponential", "-v", "--now", "n"]
    variants = [
        [*before, *_argv_for(command)],
        [*_argv_for(command), "--help"],
        [*_argv_for(command), "--no-such-option"],
        [*_argv_for(command)[: len(command.name.split(" "))]],  # required arguments missing
    ]
    for argv in variants:
        name = given_command(argv)
        assert name == command.name.split(" ")[0]
        assert _outcome(build_parser(name), argv) == _outcome(build_parser(), argv), argv


@pytest.mark.parametrize(
    "argv",
    [[], ["--help"], ["--va", "v", "stats"], ["serch", "x"], ["--vault"], ["--vault", "stats"],
     ["-h", "stats"], ["--version"]],
)  # fmt: skip
def test_anything_else_is_read_by_the_whole_parser(argv: list[str]) -> None:
    assert given_command(argv) is None


def test_a_mistyped_command_is_still_explained_with_every_choice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["serch", "coffee"])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'serch'" in err and "'search'" in err and "'stats'" in err

"""Command records become argparse the same way: lists, flags and parameters by name."""

from __future__ import annotations

import pytest

from cortexgraph_vault.cli.command import Arg, Command
from cortexgraph_vault.cli.main import build_parser, registry


def commands() -> list[Command]:
    return [e for e in registry() if isinstance(e, Command)]


def parse(*argv: str) -> dict[str, object]:
    args = build_parser().parse_args(list(argv))
    command: Command = args.command_record
    return command.params(args)


def a_value_for(command: Command, arg: Arg) -> list[str]:
    """The command's other required arguments, so it parses with only `arg` varying."""
    out: list[str] = []
    for other in command.args:
        if other is arg:
            continue
        if other.positional and not other.optional:
            out += ["x"]
        elif other.required:
            out += [other.name, "x"]
    return out


LIST_OPTIONS = [
    (c, a) for c in commands() for a in c.args if a.many and not a.positional and a.split_commas
]


def test_every_list_option_is_found() -> None:
    named = {(c.name, a.name) for c, a in LIST_OPTIONS}
    assert {("save", "--tags"), ("search", "--tags"), ("observe", "--context-tags"),
            ("update", "--entities"), ("search-all", "--tags")} <= named  # fmt: skip


@pytest.mark.parametrize(("command", "arg"), LIST_OPTIONS, ids=lambda x: getattr(x, "name", ""))
def test_list_options_take_words_commas_and_repeats_alike(command: Command, arg: Arg) -> None:
    head = [*command.name.split(), *a_value_for(command, arg)]
    words = parse(*head, arg.name, "work", "schedule")[arg.dest]
    commas = parse(*head, f"{arg.name}", "work,schedule")[arg.dest]
    repeats = parse(*head, arg.name, "work", arg.name, "schedule")[arg.dest]
    mixed = parse(*head, arg.name, "work, schedule", arg.name, "home")[arg.dest]
    assert words == commas == repeats == ["work", "schedule"]
    assert mixed == ["work", "schedule", "home"]
    assert parse(*head)[arg.dest] is None  # not given: the operation's default


def test_a_path_list_keeps_its_commas() -> None:
    assert parse("gc", "--skip", "_stm/a, b.md", "--skip", "c.md")["skip_paths"] == [
        "_stm/a, b.md",
        "c.md",
    ]


def test_options_fill_the_operations_parameters() -> None:
    assert parse("search", "milk", "--limit", "3", "--preview", "20") == {
        "query": "milk", "tags": None, "status": None, "top_k": 3, "window_days": None,
        "min_score": None, "page": None, "preview_length": 20, "explain": False, "cursor": None,
    }  # fmt: skip
    assert parse("gc")["dry_run"] is True and parse("gc", "--yes")["dry_run"] is False
    assert parse("delete", "x")["mode"] == "archive"
    assert parse("delete", "x", "--remove")["mode"] == "remove"
    assert parse("links", "--no-scores")["include_scores"] is False
    assert parse("relate", "a", "b", "--type", "supports") == {
        "from_memory_id": "a", "to_memory_id": "b", "relation_type": "supports", "strength": 1.0,
    }  # fmt: skip


def test_dash_reads_the_value_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("from a pipe\n"))
    assert parse("save", "-")["content"] == "from a pipe\n"


def test_a_parameter_is_named_as_the_usage_line_shows_it() -> None:
    search = next(c for c in commands() if c.name == "search")
    assert search.flag_for("top_k") == "--limit"
    assert search.flag_for("preview_length") == "--preview"
    assert search.flag_for("query") == "QUERY"  # a positional, by its place in the usage
    assert search.flag_for("folder") is None  # search-all's, not search's


def test_command_names_and_operations_are_unique() -> None:
    names = [c.name for c in commands()]
    assert len(names) == len(set(names))
    operations = [c.operation for c in commands() if c.operation]
    assert len(operations) == len(set(operations))

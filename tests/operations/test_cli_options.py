"""The CLI's options of an operation come from the same declaration as its MCP tool and REST
request (tests/operations/test_catalogue.py checks those two): each option fills a field of
the operation's request model, its type and choices agree with the field's, and the CLI
refuses exactly what the model refuses at each limit, naming the option, before any service
is made."""

from __future__ import annotations

import types
import typing
from pathlib import Path, PurePath
from typing import Any

import pytest

from cortexgraph_vault.cli import main as cli_main
from cortexgraph_vault.cli.command import Arg, Command
from cortexgraph_vault.cli.operation_calls import given
from cortexgraph_vault.operations import OPERATIONS
from tests.operations.test_catalogue import limits


def commands() -> list[Command]:
    return [e for e in cli_main.registry() if isinstance(e, Command) and e.operations]


def option_fields() -> list[tuple[Command, Arg, str]]:
    """(command, option, operation) for each option and each operation that takes it."""
    out = []
    for command in commands():
        for arg in command.args:
            for name in command.operations:
                if arg.dest in OPERATIONS[name].request.model_fields:
                    out.append((command, arg, name))
    return out


def field_schema(operation: str, field: str) -> dict[str, Any]:
    schema = OPERATIONS[operation].request.model_json_schema()
    return dict(limits(schema["properties"][field], schema.get("$defs", {})))


def test_every_option_fills_a_field_of_the_command_s_operations() -> None:
    for command in commands():
        assert set(command.operations) <= set(OPERATIONS), command.name
        for arg in command.args:
            fields = {
                f for name in command.operations for f in OPERATIONS[name].request.model_fields
            }
            if arg.local:  # the command's own switch: it must not shadow a parameter
                assert arg.dest not in fields, (command.name, arg.name)
            else:
                assert arg.dest in fields, (command.name, arg.name, arg.dest)


def test_every_catalogue_tool_but_the_plugin_s_has_a_command() -> None:
    served = {name for c in commands() for name in c.operations}
    plugin_only = {"list_memories", "memory_detail", "memory_at_path", "related_to_note",
                   "read_note", "get_performance_metrics", "last_sync", "effective_config"}  # fmt: skip
    # `relate --type supersedes` records a supersession, as create_relation does for a model
    by_another = {"supersede_memories"}
    assert set(OPERATIONS) - served == plugin_only | by_another


def _literals(annotation: Any) -> set[Any]:
    """Every value a Literal anywhere in the annotation allows."""
    if typing.get_origin(annotation) is typing.Literal:
        return set(typing.get_args(annotation))
    return set().union(set(), *(_literals(a) for a in typing.get_args(annotation)))


def _base(annotation: Any) -> set[Any]:
    """The field's value types, `None` and Annotated wrappers left out."""
    if typing.get_origin(annotation) is typing.Annotated:
        return _base(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return set().union(*(_base(a) for a in typing.get_args(annotation))) - {type(None)}
    return {typing.get_origin(annotation) or annotation}


@pytest.mark.parametrize(
    ("command", "arg", "operation"), option_fields(), ids=lambda x: getattr(x, "name", x)
)
def test_the_option_s_type_and_choices_are_the_field_s(
    command: Command, arg: Arg, operation: str
) -> None:
    field = OPERATIONS[operation].request.model_fields[arg.dest]
    annotation = typing.get_type_hints(OPERATIONS[operation].request, include_extras=True)[arg.dest]
    kinds = _base(annotation)
    if arg.flag:
        # (its default may differ: `promote` previews unless --yes, as `gc` does)
        assert kinds == {bool}, arg.name
    elif arg.const is not None:
        assert arg.const in _literals(annotation) and arg.default == field.default, arg.name
    elif arg.many:
        assert list in kinds, arg.name
    elif int in kinds:
        assert arg.type is int, arg.name
    elif float in kinds:
        assert arg.type is float, arg.name
    elif typing.Literal in kinds:
        assert arg.choices is not None and set(arg.choices) <= _literals(annotation), arg.name
    elif PurePath in kinds or any(isinstance(k, type) and issubclass(k, PurePath) for k in kinds):
        assert arg.type is not None and issubclass(arg.type, PurePath), arg.name  # type: ignore[arg-type]
    else:
        assert str in kinds and arg.type is None and not arg.choices, arg.name
    if arg.default is not None and not arg.flag:  # the CLI's default is a value the model takes
        OPERATIONS[operation].parse({**_required(operation), arg.dest: arg.default})


VALID = {"relation_type": "related", "commit": "abcd"}


def _required(operation: str) -> dict[str, Any]:
    model = OPERATIONS[operation].request
    return {
        name: ["x"] if list in _base(f.annotation) else VALID.get(name, "x")
        for name, f in model.model_fields.items()
        if f.is_required()
    }


# What each command needs besides the option to reach the operation that takes it.
ROUTE = {("links", "hops"): ["--around", "x"], ("history", "commit"): []}


def boundaries(command: Command, arg: Arg, operation: str) -> list[tuple[list[str], bool]]:
    """CLI values at each of the field's limits (taken) and just past them (refused)."""
    s = field_schema(operation, arg.dest)
    out: list[tuple[list[str], bool]] = []
    number = arg.type in (int, float)
    step = 1 if arg.type is int else 0.5
    if number and "minimum" in s:
        out += [([str(s["minimum"])], True), ([str(s["minimum"] - step)], False)]
    if number and "maximum" in s:
        out += [([str(s["maximum"])], True), ([str(s["maximum"] + step)], False)]
    if s.get("type") == "string" and "maxLength" in s and "pattern" not in s and not arg.choices:
        out += [(["y" * s["maxLength"]], True), (["y" * (s["maxLength"] + 1)], False)]
    if s.get("type") == "array" and "maxItems" in s and arg.many:
        n = s["maxItems"]
        out += [([f"t{i}" for i in range(n)], True), ([f"t{i}" for i in range(n + 1)], False)]
    return out


BOUNDED = [
    (c, a, op, values, taken)
    for c, a, op in option_fields()
    for values, taken in boundaries(c, a, op)
]


def _argv(command: Command, arg: Arg, values: list[str]) -> list[str]:
    argv = command.name.split()
    for other in command.args:  # positionals in their order
        if other is arg and arg.positional:
            argv += values
        elif other.positional and not other.optional:
            argv.append("x")
    argv += ROUTE.get((command.name, arg.dest), [])
    return argv if arg.positional else [*argv, arg.name, *values]


def test_the_limits_are_checked_for_many_options() -> None:
    checked = {(c.name, a.name) for c, a, *_ in BOUNDED}
    assert {("search", "--limit"), ("search-all", "--stm-weight"), ("save", "--tags"),
            ("relate", "--strength"), ("history", "--limit"), ("links", "--hops"),
            ("save", "content"), ("review", "--limit")} <= checked  # fmt: skip


@pytest.mark.parametrize(
    ("command", "arg", "operation", "values", "taken"),
    BOUNDED,
    ids=lambda x: (
        getattr(x, "name", None) or (str(x)[:12] if not isinstance(x, list) else str(len(x)))
    ),
)
def test_the_cli_refuses_what_the_model_refuses_naming_the_option(
    command: Command,
    arg: Arg,
    operation: str,
    values: list[str],
    taken: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = _argv(command, arg, values)
    parsed = cli_main.build_parser().parse_args(argv)
    params = parsed.command_record.params(parsed)
    request = {
        k: v for k, v in given(params).items() if k in OPERATIONS[operation].request.model_fields
    }
    if taken:
        # the model takes it (with what else the operation requires); so does the CLI's check
        OPERATIONS[operation].parse({**_required(operation), **request})
        return

    def no_service(*_: object) -> None:
        raise AssertionError("the service was made for a refused request")

    monkeypatch.setattr(cli_main, "_service", no_service)
    monkeypatch.setenv("CORTEXGRAPH_VAULT", str(tmp_path))
    code = cli_main.main(["--now", "2026-01-01T00:00:00Z", *argv])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith(f"cortexgraph-vault: {arg.usage_name}: "), err

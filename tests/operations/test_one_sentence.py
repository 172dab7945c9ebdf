"""The same mistake gets the same sentence on every door, for every operation of the catalogue:
a value past a field's limit is refused by the service, the MCP tool, each REST route and each
CLI command that takes the field, in the words of `operations/refusal.py` (each door naming the
field as its caller gives it: `q` over REST, `--limit` on the command line), nothing done."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import annotated_types
import pytest
from mcp import Client
from mcp.server import MCPServer

from cortexgraph_vault.api.endpoints import RestInput
from cortexgraph_vault.api.routes import rest_endpoints
from cortexgraph_vault.cli import main as cli_main
from cortexgraph_vault.cli.command import Command
from cortexgraph_vault.errors import InvalidArgument
from cortexgraph_vault.mcp import build_server
from cortexgraph_vault.operations import OPERATIONS, AnyOperation
from cortexgraph_vault.service import MemoryService
from tests.api.asgi_client import asgi_client
from tests.mcp.mcp_session import service_for, text_of, vault_fingerprint


def _bound(op: AnyOperation) -> tuple[str, object] | None:
    """The first field with an upper limit, and a value just past it: a number above its
    maximum, a text one character too long, a list one item too long."""
    for name, info in op.request.model_fields.items():
        kinds = {
            typing.get_origin(k) or k for k in (info.annotation, *typing.get_args(info.annotation))
        }
        for item in info.metadata:
            if isinstance(item, annotated_types.Le):
                return name, item.le + 1
            if isinstance(item, annotated_types.MaxLen) and str in kinds:
                return name, "x" * (item.max_length + 1)
            if isinstance(item, annotated_types.MaxLen) and list in kinds:
                return name, ["coffee"] * (item.max_length + 1)
    return None


CASES = [(name, *bad) for name, op in OPERATIONS.items() if (bad := _bound(op)) is not None]
# a value each other required field takes, so the refusal names only the bad one
VALID = {"relation_type": "related", "commit": "abcd", "file": "out.json", "folder": "out"}


def _required(op: AnyOperation, bad_field: str) -> dict[str, Any]:
    def valid(name: str, annotation: Any) -> object:
        kinds = {typing.get_origin(k) or k for k in (annotation, *typing.get_args(annotation))}
        return ["coffee"] if list in kinds else VALID.get(name, "coffee")

    return {
        name: valid(name, info.annotation)
        for name, info in op.request.model_fields.items()
        if info.is_required() and name != bad_field
    }


def said(op: AnyOperation, field: str, value: object) -> str:
    with pytest.raises(InvalidArgument) as refused:
        op.parse({**_required(op, field), field: value})
    assert refused.value.params == (field,)
    return str(refused.value)


def test_every_operation_has_a_limit_to_check_or_takes_no_arguments_past_one() -> None:
    checked = {name for name, *_ in CASES}
    unbounded = {name for name, op in OPERATIONS.items() if name not in checked}
    # these take nothing with an upper limit (no arguments, flags, choices or files)
    assert unbounded == {
        "snapshot", "vault_status", "get_performance_metrics", "vault_stats", "last_sync",
        "reindex", "init_git", "effective_config", "export_cortexgraph", "export_json",
        "graph_html", "import_cortexgraph", "import_memory_json",
    }  # fmt: skip


@pytest.fixture(scope="module")
def served(read_only_git_vault: Path) -> tuple[MemoryService, MCPServer]:
    """One service and MCP server for the refused calls: each checks that it changed nothing."""
    service = service_for(read_only_git_vault)
    return service, build_server(service)


@pytest.mark.anyio
@pytest.mark.parametrize(("name", "field", "value"), CASES, ids=[c[0] for c in CASES])
async def test_mcp_and_rest_say_what_the_service_says(
    name: str, field: str, value: object, read_only_git_vault: Path, served: tuple[MemoryService, MCPServer]
) -> None:  # fmt: skip
    git_vault = read_only_git_vault
    op = OPERATIONS[name]
    sentence = said(op, field, value)
    before = vault_fingerprint(git_vault)
    service, server = served
    if op.mcp_tool and field not in op.unlisted:
        async with Client(server) as client:
            refused = await client.call_tool(name, {**_required(op, field), field: value})
        assert refused.is_error and text_of(refused) == sentence
        assert refused.structured_content is not None
        assert refused.structured_content["params"] == [field]
    routes = [
        e
        for e in rest_endpoints()
        if e.operation is op
        and isinstance(model := (e.query or e.body), type) and issubclass(model, RestInput)
        and e.route.rename.get(field, field) in model.model_fields
    ]  # fmt: skip
    async with asgi_client(service, 8765) as rest:
        for endpoint in routes:
            given = {**_required(op, field), field: value}
            for in_path in endpoint.route.in_path.values():
                given.pop(in_path, None)
            for fixed in endpoint.route.fixed:
                given.pop(fixed, None)
            named = {endpoint.route.rename.get(k, k): v for k, v in given.items()}
            path = endpoint.route.path.replace("{ref}", "coffee").replace("{commit}", "abcd")
            if endpoint.query is not None:
                answer = await rest.request(endpoint.route.method, path, params=named)
            else:
                answer = await rest.request(endpoint.route.method, path, json=named)
            rest_name = endpoint.route.rename.get(field, field)
            assert answer.status_code == 422, (endpoint.route.path, answer.text)
            assert answer.json()["detail"] == sentence.replace(field, rest_name, 1)
            assert answer.json()["params"] == [rest_name]
    assert vault_fingerprint(git_vault) == before


def _commands_taking(name: str, field: str) -> list[tuple[Command, str]]:
    out = []
    for command in cli_main.registry():
        if isinstance(command, Command) and name in command.operations:
            for arg in command.args:
                if arg.dest == field and not arg.local:
                    out.append((command, arg.name))
    return out


CLI_CASES = [
    (name, field, value, command, flag)
    for name, field, value in CASES
    for command, flag in _commands_taking(name, field)
]


@pytest.mark.parametrize(
    ("name", "field", "value", "command", "flag"),
    CLI_CASES,
    ids=[f"{c[3].name}-{c[4]}" for c in CLI_CASES],
)
def test_the_cli_says_it_naming_its_option(
    name: str,
    field: str,
    value: object,
    command: Command,
    flag: str,
    read_only_git_vault: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    git_vault = read_only_git_vault
    sentence = said(OPERATIONS[name], field, value)
    given = [str(v) for v in value] if isinstance(value, list) else [str(value)]
    argv = ["--vault", str(git_vault), *command.name.split()]
    for arg in command.args:
        if arg.positional and arg.dest == field:
            argv += given
        elif arg.positional and not arg.optional:
            argv.append("coffee")
        elif arg.local and arg.runs == name:  # the switch that runs this operation
            argv.append(arg.name)
    if flag.startswith("-"):
        argv += [flag, *given]
    before = vault_fingerprint(git_vault)
    assert cli_main.main(argv) != 0
    shown = command.flag_for(field) or field
    err = capsys.readouterr().err
    assert sentence.replace(field, shown, 1) in err, err
    assert vault_fingerprint(git_vault) == before

"""Every command's human output reads as sentences and tables: run each one over the sample
vault (real git) and look for what only a program would print."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cortexgraph_vault.cli.command import Command
from cortexgraph_vault.cli.main import main, registry
from cortexgraph_vault.cli.render import render, renderers
from tests.conftest import NOW_ISO, git

MEMORY_JSON = Path(__file__).parents[1] / "importers" / "fixtures" / "memory_json" / "memory.json"
# A Python repr: a dict or list literal, or an object's `Name(field=...)`.
REPR = re.compile(r"\{'|\['|\b[A-Z]\w+\(\w+=")
# What the MCP tools are called (snake_case); the command line has its own names for them.
MCP_TOOLS = [
    c.operation for c in registry() if isinstance(c, Command) and c.operation and "_" in c.operation
]
# Commands that serve until stopped, or print only their one value.
NOT_RENDERED = {"serve", "mcp", "token", "merge-driver"}  # merge-driver: for git, stdout unused


def run(capsys: pytest.CaptureFixture[str], vault: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--vault", str(vault), "--now", NOW_ISO, *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_command_speaks_in_sentences_and_tables(
    git_vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(git_vault, "remote", "add", "origin", str(remote))

    def json_of(*argv: str) -> object:
        code, out, err = run(capsys, git_vault, "--json", *argv)
        assert code == 0, (argv, err)
        return json.loads(out)

    forgotten = json_of("gc")["memory_ids"]  # type: ignore[index]
    head = git(git_vault, "rev-parse", "HEAD").strip()
    plan = tmp_path / "plan.json"
    runs: list[tuple[str, ...]] = [
        ("init",), ("config",), ("stats",), ("status",), ("reindex",), ("doctor",),
        ("save", "Maya keeps her bike in the hall", "--tags", "home", "bike", "--entities", "Maya"),
        ("show", "Curious about Rust"), ("search", "coffee", "--explain"), ("search", "zebra"),
        ("touch", "Curious about Rust"),
        ("observe", "Curious about Rust", "Uses Neovim", "--context-tags", "cooking,editor"),
        ("update", "Uses Neovim", "--tags", "editor", "tools"),
        ("relate", "Curious about Rust", "Uses Neovim", "--type", "supports"),
        ("relate", "Curious about Rust", "Uses Neovim", "--type", "supports"),
        ("history", "Curious about Rust"), ("history", "Curious about Rust", "--at", head),
        ("promote", "--auto"), ("promote", "Curious about Rust", "--force", "--yes"),
        ("gc",), ("gc", "--yes"), ("restore", "--list"), ("restore", forgotten[0]),
        ("restore", "--list", "--limit", "1"), ("snapshot",),
        ("delete", "Uses Neovim"), ("delete", "Cat named Pixel", "--remove"),
        ("search-all", "atlas"), ("links", "--limit", "3"), ("links", "--around", "Homelab"),
        ("analyze", "I prefer tea over coffee"), ("analyze", "--for-recall", "what do I drink?"),
        ("recall", "tea and coffee", "--mode", "subtle"), ("review",),
        ("cluster",), ("cluster", "--duplicates", "--duplicate-threshold", "0.3"),
        ("consolidate", "--dry-run", "--plan-out", str(plan)),
        ("consolidate", "--apply", str(plan)),
        ("export", "json", str(tmp_path / "all.json")),
        ("export", "cortexgraph", str(tmp_path / "cg")),
        ("import", "cortexgraph", str(tmp_path / "cg"), "--dry-run"),
        ("import", "memory-json", str(MEMORY_JSON), "--status", "active"),
        ("graph", "--html", str(tmp_path / "graph.html")),
        ("sync",),
    ]  # fmt: skip
    said: dict[tuple[str, ...], str] = {}
    for argv in runs:
        code, out, err = run(capsys, git_vault, *argv)
        assert code == 0, (argv, err)
        assert out.strip(), f"{argv} printed nothing"
        assert not REPR.search(out), f"{argv} printed a Python repr:\n{out}"
        named = [tool for tool in MCP_TOOLS if tool in out]
        assert not named, f"{argv} told a person to call MCP tools {named}:\n{out}"
        said[argv] = out

    ran = {" ".join(a[:2]) if a[0] in ("import", "export") else a[0] for a in runs}
    every = {c.name for c in registry() if isinstance(c, Command)} - NOT_RENDERED
    assert every <= ran, f"add these commands to this test: {sorted(every - ran)}"

    # a few sentences a person reads
    assert said[("init",)].startswith(("already a git repository", "initialised git"))
    assert "reinforced 2 memories" in said[("observe", "Curious about Rust", "Uses Neovim",
                                           "--context-tags", "cooking,editor")]  # fmt: skip
    relate = said[("relate", "Curious about Rust", "Uses Neovim", "--type", "supports")]
    assert relate.startswith("already linked: ") and " supports Uses Neovim" in relate


def test_a_result_without_a_renderer_is_refused_not_printed_as_repr() -> None:
    class Unknown:
        pass

    with pytest.raises(TypeError, match="no renderer for Unknown"):
        render(Unknown())


def test_every_renderer_is_keyed_by_the_name_of_a_result_model() -> None:
    from pydantic import BaseModel

    from cortexgraph_vault import models

    for name in renderers():
        cls = getattr(models, name)
        assert isinstance(cls, type) and issubclass(cls, BaseModel), name


@pytest.mark.parametrize(
    ("argv", "call"),
    [
        (("search", "coffee"), lambda s: s.search("coffee", top_k=10, preview_length=300)),
        (("search-all", "atlas", "--limit", "3"),
         lambda s: s.search_unified("atlas", limit=3, preview_length=300)),
        (("links", "--around", "Homelab"), lambda s: s.graph_neighbourhood("Homelab")),
        (("links", "--limit", "2"), lambda s: s.read_graph(limit=2)),
        (("review",), lambda s: s.review(limit=20)),
        (("cluster",), lambda s: s.cluster()),
        (("analyze", "I prefer tea"), lambda s: s.analyze_message("I prefer tea")),
    ],
)  # fmt: skip
def test_json_is_the_operations_result_as_mcp_returns_it(
    argv: tuple[str, ...], call: object, sample_vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cortexgraph_vault.config import load_config
    from cortexgraph_vault.service import MemoryService

    code, out, err = run(capsys, sample_vault, "--json", *argv)
    assert code == 0, err
    service = MemoryService(load_config({"vault": str(sample_vault), "now": NOW_ISO}))
    expected = call(service)  # type: ignore[operator]
    assert json.loads(out) == json.loads(expected.model_dump_json())

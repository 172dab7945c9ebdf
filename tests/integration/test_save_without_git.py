"""Saving where history cannot be kept: the save works and says, once, that forgetting and
restore need `init` — on stderr for the CLI, in the result for MCP and REST."""

from __future__ import annotations

from pathlib import Path

from cortexgraph_vault.config import load_config
from cortexgraph_vault.service import MemoryService
from tests.conftest import NOW


def test_the_cli_warns_on_stderr_and_keeps_stdout_the_result(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    vault = tmp_path / "plain"
    vault.mkdir()
    result = cli("--json", "save", "Maya prefers oat milk", vault=vault)
    assert result.code == 0, result.err
    assert result.json()["path"] == "_stm/Maya prefers oat milk.md"  # type: ignore[index]
    assert result.err.count("not a git repository") == 1
    assert "cortexgraph-vault init" in result.err
    assert (vault / "_stm" / "Maya prefers oat milk.md").is_file()


def test_one_session_is_warned_once(tmp_path: Path) -> None:
    vault = tmp_path / "plain"
    vault.mkdir()
    s = MemoryService(load_config({"vault": str(vault)}), clock=lambda: NOW)
    first = s.save("Maya prefers oat milk.")
    second = s.save("Maya's sister lives in Lisbon.")
    assert first.warning and "gc (forgetting) and restore" in first.warning
    assert str(vault.resolve()) in first.warning
    assert second.warning is None


def test_a_git_vault_is_not_warned(cli, git_vault: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("--json", "save", "Maya prefers oat milk", vault=git_vault)
    assert result.code == 0 and result.err == ""
    assert result.json()["warning"] is None  # type: ignore[index]

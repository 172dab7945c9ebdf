"""Helpers for the MCP tests: a service over a test vault, a connected client, vault fingerprints."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from jsonschema import Draft202012Validator
from mcp import Client
from mcp.types import CallToolResult, Tool

from cortexgraph_vault.config import load_config
from cortexgraph_vault.mcp import build_server
from cortexgraph_vault.service import MemoryService
from tests.conftest import NOW_ISO


def service_for(vault: Path, **settings: object) -> MemoryService:
    return MemoryService(load_config({"vault": str(vault), "now": NOW_ISO, **settings}))


@asynccontextmanager
async def connected(service: MemoryService) -> AsyncIterator[Client]:
    async with Client(build_server(service)) as client:
        yield client


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


def assert_matches_schema(tool: Tool, result: CallToolResult) -> dict:
    """The call succeeded and its structured content is valid against the tool's output schema."""
    assert not result.is_error, f"{tool.name}: {text_of(result)}"
    assert tool.output_schema is not None, f"{tool.name} declares no output schema"
    assert result.structured_content is not None, f"{tool.name} returned no structured content"
    Draft202012Validator.check_schema(tool.output_schema)
    errors = list(Draft202012Validator(tool.output_schema).iter_errors(result.structured_content))
    assert not errors, f"{tool.name}: {errors[0].message}"
    return result.structured_content


def vault_fingerprint(vault: Path) -> dict[str, str]:
    """Every file outside .git by content hash, plus git's HEAD and index, to prove nothing changed."""
    prints = {
        str(p.relative_to(vault)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(vault.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(vault).parts
    }
    if (vault / ".git").exists():
        head = subprocess.run(
            ["git", "-C", str(vault), "rev-parse", "HEAD"], capture_output=True, text=True
        )
        prints[".git HEAD"] = head.stdout.strip()
        prints[".git index"] = hashlib.sha256((vault / ".git" / "index").read_bytes()).hexdigest()
    return prints


def cli_command() -> list[str]:
    """`cortexgraph-vault` as installed beside this Python (the console script)."""
    script = Path(sys.executable).parent / "cortexgraph-vault"
    return (
        [str(script)] if script.exists() else [sys.executable, "-m", "cortexgraph_vault.cli.main"]
    )

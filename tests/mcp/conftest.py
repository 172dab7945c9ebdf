"""The MCP tests' shared server: for the tables of calls that must change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp.server import MCPServer

from cortexgraph_vault.mcp import build_server
from tests.mcp.mcp_session import service_for


@pytest.fixture(scope="module")
def read_only_server(read_only_git_vault: Path) -> MCPServer:
    """One MCP server over `read_only_git_vault` for a module's refused or reading calls, each
    of which fingerprints the vault before and after: building a server (every tool's schemas)
    costs more than most such calls."""
    return build_server(service_for(read_only_git_vault))

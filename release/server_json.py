"""`server.json` at the repository's root: how the MCP registry lists the server (its schema:
https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json)."""

from __future__ import annotations

from typing import Any

from cortexgraph_vault.mcp.handshake import SERVER_DESCRIPTION, SERVER_TITLE

SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
# The registry's name for the server: a namespace the publisher proves it owns (for a GitHub
# login, io.github.<login>) and the server's own name. The README repeats it in an
# `mcp-name:` line, which is how the registry checks the PyPI package is ours.
REGISTRY_NAME = "io.github.cortexgraph-vault/cortexgraph-vault"
PYPI_NAME = "cortexgraph-vault"


def server_json(version: str) -> dict[str, Any]:
    return {
        "$schema": SCHEMA,
        "name": REGISTRY_NAME,
        "title": SERVER_TITLE,
        "description": SERVER_DESCRIPTION,
        "version": version,
        "packages": [
            {
                "registryType": "pypi",
                "registryBaseUrl": "https://pypi.org",
                "identifier": PYPI_NAME,
                "version": version,
                "runtimeHint": "uvx",
                "transport": {"type": "stdio"},
                "packageArguments": [
                    {
                        "type": "named",
                        "name": "--vault",
                        "description": "the Obsidian vault folder that holds the memories",
                        "format": "filepath",
                        "isRequired": True,
                    },
                    {"type": "positional", "value": "mcp", "valueHint": "command"},
                ],
            }
        ],
    }

"""Who the server is, and its answer to `initialize`, without importing the MCP SDK.

Importing the SDK takes longer than a client waits for its handshake to feel instant, so the
stdio server answers `initialize` from here at once and hands every message (that one too)
to the SDK when it has loaded; the SDK's own answer to the repeated `initialize` is dropped.
A test holds this answer equal to the SDK's for every protocol version it negotiates.
"""

from __future__ import annotations

import json
from typing import Any

from cortexgraph_vault import __version__
from cortexgraph_vault.mcp.instructions import INSTRUCTIONS

SERVER_NAME = "cortexgraph-vault"
SERVER_TITLE = "CortexGraph vault memory"
SERVER_DESCRIPTION = "A memory that forgets like a person does, kept in an Obsidian vault."

# The revisions the SDK negotiates through `initialize` (mcp_types.version), oldest first; a
# client asking for another one is offered the newest.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
CAPABILITIES: dict[str, dict[str, bool]] = {
    "prompts": {"listChanged": False},
    "resources": {"listChanged": False, "subscribe": False},
    "tools": {"listChanged": False},
}


def initialize_result(protocol_version: str) -> dict[str, object]:
    """The `result` of the answer to `initialize`, keys in the order the SDK writes them."""
    if protocol_version not in HANDSHAKE_VERSIONS:
        protocol_version = HANDSHAKE_VERSIONS[-1]
    return {
        "capabilities": CAPABILITIES,
        "instructions": INSTRUCTIONS,
        "protocolVersion": protocol_version,
        "serverInfo": {
            "description": SERVER_DESCRIPTION,
            "name": SERVER_NAME,
            "title": SERVER_TITLE,
            "version": __version__,
        },
    }


def quick_answer(line: bytes | str) -> tuple[bytes, Any] | None:
    """The response line to an ordinary `initialize` request, and its id; None for anything
    else (another method, a newer protocol's envelope, params the SDK might reject), which
    the SDK then answers itself."""
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("method") != "initialize":
        return None
    request_id, params = message.get("id"), message.get("params")
    if message.get("jsonrpc") != "2.0" or type(request_id) not in (int, str):
        return None
    if not isinstance(params, dict) or "_meta" in params:
        return None
    client = params.get("clientInfo")
    if not (
        isinstance(params.get("protocolVersion"), str)
        and isinstance(params.get("capabilities"), dict)
        and isinstance(client, dict)
        and isinstance(client.get("name"), str)
        and isinstance(client.get("version"), str)
    ):
        return None
    result = initialize_result(params["protocolVersion"])
    response = {"jsonrpc": "2.0", "id": request_id, "result": result}
    return json.dumps(response, separators=(",", ":")).encode() + b"\n", request_id

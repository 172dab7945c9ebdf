"""The daemon's MCP door (`api/mcp_door.py`), built by the first request to /mcp."""

from __future__ import annotations

from tests.api.daemon_process import Daemon

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
ACCEPT = {"Accept": "application/json, text/event-stream"}


def test_a_daemon_asked_over_mcp_stops_cleanly_with_the_session_still_open(
    daemon: Daemon,
) -> None:
    """The first request builds the door and opens a session; the daemon's stop still ends
    that session and the SDK's session manager with it, and exits 0."""
    opened = daemon.client().post("/mcp", json=INITIALIZE, headers=ACCEPT)
    assert opened.status_code == 200 and opened.headers.get("mcp-session-id"), opened.text
    assert daemon.stop() == 0
    assert "Traceback" not in daemon.err, daemon.err

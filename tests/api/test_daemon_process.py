"""The daemon as a process: one per vault, clear port errors, clean stop, loopback only."""

from __future__ import annotations

import fcntl
import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from cortexgraph_vault.vault.lock import vault_key
from tests.api.conftest import git_sample_vault
from tests.api.daemon_process import Daemon, isolated_env, launch, start_daemon, wait_exit

# The first request to /mcp builds the MCP door (api/mcp_door.py) and its sessions: a stop ends them.
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream"}


def claim_file(home: Path, vault: Path) -> Path:
    return home / "cache" / "daemons" / f"{vault_key(vault)}.json"


def claim_is_free(path: Path) -> bool:
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


# The tests of the module's holder, kept on one worker so that it is started once.
BESIDE_THE_HOLDER = pytest.mark.xdist_group("daemon-process-holder")


@pytest.fixture(scope="module")
def holder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    """A daemon the tests below only try to start beside (they leave it serving as found)."""
    base = tmp_path_factory.mktemp("holder")
    d = start_daemon(base / "home", git_sample_vault(base / "vault"))
    yield d
    d.stop()


@BESIDE_THE_HOLDER
def test_second_daemon_on_the_same_vault_names_the_holder(holder: Daemon) -> None:
    second = launch(holder.home, "serve", "--port", "0", vault=holder.vault)
    assert wait_exit(second) == 5
    assert f"pid {holder.proc.pid}" in second.err
    assert f"port {holder.port}" in second.err
    assert "already served" in second.err
    assert "Traceback" not in second.err
    assert holder.client().get("/health").status_code == 200  # the first one is unharmed


def test_port_in_use_by_another_program_is_a_clear_error(git_vault: Path, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        d = launch(tmp_path / "home", "serve", "--port", str(port), vault=git_vault)
        assert wait_exit(d) == 5
    assert f"127.0.0.1:{port} is already in use by another program" in d.err
    assert "--port" in d.err and "Traceback" not in d.err


@BESIDE_THE_HOLDER
def test_port_in_use_by_a_daemon_of_another_vault_names_it(holder: Daemon, tmp_path: Path) -> None:
    other_vault = git_sample_vault(tmp_path / "other-vault")
    d = launch(holder.home, "serve", "--port", str(holder.port), vault=other_vault)
    assert wait_exit(d) == 5
    assert f"pid {holder.proc.pid}" in d.err and str(holder.vault) in d.err
    assert holder.client().get("/health").status_code == 200


def _stops_cleanly_ending_an_mcp_session(d: Daemon, sig: int, claim: Path) -> None:
    assert not claim_is_free(claim)
    # an MCP session left open does not hold the stop: the daemon ends it
    opened = d.client().post("/mcp", json=INITIALIZE, headers=ACCEPT)
    assert opened.status_code == 200 and opened.headers.get("mcp-session-id"), opened.text
    assert d.stop(sig) == 0, d.err
    assert "Traceback" not in d.err
    assert claim_is_free(claim)


def test_a_signal_stops_cleanly_with_an_mcp_session_open_and_releases_the_vault(
    git_vault: Path, tmp_path: Path
) -> None:
    """Ctrl-C (SIGINT), then SIGTERM to the daemon started after it on the vault it freed."""
    home = tmp_path / "home"
    claim = claim_file(home, git_vault)
    _stops_cleanly_ending_an_mcp_session(start_daemon(home, git_vault), signal.SIGINT, claim)
    again = start_daemon(home, git_vault)  # the vault is free again
    _stops_cleanly_ending_an_mcp_session(again, signal.SIGTERM, claim)


def test_other_hosts_are_refused_unless_unsafe_bind(git_vault: Path, tmp_path: Path) -> None:
    d = launch(tmp_path / "home", "serve", "--port", "0", "--host", "0.0.0.0", vault=git_vault)
    assert wait_exit(d) == 2
    assert "--unsafe-bind" in d.err and "0.0.0.0" in d.err


def test_missing_vault_is_a_clear_error(tmp_path: Path) -> None:
    d = launch(tmp_path / "home", "serve", "--port", "0", vault=tmp_path / "nowhere")
    assert wait_exit(d) == 2
    assert "nowhere" in d.err and "does not exist" in d.err


def test_vault_may_follow_serve(git_vault: Path, tmp_path: Path) -> None:
    """The Obsidian plugin starts `serve --vault <vault>`."""
    home = tmp_path / "home"
    d = launch(home, "serve", "--vault", str(git_vault), "--port", "0", env=isolated_env(home))
    from tests.api.daemon_process import wait_ready

    wait_ready(d)
    assert str(git_vault) in d.out
    assert d.stop() == 0

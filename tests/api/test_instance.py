"""Binding and claiming, in process: loopback only, TCP sockets, one claim per vault."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from cortexgraph_vault.daemon.instance import AlreadyServed, DaemonClaim, bind, check_host
from cortexgraph_vault.errors import ConfigError


def test_loopback_names_bind_127_0_0_1_and_others_need_unsafe_bind() -> None:
    assert check_host("127.0.0.1", False) == "127.0.0.1"
    assert check_host("localhost", False) == "127.0.0.1"
    with pytest.raises(ConfigError, match="--unsafe-bind"):
        check_host("0.0.0.0", False)
    assert check_host("192.0.2.7", True) == "192.0.2.7"


def test_bound_socket_is_tcp_so_asyncio_turns_nagle_off() -> None:
    sock = bind("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP
        assert sock.getsockname()[0] == "127.0.0.1"
    finally:
        sock.close()


def test_a_claim_is_exclusive_and_records_pid_and_port(tmp_path: Path) -> None:
    with DaemonClaim(tmp_path) as claim:
        claim.record(port=1234)
        with pytest.raises(AlreadyServed, match=rf"pid {os.getpid()} on port 1234"):
            DaemonClaim(tmp_path).__enter__()
    with DaemonClaim(tmp_path):  # released on exit
        pass

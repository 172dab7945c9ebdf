"""The bearer token: made once, private to the user, outside the vault, rotatable live."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import httpx

from cortexgraph_vault.api.token import TokenSource, load_or_create_token, rotate_token, token_path
from tests.api.daemon_process import Daemon, launch, wait_exit


def test_token_is_made_once_urlsafe_and_private() -> None:
    token = load_or_create_token()
    path = token_path()
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)  # 32 random bytes, base64url
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create_token() == token
    assert path.parent.name == "config"  # the isolated user config folder, never the vault


def test_rotation_replaces_it() -> None:
    old = load_or_create_token()
    new = rotate_token()
    assert new != old and load_or_create_token() == new
    assert stat.S_IMODE(token_path().stat().st_mode) == 0o600


def test_a_readable_token_file_is_made_private_again() -> None:
    token = load_or_create_token()
    token_path().chmod(0o644)
    assert TokenSource().current() == token
    assert stat.S_IMODE(token_path().stat().st_mode) == 0o600


def test_token_command_prints_it_and_rotate_replaces_it(cli, git_vault: Path) -> None:  # type: ignore[no-untyped-def]
    shown = cli("token")
    assert shown.code == 0 and shown.out.strip() == token_path().read_text().strip()
    rotated = cli("token", "--rotate")
    assert rotated.code == 0 and rotated.out.strip() != shown.out.strip()
    assert rotated.out.strip() == token_path().read_text().strip()
    assert "401" in rotated.err
    assert not any("token" in p.name for p in git_vault.rglob("*") if ".git" not in p.parts)


def test_rotating_takes_effect_in_a_running_daemon(daemon: Daemon) -> None:
    old = daemon.token
    assert daemon.client(token=old).get("/api/v1/config").status_code == 200
    rotate = launch(daemon.home, "token", "--rotate")
    assert wait_exit(rotate) == 0
    new = rotate.out.strip()
    assert new != old
    assert (
        httpx.get(
            daemon.url + "/api/v1/config", headers={"Authorization": f"Bearer {old}"}
        ).status_code
        == 401
    )
    assert (
        httpx.get(
            daemon.url + "/api/v1/config", headers={"Authorization": f"Bearer {new}"}
        ).status_code
        == 200
    )


def test_a_token_file_opened_to_others_after_start_is_made_private_on_the_next_read() -> None:
    source = TokenSource()
    token_path().chmod(0o644)
    assert source.current()
    assert stat.S_IMODE(token_path().stat().st_mode) == 0o600


def test_a_garbage_token_file_is_a_clear_error_not_a_500(daemon: Daemon) -> None:
    client = daemon.client()
    assert client.get("/api/v1/config").status_code == 200
    path = daemon.home / "config" / "token"
    for garbage in (
        b"short\n",
        b"\xff\xfe" * 40 + b"\n",
        b"not a token at all, but long enough!!\n",
    ):
        path.write_bytes(garbage)
        answer = client.get("/api/v1/config")
        assert answer.status_code == 503, answer.text
        detail = answer.json()["detail"]
        assert str(path) in detail and "token --rotate" in detail
    assert "Traceback" not in daemon.err
    rotate_token(path)
    assert daemon.client(token=path.read_text().strip()).get("/api/v1/config").status_code == 200

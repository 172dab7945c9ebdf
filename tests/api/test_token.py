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

"""`doctor`: each finding names what is wrong and how to fix it; a real daemon is checked live."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from cortexgraph_vault.cli.doctor import diagnose
from cortexgraph_vault.config import load_config, user_cache_dir, user_config_dir
from cortexgraph_vault.models import DoctorFinding
from cortexgraph_vault.vault.lock import VaultLock
from tests.api.daemon_process import start_daemon
from tests.conftest import NOW_ISO


def findings(vault: Path | None, **settings: object) -> list[DoctorFinding]:
    config = load_config({"vault": str(vault) if vault else None, "now": NOW_ISO, **settings})
    return diagnose(config).findings


def about(found: list[DoctorFinding], check: str, level: str | None = None) -> list[DoctorFinding]:
    return [f for f in found if f.check == check and (level is None or f.level == level)]


def test_a_healthy_git_vault_has_no_problems(git_vault: Path) -> None:
    config = load_config({"vault": str(git_vault), "now": NOW_ISO})
    result = diagnose(config)
    assert result.ok, [f for f in result.findings if f.level == "problem"]
    checks = {f.check for f in result.findings if f.level == "ok"}
    assert {"vault", "git", "lock", "config", "notes", "port"} <= checks


def test_a_missing_vault_is_a_problem_with_its_fix(tmp_path: Path) -> None:
    [finding] = about(findings(tmp_path / "nowhere"), "vault")
    assert finding.level == "problem" and "does not exist" in finding.message
    assert finding.fix == f"check the path, or create it: mkdir -p {tmp_path / 'nowhere'}"
    [unset] = about(findings(None), "vault")
    assert unset.level == "problem" and "CORTEXGRAPH_VAULT" in (unset.fix or "")


def test_a_vault_without_git_says_how_to_start_history(sample_vault: Path) -> None:
    [git] = about(findings(sample_vault), "git")
    assert git.level == "warning" and git.fix == "cortexgraph-vault init"


def test_a_token_others_can_read_is_a_problem(git_vault: Path) -> None:
    token = user_config_dir() / "token"
    token.parent.mkdir(parents=True, exist_ok=True)
    token.write_text("x" * 43 + "\n")
    token.chmod(0o644)
    [bad] = about(findings(git_vault), "token", "problem")
    assert "mode 644" in bad.message and bad.fix == f"chmod 600 {token}"
    token.chmod(0o600)
    assert about(findings(git_vault), "token", "ok")


def test_a_token_the_daemon_would_refuse_is_a_problem_with_its_fix(git_vault: Path) -> None:
    # long enough, but not the daemon's alphabet: the doctor must not call it fine
    token = user_config_dir() / "token"
    token.parent.mkdir(parents=True, exist_ok=True)
    token.write_text("not a token, only a sentence long enough to pass a length check\n")
    token.chmod(0o600)
    [bad] = about(findings(git_vault), "token", "problem")
    assert bad.message == f"{token} does not hold a valid token"
    assert bad.fix == "cortexgraph-vault token --rotate"


def test_a_misspelt_setting_is_named_with_the_right_spelling(
    git_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CORTEXGRAPH_DECAY_MODLE", "exponential")
    monkeypatch.setenv("CORTEXGRAPH_STORAGE_PATH", "/somewhere")
    found = about(findings(git_vault), "config")
    [typo] = [f for f in found if "MODLE" in f.message]
    assert typo.level == "warning" and "did you mean CORTEXGRAPH_DECAY_MODEL?" in typo.message
    [other] = [f for f in found if "STORAGE_PATH" in f.message]
    assert other.level == "info"


def test_a_held_vault_lock_and_a_taken_port_are_reported(git_vault: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        lock = VaultLock(Path(os.path.realpath(git_vault)), user_cache_dir() / "locks")
        with lock.held():
            found = findings(git_vault, port=port)
    [held] = about(found, "lock")
    assert held.level == "warning" and "held by another process" in held.message
    [taken] = about(found, "port")
    assert taken.level == "warning" and f"127.0.0.1:{port} is in use" in taken.message
    assert "CORTEXGRAPH_PORT" in (taken.fix or "")


def test_a_running_daemon_and_its_watcher_are_checked_live(
    git_vault: Path, tmp_path: Path, cli
) -> None:  # type: ignore[no-untyped-def]
    home = tmp_path / "daemon-home"
    daemon = start_daemon(home, git_vault)
    try:
        env = {
            "CORTEXGRAPH_CONFIG_DIR": str(home / "config"),
            "CORTEXGRAPH_CACHE_DIR": str(home / "cache"),
        }
        result = cli("--json", "doctor", vault=git_vault, env=env)
        assert result.code == 0, result.err
        found = result.json()["findings"]
        [up] = [f for f in found if f["check"] == "daemon"]
        assert up["level"] == "ok" and f"http://127.0.0.1:{daemon.port}" in up["message"]
        [watcher] = [f for f in found if f["check"] == "watcher"]
        assert watcher["level"] == "ok" and "the watcher is running" in watcher["message"]
        text = cli("doctor", vault=git_vault, env=env).out
        assert "[ok  ] daemon: the daemon" in text
    finally:
        daemon.stop()


def test_the_cli_doctor_speaks_even_when_the_vault_cannot_be_opened(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("doctor", vault=tmp_path / "missing")
    assert result.code == 0, result.err
    assert "[FAIL] vault:" in result.out and "fix: check the path" in result.out

"""The bundle's launcher finds the installed program where uv and pipx put it, falls back to
uvx at the bundle's version, and says how to install when nothing is there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from release.launch import NOT_FOUND, command_for

LAUNCHER = Path(__file__).resolve().parents[2] / "release" / "launch.py"


def program(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


def test_the_program_on_path_comes_first(tmp_path: Path) -> None:
    found = program(tmp_path / "bin", "cortexgraph-vault")
    program(tmp_path / "home" / ".local" / "bin", "cortexgraph-vault")
    env = {"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path / "home")}
    assert command_for("/my vault", env) == [str(found), "--vault", "/my vault", "mcp"]


def test_a_desktop_path_without_local_bin_still_finds_uv_tool_s_program(
    tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    found = program(tmp_path / "home" / ".local" / "bin", "cortexgraph-vault")
    assert command_for("V", {"PATH": "/nowhere"}) == [str(found), "--vault", "V", "mcp"]
    elsewhere = program(tmp_path / "pipx-bin", "cortexgraph-vault")
    env = {"PATH": "/nowhere", "PIPX_BIN_DIR": str(tmp_path / "pipx-bin")}
    assert command_for("V", env) == [str(elsewhere), "--vault", "V", "mcp"]


def test_without_the_program_uvx_runs_the_bundle_s_version(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    bundle = tmp_path / "bundle"
    (bundle / "server").mkdir(parents=True)
    (bundle / "server" / "launch.py").write_bytes(LAUNCHER.read_bytes())
    (bundle / "manifest.json").write_text(json.dumps({"version": "9.8.7"}))
    uvx = program(tmp_path / "uv-bin", "uvx")
    probe = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); from launch import command_for; "
        "print(json.dumps(command_for('V', {'PATH': sys.argv[2]})))"
    )
    ran = subprocess.run([sys.executable, "-c", probe, str(bundle / "server"), str(uvx.parent)],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "HOME": str(tmp_path / "home")})  # fmt: skip
    assert json.loads(ran.stdout) == [
        str(uvx), "--from", "cortexgraph-vault==9.8.7", "cortexgraph-vault", "--vault", "V", "mcp",
    ]  # fmt: skip


def test_with_nothing_installed_it_says_how_and_writes_nothing_on_stdout(tmp_path: Path) -> None:
    env = {"PATH": "/nowhere", "HOME": str(tmp_path / "home"), "SYSTEMROOT": ""}
    ran = subprocess.run([sys.executable, str(LAUNCHER), "--vault", str(tmp_path)],
                         capture_output=True, text=True, env=env)  # fmt: skip
    assert ran.returncode == NOT_FOUND
    assert ran.stdout == ""
    assert "uv tool install cortexgraph-vault" in ran.stderr
    assert "pipx install cortexgraph-vault" in ran.stderr


def test_the_vault_argument_is_required(tmp_path: Path) -> None:
    ran = subprocess.run([sys.executable, str(LAUNCHER)], capture_output=True, text=True)
    assert ran.returncode == 2 and "expected --vault FOLDER" in ran.stderr

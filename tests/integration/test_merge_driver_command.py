"""The merge driver's command outlives the install that wrote it: through real git, a chain
written by an install since removed still merges (the program on PATH, or in ~/.local/bin),
one that finds nothing says so and leaves the conflict to git, and `doctor` runs the
configured command, reports one that points at nothing and `--fix` repairs it."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from cortexgraph_vault.history.merge_setup import driver_command, this_program
from tests.integration.clones import git
from tests.integration.test_merge_driver import NOTE, TEA, devices, fields, touch_and_push

PROGRAM = Path(sys.executable).parent / "cortexgraph-vault"
GONE = Path("/gone/venv/bin")
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


@pytest.fixture
def program() -> Path:
    assert PROGRAM.is_file(), f"{PROGRAM}: the package's console script, installed beside Python"
    return PROGRAM


def chain_of_a_removed_install() -> str:
    """The chain as an install in /gone wrote it, before /gone was deleted."""
    mine = this_program()
    assert mine is not None
    command = driver_command().replace(str(mine), str(GONE / "cortexgraph-vault"))
    return command.replace(str(Path(sys.executable).absolute()), str(GONE / "python3"))


def diverged(tmp_path: Path) -> Path:
    """Two clones that both used the memory (5 uses to start: 2 on the laptop, pushed, and 4
    on the desktop); the desktop's driver as the removed install left it."""
    d = devices(tmp_path)
    laptop, desktop = d.clone("laptop"), d.clone("desktop")
    touch_and_push(d, laptop, 2, timedelta(hours=1))
    s = d.service(desktop, timedelta(hours=2))
    for _ in range(4):
        s.touch(TEA)
    s.snapshot()
    git(desktop, "config", "merge.cortexgraph.driver", chain_of_a_removed_install())
    return desktop


def pull(vault: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(vault), "pull", "-q", "--no-edit", "--no-rebase", "origin", "main"],
        capture_output=True, text=True, env={**os.environ, **env}, timeout=120,
    )  # fmt: skip


def test_a_chain_from_a_removed_install_merges_with_the_program_on_path(
    tmp_path: Path, program: Path
) -> None:
    desktop = diverged(tmp_path)
    merged = pull(desktop, PATH=f"{program.parent}:{SYSTEM_PATH}")
    assert merged.returncode == 0, merged.stderr
    assert fields(desktop / NOTE)["use_count"] == 5 + 2 + 4


def test_a_chain_from_a_removed_install_finds_the_program_in_local_bin(
    tmp_path: Path, program: Path
) -> None:
    desktop = diverged(tmp_path)
    home = tmp_path / "person"
    (home / ".local" / "bin").mkdir(parents=True)
    (home / ".local" / "bin" / "cortexgraph-vault").symlink_to(program)
    merged = pull(desktop, PATH=SYSTEM_PATH, HOME=str(home))
    assert merged.returncode == 0, merged.stderr
    assert fields(desktop / NOTE)["use_count"] == 5 + 2 + 4


def test_a_chain_that_finds_nothing_leaves_the_conflict_and_names_the_fix(tmp_path: Path) -> None:
    desktop = diverged(tmp_path)
    failed = pull(desktop, PATH=SYSTEM_PATH, HOME=str(tmp_path / "nobody"))
    assert failed.returncode != 0
    assert "no cortexgraph-vault program found" in failed.stderr
    assert "cortexgraph-vault doctor --fix" in failed.stderr
    assert NOTE in git(desktop, "diff", "--name-only", "--diff-filter=U").stdout


def test_doctor_reports_a_driver_that_points_at_nothing_and_fix_repairs_it(
    tmp_path: Path,
    cli,  # type: ignore[no-untyped-def]
) -> None:
    desktop = diverged(tmp_path)
    # the form older installs wrote: one absolute Python, gone with its venv
    git(desktop, "config", "merge.cortexgraph.driver",
        f"{GONE / 'python3'} -m cortexgraph_vault.merge_driver %O %A %B %L %P")  # fmt: skip
    env = {"PATH": SYSTEM_PATH, "HOME": str(tmp_path / "nobody")}
    found = cli("--json", "doctor", vault=desktop, env=env).json()
    (sync,) = [f for f in found["findings"] if f["check"] == "sync" and "driver" in f["message"]]
    assert sync["level"] == "warning" and "does not run" in sync["message"]
    assert sync["fix"] == "cortexgraph-vault doctor --fix"
    fixed = cli("--json", "doctor", "--fix", vault=desktop, env=env).json()
    (done,) = [f for f in fixed["findings"] if f["check"] == "sync" and "driver" in f["message"]]
    assert done["level"] == "ok" and done["message"].startswith("installed"), done
    assert '"$p" merge-driver' in git(desktop, "config", "merge.cortexgraph.driver").stdout
    # the repaired driver merges, with nothing but the system's PATH (its last resort: the
    # Python that ran `doctor --fix`)
    merged = pull(desktop, **env)
    assert merged.returncode == 0, merged.stderr
    assert fields(desktop / NOTE)["use_count"] == 5 + 2 + 4


def test_doctor_warns_of_a_working_driver_that_a_reinstall_would_break(
    tmp_path: Path,
    cli,  # type: ignore[no-untyped-def]
) -> None:
    desktop = diverged(tmp_path)
    git(desktop, "config", "merge.cortexgraph.driver",
        f"{sys.executable} -m cortexgraph_vault.merge_driver %O %A %B %L %P")  # fmt: skip
    found = cli("--json", "doctor", vault=desktop).json()
    (sync,) = [f for f in found["findings"] if f["check"] == "sync" and "driver" in f["message"]]
    assert sync["level"] == "warning" and "reinstall or upgrade would break" in sync["message"]


def test_the_cli_merge_driver_command_merges_like_the_module(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    base = "---\nid: x\nuse_count: 2\n---\nTea.\n"
    files = {}
    for name, uses in (("base", 2), ("ours", 3), ("theirs", 5)):
        files[name] = tmp_path / name
        files[name].write_text(base.replace("use_count: 2", f"use_count: {uses}"))
    ran = cli("merge-driver", str(files["base"]), str(files["ours"]), str(files["theirs"]), "7",
              "_stm/Tea.md", now=None)  # fmt: skip
    assert ran.code == 0, ran.err
    assert "use_count: 6" in files["ours"].read_text()  # 2 + 1 + 3

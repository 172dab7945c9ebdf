"""`./scripts/test --check`: the prerequisites are checked first, and a missing one stops the
run at once with the command that installs it — the same command the README gives."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def bare_path(tmp_path: Path, *tools: str) -> str:
    """A PATH holding bash, this Python as python3, and only the named other tools."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "bash").symlink_to(shutil.which("bash") or "/bin/bash")
    (bin_dir / "python3").symlink_to(sys.executable)
    for tool in tools:
        found = shutil.which(tool)
        assert found, f"{tool} is needed to run this test"
        (bin_dir / tool).symlink_to(found)
    return str(bin_dir)


def run_check(path: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k != "CHROMIUM_PATH"}
    return subprocess.run(
        [shutil.which("bash") or "/bin/bash", str(REPO / "scripts" / "test"), "--check"],
        env={**clean, "PATH": path, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_machine_without_node_git_or_chromium_is_told_what_to_install(tmp_path: Path) -> None:
    result = run_check(bare_path(tmp_path))
    assert result.returncode == 2, result.stdout + result.stderr
    hints = re.findall(r"^  - (.*)$", result.stderr, re.M)
    assert [h.split(" ", 1)[0] for h in hints] == ["Node.js", "npm", "git", "Chromium,"]
    for command in re.findall(r"sudo apt-get install [\w .-]+?(?=\s{2}|,|$|\s\()", result.stderr):
        assert command.strip() in README, f"the README does not give {command!r}"
    assert "sudo apt-get install chromium" in result.stderr
    assert "CHROMIUM_PATH" in result.stderr
    assert "==> python install" not in result.stdout  # stopped before installing anything


def test_a_chromium_path_that_is_not_a_program_is_named(tmp_path: Path) -> None:
    tools = [t for t in ("node", "npm", "git") if shutil.which(t)]
    result = run_check(bare_path(tmp_path, *tools), CHROMIUM_PATH=str(tmp_path / "nowhere"))
    assert result.returncode == 2
    assert f"CHROMIUM_PATH={tmp_path / 'nowhere'} is not an executable" in result.stderr


@pytest.mark.skipif(
    not all(shutil.which(t) for t in ("node", "npm", "git")), reason="needs node, npm and git"
)
def test_with_every_prerequisite_the_check_passes_and_says_what_it_found(tmp_path: Path) -> None:
    fake_chromium = tmp_path / "chromium"
    fake_chromium.write_text("#!/bin/sh\n")
    fake_chromium.chmod(0o755)
    result = run_check(bare_path(tmp_path, "node", "npm", "git"), CHROMIUM_PATH=str(fake_chromium))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("==> prerequisites\nprerequisites: Python 3.")
    assert str(fake_chromium) in result.stdout
    assert re.search(r"^<== prerequisites: \d+\.\d s$", result.stdout, re.M)


def run_phases(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    """A script of the test command's shape: `scripts/phases.sh` sourced, then `body`."""
    script = tmp_path / "phases"
    script.write_text(
        "set -euo pipefail\n"
        'planned_phases=("install" "unit tests" "plugin tests" "browser test")\n'
        f"source {REPO / 'scripts' / 'phases.sh'}\n{body}"
    )
    return subprocess.run(
        [shutil.which("bash") or "/bin/bash", str(script)],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip


def test_a_failed_phase_is_named_with_every_phase_that_did_not_run(tmp_path: Path) -> None:
    result = run_phases(tmp_path, 'phase "install"\ntrue\nphase "unit tests"\nexit 3\n')
    assert result.returncode == 3
    assert "==> install\n<== install: " in result.stdout
    assert "all test phases passed" not in result.stdout
    assert re.search(r"^<== unit tests: FAILED \(exit 3\) after \d+\.\d s$", result.stderr, re.M)
    assert result.stderr.endswith(
        "not run, because 'unit tests' failed: plugin tests; browser test\n"
    )


def test_a_run_whose_phases_all_pass_says_so_and_names_none_as_skipped(tmp_path: Path) -> None:
    body = "".join(f'phase "{p}"\ntrue\n' for p in ("install", "unit tests", "plugin tests"))
    result = run_phases(tmp_path, body + 'phase "browser test"\nphases_done\n')
    assert result.returncode == 0, result.stderr
    assert re.search(r"^all test phases passed in \d+\.\d s$", result.stdout, re.M)
    assert "not run" not in result.stdout + result.stderr


def demo_checkout(tmp_path: Path) -> Path:
    """scripts/demo and pyproject.toml in a folder whose .venv records what it is asked: its
    python runs this one, but writes `pip ...` to a log instead of installing; its
    cortexgraph-vault prints its arguments."""
    root = tmp_path / "checkout"
    (root / "scripts").mkdir(parents=True)
    shutil.copy2(REPO / "scripts" / "demo", root / "scripts" / "demo")
    shutil.copy2(REPO / "pyproject.toml", root / "pyproject.toml")
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"
    python.write_text(
        "#!/bin/sh\n"
        'if [ "$1 $2" = "-m pip" ]; then echo "pip $*" >>"$(dirname "$0")/../pip.log"; exit 0; fi\n'
        f'exec {sys.executable} "$@"\n'
    )
    program = bin_dir / "cortexgraph-vault"
    program.write_text('#!/bin/sh\necho "cortexgraph-vault $*"\n')
    for script in (python, program):
        script.chmod(0o755)
    return root


def test_demo_installs_once_then_only_when_pyproject_changes(tmp_path: Path) -> None:
    root = demo_checkout(tmp_path)
    log = root / ".venv" / "pip.log"

    def demo() -> str:
        ran = subprocess.run(["bash", str(root / "scripts" / "demo"), "--port", "0"],
                             capture_output=True, text=True, timeout=60)  # fmt: skip
        assert ran.returncode == 0, ran.stderr
        return ran.stdout

    first = demo()
    assert "installing cortexgraph-vault into .venv" in first
    assert first.rstrip().endswith("cortexgraph-vault serve --demo --port 0")
    assert log.read_text().count("pip install") == 1
    second = demo()
    assert "already installed in .venv (pyproject.toml unchanged)" in second
    assert log.read_text().count("pip install") == 1
    with (root / "pyproject.toml").open("a") as pyproject:
        pyproject.write("\n# a new dependency, say\n")
    assert "installing cortexgraph-vault" in demo()
    assert log.read_text().count("pip install") == 2

"""Fixtures of the release tests: `./scripts/package` run once per session into a folder of its
own, and its wheel installed into a clean venv with the network out of reach."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from release.versions import version

REPO = Path(__file__).resolve().parents[2]
NO_NETWORK_LOG = "CORTEXGRAPH_TEST_NETWORK_LOG"
# `./scripts/package` builds in the checkout (the plugin's main.js, build/, the egg-info the
# package's metadata is read from): the tests that run it and the one that reads that metadata
# share one worker when the suite runs in parallel, one after the other.
IN_THE_CHECKOUT = pytest.mark.xdist_group("release-checkout")

# Imported first by every Python process of the clean venv (PYTHONPATH): any attempt to reach
# a host other than this machine is written down and refused.
SITECUSTOMIZE = """
import os, socket, sys

LOG = os.environ["CORTEXGRAPH_TEST_NETWORK_LOG"]
LOCAL = {"127.0.0.1", "::1", "localhost", "0.0.0.0", "::", "", None}


def _host(address):
    if isinstance(address, (tuple, list)) and address:
        return address[0]
    return None if isinstance(address, (str, bytes)) else address  # AF_UNIX: a path


def _hook(event, args):
    if event in ("socket.connect", "socket.sendto", "socket.sendmsg"):
        host = _host(args[1]) if len(args) > 1 else None
    elif event == "socket.getaddrinfo":
        host = args[0]
    else:
        return
    if isinstance(host, bytes):
        host = host.decode()
    if host not in LOCAL:
        with open(LOG, "a") as log:
            log.write(f"{os.getpid()} {' '.join(sys.argv)}: {event} {host!r}\\n")
        raise OSError(101, f"network unreachable in this test ({host!r})")


sys.addaudithook(_hook)
"""


@dataclass(frozen=True)
class Dist:
    folder: Path
    version: str

    def one(self, pattern: str) -> Path:
        found = sorted(self.folder.glob(pattern))
        assert len(found) == 1, f"{self.folder}: {pattern} matches {[p.name for p in found]}"
        return found[0]


def needs_node() -> None:
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        reason = f"./scripts/package needs {' and '.join(missing)} (README, Quick start)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    """`./scripts/package --out DIR`, as a person runs it (its npm and pip steps included)."""
    needs_node()
    out = tmp_path_factory.mktemp("dist")
    run = subprocess.run(
        ["bash", str(REPO / "scripts" / "package"), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return Dist(out, version())


@cache
def unshare_works() -> bool:
    """Can this user make a network namespace of its own (only a loopback, no route out)?"""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-rn", "sh", "-c", "ip link set lo up"], capture_output=True, timeout=30
    )
    return probe.returncode == 0


def offline(argv: Sequence[str]) -> list[str]:
    """`argv` run with no network but the loopback: in a network namespace of its own where
    the system allows one; everywhere, through SITECUSTOMIZE (see `Installed.env`)."""
    if not unshare_works():
        return list(argv)
    return ["unshare", "-rn", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *argv]


@dataclass(frozen=True)
class Installed:
    """A clean venv holding the wheel and its dependencies, installed from a wheelhouse."""

    venv: Path
    guard: Path  # the folder of SITECUSTOMIZE
    network_log: Path

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    def env(self, home: Path, **extra: str) -> dict[str, str]:
        """An environment with nothing of the test run's Python: only the clean venv on PATH
        first, the network guard, and user folders in `home`."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CORTEXGRAPH_", "PYTHON"))}
        env.pop("VIRTUAL_ENV", None)
        env.update({
            "PATH": f"{self.bin}{os.pathsep}{env.get('PATH', '')}",
            "PYTHONPATH": str(self.guard),
            "HOME": str(home),
            "CORTEXGRAPH_CONFIG_DIR": str(home / "config"),
            "CORTEXGRAPH_CACHE_DIR": str(home / "cache"),
            "CORTEXGRAPH_DATA_DIR": str(home / "data"),
            NO_NETWORK_LOG: str(self.network_log),
            **extra,
        })  # fmt: skip
        return env

    def attempts(self) -> str:
        return self.network_log.read_text() if self.network_log.exists() else ""


@pytest.fixture(scope="session")
def installed(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel's dependencies gathered into a wheelhouse (from the package index, as
    `pip install` would fetch them), then a fresh venv installed from that wheelhouse alone:
    `--no-index`, no pip configuration, and no network (`offline`)."""
    root = tmp_path_factory.mktemp("clean-install")
    wheel = dist.one("cortexgraph_vault-*.whl")
    wheelhouse = root / "wheelhouse"
    gathered = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--disable-pip-version-check",
         "--wheel-dir", str(wheelhouse), str(wheel)],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert gathered.returncode == 0, gathered.stderr[-3000:]
    # A venv of the interpreter alone (no pip, no setuptools: a dependency the wheel forgot to
    # name cannot be found there by chance), filled by this environment's pip. Nothing compiled
    # ahead (--no-compile): what the server imports is compiled as it is first imported.
    venv = root / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300
    )
    guard = root / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(SITECUSTOMIZE)
    log = root / "network-attempts.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(PIP_CONFIG_FILE=os.devnull, PYTHONPATH=str(guard), **{NO_NETWORK_LOG: str(log)})
    install = subprocess.run(
        offline([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                 "-q", "--no-compile", "--disable-pip-version-check", "--no-index",
                 "--find-links", str(wheelhouse), f"cortexgraph-vault=={dist.version}"]),
        capture_output=True, text=True, env=env, timeout=900,
    )  # fmt: skip
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    installed = Installed(venv, guard, log)
    assert installed.attempts() == "", installed.attempts()
    return installed

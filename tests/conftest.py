"""Shared fixtures: an isolated user config/cache, a copy of the sample vault, the CLI."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import settings

from cortexgraph_vault.vault.sample import copy_sample_vault
from tests.clock_use import takes_the_clock

# The tests' clock. `./scripts/test` runs the suite with it moved years away from the real
# date, both ways (TESTS_CLOCK_SHIFT_DAYS): a test that lets today's date or a file's mtime
# stand in for a time of its own then fails on the day it is written, not weeks later when
# the calendar passes its fixed date. Whole weeks, so the weekday stays.
CLOCK_SHIFT = timedelta(days=int(os.environ.get("TESTS_CLOCK_SHIFT_DAYS", "0") or 0))
if CLOCK_SHIFT.days % 7:
    raise pytest.UsageError(f"TESTS_CLOCK_SHIFT_DAYS={CLOCK_SHIFT.days}: give whole weeks")
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC) + CLOCK_SHIFT
NOW_ISO = NOW.strftime("%Y-%m-%dT%H:%M:%SZ")

# Hypothesis: CI tries every property with its full number of examples (.ci/run sets
# HYPOTHESIS_PROFILE=ci); a person's run tries a tenth of them, enough to catch a change that
# breaks a property outright. The reliability scenarios' sizes follow it (`scenario_size`). No deadline in either: a slow example on a busy machine is not a
# failure (no test asserts elapsed time).
CI_EXAMPLES = 100
settings.register_profile("ci", max_examples=CI_EXAMPLES, deadline=None, print_blob=True)
settings.register_profile("dev", max_examples=CI_EXAMPLES // 10, deadline=None)
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "") or "dev"
if HYPOTHESIS_PROFILE not in ("ci", "dev"):
    raise pytest.UsageError(f"HYPOTHESIS_PROFILE={HYPOTHESIS_PROFILE}: give ci or dev")
settings.load_profile(HYPOTHESIS_PROFILE)


def examples(in_ci: int) -> int:
    """A property's number of examples: `in_ci` under the CI profile, its share locally."""
    return max(1, in_ci * settings.default.max_examples // CI_EXAMPLES)


def scenario_size(in_ci: int, locally: int) -> int:
    """A reliability scenario's size (requests, operations, rounds), by the same switch: `in_ci`
    under the CI profile, the size RELIABILITY.md reports; `locally` in a person's run, enough
    for every kind of step the scenario takes to happen, fewer times over."""
    return in_ci if HYPOTHESIS_PROFILE == "ci" else locally


GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Person",
    "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "Test Person",
    "GIT_COMMITTER_EMAIL": "test@example.org",
}


OWN_BASETEMP = pytest.StashKey[Path]()
RUN_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(tryfirst=True)  # before pytest's tmp_path plugin reads --basetemp
def pytest_configure(config: pytest.Config) -> None:
    """Unless --basetemp is given, the run's temp folders live in a folder of its own, removed
    when the run passes (pytest's default keeps the last three runs' folders, hundreds of MB)."""
    if config.option.basetemp is None and not hasattr(config, "workerinput"):
        own = Path(tempfile.mkdtemp(prefix="cortexgraph-vault-tests-"))
        config.option.basetemp = str(own)
        config.stash[OWN_BASETEMP] = own


def pytest_unconfigure(config: pytest.Config) -> None:
    own = config.stash.get(OWN_BASETEMP, None)
    if own is not None and not config.stash.get(RUN_FAILED, False):
        shutil.rmtree(own, ignore_errors=True)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # A failed run keeps its temp folders for a look; their place is printed below.
    session.config.stash[RUN_FAILED] = session.testsfailed > 0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `uses_the_clock` every test that can reach the tests' clock (tests/clock_use.py:
    its code, a parametrize argument, a fixture of its closure, or any helper, builder or
    module-level value of the tests' code that one of those names): the part `./scripts/test`
    runs again with the clock moved the other way."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        fixtures = [d.func for ds in (info.name2fixturedefs.values() if info else ()) for d in ds]
        function = getattr(item, "function", None)
        if function is None or takes_the_clock(item.path, function, fixtures):
            item.add_marker("uses_the_clock")


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Under `--dist loadgroup`, the tests of one `xdist_group` must reach one worker: they build
    in the checkout or share a file. A pytest whose node ids drop the group xdist adds spreads
    them over the workers without a word (pytest-xdist#1386): each such test fails instead."""
    grouped = getattr(item.config.option, "loadgroup", False) and item.get_closest_marker(
        "xdist_group"
    )
    if grouped and "@" not in item.nodeid:
        pytest.fail(
            f"pytest-xdist could not keep this test's xdist_group on one worker with pytest "
            f"{pytest.__version__}: install the versions pyproject.toml asks for",
            pytrace=False,
        )


def pytest_report_header(config: pytest.Config) -> list[str]:
    shift = f" (moved {CLOCK_SHIFT.days:+,} days)" if CLOCK_SHIFT else ""
    return [f"tests' clock: {NOW_ISO}{shift}", f"hypothesis profile: {HYPOTHESIS_PROFILE}"]


def _size_of(folder: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(folder, onerror=lambda _error: None):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    own = terminalreporter.config.stash.get(OWN_BASETEMP, None)
    if own is not None and terminalreporter.config.stash.get(RUN_FAILED, False):
        size = _size_of(own)
        terminalreporter.write_line(
            f"temp folders of the failed tests kept for a look: {own} ({size / 1e6:,.1f} MB);"
            " remove them when done"
        )


@pytest.fixture(scope="session", autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """For the whole run, before any other fixture: a HOME and XDG folders of the run's own,
    so nothing — our code, git, platformdirs, a daemon or CLI started as a subprocess — reads
    or writes the real user's files (~/.cache/cortexgraph-vault, ~/.config, ~/.gitconfig)."""
    home = tmp_path_factory.mktemp("user-home")
    dirs = {
        "HOME": home,
        "XDG_CACHE_HOME": home / ".cache",
        "XDG_CONFIG_HOME": home / ".config",
        "XDG_DATA_HOME": home / ".local" / "share",
        "XDG_STATE_HOME": home / ".local" / "state",
        # What a process killed on purpose (the crash tests) leaves in its temp folders stays
        # in the run's folder, removed with it, not in the machine's /tmp.
        "TMPDIR": home / "tmp",
    }
    with pytest.MonkeyPatch.context() as mp:
        for name, path in dirs.items():
            path.mkdir(parents=True, exist_ok=True)
            mp.setenv(name, str(path))
        mp.setattr(tempfile, "tempdir", str(dirs["TMPDIR"]))  # this process asked already
        for name in ("CONFIG", "CACHE", "DATA"):
            mp.setenv(f"CORTEXGRAPH_{name}_DIR", str(home / "cortexgraph" / name.lower()))
        # Session fixtures (a shared daemon, its git vault) run before the per-test fixture
        # below: they get the same git identity, and no git config of the real user's.
        mp.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
        mp.setenv("GIT_CONFIG_NOSYSTEM", "1")
        mp.setenv(*MEANING_OFF)
        # A test vault with no repository of its own is no repository, even when the run's
        # temp folder lies inside someone's checkout (TMPDIR in a work tree): without this,
        # its memories were committed into that checkout.
        mp.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path_factory.getbasetemp()))
        for key, value in GIT_ENV.items():
            mp.setenv(key, value)
        yield home


# The sentence encoder's vectors cost a second of CPU per few notes: off unless a test turns it
# on (tests/index/vectors/test_meaning.py; the bench's recall sets in tests/bench).
MEANING_OFF = ("CORTEXGRAPH_MEANING_SEARCH", "false")


def git_as_a_person(
    home: Path, monkeypatch: pytest.MonkeyPatch, name: str = "Test Person",
    email: str = "person@example.org",
) -> None:  # fmt: skip
    """Git as a person's machine has it, with nothing of the real one: a global config of
    `name` and `email` (branch `main`) in `home`, no system config, no identity or repository
    from the environment (so a test can drop the identity from the file)."""
    home.mkdir(parents=True, exist_ok=True)
    config = home / "gitconfig"
    config.write_text(
        f"[user]\n\tname = {name}\n\temail = {email}\n[init]\n\tdefaultBranch = main\n"
    )
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for variable in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "EMAIL",
                     "GIT_COMMITTER_EMAIL", "GIT_DIR", "GIT_INDEX_FILE"):  # fmt: skip
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture
def git_of_a_person(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`git_as_a_person` for a test or module that asks for it (`usefixtures`)."""
    git_as_a_person(tmp_path / "home", monkeypatch)


@pytest.fixture(autouse=True)
def isolated_user_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test reads or writes the real user's config, cache or git identity."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("CORTEXGRAPH_CONFIG_DIR", str(home / "config"))
    monkeypatch.setenv("CORTEXGRAPH_CACHE_DIR", str(home / "cache"))
    monkeypatch.setenv("CORTEXGRAPH_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    for key in list(os.environ):
        if key.startswith("CORTEXGRAPH_") and key not in (
            "CORTEXGRAPH_CONFIG_DIR",
            "CORTEXGRAPH_CACHE_DIR",
            "CORTEXGRAPH_DATA_DIR",
        ):
            monkeypatch.delenv(key)
    monkeypatch.setenv(*MEANING_OFF)


def git(repo: Path, *args: str, check: bool = True, input: str | None = None) -> str:
    """What `git -C repo ARGS` prints, as git wrote it: paths unquoted, line ends kept."""
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "core.quotepath=false", *args],
        input=None if input is None else input.encode(), capture_output=True, check=check,
    )  # fmt: skip
    return done.stdout.decode()


@pytest.fixture
def sample_vault(tmp_path: Path) -> Path:
    """A copy of the sample vault with its times as authored relative to NOW, not in git."""
    return copy_sample_vault(tmp_path / "vault", NOW)


@pytest.fixture
def git_vault(sample_vault: Path) -> Path:
    """The sample vault as a git repository with everything committed."""
    return commit_sample_vault(sample_vault)


def commit_sample_vault(vault: Path) -> Path:
    git(vault, "init", "-q", "-b", "main")
    git(vault, "add", "-A")
    git(vault, "commit", "-q", "-m", "sample vault")
    return vault


@pytest.fixture(scope="module")
def read_only_git_vault(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`git_vault` made once for a module whose tests leave it as they found it: each checks
    so itself (a fingerprint before and after), as a refused call must change nothing."""
    return commit_sample_vault(
        copy_sample_vault(tmp_path_factory.mktemp("read-only") / "vault", NOW)
    )


@dataclass
class CliResult:
    code: int
    out: str
    err: str

    def json(self) -> object:
        return json.loads(self.out)


@pytest.fixture
def cli() -> Iterator[object]:
    """Run the real `cortexgraph-vault` in a subprocess, as a person would."""

    def run(*args: str, vault: Path | None = None, now: str | None = NOW_ISO, env: dict[str, str] | None = None,
            stdin: str | None = None) -> CliResult:  # fmt: skip
        argv = [sys.executable, "-m", "cortexgraph_vault.cli.main"]
        if vault is not None:
            argv += ["--vault", str(vault)]
        if now is not None:
            argv += ["--now", now]
        proc = subprocess.run(
            [*argv, *args], capture_output=True, text=True, env={**os.environ, **(env or {})},
            input=stdin, timeout=120,
        )  # fmt: skip
        return CliResult(proc.returncode, proc.stdout, proc.stderr)

    yield run


@pytest.fixture
def cli_in_process() -> Iterator[object]:
    """What `cli` runs, through the CLI's `main` in this process (tests/cli/in_process.py):
    for the tests about what commands answer, not about the program starting as a process
    (a process costs a third of a CPU second before it does anything)."""
    from tests.cli.in_process import run_main

    def run(*args: str, vault: Path | None = None, now: str | None = NOW_ISO, env: dict[str, str] | None = None,
            stdin: str = "") -> CliResult:  # fmt: skip
        argv = [] if vault is None else ["--vault", str(vault)]
        if now is not None:
            argv += ["--now", now]
        return CliResult(*run_main([*argv, *args], {**os.environ, **(env or {})}, stdin))

    yield run


def pytest_addoption(parser: pytest.Parser) -> None:
    """The reliability suite's options from any folder (tests/reliability/conftest.py adds
    them too, for a run given only that folder)."""
    group = parser.getgroup("reliability")
    group.addoption(
        "--soak",
        action="store_true",
        default=False,
        help="run the long variants of the reliability scenarios",
    )
    group.addoption(
        "--reliability-report",
        default=None,
        metavar="PATH",
        help="write the reliability figures of this run as JSON",
    )


_LOOPBACK = ("127.", "::1", "localhost")


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The product works with no network: any connection beyond this machine fails the test
    (loopback — the daemon under test — and Unix sockets are allowed)."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: object) -> object:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            host = str(address[0]) if isinstance(address, tuple) else str(address)
            if not host.startswith(_LOOPBACK):
                pytest.fail(f"a test tried to reach the network ({address})")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)

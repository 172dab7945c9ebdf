"""Reliability suite: the `--soak` switch for the long variants, and the figures of each run.

Each scenario reports what it did (operations, errors, what was lost, latencies) through the
`figures` fixture; the table is printed at the end of the run (and written as JSON when
`--reliability-report PATH` is given), so RELIABILITY.md is filled from a real run.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

_FIGURES: dict[str, dict[str, object]] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    # pytest reads this hook from the conftest files of the paths it is given: the option works
    # for `pytest tests/reliability --soak` (or a file in it). `pytest --soak` from the root needs
    # the option in tests/conftest.py; both may be present, the second registration is skipped.
    group = parser.getgroup("reliability")
    for name, kwargs in (
        ("--soak", {"action": "store_true", "default": False,
                    "help": "run the long variants of the reliability scenarios"}),
        ("--reliability-report", {"default": None, "metavar": "PATH",
                                  "help": "write the reliability figures of this run as JSON"}),
    ):  # fmt: skip
        with contextlib.suppress(ValueError):  # already added by tests/conftest.py
            group.addoption(name, **kwargs)


SOAK_TIMEOUT = 1800


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The long variants outlast the suite's per-test timeout (pyproject: 300 s)."""
    if config.getoption("--soak", default=False):
        for item in items:
            if "reliability" in item.nodeid:
                item.add_marker(pytest.mark.timeout(SOAK_TIMEOUT))


@pytest.fixture(scope="session")
def soak(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--soak", default=False))


@pytest.fixture
def figures(request: pytest.FixtureRequest) -> Iterator[dict[str, object]]:
    """A dict the test fills with its figures; kept under the test's name for the summary."""
    found: dict[str, object] = {}
    yield found
    if found:
        _FIGURES[request.node.name] = found


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _FIGURES:
        return
    terminalreporter.section("reliability figures")
    for name, values in _FIGURES.items():
        shown = ", ".join(f"{k}={v}" for k, v in values.items())
        terminalreporter.write_line(f"{name}: {shown}")
    target = terminalreporter.config.getoption("--reliability-report", default=None)
    if target:
        Path(target).write_text(json.dumps(_FIGURES, indent=2, default=str) + "\n")

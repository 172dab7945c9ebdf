"""The moved clock still catches a test that lets the real date or a file's mtime stand in for
the tests' clock, and the second run (the clock moved back) takes every test that can reach
the clock, however far from the test the clock is read (tests/clock_use.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.clock_use import TESTS, clock_names

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = "tests/fixtures/clock_guard/samples.py"


def run_samples(tmp_path: Path, shift: int, *args: str) -> dict[str, str]:
    """Each sample test's outcome (passed, failed) in a pytest run with the clock moved
    `shift` days, as `./scripts/test` runs it; a test left out of the run is absent."""
    report = tmp_path / f"report{shift}.xml"
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "python_files=samples.py",
         "--basetemp", str(tmp_path / f"run{shift}"), f"--junitxml={report}", *args, SAMPLES],
        cwd=ROOT, env={**env, "TESTS_CLOCK_SHIFT_DAYS": str(shift)}, capture_output=True,
        timeout=120,
    )  # fmt: skip
    outcomes = {}
    for case in ET.parse(report).iter("testcase"):
        failed = case.find("failure") is not None or case.find("error") is not None
        outcomes[case.attrib["name"]] = "failed" if failed else "passed"
    return outcomes


def test_both_runs_together_fail_every_test_that_leans_on_the_real_date_or_an_mtime(
    tmp_path: Path,
) -> None:
    ahead = run_samples(tmp_path, 3654)
    behind = run_samples(tmp_path, -3654, "-m", "uses_the_clock")
    assert ahead == {
        "test_the_real_date_is_after_a_module_value": "failed",
        "test_a_note_written_now_is_not_years_old": "failed",
        "test_a_note_was_not_used_in_the_future": "passed",
        "test_a_fixture_note_was_not_made_years_from_now": "failed",
        "test_without_the_clock": "passed",
    }
    # The clock moved back: what only this direction catches, with the tests that cannot
    # reach the clock left out.
    assert behind == {
        "test_the_real_date_is_after_a_module_value": "passed",
        "test_a_note_written_now_is_not_years_old": "passed",
        "test_a_note_was_not_used_in_the_future": "failed",
        "test_a_fixture_note_was_not_made_years_from_now": "passed",
    }


def module(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "test_sample.py"
    path.write_text(text)
    return path


def test_the_clock_is_followed_through_values_helpers_and_classes(tmp_path: Path) -> None:
    names = clock_names(module(tmp_path, (
        "from datetime import timedelta\n"
        "from tests.conftest import NOW as T, git\n"
        "from tests.builders import service_for, note_parts\n"
        "LATER = T + timedelta(days=1)\n"
        "def later(): return LATER\n"
        "def helper(): return later()\n"
        "def with_service(v): return service_for(v)\n"
        "def plain(v): return note_parts(v), git(v, 'status')\n"
        "class TestIt:\n"
        "    def test_one(self): assert helper()\n"
        "def fixture(request): return request.getfixturevalue('sample_vault')\n"
        "def imports_its_own():\n"
        "    from tests.builders import service_for\n"
        "    return service_for\n"
    )))  # fmt: skip
    assert {"T", "LATER", "later", "helper", "with_service", "service_for", "TestIt",
            "fixture", "imports_its_own"} <= names  # fmt: skip
    assert not {"plain", "note_parts", "git", "timedelta"} & names


def test_an_import_cycle_between_test_modules_is_followed_once() -> None:
    # conftest → helper → conftest once made the reading recurse until Python gave up
    one = TESTS / "fixtures" / "clock_guard" / "cycle_one.py"
    two = TESTS / "fixtures" / "clock_guard" / "cycle_two.py"
    assert "late" in clock_names(one)
    assert "later" in clock_names(two)

"""What the CLI says reads as words: one spelling per number, plurals, column names that fit
their values, the titles search uses."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from cortexgraph_vault.cli.render import render
from cortexgraph_vault.core.wording import decimal
from cortexgraph_vault.models.intelligence import AutoRecallResult, RecalledMemory
from tests.conftest import NOW


@pytest.fixture
def cli(cli_in_process):  # type: ignore[no-untyped-def]
    """This module's tests are about what the commands answer: the CLI's main in this process
    (tests/cli/test_main.py and others start the program for real)."""
    return cli_in_process


def test_a_number_has_one_spelling() -> None:
    assert decimal(0.9999996) == "1"  # a score right after a save
    assert decimal(1.0) == decimal(1) == "1"  # a strength, whatever its type
    assert decimal(0.73412) == "0.734"
    assert decimal(1.1) == "1.1"
    assert decimal(-0.0001) == "0"


def recalled(reinforced: bool, cooling: bool) -> RecalledMemory:
    return RecalledMemory(memory_id="3f1c9a0e-aaaa", title="Tea", path="_stm/Tea.md",
                          content="green tea", relevance=0.9, score=0.5, matched_topics=["tea"],
                          reinforced=reinforced, cooling_down=cooling)  # fmt: skip


def test_recall_says_what_happened_to_each_memory_under_a_fitting_column() -> None:
    shown = render(AutoRecallResult(
        enabled=True, mode="auto", topics_found=["tea"], memories_found=3, memories_reinforced=1,
        memories=[recalled(True, False), recalled(False, True), recalled(False, False)],
        message="recalled 3 memories",
    ))  # fmt: skip
    header = next(line for line in shown.splitlines() if line.startswith("relevance"))
    assert header.split()[:2] == ["relevance", "use"]
    rows = [line for line in shown.splitlines() if line.startswith("0.90")]
    assert ["reinforced" in rows[0], "not again yet" in rows[1], "not reinforced" in rows[2]] == [
        True, True, True,
    ]  # fmt: skip


def test_restore_list_names_a_forgotten_memory_as_search_did(git_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    saved = cli("--json", "save", "weekly 1:1 on Mondays with Sam", vault=git_vault)
    assert saved.code == 0, saved.err
    assert saved.json()["path"] == "_stm/weekly 1 1 on Mondays with Sam.md"  # type: ignore[attr-defined]
    found = cli("search", "weekly", "Sam", vault=git_vault)
    assert "weekly 1:1 on Mondays with Sam" in found.out
    gone = cli(
        "gc",
        "--yes",
        vault=git_vault,
        now=(NOW + timedelta(days=182)).strftime("%Y-%m-%dT%H:%M:%SZ"),
    )
    assert gone.code == 0, gone.err
    listed = cli("restore", "--list", vault=git_vault)
    assert "weekly 1:1 on Mondays with Sam" in listed.out, listed.out


def test_a_score_just_saved_reads_as_one(git_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    saved = cli("save", "Sam's desk is by the window", vault=git_vault)
    assert saved.code == 0, saved.err
    assert saved.out.splitlines()[0].endswith("; score 1"), saved.out
    shown = cli("show", "Sam's desk is by the window", vault=git_vault)
    assert "score 1  uses 1  strength 1\n" in shown.out, shown.out


def test_doctor_counts_in_words(git_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    verdict = cli("doctor", vault=git_vault).out.rstrip().splitlines()[-1]
    assert verdict == "all good" or verdict.endswith(("1 warning", "warnings")), verdict
    assert "(s)" not in verdict and not verdict.endswith(" 1 warnings")

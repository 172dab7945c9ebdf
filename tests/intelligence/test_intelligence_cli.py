"""The intelligence commands through the real CLI, including the cooldown across processes."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.core.times import format_time
from tests.intelligence.vaults import NOW, memory_note, write_notes


def test_analyze_says_what_to_save_and_what_to_recall(tmp_path: Path, cli_in_process) -> None:
    cli = cli_in_process
    vault = write_notes(tmp_path / "vault")
    human = cli("analyze", "Never forget: Priya owns the Atlas load tests.", vault=vault)
    assert human.code == 0, human.err
    assert "save: yes (auto" in human.out and "strength 2" in human.out
    assert "[[Project Atlas]]" in human.out and "[[Priya Raman]]" in human.out
    data = cli(
        "--json", "analyze", "Can you remember my API key rotation policy?", vault=vault
    ).json()
    assert data["should_save"] is False and data["decision"] == "skip"
    recall = cli(
        "--json", "analyze", "--for-recall", "What did I say about databases?", vault=vault
    )
    assert recall.code == 0, recall.err
    assert (
        recall.json()["should_search"] is True and recall.json()["suggested_query"] == "databases"
    )
    piped = cli("--json", "analyze", "-", vault=vault, stdin="I prefer tabs over spaces.")
    assert piped.json()["should_save"] is True


def test_recall_cooldown_holds_across_two_processes(tmp_path: Path, cli) -> None:
    vault = write_notes(tmp_path / "vault")
    note = memory_note(vault, "Postgres over MySQL", "Maya reaches for Postgres first.",
                       tags=["databases"], last_used=NOW - timedelta(days=2), memory_id="pg")  # fmt: skip
    first = cli("--json", "recall", "Postgres for the ledger?", vault=vault)
    assert first.code == 0, first.err
    assert first.json()["reinforced_ids"] == ["pg"]
    assert parse_note(note.read_text()).frontmatter["use_count"] == 2
    later = format_time(NOW + timedelta(seconds=120))
    second = cli(
        "--json", "recall", "--mode", "subtle", "Postgres for the ledger?", vault=vault, now=later
    )
    assert second.code == 0, second.err
    assert second.json()["memories_reinforced"] == 0
    assert second.json()["memories"][0]["cooling_down"] is True
    assert parse_note(note.read_text()).frontmatter["use_count"] == 2
    after = format_time(NOW + timedelta(seconds=301))
    third = cli("recall", "--mode", "subtle", "Postgres for the ledger?", vault=vault, now=after)
    assert third.code == 0 and "1 reinforced" in third.out
    assert parse_note(note.read_text()).frontmatter["use_count"] == 3


def test_review_lists_fading_memories(tmp_path: Path, cli_in_process) -> None:
    cli = cli_in_process
    vault = write_notes(tmp_path / "vault")
    memory_note(vault, "Week old", "A week old.", tags=["t"], last_used=NOW - timedelta(days=7))
    memory_note(vault, "Fresh", "Fresh.", tags=["t"], last_used=NOW - timedelta(hours=1))
    result = cli("review", vault=vault)
    assert result.code == 0, result.err
    assert (
        "Week old" in result.out
        and "Fresh" not in result.out
        and "1 memory is fading" in result.out
    )
    bad = cli("recall", "--mode", "loud", "x", vault=vault)
    assert bad.code != 0 and "--mode" in bad.err

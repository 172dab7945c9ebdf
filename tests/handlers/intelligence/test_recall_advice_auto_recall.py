"""Auto-recall: topics matched against every memory, reinforced once per cooldown, three modes."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.core.times import format_time
from cortexgraph_vault.errors import InvalidArgument
from tests.intelligence.vaults import NOW, memory_note, service_for, write_notes

POSTGRES = "postgres-over-mysql"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = write_notes(tmp_path / "vault")
    # The memory that matters is the oldest of many: recall must not look only at recent ones.
    memory_note(root, "Postgres over MySQL", "Maya reaches for Postgres first and only considers "
                "MySQL for systems that already run on it.", tags=["preferences", "databases"],
                last_used=NOW - timedelta(days=6), memory_id=POSTGRES)  # fmt: skip
    for n in range(60):
        memory_note(root, f"Errand {n}", f"Errand number {n}: buy stamps and water the plants.",
                    tags=["errands"], last_used=NOW - timedelta(hours=n + 1))  # fmt: skip
    memory_note(
        root,
        "Oat milk",
        "Maya drinks oat milk in her coffee.",
        tags=["food"],
        last_used=NOW - timedelta(days=1),
        memory_id="oat-milk",
    )
    return root


def fields(vault: Path, name: str) -> dict:
    return parse_note((vault / "_stm" / f"{name}.md").read_text("utf-8")).frontmatter


def at(seconds: float) -> str:
    return format_time(NOW + timedelta(seconds=seconds))


def test_silent_recall_reinforces_the_matching_memory_with_the_topics_as_context(
    vault: Path,
) -> None:
    result = service_for(vault).auto_recall("Should the new ledger service use Postgres?")
    assert result.enabled and result.mode == "silent"
    assert "Postgres" in result.topics_found
    assert result.reinforced_ids == [POSTGRES] and result.memories_reinforced == 1
    # silent: every match is listed (as many as memories_found says), without its text
    assert [m.memory_id for m in result.memories] == [POSTGRES] == result.reinforced_ids
    assert len(result.memories) == result.memories_found
    assert all(m.content is None and m.reinforced for m in result.memories)
    after = fields(vault, "Postgres over MySQL")
    assert after["use_count"] == 2 and after["review_count"] == 1
    assert format_time(after["last_review_at"]) == format_time(NOW)
    # The topics are far from its own tags: a cross-domain use strengthens it.
    assert after["strength"] == 1.05 and after["cross_domain_count"] == 1
    assert fields(vault, "Oat milk")["use_count"] == 1


def test_the_cooldown_holds_across_calls_and_new_services(vault: Path) -> None:
    message = "Postgres or MySQL for the ledger?"
    assert service_for(vault).auto_recall(message).memories_reinforced == 1
    again = service_for(vault, now=at(60)).auto_recall(message, mode="subtle")
    assert again.memories_reinforced == 0
    assert [(m.memory_id, m.reinforced, m.cooling_down) for m in again.memories] == [
        (POSTGRES, False, True)
    ]
    assert "used too recently" in again.message
    assert service_for(vault, now=at(299)).auto_recall(message).memories_reinforced == 0
    assert fields(vault, "Postgres over MySQL")["use_count"] == 2
    later = service_for(vault, now=at(301)).auto_recall(message)
    assert later.reinforced_ids == [POSTGRES]
    assert fields(vault, "Postgres over MySQL")["use_count"] == 3


def test_the_cooldown_is_configurable(vault: Path) -> None:
    message = "Postgres or MySQL for the ledger?"
    service_for(vault).auto_recall(message)
    quick = service_for(vault, now=at(30), auto_recall_min_interval="20")
    assert quick.auto_recall(message).memories_reinforced == 1


def test_a_memory_used_moments_ago_is_not_reinforced_again(vault: Path) -> None:
    service = service_for(vault)
    service.touch(POSTGRES)
    result = service.auto_recall("Postgres again")
    assert result.memories_found == 1 and result.memories_reinforced == 0


def test_subtle_returns_the_memories_to_surface(vault: Path) -> None:
    result = service_for(vault).auto_recall("Any thoughts on oat milk or Postgres?", mode="subtle")
    found = {m.memory_id: m for m in result.memories}
    assert set(found) == {POSTGRES, "oat-milk"}
    assert "Postgres first" in found[POSTGRES].content
    assert all(m.reinforced and 0.3 <= m.relevance <= 1 for m in result.memories)


def test_interactive_suggests_and_reinforces_nothing(vault: Path) -> None:
    before = (vault / "_stm" / "Postgres over MySQL.md").read_bytes()
    result = service_for(vault).auto_recall("Is Postgres fine here?", mode="interactive")
    assert result.memories_found == 1 and result.memories_reinforced == 0
    assert result.suggestion and "Postgres over MySQL" in result.suggestion
    assert (vault / "_stm" / "Postgres over MySQL.md").read_bytes() == before


def test_nothing_happens_without_topics_matches_or_consent(vault: Path) -> None:
    assert service_for(vault).auto_recall("Thanks, bye!").topics_found == []
    unrelated = service_for(vault).auto_recall("Tell me about volcano geology")
    assert unrelated.memories_found == 0 and unrelated.memories_reinforced == 0
    off = service_for(vault, auto_recall_enabled="false").auto_recall("Postgres?")
    assert not off.enabled and off.memories_reinforced == 0
    no_reinforce = service_for(vault, auto_reinforce="false").auto_recall(
        "Postgres?", mode="subtle"
    )
    assert no_reinforce.memories_found == 1 and no_reinforce.memories_reinforced == 0
    assert fields(vault, "Postgres over MySQL")["use_count"] == 1


def test_bad_input_is_refused_by_name(vault: Path) -> None:
    with pytest.raises(InvalidArgument, match="mode"):
        service_for(vault).auto_recall("Postgres", mode="loud")
    with pytest.raises(InvalidArgument, match="message"):
        service_for(vault).auto_recall("   ")

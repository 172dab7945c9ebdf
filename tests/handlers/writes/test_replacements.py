"""Saves notice the memories they likely replace (may_supersede), and nothing else."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.core.times import format_time
from tests.conftest import NOW
from tests.intelligence.vaults import service_for

# Saves that share a word, a name or a slot with the sample vault (Maya in Stockholm at
# Kestrel Labs, Neovim, oat milk, Postgres, Pixel the cat, the Atlas standup) but replace
# nothing in it.
UNRELATED = [
    "Maya's sister Elin lives in Gothenburg.",
    "Maya likes hiking in the Jämtland mountains.",
    "Priya prefers tea to coffee.",
    "Jonas's partner works at a hospital in Uppsala.",
    "The Kestrel Labs office has a new espresso machine.",
    "Maya installed a new colour scheme in Neovim.",
    "Maya's dentist is on Götgatan.",
    "Pixel the cat has a vet appointment on Friday.",
    "The Atlas standup notes now go into the team wiki.",
    "Maya is reading a book about Postgres internals.",
    "Priya moved her desk next to the window.",
    "Maya bought oat milk in bulk for the office.",
    "Elin's train arrives at 14:05 on Friday.",
    "Maya uses TypeScript for the new billing dashboard too.",
    "The Stockholm office is closed on 24 December.",
    "Maya's brother moved to Oslo last year.",
    "Jonas likes Neovim as well.",
    "The ramen place near the office now opens at 11.",
    "Maya wants to learn Rust this winter.",
    "Priya's manager is Karin Holm.",
]


def at(days: float) -> str:
    return format_time(NOW + timedelta(days=days))


def test_unrelated_saves_over_a_realistic_vault_replace_nothing(sample_vault: Path) -> None:
    strong, listed = [], []
    for i, text in enumerate(UNRELATED):
        saved = service_for(sample_vault, now=at(i / 24)).save(text)
        strong += [(text, m.title) for m in saved.may_supersede if m.strong]
        listed += [(text, m.title) for m in saved.may_supersede]
    assert strong == []
    assert len(listed) <= 2, listed


def test_a_move_lists_the_old_home_with_why(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    (vault / "_stm").mkdir(parents=True)
    paris = service_for(vault, now=at(0)).save("I live in Paris, near the Canal Saint-Martin.")
    service_for(vault, now=at(1)).save("My sister lives in Lyon.")
    service_for(vault, now=at(2)).save("I'm learning Portuguese on Duolingo.")
    berlin = service_for(vault, now=at(30), auto_supersede="false").save(
        "I moved to Berlin (Kreuzberg) in early December."
    )
    assert [(m.memory_id, m.strong) for m in berlin.may_supersede] == [(paris.memory_id, True)]
    assert "home" in berlin.may_supersede[0].why and "moved to" in berlin.may_supersede[0].why
    assert berlin.may_supersede[0].path == paris.path


def test_a_sure_replacement_is_recorded_by_the_save_and_said(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    (vault / "_stm").mkdir(parents=True)
    paris = service_for(vault, now=at(0)).save("I live in Paris, near the Canal Saint-Martin.")
    berlin = service_for(vault, now=at(30)).save("I moved to Berlin (Kreuzberg) in early December.")
    assert berlin.superseded == [paris.memory_id]
    assert "same home" in berlin.message
    assert "replaces “I live in Paris" in berlin.message and "superseded_by" in berlin.message
    assert berlin.may_supersede == []
    old = parse_note((vault / paris.path).read_text("utf-8")).frontmatter
    assert old["superseded_by"] == ["[[I moved to Berlin (Kreuzberg) in early December]]"]
    found = service_for(vault, now=at(31)).search("where do I live", top_k=5)
    assert [h.id for h in found.results] == [berlin.memory_id]


def test_asking_first_is_a_setting(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    (vault / "_stm").mkdir(parents=True)
    paris = service_for(vault, now=at(0)).save("I live in Paris, near the Canal Saint-Martin.")
    berlin = service_for(vault, now=at(30), auto_supersede="false").save(
        "I moved to Berlin (Kreuzberg) in early December."
    )
    assert berlin.superseded == []
    assert [(m.memory_id, m.strong) for m in berlin.may_supersede] == [(paris.memory_id, True)]


def test_unrelated_saves_leave_every_memory_current(sample_vault: Path) -> None:
    for i, text in enumerate(UNRELATED):
        saved = service_for(sample_vault, now=at(i / 24)).save(text)
        assert saved.superseded == [], text
    for note in sample_vault.rglob("*.md"):
        assert "superseded_by" not in note.read_text("utf-8"), note


def test_the_command_line_prints_what_a_save_may_replace(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    vault = tmp_path / "vault"
    (vault / "_stm").mkdir(parents=True)
    cli("save", "I live in Paris, near the Canal Saint-Martin.", vault=vault, now=at(0))
    out = cli("--set", "auto_supersede=false", "save", "We moved to Berlin; the new flat is in Kreuzberg.",
              vault=vault, now=at(9))  # fmt: skip
    assert out.code == 0, out.err
    lines = out.out.splitlines()
    at_line = lines.index("may replace (confirm with `relate NEW OLD --type supersedes`):")
    assert lines[at_line + 1].startswith("  I live in Paris, near the Canal Saint-Martin (id ")
    assert "same home" in lines[at_line + 1]


def test_a_new_job_replaces_the_old_job_not_a_correction_that_named_a_colleague_leaving(
    tmp_path: Path,
) -> None:
    """The manager's correction says someone else left the company; the person's own new job,
    saved later, replaces their old job only: recorded, with nothing else listed, and the
    question about the manager still answered by the correction."""
    vault = tmp_path / "vault"
    (vault / "_stm").mkdir(parents=True)
    job = service_for(vault, now=at(0)).save("I work as a data engineer at Quarry Labs.")
    service_for(vault, now=at(1)).save("My manager is Jonas Berg; we meet on Tuesdays.")
    manager = service_for(vault, now=at(20)).save(
        "Jonas left the company, so my new manager is Elif Demir."
    )
    new_job = service_for(vault, now=at(40)).save(
        "Started my new job at Harbor Analytics this week, same data work."
    )
    assert new_job.superseded == [job.memory_id]
    assert new_job.may_supersede == []
    note = parse_note((vault / manager.path).read_text("utf-8")).frontmatter
    assert "superseded_by" not in note
    found = service_for(vault, now=at(41)).search("who is my manager now", top_k=3)
    assert found.results[0].id == manager.memory_id

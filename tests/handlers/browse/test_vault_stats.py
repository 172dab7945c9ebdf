"""`stats`: the counts, risk, review, problems and sizes (handlers/browse/vault_stats)."""

from __future__ import annotations

from pathlib import Path

from cortexgraph_vault.models import VaultStats
from tests.importers.helpers import service


def test_stats_count_what_needs_attention_and_how_big_things_are(sample_vault: Path) -> None:
    (sample_vault / "_stm" / "Broken.md").write_text("---\ntags: [unclosed\n---\nbody\n")
    svc = service(sample_vault)
    stats = svc.stats()
    assert isinstance(stats, VaultStats)
    views = svc.search(status="active", top_k=100).results
    active = [v for v in views if v.status == "active"]
    assert stats.memories["active"] == len(active) == 21  # the broken note is one of them
    assert stats.due_for_review == sum(1 for v in active if v.review_priority > 0)
    opened = svc.open([v.path for v in active]).memories
    fading = [
        v for v in opened if v.score and v.score >= 0.05 and v.days_until_forgotten is not None
    ]
    assert stats.at_risk == sum(1 for v in fading if v.days_until_forgotten <= 7)  # type: ignore[operator]
    assert stats.at_risk_days == 7
    assert stats.notes_with_problems == 1
    assert [p.path for p in stats.problems] == ["_stm/Broken.md"]
    files = [p for p in sample_vault.rglob("*") if p.is_file()]
    assert stats.vault_bytes == sum(p.stat().st_size for p in files)
    assert 0 < stats.memory_bytes < stats.vault_bytes
    assert (
        stats.cache_path is not None and stats.cache_bytes == Path(stats.cache_path).stat().st_size
    )


def test_at_risk_counts_memories_forgotten_within_a_week_unless_used(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    svc = service(vault, now="2026-11-20T12:00:00Z")
    svc.save("saved eleven days before now", entities=[], strength=1.0)
    svc.save("saved long before now, nearly gone", entities=[], strength=1.0)
    later = service(vault, now="2026-12-01T12:00:00Z", decay_model="exponential")
    stats = later.stats()
    # Exponential, half-life 3 days: score 1.0 falls below 0.05 after 12.97 days; both were
    # saved 11 days ago, so both are within a week of being forgotten, neither is gone yet.
    assert (stats.forgettable, stats.at_risk) == (0, 2)


def test_the_cli_prints_the_new_figures_and_json_keeps_the_old_fields(
    sample_vault: Path, cli
) -> None:  # type: ignore[no-untyped-def]
    result = cli("--json", "stats", vault=sample_vault)
    assert result.code == 0, result.err
    data = result.json()
    for key in ("total_notes", "memories", "by_folder", "histogram", "forgettable", "danger_zone",
                "promotable", "problems", "git", "at_risk", "due_for_review", "vault_bytes",
                "cache_bytes"):  # fmt: skip
        assert key in data, key
    text = cli("stats", vault=sample_vault).out
    assert "at risk (forgotten within 7 days unless used)" in text
    assert "index cache" in text and "by folder: " in text


def test_vault_bytes_follow_notes_edited_since_the_last_look(sample_vault: Path) -> None:
    svc = service(sample_vault)
    before = svc.stats().vault_bytes
    note = next((sample_vault / "_stm").glob("*.md"))
    note.write_text(note.read_text(encoding="utf-8") + "\nA much longer ending of this note.\n")
    (sample_vault / ".obsidian").mkdir(exist_ok=True)
    (sample_vault / ".obsidian" / "app.json").write_text('{"x": 1}')
    after = svc.stats().vault_bytes
    files = [p for p in sample_vault.rglob("*") if p.is_file() and ".git" not in p.parts]
    assert after == sum(p.stat().st_size for p in files)
    assert after > before

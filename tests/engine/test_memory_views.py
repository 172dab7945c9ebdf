"""A memory's view keeps the fields that do not move with the clock per memory: each view
still says what the memory says now, at the time asked, with the preview asked."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from cortexgraph_vault.engine import memory_views
from tests.builders import NOW, a_vault, service_for


def test_views_follow_the_memory_the_clock_and_the_preview(tmp_path: Path) -> None:
    service = service_for(a_vault(tmp_path / "vault"))
    saved = service.save("Green tea in the morning, " + "steeped three minutes. " * 5, tags=["tea"])
    engine = service.engine
    m = engine.catalog.memory_by_id(saved.memory_id)
    assert m is not None
    first = engine.view(m, now=NOW)
    assert first.use_count == 1 and first.tags == ["tea"] and first.content == m.content
    later = engine.view(m, now=NOW + timedelta(days=3))  # the same memory, a later clock
    assert later.age_days == 3.0 and later.score is not None and first.score is not None
    assert later.score < first.score and later.created == first.created
    short = engine.view(m, now=NOW, preview=10)
    assert short.content == m.content[:10].rstrip() + "…"
    assert engine.view(m, now=NOW).content == m.content  # not the preview's
    service.touch(saved.memory_id)
    touched = engine.catalog.memory_by_id(saved.memory_id)
    assert touched is not None and touched is not m
    view = engine.view(touched, now=NOW)
    assert view.use_count == 2 and view.last_used == first.last_used  # the clock stands at NOW
    assert engine.view(m, now=NOW).use_count == 1  # the older memory's view is its own


def test_the_kept_fields_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    service = service_for(a_vault(tmp_path / "vault"))
    engine = service.engine
    ids = [service.save(f"Memory {i} about tea").memory_id for i in range(5)]
    memories = [engine.catalog.memory_by_id(i) for i in ids]
    monkeypatch.setattr(memory_views, "KEPT_MAX", 3)
    views = [engine.view(m, now=NOW) for m in memories if m is not None]
    assert len(memory_views._kept) <= 3
    assert [v.content for v in views] == [f"Memory {i} about tea" for i in range(5)]

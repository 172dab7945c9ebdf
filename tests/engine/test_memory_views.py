"""A memory's view says what the memory says now, at the time asked, with the preview asked."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from pydantic_core import to_json

from cortexgraph_vault.core.decay import DecayConfig
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.rules import RuleConfig
from cortexgraph_vault.engine import memory_views
from cortexgraph_vault.models import MemoryView, Relations
from tests.builders import NOW, T0, a_memory, a_vault, service_for


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


@pytest.mark.parametrize(
    "memory",
    [
        a_memory("Plain"),
        a_memory("Whole strength", strength=1, use_count=3),  # an int where a float is shown
        a_memory(
            "Promotable",
            use_count=9,
            use_days=4,
            last_used=NOW - timedelta(hours=2),
            tags=("tea", "drinks/hot"),
            entities=("Assam",),
        ),
        a_memory("Promoted", status="promoted", promoted_at=T0, problems=("use_count is odd",)),
        a_memory("Fading", last_used=T0, body='  text  \u2028 \x1f "quoted" é  '),
    ],
)
def test_a_view_is_what_validating_its_fields_makes(memory: Memory) -> None:
    """Views are made without validation: each field already holds what validation gives."""
    for preview in (0, 5):
        for include_score in (True, False):
            view = memory_views.memory_view(memory, NOW, 0.5, DecayConfig(), RuleConfig(),
                                            preview=preview, include_score=include_score)  # fmt: skip
            given = view.model_dump(exclude={"relations"})
            checked = MemoryView.model_validate(given)
            assert view == checked and view.model_fields_set == checked.model_fields_set
            assert to_json(view) == to_json(checked)
            assert view.model_dump_json() == checked.model_dump_json()


def test_an_unchecked_model_is_its_own() -> None:
    """Each instance has its own set fields (setting a field adds to it) and its own lists."""
    given = frozenset({"outgoing"})
    one = memory_views.unchecked(Relations, {"outgoing": [], "incoming": []}, given)
    two = memory_views.unchecked(Relations, {"outgoing": [], "incoming": []}, given)
    one.incoming = []
    assert one.model_fields_set == {"outgoing", "incoming"} and two.model_fields_set == given
    assert one == Relations.model_validate({"outgoing": [], "incoming": []}) == two
    tagged, decay, rules = a_memory("Tagged", tags=("tea",)), DecayConfig(), RuleConfig()
    memory_views.memory_view(tagged, NOW, 0.5, decay, rules).tags.append("more")
    assert memory_views.memory_view(tagged, NOW, 0.5, decay, rules).tags == ["tea"]

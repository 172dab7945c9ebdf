"""The field-by-field merge of two devices' versions of a memory note (pure)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.core.note_merge import CONFLICT_KEY, grew_by_use, merge_note
from cortexgraph_vault.core.text_merge import merge_text
from tests.builders import has_conflict_markers


def a_note(body: str = "I prefer tea.\n", **fields: object) -> str:
    values: dict[str, object] = {
        "id": "3f1c9a0e-0000-4000-8000-000000000001",
        "created": "2026-11-20T10:00:00Z",
        "last_used": "2026-11-25T10:00:00Z",
        "use_count": 5,
        "strength": 1.0,
        "status": "active",
        "tags": "[drinks]",
    }
    values.update(fields)
    head = "".join(f"{k}: {v}\n" for k, v in values.items() if v is not None)
    return f"---\n{head}---\n{body}"


def fields_of(text: str) -> dict[str, object]:
    parsed = parse_note(text)
    assert parsed.problem is None, parsed.problem
    return parsed.frontmatter


def test_uses_made_on_both_devices_add_up_against_the_base() -> None:
    base = a_note(use_count=5)
    ours = a_note(use_count=7, last_used="2026-11-28T09:00:00Z")
    theirs = a_note(use_count=9, last_used="2026-11-27T09:00:00Z")
    merged = merge_note(base, ours, theirs)
    assert merged.text is not None and not merged.conflicted
    fm = fields_of(merged.text)
    assert fm["use_count"] == 11
    assert str(fm["last_used"]).startswith("2026-11-28 09:00:00")


def test_created_is_the_earlier_and_strength_takes_both_boosts_clamped() -> None:
    base = a_note(strength=1.0)
    ours = a_note(strength=1.1, created="2026-11-21T10:00:00Z")
    theirs = a_note(strength=1.2, created="2026-11-19T10:00:00Z")
    fm = fields_of(merge_note(base, ours, theirs).text or "")
    assert fm["strength"] == 1.3
    assert str(fm["created"]).startswith("2026-11-19")
    high = fields_of(merge_note(base, a_note(strength=1.9), a_note(strength=1.8)).text or "")
    assert high["strength"] == 2.0


def test_lists_merge_as_sets_additions_kept_removals_honoured() -> None:
    base = a_note(tags="[drinks, morning]", entities="[Tea]")
    ours = a_note(tags="[drinks, morning, green]", entities="[Tea]")
    theirs = a_note(tags="[drinks]", entities="[Tea, Japan]")
    fm = fields_of(merge_note(base, ours, theirs).text or "")
    assert fm["tags"] == ["drinks", "green"]
    assert fm["entities"] == ["Tea", "Japan"]


def test_our_comments_order_and_unknown_keys_stay_and_only_changed_lines_change() -> None:
    base = a_note(mood="calm  # my own note")
    ours = base.replace("use_count: 5", "use_count: 6")
    theirs = base.replace("use_count: 5", "use_count: 8").replace(
        "status: active", "status: active\nreviewed_by: me"
    )
    merged = merge_note(base, ours, theirs).text or ""
    assert "mood: calm  # my own note\n" in merged
    assert "use_count: 9\n" in merged and "reviewed_by: me\n" in merged
    changed = [line for line in merged.splitlines() if line not in base.splitlines()]
    assert changed == ["use_count: 9", "reviewed_by: me"]


def test_bodies_merge_as_text_when_different_lines_changed() -> None:
    base = a_note(body="one\ntwo\nthree\nfour\n")
    ours = a_note(body="ONE\ntwo\nthree\nfour\n")
    theirs = a_note(body="one\ntwo\nthree\nFOUR\n")
    merged = merge_note(base, ours, theirs)
    assert parse_note(merged.text or "").body == "ONE\ntwo\nthree\nFOUR\n"
    assert not merged.conflicted


def test_same_lines_changed_on_both_keeps_every_word_and_flags_the_note() -> None:
    base = a_note(body="I prefer tea.\n")
    ours = a_note(body="I prefer green tea.\n", use_count=6)
    theirs = a_note(body="I prefer black tea.\n", use_count=6)
    merged = merge_note(base, ours, theirs)
    assert merged.conflicted and merged.text is not None
    parsed = parse_note(merged.text)
    assert parsed.problem is None
    assert "green tea" in parsed.body and "black tea" in parsed.body
    assert has_conflict_markers(parsed.body)
    assert "<<<<<<<" not in merged.text.split("\n---\n", 1)[0]
    assert CONFLICT_KEY in parsed.frontmatter and parsed.frontmatter["use_count"] == 7


def test_a_key_changed_differently_on_both_keeps_ours_and_names_theirs() -> None:
    base = a_note(source="chat")
    merged = merge_note(base, a_note(source="phone"), a_note(source="laptop"))
    fm = fields_of(merged.text or "")
    assert fm["source"] == "phone"
    assert "laptop" in str(fm[CONFLICT_KEY])


def test_status_changed_on_both_takes_the_further_one() -> None:
    base = a_note()
    merged = merge_note(base, a_note(status="promoted"), a_note(status="archived"))
    assert fields_of(merged.text or "")["status"] == "archived"


def test_different_ids_are_two_memories_not_a_merge() -> None:
    ours = a_note(id="aaaa-1")
    theirs = a_note(id="bbbb-2")
    merged = merge_note("", ours, theirs)
    assert merged.text is None and merged.other_id == "bbbb-2"


def test_broken_frontmatter_on_one_side_asks_for_a_text_merge() -> None:
    base = a_note()
    broken = "---\nid: [unclosed\n---\nbody\n"
    merged = merge_note(base, a_note(use_count=6), broken)
    assert merged.text is None and "not valid YAML" in (merged.fallback or "")


def test_without_a_base_counters_take_the_larger_and_lists_the_union() -> None:
    ours = a_note(use_count=4, tags="[a]")
    theirs = a_note(use_count=6, tags="[b]")
    fm = fields_of(merge_note(None, ours, theirs).text or "")
    assert fm["use_count"] == 6 and fm["tags"] == ["a", "b"]


def test_a_key_removed_on_one_side_and_unchanged_on_the_other_is_removed() -> None:
    base = a_note(context="kitchen")
    theirs = a_note()
    merged = merge_note(base, base, theirs)
    assert "context" not in fields_of(merged.text or "")


def test_text_merge_same_change_on_both_is_taken_once() -> None:
    merged = merge_text("a\nb\n", "a\nB\n", "a\nB\n")
    assert merged.text == "a\nB\n" and merged.conflicts == 0


def test_text_merge_keeps_a_missing_final_newline_inside_markers() -> None:
    merged = merge_text("x", "y", "z")
    assert merged.conflicts == 1
    assert merged.text.splitlines() == [
        "<<<<<<< this device",
        "y",
        "=======",
        "z",
        ">>>>>>> other device",
    ]


def test_text_merge_insertions_at_both_ends() -> None:
    merged = merge_text("m\n", "top\nm\n", "m\nbottom\n")
    assert merged.text == "top\nm\nbottom\n"


def as_text(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


# No word lost: a line either device added is in the merge, whatever the edits.
_LINES = st.lists(st.sampled_from(["a", "b", "c", "d", "", "e f", "g"]), max_size=8)


@given(base=_LINES, ours_edit=_LINES, theirs_edit=_LINES, cut_o=st.integers(0, 8),
       cut_t=st.integers(0, 8))  # fmt: skip
def test_text_merge_never_loses_a_line_either_side_added(
    base: list[str], ours_edit: list[str], theirs_edit: list[str], cut_o: int, cut_t: int
) -> None:
    ours = base[:cut_o] + [f"ours {x}" for x in ours_edit] + base[cut_o + 1 :]
    theirs = base[:cut_t] + [f"theirs {x}" for x in theirs_edit] + base[cut_t + 1 :]
    merged = merge_text(as_text(base), as_text(ours), as_text(theirs))
    result = merged.text.splitlines()
    for line in ours + theirs:
        if line.startswith(("ours ", "theirs ")):
            assert line in result, (line, merged.text)
    if merged.conflicts == 0:
        assert not has_conflict_markers(merged.text)
    # The merge of a side with itself, or with the base, is that side.
    assert merge_text(as_text(base), as_text(ours), as_text(base)).text == as_text(ours)


def test_days_with_a_use_add_up_like_uses_and_never_flag_the_note() -> None:
    base = a_note(use_count=5, use_days=2)
    merged = merge_note(base, a_note(use_count=6, use_days=3), a_note(use_count=7, use_days=3))
    fm = fields_of(merged.text or "")
    assert fm["use_count"] == 8 and fm["use_days"] == 4
    assert not merged.conflicted


def test_the_device_of_the_later_use_is_kept_and_a_tie_settles_alike_on_every_device() -> None:
    base = a_note()
    laptop = a_note(use_count=6, last_used="2026-12-01T10:00:00Z", last_used_on="laptop (aaa111)")
    desktop = a_note(use_count=6, last_used="2026-12-01T10:00:00Z", last_used_on="desk (bbb222)")
    here, there = merge_note(base, laptop, desktop), merge_note(base, desktop, laptop)
    assert here.text is not None and there.text is not None and not here.conflicted
    assert fields_of(here.text)["use_count"] == 7
    assert fields_of(here.text)["last_used_on"] == fields_of(there.text)["last_used_on"]
    assert fields_of(here.text)["last_used_on"] == "laptop (aaa111)"
    later = a_note(use_count=6, last_used="2026-12-01T11:00:00Z", last_used_on="desk (bbb222)")
    merged = merge_note(base, laptop, later)
    assert merged.text is not None and not merged.conflicted
    assert fields_of(merged.text)["last_used_on"] == "desk (bbb222)"


def test_a_version_grew_from_another_by_uses_only_with_no_fewer_uses_and_no_earlier_use() -> None:
    base = {"use_count": 3, "last_used": "2026-01-02T10:00:00Z"}
    assert grew_by_use(base, {"use_count": 4, "last_used": "2026-01-03T10:00:00Z"})
    assert grew_by_use(base, {"use_count": "3", "last_used": "2026-01-02T10:00:00Z"})
    assert grew_by_use({}, {})  # both count one use, neither says when
    assert not grew_by_use(base, {"use_count": 2, "last_used": "2026-01-03T10:00:00Z"})
    assert not grew_by_use(base, {"use_count": 4, "last_used": "2026-01-01T10:00:00Z"})
    for odd in ([3], "three", None, {"n": 3}):
        assert not grew_by_use(base, {"use_count": odd, "last_used": "2026-01-03T10:00:00Z"})

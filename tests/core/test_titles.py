"""A title from a memory's text ends where a phrase does, never on a word needing the next."""

from __future__ import annotations

import pytest

from cortexgraph_vault.core.titles import DANGLING, title_from_text


@pytest.mark.parametrize(
    ("text", "title"),
    [
        # a short first sentence is the title whole
        ("Maya loves hiking in the mountains.", "Maya loves hiking in the mountains"),
        ("I run every Saturday morning. Usually 10 km.", "I run every Saturday morning"),
        # a long one is cut at its last phrase boundary within ten words
        ("My sister Lena works as a nurse in Uppsala and likes to hike in the mountains.",
         "My sister Lena works as a nurse in Uppsala"),
        ("We decided to use Postgres for the event store, not Kafka, because the team knows it.",
         "We decided to use Postgres for the event store"),
        ("Prefers TypeScript over JavaScript for new services because of the types and tooling.",
         "Prefers TypeScript over JavaScript for new services"),
        # Markdown marks at the start are not words of the title
        ("# Meeting notes\nWhat we said.", "Meeting notes"),
        ("- buy oat milk on the way home", "buy oat milk on the way home"),
        ("", "memory"),
    ],
)  # fmt: skip
def test_a_title_ends_at_a_phrase_boundary(text: str, title: str) -> None:
    assert title_from_text(text) == title


@pytest.mark.parametrize(
    "text",
    [
        "My sister Lena works as a nurse in a hospital in the north of the country.",
        "The thing I keep forgetting is that the keys of the shed are with the neighbour.",
        "Note to self: when the alarm goes off at the office it is usually a test.",
        "Jonas said that the and of a or the in on at to from with by for the plan.",
    ],
)
def test_no_title_ends_on_a_dangling_word(text: str) -> None:
    title = title_from_text(text)
    assert title.split()[-1].lower() not in DANGLING, title
    assert len(title.split()) <= 10 and text.startswith(title)

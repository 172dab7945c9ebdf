"""Everyday words that mean the same in what people tell an assistant about themselves.

A query word in a group also matches the group's other words (query side only, at a lower
weight than the word itself), as a search engine's synonym filter does. The bundled vector
model is good at "food allergies" → "allergic to peanuts" but not at "boss" → "manager";
this short list covers the relations people ask about most: work, family, home, health,
money, time. Pure data: stems are computed by the caller.
"""

from __future__ import annotations

from collections.abc import Callable

GROUPS: tuple[tuple[str, ...], ...] = (
    ("boss", "manager", "supervisor", "superior"),
    ("job", "work", "career", "employment", "occupation", "profession"),
    ("employer", "company", "firm", "workplace"),
    ("colleague", "coworker", "teammate"),
    ("salary", "pay", "wage", "income", "paycheck"),
    ("meeting", "standup"),
    ("kid", "child", "son", "daughter"),
    ("wife", "husband", "spouse", "partner"),
    ("mom", "mother", "mum", "parent"),
    ("dad", "father", "parent"),
    ("sibling", "brother", "sister"),
    ("friend", "buddy", "pal"),
    ("pet", "dog", "cat", "puppy", "kitten"),
    ("home", "house", "apartment", "flat"),
    ("car", "vehicle", "auto"),
    ("doctor", "physician", "gp", "dentist"),
    ("allergy", "allergic", "intolerance", "intolerant"),
    ("sick", "ill", "illness", "disease", "condition"),
    ("medicine", "medication", "meds", "prescription", "pill"),
    ("food", "meal", "dish", "cuisine", "eat", "diet"),
    ("drink", "beverage"),
    ("hobby", "pastime", "interest"),
    ("vacation", "holiday", "trip", "travel"),
    ("birthday", "bday"),
    ("phone", "mobile", "cell", "smartphone"),
    ("computer", "laptop", "pc"),
    ("movie", "film"),
    ("book", "novel"),
    ("school", "college", "university"),
    ("teacher", "professor", "instructor"),
    ("study", "learn", "course", "class"),
    ("like", "love", "enjoy", "prefer", "favourite", "favorite"),
    ("dislike", "hate", "avoid"),
    ("buy", "purchase", "bought"),
    ("move", "relocate", "moved"),
    ("deadline", "due"),
)


def synonym_map(stem: Callable[[list[str]], list[str]]) -> dict[str, tuple[str, ...]]:
    """Stem → the stems of its synonyms (a word in several groups gets all of them)."""
    out: dict[str, set[str]] = {}
    for group in GROUPS:
        stems = stem(list(group))
        for s in stems:
            out.setdefault(s, set()).update(t for t in stems if t != s)
    return {s: tuple(sorted(others)) for s, others in out.items()}

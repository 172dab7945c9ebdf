"""Does a new memory likely replace an older one? Noticed at save time, without a model.

Two statements are one fact at two times when they have the same holder and the same slot
(core/fact_slots.py) and the new one gives a different value: "I live in Paris" and "we
moved to Berlin" share no word, yet one replaces the other. Where no listed slot applies,
the rare words two statements share stand for the slot ("the Heron launch deadline" /
"the Heron launch slipped"), with a different date, number or name as the new value.

Each candidate gets a verdict:

- **listed** (`may_supersede`): same holder, and same slot or most of the old one's topic
  words, and something different — for the model (or the person) to confirm;
- **strong**: listed, with a change cue in the new text ("moved to", "switched", "no
  longer", "now", "new", "instead", a later date…), for a slot that holds one value at a
  time (or nearly every topic word shared), and the best such candidate of the save. Only
  that one is recorded without asking.

Precision matters more than recall: an unrelated memory marked superseded would hide a
true fact. So sharing a name is never enough ("Maya likes hiking" / "Maya's sister lives in
Lyon"), a relative named on one side only parts the holders, and a second slot mentioned on
the way ("a new GP, closer to the new flat") is listed at most.

Pure: no files, no clock.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cortexgraph_vault.core.fact_slots import (
    Holder,
    adds,
    change_cues,
    clear_change,
    entities_of,
    holder_of,
    leading_slots,
    same_holder,
    single_valued,
    slot_holders,
    slots_stated,
    when_values,
)
from cortexgraph_vault.core.use_relevance import WordWeights

# the part of the old statement's topic words (by rarity) the new one must share to stand
# for its slot when no listed slot applies, and to be recorded on that ground alone
SHARED_LISTED = 0.5
SHARED_STRONG = 0.5
RARE = 0.5  # rarity from which a shared word counts as distinctive


@dataclass(frozen=True)
class Statement:
    key: str  # the memory's id (or path)
    title: str
    text: str
    saved: float = 0.0  # when it was saved (seconds); the newer replaces the older


@dataclass(frozen=True)
class Replacement:
    key: str
    title: str
    why: str
    strong: bool
    weight: float  # how sure, for ordering


def likely_replaced(new: str, olds: Sequence[Statement], weights: WordWeights) -> list[Replacement]:
    """The statements among `olds` that `new` likely replaces, surest first; at most one strong."""
    new_slots = slots_stated(new)
    # Whose fact the new text states is asked only of a candidate that shares its slot or
    # subject (the cheap test in `_compare`): most saves meet none, and the names take the
    # longest to find.
    new_holder = functools.cache(lambda: holder_of(new))
    cues = change_cues(new)
    clear = clear_change(new) and not adds(new)
    new_stems = weights.stems(new)
    new_when = when_values(new)
    compared = (
        _compare(new, new_slots, new_holder, cues, clear, new_stems, new_when, old, weights)
        for old in olds
    )
    found = [verdict for verdict in compared if verdict is not None]
    found.sort(key=lambda r: (-r.weight, r.key))
    strong = [r for r in found if r.strong]
    if len(strong) > 1 and strong[0].weight - strong[1].weight < 0.25:
        # two near-equal candidates: which one the save replaces is the model's call
        strong = []
    if strong:
        # a save states one fact: beside a sure replacement, the rest are what it mentions
        # on the way ("Priya left the company, so my new manager is…" replaces the manager)
        return strong[:1]
    return [
        r if not r.strong else Replacement(r.key, r.title, r.why, False, r.weight) for r in found
    ]


def _compare(
    new: str,
    new_slots: frozenset[str],
    new_holder: Callable[[], Holder],
    cues: list[str],
    clear: bool,
    new_stems: dict[str, float],
    new_when: frozenset[str],
    old: Statement,
    weights: WordWeights,
) -> Replacement | None:
    old_text = old.text
    old_stems = weights.stems(old_text)
    if not old_stems:
        return None
    rarity = {s: weights.rarity(s) for s in old_stems}
    total = sum(rarity.values()) or 1.0
    shared = [s for s in old_stems if s in new_stems]
    overlap = sum(rarity[s] for s in shared) / total
    distinctive = [s for s in shared if rarity[s] >= RARE]
    fresh = [s for s in new_stems if s not in old_stems]
    slots = slots_stated(old_text, new_slots) if new_slots else frozenset()
    old_when = when_values(old_text)
    rescheduled = bool(new_when and old_when and new_when != old_when and distinctive)
    if not (slots or rescheduled or (overlap >= SHARED_LISTED and distinctive)):
        return None  # neither one slot nor one subject: the cheap test, before the names
    holder = holder_of(old_text)
    # a capitalised first word the other text writes in lower case ("Standup moved…" /
    # "team standup is…") is a thing, not a person holding the fact
    old_lower, new_lower = _lower_words(old_text), _lower_words(new)
    if not same_holder(_as_things(new_holder(), old_lower), _as_things(holder, new_lower), slots):
        return None
    if slots:
        # a slot is one fact only when both clauses stating it have one holder: "Priya left
        # the company, so my new manager is…" says nothing of my employer
        olds_by, news_by = slot_holders(old_text, slots), slot_holders(new, slots)
        slots = frozenset(
            s
            for s in slots
            if s not in olds_by
            or s not in news_by
            or same_holder(
                _as_things(news_by[s], old_lower),
                _as_things(olds_by[s], new_lower),
                frozenset([s]),
            )
        )
        if not (slots or rescheduled or (overlap >= SHARED_LISTED and distinctive)):
            return None
    differs = bool(fresh) or rescheduled
    if not differs:
        return None  # the same thing said again: a duplicate, not a replacement
    reasons: list[str] = []
    weight = 0.0
    one_value = [s for s in sorted(slots) if single_valued(s)]
    lexical = overlap >= SHARED_LISTED and bool(distinctive)
    if slots and not (
        lexical
        or rescheduled
        or (_leading_slot(new, sorted(slots)) and _leading_slot(old_text, sorted(slots)))
    ):
        return None  # a slot met on the way ("a new GP, closer to the new flat"), either side
    if slots:
        reasons.append(f"same {', '.join(sorted(slots))}, a different value")
        weight += 1.0
    new_names, old_names = _names(new), _names(old_text)
    if _tokens(new_names) & _tokens(old_names):
        weight += 0.3  # one name on both sides: likelier about the same thing
    if overlap >= SHARED_LISTED and distinctive:
        reasons.append("shares " + ", ".join(distinctive[:4]))
        weight += overlap
    elif rescheduled:
        reasons.append(f"same {', '.join(distinctive[:3])}, another date or number")
        weight += 0.5 + overlap
    if not reasons:
        return None
    if cues:
        reasons.append("says it changed (“" + "”, “".join(dict.fromkeys(cues[:3])) + "”)")
        weight += 0.5
    values = new_names - new_holder().names  # "Sam changed careers": Sam holds, not a value
    new_value = bool(values - old_names) or rescheduled
    # names, and none new: something about the old value ("a new colour scheme in Neovim"),
    # not a new value
    same_value = bool(values) and not new_value
    strong = (
        not adds(new)
        and not same_value
        and (
            (bool(cues) and bool(one_value) and _leading_slot(new, one_value))
            or (clear and new_value and overlap >= SHARED_STRONG and len(distinctive) >= 2)
            or (clear and rescheduled and overlap >= SHARED_LISTED - 0.2)
        )
    )
    return Replacement(old.key, old.title, "; ".join(reasons), strong, round(weight, 4))


def _leading_slot(new: str, slots: Sequence[str]) -> bool:
    """Whether one of `slots` is what the new statement is mainly about: the first slot it
    states, so "a new GP, closer to the new flat" is about the doctor, not the home."""
    first = leading_slots(new)
    return any(s in first for s in slots)


def _tokens(names: frozenset[str]) -> frozenset[str]:
    return frozenset(w for name in names for w in name.split() if len(w) > 2)


def _lower_words(text: str) -> frozenset[str]:
    return frozenset(w for w in re.findall(r"\b[a-z][\w\-]*", text))


def _as_things(holder: Holder, lower: frozenset[str]) -> Holder:
    names = frozenset(n for n in holder.names if n not in lower)
    if names == holder.names:
        return holder
    implicit = not (names or holder.relatives)
    return Holder(holder.self_ or implicit, names, holder.relatives)


def _names(text: str) -> frozenset[str]:
    return frozenset(name.casefold() for name, source, _ in entities_of(text) if source != "vault")

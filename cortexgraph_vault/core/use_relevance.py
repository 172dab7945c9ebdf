"""Is a memory relevant to a message: the one decision behind auto-recall and the recall analysis.

A use counts only when the memory was relevant, because uses drive promotion: a memory
reinforced for sharing "live" or "days" with a message would be kept for good on false
evidence. So the evidence weighed is what two texts share *about a topic*:

- **rare content words**: words shared by message and memory, each weighed by how rare it is
  in the vault (inverse document frequency, 0..1); everyday words ("live", "days", "plan",
  core/english.py `EVERYDAY_WORDS`) and stop words weigh nothing;
- **coverage**: the part of the message's own topic words (by weight) the memory holds, so
  a long message sharing one word with a memory is not about it;
- **names**: a person, place or product named on both sides;
- **the asked slot**: a question about the person's own facts ("which city does the user
  live in?") is answered by a memory stating that slot ("we moved to Berlin"), even with no
  word in common (core/fact_slots.py);
- **meaning**: the cosine of the two texts' vectors, when vectors are at hand, as support
  for the rest — never enough alone (a modest model puts chit-chat near anything).

The parts add up to `relevance` in [0, 1]; a memory is relevant from `THRESHOLD`, the same
bar for reinforcing (auto-recall) and for saying memory is worth searching (the analysis).
The weights and the bar were set on a labelled set of messages × memories
(tests/intelligence/recall_pairs.jsonl), where reinforcement precision is what they keep high.

Pure: no files, no clock.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from cortexgraph_vault.core.english import EVERYDAY_WORDS, STOP_WORDS, any_of, word_set
from cortexgraph_vault.core.fact_slots import (
    Holder,
    entities_of,
    holder_of,
    leading_slots,
    remembered_by_text,
    same_holder,
    single_valued,
    slot_holders,
    slots_asked,
)
from cortexgraph_vault.core.intent import is_question
from cortexgraph_vault.core.recall_bar import THRESHOLD as THRESHOLD

# weights of the evidence (see module docstring); set on the labelled set
RARE_WORD = 0.3  # per unit of shared rarity
COVERAGE = 0.38  # times the covered part of the message
NAME = 0.35  # a name on both sides
SLOT = 0.55  # the memory states what the question asks for
MEANING = 0.8  # times the cosine above MEANING_FROM
MEANING_FROM = 0.45
# Beside a memory that matches clearly better, one that shares less of the message, or is
# much further from it in meaning, is not what the message is about ("which school does Tijn
# go to?" is not about Tijn's swimming lessons).
COVERAGE_MARGIN = 0.6  # of the best coverage
MEANING_MARGIN = 0.2  # below the best cosine
# A shared stem counts this much when the two words differ by a suffix that makes another
# word of it: "designer" is a person, "design" what they do ("what do I design in?" is not
# about my job as a designer); "flat whites" and "flat white" are one word.
DERIVED = 0.5
_DERIVING = word_set("er ers or ors ist ists ion ions ment ments ness")
_INFLECTING = frozenset(["", "s", "es", "d", "ed", "ing"])
# words that only stand for the person asking, in questions a model writes about them
_ASKER = frozenset(["user", "users", "user's", "person", "assistant"])

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_SELF_ASK = any_of(r"\b(?:i|my|me|we|our|us|the user|user's|users|the family|the household)\b")


def content_words(text: str) -> list[str]:
    """The words of a text that can name a topic, lower-cased, in order (repeats dropped)."""
    return list(_content_words(text))


# A save weighs each candidate memory's words twice, and the saves after it mostly the same
# memories again (auto-recall too): a memory-sized text's words are remembered.
@remembered_by_text
def _content_words(text: str) -> tuple[str, ...]:
    out: list[str] = []
    for m in _WORD.finditer(text):
        w = m.group(0).lower().replace("’", "'").removesuffix("'s").replace("'", "")
        if len(w) < 2 or w in STOP_WORDS or w in EVERYDAY_WORDS or w in _ASKER or w.isdigit():
            continue
        out.append(w)
    return tuple(dict.fromkeys(out))


@dataclass(frozen=True)
class WordWeights:
    """How words are compared: `stem` (the search index's stemmer) and `rarity` of a stem in
    the vault, 0 (in every note) to 1 (in one note, or none)."""

    stem: Callable[[list[str]], list[str]]
    rarity: Callable[[str], float]

    def stems(self, text: str) -> dict[str, float]:
        found = content_words(text)
        return dict(zip(self.stem(found), (1.0 for _ in found), strict=False))

    def forms(self, text: str) -> dict[str, frozenset[str]]:
        """Each stem of the text's topic words with the words that gave it."""
        found = content_words(text)
        out: dict[str, set[str]] = {}
        for stem, word in zip(self.stem(found), found, strict=False):
            out.setdefault(stem, set()).add(word)
        return {k: frozenset(v) for k, v in out.items()}


def derived(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two sets of words of one stem hold no common word, only one word made from
    the other by a deriving suffix ("design" / "designer")."""
    if a & b:
        return False
    added = {_added(x, y) for x in a for y in b}
    return bool(added & _DERIVING) and not added & _INFLECTING


def _added(x: str, y: str) -> str | None:
    """What the longer word adds to the shorter one, if it starts with it."""
    short, long = (x, y) if len(x) <= len(y) else (y, x)
    return long[len(short) :] if long.startswith(short) else None


def idf_rarity(documents: int, frequencies: Mapping[str, int]) -> Callable[[str], float]:
    """Rarity from document frequencies: a word's IDF over that of a word in one note."""
    top = math.log(1.0 + (documents + 0.5) / 1.5) if documents else 1.0

    def rarity(stem: str) -> float:
        df = frequencies.get(stem, 0)
        if df <= 1:
            return 1.0
        return max(0.0, min(1.0, math.log(1.0 + (documents - df + 0.5) / (df + 0.5)) / top))

    return rarity


@dataclass(frozen=True)
class MessageView:
    """What of a message the judgement reads, worked out once for every memory."""

    text: str
    stems: tuple[str, ...]
    names: frozenset[str]
    asked: frozenset[str]  # slots a question about the person (or a named one) asks for
    holder: Holder
    forms: dict[str, frozenset[str]]  # the words behind each stem
    # "how do I make a flat white?": asks how a thing is done in general; a memory it brings
    # to mind is background, not what was asked, so it is no use of that memory
    procedure: bool = False

    @classmethod
    def of(cls, text: str, weights: WordWeights) -> MessageView:
        names = _names(text)
        about_someone = bool(_SELF_ASK.search(text) or names)
        asked = slots_asked(text) if is_question(text) and about_someone else frozenset()
        holder = holder_of(text, question=True)
        procedure = bool(_PROCEDURE.search(text))
        forms = weights.forms(text)
        return cls(text, tuple(weights.stems(text)), names, asked, holder, forms, procedure)


# "how do I reverse a list…", "how can I make an omelette…", "how to fix a…": a general
# how-to about some thing (not "how do I take my coffee?", "how do I usually get there?")
_PROCEDURE = any_of(
    r"^\W*how\s+(?:(?:do|can|should|could|would)\s+(?:i|we|you|one)\s+|to\s+)"
    r"(?!usually|normally|always|often|still|currently|now\b)\w+\s+(?:a|an|some)\b",
)


def _names(text: str) -> frozenset[str]:
    return frozenset(
        key for name, _, _ in entities_of(text) if (key := name.casefold()) not in EVERYDAY_WORDS
    )


@dataclass(frozen=True)
class Use:
    relevance: float
    why: str
    slot: str | None = None  # the asked slot this memory answers, if that is why
    coverage: float = 0.0
    cosine: float | None = None
    shared: frozenset[str] = frozenset()  # the message's topic words (stems) it holds

    @property
    def relevant(self) -> bool:
        return self.relevance >= THRESHOLD


def judge(
    message: MessageView, memory: str, weights: WordWeights, cosine: float | None = None
) -> Use:
    """How relevant `memory` (its title and text) is to the message, and why."""
    own = weights.forms(memory)
    rarity = {s: weights.rarity(s) for s in message.stems}
    shared = [s for s in message.stems if s in own]
    share = {
        s: rarity[s] * (DERIVED if derived(message.forms.get(s, frozenset()), own[s]) else 1.0)
        for s in shared
    }
    shared_rarity = sum(share.values())
    total = sum(rarity.values())
    coverage = shared_rarity / total if total > 0 else 0.0
    names = message.names & _names(memory)
    # the slots the memory is about, not one it mentions on the way (core/fact_slots.py): its
    # title's and its text's own, each led by the first it states
    title, _, body = memory.partition("\n")
    slots = message.asked & (leading_slots(title) | leading_slots(body))
    holder = holder_of(memory)
    if slots:
        # "what's my job?" is not answered by my partner's job, nor "who is my boss?" by
        # the clause saying someone left the company
        clauses = {**slot_holders(title, slots), **slot_holders(body, slots)}
        slots = frozenset(
            s
            for s in slots
            if same_holder(message.holder, holder, slots)
            and same_holder(message.holder, clauses.get(s, holder), frozenset([s]))
        )
    # a question about a named person ("which school does Mia go to?") is not about what
    # another named person holds ("Sam teaches at a high school") for a shared word
    elsewhere = bool(message.holder.names and holder.names and not names)
    parts: list[tuple[float, str]] = []
    if shared and not elsewhere:
        parts.append((RARE_WORD * shared_rarity, "shares " + ", ".join(shared[:4])))
        parts.append((COVERAGE * coverage, f"covers {coverage:.0%} of the message's topic words"))
    if names:
        parts.append((NAME, "names " + ", ".join(sorted(names)[:3])))
    slot = min(slots) if slots else None
    if slot is not None:
        parts.append((SLOT, f"states the {slot} asked about"))
    if (
        cosine is not None
        and cosine > MEANING_FROM
        and ((shared and not elsewhere) or slots or names)
    ):
        parts.append((MEANING * (cosine - MEANING_FROM), f"close in meaning ({cosine:.2f})"))
    z = sum(p for p, _ in parts)
    relevance = round(min(1.0, z), 4)
    why = "; ".join(w for p, w in parts if p > 0) or "nothing in common but everyday words"
    if message.procedure and slot is None:
        relevance = 0.0
        why = f"asks how something is done in general ({why})"
    return Use(relevance, why, slot, coverage, cosine, frozenset(shared))


@dataclass(frozen=True)
class Judged:
    key: str
    use: Use
    saved: float  # when the memory was saved (seconds): the newest states a slot's value


def pick(judged: list[Judged], bar: float = THRESHOLD) -> list[Judged]:
    """The memories a message is about, best first: relevant from `bar`, none left beside one
    that matches clearly better (the margins), and for a slot holding one value at a time
    only the newest memory stating it — "where do I live?" is answered by the latest move."""
    found = [j for j in judged if j.use.relevance >= bar]

    def beats(better: Judged, j: Judged) -> bool:
        """`better` holds all `j` shares with the message, and clearly more of it or closer."""
        if better is j or not j.use.shared <= better.use.shared:
            return False
        if j.use.coverage < COVERAGE_MARGIN * better.use.coverage:
            return True
        a, b = better.use.cosine, j.use.cosine
        return a is not None and b is not None and b < a - MEANING_MARGIN

    found = [j for j in found if j.use.slot is not None or not any(beats(o, j) for o in found)]
    newest: dict[str, Judged] = {}
    for j in found:
        slot = j.use.slot
        if slot is not None and single_valued(slot):
            held = newest.get(slot)
            if held is None or (j.saved, j.key) > (held.saved, held.key):
                newest[slot] = j
    found = [j for j in found if j.use.slot is None or newest.get(j.use.slot, j) is j]
    found.sort(key=lambda j: (-j.use.relevance, j.key))
    return found

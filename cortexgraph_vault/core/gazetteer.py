"""Finding known names (vault note titles and aliases, technical terms) in free text.

Matching is on whole words, case-insensitive, longest name first, and tolerant of the small
variants people type: "Ledger-Migration", "ledger migrations", "home lab" for "Homelab", and
one-letter slips in long names (rapidfuzz). A name that is an ordinary English word or very
short ("Go", "Rest", "Key", "AI") is different: it matches only with its exact case and not
as the first word of a sentence, so "go for a run" or "Go ahead" never links to `Go.md`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from cortexgraph_vault.core.english import COMMON_WORDS, STOP_WORDS

_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
# What may sit between the words of one name: spaces, a hyphen or underscore, or a single
# "." or "/" inside a word ("Node.js", "CI/CD"). Anything else (", ", ". ") ends the name.
_JOIN = re.compile(r"(?:[ \t\-_]+|[./])")
_SENTENCE_BREAK = re.compile(r"[.!?:;\n\"“(]")
MAX_NAME_WORDS = 10
FUZZY_MIN_CHARS = 8
FUZZY_CUTOFF = 90.0


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    start: int
    end: int
    initial: bool  # first word of a sentence (or of the text)
    # `word_key(text)`, made once: a save's name search asks for it in every window of
    # words it tries (hundreds of times for a note of a few sentences)
    key: str


def tokenize(text: str) -> list[Token]:
    out: list[Token] = []
    prev_end = 0
    for m in _TOKEN.finditer(text):
        gap = text[prev_end : m.start()]
        # "Node.js", "CI/CD": one word, not a new sentence
        initial = not out or (gap not in (".", "/") and bool(_SENTENCE_BREAK.search(gap)))
        word = m.group(0)
        out.append(Token(word, m.start(), m.end(), initial, word_key(word)))
        prev_end = m.end()
    return out


def word_key(word: str) -> str:
    """Lower-case, possessive "'s" dropped, apostrophes removed: "Priya's" → "priya"."""
    w = word.casefold().removesuffix("'s").removesuffix("’s")
    return w.replace("'", "").replace("’", "")


def singular(word: str) -> str:
    """A crude singular, applied the same way to names and text, so only consistency matters."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def phrase_key(keys: Sequence[str]) -> str:
    """Words joined without separators, the last one singular: hyphen/space/plural tolerant."""
    return "".join(keys[:-1]) + singular(keys[-1]) if keys else ""


def needs_exact_case(words: Sequence[str], short: int = 2) -> bool:
    """One short or ordinary word: only its exact spelling, mid-sentence, is the name."""
    if len(words) != 1:
        return False
    key = word_key(words[0])
    return len(key) <= short or key in COMMON_WORDS or key in STOP_WORDS


@dataclass(frozen=True, slots=True)
class Name:
    surface: str  # the title or alias as written in the vault
    target: str  # what the match stands for: the note's title, or the term's canonical form
    link: str | None = None  # wikilink target for vault notes (title, or path if ambiguous)
    is_title: bool = True


@dataclass(frozen=True, slots=True)
class NameMatch:
    start: int
    end: int
    text: str  # as it appears in the message
    name: Name
    fuzzy: bool = False


@dataclass(frozen=True, slots=True)
class _Entry:
    name: Name
    words: tuple[str, ...]
    exact_case: bool


class Gazetteer:
    """An immutable lookup of names; build it once per vault state and reuse it."""

    def __init__(self, names: Iterable[Name], exact_case_up_to: int = 2) -> None:
        """`exact_case_up_to`: one-word names this short match only as spelled, mid-sentence."""
        # Only the names by key: a name's words and case rule are worked out again when its
        # key is met in a text, so a vault's many names are not held twice.
        self._exact: dict[str, tuple[Name, ...]] = {}
        self._fuzzy: dict[tuple[str, int], set[str]] = {}
        self._short = exact_case_up_to
        self.max_words = 1
        count = 0
        for name in names:
            words = _TOKEN.findall(name.surface)
            if not words or len(words) > MAX_NAME_WORDS:
                continue
            key = phrase_key([word_key(w) for w in words])
            self._exact[key] = (*self._exact.get(key, ()), name)
            count += 1
            self.max_words = max(self.max_words, len(words))
            if len(key) >= FUZZY_MIN_CHARS and not needs_exact_case(words, exact_case_up_to):
                self._fuzzy.setdefault((key[:2], len(key)), set()).add(key)
        self.size = count

    def _entries(self, key: str) -> list[_Entry]:
        out = []
        for name in self._exact.get(key, ()):
            words = tuple(_TOKEN.findall(name.surface))
            out.append(_Entry(name, words, needs_exact_case(words, self._short)))
        return out

    def __len__(self) -> int:
        return self.size

    def find(
        self, text: str, tokens: Sequence[Token] | None = None, taken: set[int] | None = None
    ) -> list[NameMatch]:
        """Matches left to right, longest first; `taken` token indexes are skipped and extended."""
        toks = list(tokens) if tokens is not None else tokenize(text)
        taken = taken if taken is not None else set()
        reach = _joinable_reach(text, toks)
        out: list[NameMatch] = []
        i = 0
        while i < len(toks):
            found = None
            if i not in taken:
                widest = min(self.max_words + 1, reach[i])
                for w in range(widest, 0, -1):
                    if any(j in taken for j in range(i, i + w)):
                        continue
                    found = self._match(toks[i : i + w])
                    if found is not None:
                        entry, fuzzy = found
                        start, end = toks[i].start, toks[i + w - 1].end
                        out.append(NameMatch(start, end, text[start:end], entry.name, fuzzy))
                        taken.update(range(i, i + w))
                        i += w
                        break
            if found is None:
                i += 1
        return out

    def _match(self, window: Sequence[Token]) -> tuple[_Entry, bool] | None:
        key = phrase_key([t.key for t in window])
        entries = [e for e in self._entries(key) if _case_ok(e, window)]
        fuzzy = False
        if not entries and len(key) >= FUZZY_MIN_CHARS and window[0].key not in STOP_WORDS:
            near = self._near(key)
            if near is not None:
                entries = [e for e in self._entries(near) if not e.exact_case]
                fuzzy = True
        chosen = _choose(entries) if entries else None
        return (chosen, fuzzy) if chosen is not None else None

    def _near(self, key: str) -> str | None:
        candidates: list[str] = []
        for length in range(len(key) - 1, len(key) + 2):
            candidates.extend(self._fuzzy.get((key[:2], length), ()))
        if not candidates:
            return None
        best = process.extractOne(key, candidates, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
        return best[0] if best else None


def _case_ok(entry: _Entry, window: Sequence[Token]) -> bool:
    if not entry.exact_case:
        return True
    token = window[0]
    if len(window) != 1 or token.text != entry.words[0]:
        return False
    # "Go ahead" / "Rest assured": a capital at a sentence start says nothing. An acronym or
    # inner capital ("AWS", "GitHub") does.
    return not token.initial or any(c.isupper() for c in token.text[1:])


def _choose(entries: Sequence[_Entry]) -> _Entry | None:
    """One note per name: a title beats an alias; different notes sharing an alias → none."""
    targets = {(e.name.target, e.name.link) for e in entries}
    if len(targets) == 1:
        return entries[0]
    titles = [e for e in entries if e.name.is_title]
    if len({(e.name.target, e.name.link) for e in titles}) == 1:
        return titles[0]
    return None


def _joinable_reach(text: str, toks: Sequence[Token]) -> list[int]:
    """For each token, how many tokens from it on form one uninterrupted name-like run."""
    reach = [1] * len(toks)
    for i in range(len(toks) - 2, -1, -1):
        gap = text[toks[i].end : toks[i + 1].start]
        if _JOIN.fullmatch(gap):
            reach[i] = reach[i + 1] + 1
    return reach

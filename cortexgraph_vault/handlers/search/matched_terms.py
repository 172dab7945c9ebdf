"""What matched in each search hit: the fields of the note holding a matched term, and those
terms (a hit's `matched`, and `explain.matched_terms`).

The word index already knows which terms each note holds and how often, weighted by field
(index/text/document_terms.py `term_stats`); what the short fields (title, aliases, tags,
entities) do not account for is in the text. So a hit's text is not split and stemmed again
for this. The text is split only where the index cannot speak for the note (a long text, of
which only the start is looked through; a note of very many terms; a newer version of the
note than the one asked about), and its terms are then remembered by the text
(index/text/content_stems.py).
"""

from __future__ import annotations

from cortexgraph_vault.handlers.graph.catalog_memo import NoteMemo
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.notes.records import IndexedNote
from cortexgraph_vault.index.text.content_stems import content_stems
from cortexgraph_vault.index.text.document_terms import document_tokens
from cortexgraph_vault.index.text.text_index import FIELD_WEIGHTS, FIELDS, echoes_content

MATCH_SCAN_CHARS = 20_000  # of a note's text, looked through to say what matched


class _Split:
    """What `matched_in` looks through in one version of a note, split once: a search shows
    the same notes call after call, and splitting their short fields (and the start of their
    text, to see whether the title repeats it) was two thirds of the work per hit."""

    __slots__ = ("content", "counted", "long_text", "sets", "tokens")

    def __init__(self, note: IndexedNote) -> None:
        *short, content = note.document().field_texts()
        self.long_text = len(content) > MATCH_SCAN_CHARS
        self.content = content  # the note's own text, not a copy (a long one is cut at use)
        self.tokens = [document_tokens(text) if text else [] for text in short]
        self.sets = [frozenset(tokens) for tokens in self.tokens]
        self.counted: list[list[str]] | None = None  # the short fields as term_stats counts them

    def as_counted(self) -> list[list[str]]:
        """The short fields' terms as `term_stats` counts them: a title or alias made of the
        text's first words is not counted."""
        if self.counted is None:
            fields = list(self.tokens)
            text = self.content[:MATCH_SCAN_CHARS]
            first = _first_tokens(text, max(len(fields[0]), len(fields[1])))
            fields[:2] = [[] if echoes_content(f, first) else f for f in fields[:2]]
            self.counted = fields
        return self.counted


_split_of = NoteMemo(_Split)  # the hits of recent searches


def matched_fields(
    note: IndexedNote, expansions: dict[str, list[str]], *, by_words: bool = True
) -> list[str]:
    return matched_in(note, expansions, by_words=by_words)[0]


def _held(catalog: VaultCatalog, note: IndexedNote, wanted: set[str]) -> dict[str, float] | None:
    """The terms of `wanted` the word index holds for `note`, when it indexes that very note
    (not a newer version of its path) and can say it (index/text/text_index.py `terms_held`)."""
    with catalog.lock:
        if catalog.note(note.path) is not note:
            return None
        return catalog.text.terms_held(note.path, wanted)


def _held_in_text(held: dict[str, float], split: _Split, found: list[set[str]]) -> set[str]:
    """The held terms the text holds: each one's weighted frequency in the index, less what
    the short fields add to it (`found`: the held terms among each), as `term_stats` counts
    them: whole numbers, so the difference is exact."""
    if not any(found):  # the short fields add nothing: every term held is in the text
        return {term for term, tf in held.items() if tf > 0}
    fields = split.as_counted() if found[0] or found[1] else split.tokens
    weighted = list(zip(FIELD_WEIGHTS[:-1], fields, found, strict=True))
    return {
        term
        for term, tf in held.items()
        if tf > sum(w * f.count(term) for w, f, here in weighted if term in here)
    }


def _first_tokens(text: str, n: int) -> list[str]:
    """At least the first `n` terms of `text` (all when it has fewer), from its start."""
    end = 64 * (n + 1)
    while True:
        tokens = document_tokens(text[:end])
        if end >= len(text):
            return tokens
        if len(tokens) > n:  # the last may be a word cut at `end`; those before are whole
            return tokens[:n]
        end *= 4


def matched_in(
    note: IndexedNote,
    expansions: dict[str, list[str]],
    *,
    by_words: bool = True,
    catalog: VaultCatalog | None = None,
) -> tuple[list[str], list[str]]:
    """The fields of the note that hold a matched term, and those terms. Only the start of a
    long text is looked through (re-reading megabytes per hit stalled every other call): a
    note matched by words whose other fields hold none of them has them in its text.

    `catalog`: the one the note is from. Its word index says which terms the note holds and
    how often (weighted): what the short fields do not account for is in the text, so the
    text is not split again. Without one, or for a long
    text, or a note the index cannot speak for, the text's terms are split (and remembered:
    index/text/content_stems.py)."""
    wanted = {w for found in expansions.values() for w in found}
    if not wanted:
        return [], []
    split = _split_of(note)
    names, terms = [], set()
    found = [wanted.intersection(here) for here in split.sets]
    held = _held(catalog, note, wanted) if catalog is not None and not split.long_text else None
    if held is not None:
        found.append(_held_in_text(held, split, found))
    else:
        found.append(wanted.intersection(content_stems.of(split.content[:MATCH_SCAN_CHARS])))
    for name, here in zip(FIELDS, found, strict=True):
        if here:
            names.append(name)
            terms |= here
    if split.long_text and by_words and "content" not in names:
        names.append("content")
    return names, sorted(terms)

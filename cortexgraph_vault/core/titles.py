"""A title made from a memory's text: its first sentence when short, else its first clause.

"My sister Lena works as a nurse in Uppsala and likes to hike" is titled "My sister Lena works
as a nurse", not "My sister Lena works as a nurse in": a title ends where a phrase does (before
a preposition, a conjunction, a relative word, at a comma or dash), never on a word that needs
the next one.
"""

from __future__ import annotations

import re

from cortexgraph_vault.core.english import word_set

MAX_WORDS = 10  # a first sentence this short is the title whole
MIN_WORDS = 3  # a clause shorter than this says too little to be cut there

# Words a phrase never ends on: each needs what follows it.
DANGLING = word_set(
    """
    a an the this that these those my your his her its our their some any no every each
    and or but nor so yet for because although though while whereas if unless until since
    as than that which who whom whose where when whether
    in on at to from of by with without into onto over under about after before between
    through during against among around across along behind beyond near via per like
    is are was were be been being am has have had do does did will would can could shall
    should may might must not very really quite just also too
    """
)
# Words a new phrase begins with: a title may end before them.
PHRASE_STARTS = word_set(
    """
    and or but because although though while whereas if unless until since so
    which who whom whose where when whether that
    in on at to from of by with without into onto over under about after before between
    through during against among around across along behind beyond near via per
    """
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'“(])")
_MARKDOWN_LEAD = re.compile(r"^[#>\-*+\s]+|^\d+[.)]\s+")
_TRAILING = ".,;:!?-–—…\"'”)("


def _bare(word: str) -> str:
    return word.strip(_TRAILING + "“(").lower().replace("'", "")


def title_from_text(text: str, max_words: int = MAX_WORDS) -> str:
    """The title a memory gets when it is saved without one."""
    first_line = next((ln for ln in text.strip().splitlines() if ln.strip()), "")
    line = _MARKDOWN_LEAD.sub("", first_line.strip())
    sentence = _SENTENCE_END.split(line, maxsplit=1)[0]
    words = sentence.split()
    if len(words) > max_words:
        words = words[: _clause_end(words, max_words)]
    while len(words) > 1 and _bare(words[-1]) in DANGLING:
        words.pop()
    return " ".join(words).rstrip(_TRAILING + " ") or "memory"


def _clause_end(words: list[str], max_words: int) -> int:
    """How many of `words` a title keeps: up to the last phrase boundary within `max_words`."""
    best = 0
    for k in range(MIN_WORDS, max_words + 1):
        ends_phrase = words[k - 1][-1] in ",;:" or words[k - 1] in ("-", "–", "—")
        next_starts = k < len(words) and (
            _bare(words[k]) in PHRASE_STARTS or words[k] in ("-", "–", "—")
        )
        if ends_phrase or next_starts:
            best = k
    return best or max_words

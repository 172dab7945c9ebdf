"""Words that carry no topic: dropped from search queries and from clustering features.

Ranking itself lives in the index (`index/text/text_index.py`), which scores from inverted lists.
"""

from __future__ import annotations

from itertools import pairwise

_WORDS = (
    "a an and are as at be but by do does did for from had has have how i in is it its me my "
    "of on or our so than that the their them then there these they this to was we were what "
    "when where which who why will with you your about did say said"
)
STOP_WORDS = frozenset(_WORDS.split())

# What else a question says that names no topic: the pieces of contractions ("I've" is "i"
# and "ve"), pronouns, auxiliaries, hedges and fillers, quantities and the verbs of asking.
# A note matched on them alone ("been", "think", "bit") is matched on how the question was
# phrased. Inflected forms are dropped by their stems (handlers/search/relevance.py: "thinking").
_QUERY_FILLER = (
    "s t d m ve ll re don doesn didn isn aren wasn weren won wouldn couldn shouldn haven hasn "
    "hadn ain can cannot he she her hers him his herself himself us ours ourselves yours "
    "yourself mine myself itself theirs themselves whom whose am been being doing done could "
    "would should shall may might must ought just really quite very rather pretty also too "
    "even still yet already ever never always often sometimes usually lately recently maybe "
    "perhaps probably actually anyway though although however else any anything anyone "
    "anybody some something someone somebody every everything everyone each both either "
    "neither few many much more most lot lots bit other another such same own only think "
    "thought know knew guess suppose seem get got go went gone tell told mention into onto "
    "out over up down off above below under again against between through during before "
    "after within without upon via here if because while since until whether kind sort "
    "thing stuff let please"
)
QUERY_STOP_WORDS = STOP_WORDS | frozenset(_QUERY_FILLER.split())


COMPOUND_PART_MIN = 3  # letters of each word of a pair that may be one word written apart


def compound_pairs(found: list[str]) -> list[tuple[str, str]]:
    """(first word, both written as one) for each two neighbouring query words that may be
    one word written apart: "spell check" for "spellcheck", "add-ons" for "addons". Both
    words name something (neither is a query stop word) and have three letters or more: "a
    long" is not "along", nor "my site" "mysite", nor "site's" "sites"."""
    return [
        (a, a + b)
        for a, b in pairwise(found)
        if min(len(a), len(b)) >= COMPOUND_PART_MIN
        and a not in QUERY_STOP_WORDS
        and b not in QUERY_STOP_WORDS
    ]

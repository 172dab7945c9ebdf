"""Words that carry no topic: dropped from search queries and from clustering features.

Ranking itself lives in the index (`index/text_index.py`), which scores from inverted lists.
"""

from __future__ import annotations

_WORDS = (
    "a an and are as at be but by do does did for from had has have how i in is it its me my "
    "of on or our so than that the their them then there these they this to was we were what "
    "when where which who why will with you your about did say said"
)
STOP_WORDS = frozenset(_WORDS.split())

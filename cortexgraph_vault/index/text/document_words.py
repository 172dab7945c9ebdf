"""The words of a document and their stems, the cheap way when it gives the same answer.

A cold index splits and stems every word of every note (1.7 million words at 10k notes, 28k
of them distinct), and this was a third of its parsing time:
- Text that is ASCII once lower-cased (most notes) is split by a byte table, not the regular
  expression: for ASCII, "letters and digits of any script" are exactly [a-z0-9].
- Stemming is a pure function of the word, so a remembered stem is the stem. The Snowball
  stemmer costs about a microsecond and a half a word, a lookup a twentieth of that. The
  memory is bounded: once full, words not in it are stemmed each time (nothing is evicted, so
  a lookup never races a removal in another thread).
"""

from __future__ import annotations

import re
from collections.abc import Callable

MAX_REMEMBERED = 50_000  # ~7 MB of short strings at most; ordinary writing repeats far fewer
_stem_of: dict[str, str] = {}
_ASCII_SPLIT = bytes(c if chr(c).isascii() and chr(c).isalnum() else 0x20 for c in range(256))


def fast_words(text: str, pattern: re.Pattern[str]) -> list[str]:
    """`pattern.findall(text.lower())` for the pattern of letters and digits (`[^\\W_]+`)."""
    low = text.lower()
    if low.isascii():
        return low.encode("ascii").translate(_ASCII_SPLIT).decode("ascii").split()
    return pattern.findall(low)


def remembered_stems(found: list[str], stem_all: Callable[[list[str]], list[str]]) -> list[str]:
    """`stem_all(found)` (a pure function of each word), from memory where it can."""
    memo = _stem_of
    try:
        return list(map(memo.__getitem__, found))
    except KeyError:
        pass
    # the words not remembered, each once: the distinct words first (at C speed), then a look
    new = [w for w in dict.fromkeys(found) if w not in memo]
    stemmed = dict(zip(new, stem_all(new), strict=True))
    if len(memo) < MAX_REMEMBERED:
        memo.update(stemmed)
        return list(map(memo.__getitem__, found))
    return [stemmed[w] if w in stemmed else memo[w] for w in found]

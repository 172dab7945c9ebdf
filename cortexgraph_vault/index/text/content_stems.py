"""The distinct stems of a note's text, remembered by the text itself.

A search says which fields of each hit hold a query word (handlers/search/matched_terms.py `matched_in`), and
splitting and stemming a hit's whole text again for that was a fifth of a search at 10k
notes. The stems are a pure function of the text, so the memory is keyed by the text: a note
edited by hand, by us or by anyone has another text and is split anew at once; nothing is
ever out of date, and nothing needs telling of a change.

Bounded by entries and by the characters of the texts it holds (their keys), least recently
used first out. A lock: the daemon's reads run on several threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from cortexgraph_vault.index.text.document_terms import document_tokens

MAX_TEXTS = 2048  # a search shows ~10 hits; hot notes come back across searches
MAX_CHARS = 4_000_000  # of the texts held as keys (~4-16 MB), whatever their length


class ContentStems:
    def __init__(self, max_texts: int = MAX_TEXTS, max_chars: int = MAX_CHARS) -> None:
        self.max_texts, self.max_chars = max_texts, max_chars
        self._held: OrderedDict[str, frozenset[str]] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._held)

    def of(self, text: str) -> frozenset[str]:
        """The set of `text_tokens(text)`."""
        with self._lock:
            found = self._held.get(text)
            if found is not None:
                self._held.move_to_end(text)
                return found
        found = frozenset(document_tokens(text))  # outside the lock: the slow part
        if len(text) > self.max_chars:
            return found
        with self._lock:
            if text not in self._held:
                self._held[text] = found
                self._chars += len(text)
                while len(self._held) > self.max_texts or self._chars > self.max_chars:
                    gone, _ = self._held.popitem(last=False)
                    self._chars -= len(gone)
        return found


content_stems = ContentStems()

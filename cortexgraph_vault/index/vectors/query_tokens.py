"""A search query's token ids without loading the `tokenizers` library's tokenizer.

Parsing the bundled tokenizer file (1.8 MB of JSON, 32k tokens and 61k merges) would cost a
search command more than the rest of its query of a few words. The model's tokenizer is a plain
byte-pair encoder: prepend "▁", spaces to "▁", no pre-tokenizer, each character its token or its
UTF-8 bytes as `<0xNN>` tokens, then the lowest-ranked merge of two neighbours first (leftmost
among equals) until none applies: the algorithm of `tokenizers`' BPE model (`Word::merge_all`),
done here over the few symbols of a query. The tables it needs (single characters, byte tokens
and the merges by pair) are derived from the file once and kept in the user's cache folder as a
marshal file named by the tokenizer file's path, size and change time; a changed file is
derived again.

Anything this does not handle the same way is left to the real tokenizer (`ids` answers None):
a tokenizer file of another shape (then nothing is derived), a text holding one of its special
tokens (`<s>`), a character that is neither a token nor expressible in byte tokens, or text
that is not valid Unicode. tests/index/vectors/test_query_tokens.py checks the ids against the real
tokenizer over many texts.
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import json
import marshal
import os
from array import array
from bisect import bisect_left
from pathlib import Path
from typing import Any

FORMAT = 3
MAX_WORDS = 20_000  # words whose ids are remembered (a few MB at most)
PREPEND = "\u2581"  # "▁": SentencePiece's word mark
_SHIFT = 16  # pair key: left << 16 | right; merge value: rank << 16 | merged id
_MASK = (1 << _SHIFT) - 1


class Merges:
    """The merges by pair as two sorted arrays (pair key → rank and merged id): read from the
    file in microseconds, where a dict of 61k entries takes a twentieth of a second."""

    def __init__(self, keys: bytes, values: bytes) -> None:
        self.keys, self.values = array("q"), array("q")
        self.keys.frombytes(keys)
        self.values.frombytes(values)

    @classmethod
    def of(cls, merges: dict[int, int]) -> Merges:
        keys = sorted(merges)
        return cls(array("q", keys).tobytes(), array("q", [merges[k] for k in keys]).tobytes())

    def get(self, key: int) -> int | None:
        i = bisect_left(self.keys, key)
        return self.values[i] if i < len(self.keys) and self.keys[i] == key else None


class QueryTokens:
    """Token ids of a text, as the derived tables give them."""

    def __init__(
        self,
        chars: dict[str, int],
        byte_ids: list[int],
        merges: Merges,
        specials: tuple[str, ...],
        words_apart: bool = False,
    ) -> None:
        self.chars, self.byte_ids, self.merges, self.specials = chars, byte_ids, merges, specials
        self.words_apart = words_apart
        # word → its ids; bounded, nothing evicted (a lookup never races a removal)
        self._words: dict[str, tuple[int, ...]] = {}

    def ids(self, text: str) -> list[int] | None:
        """The ids `tokenizers` gives `text` without special tokens, or None: ask it instead."""
        if any(special in text for special in self.specials):
            return None  # split around the special token first: the real tokenizer's business
        if not text:
            return []  # the prepend normalizer adds nothing to an empty text
        words = text.split(" ")
        if self.words_apart and PREPEND not in text and all(words):
            # each "▁word" alone (see `words_apart` in `derive`), remembered: queries repeat
            # their words, and the merges were most of a query's vector
            out: list[int] = []
            known = self._words
            for word in words:
                found = known.get(word)
                if found is None:
                    merged = self._encoded(PREPEND + word)
                    if merged is None:
                        return None
                    found = tuple(merged)
                    if len(known) < MAX_WORDS:
                        known[word] = found
                out += found
            return out
        return self._encoded((PREPEND + text).replace(" ", PREPEND))

    def _encoded(self, normalized: str) -> list[int] | None:
        symbols: list[int] = []
        chars = self.chars
        for ch in normalized:
            found = chars.get(ch)
            if found is not None:
                symbols.append(found)
                continue
            try:
                encoded = ch.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate: the real tokenizer refuses it
                return None
            symbols.extend(self.byte_ids[b] for b in encoded)
        return self._merged(symbols)

    def _merged(self, symbols: list[int]) -> list[int]:
        merges = self.merges
        count = len(symbols)
        ids = list(symbols)
        alive = [True] * count
        prev = list(range(-1, count - 1))
        nxt = list(range(1, count + 1))  # `count` is "none"
        queue: list[tuple[int, int, int]] = []
        for pos in range(count - 1):
            found = merges.get(ids[pos] << _SHIFT | ids[pos + 1])
            if found is not None:
                queue.append((found >> _SHIFT, pos, found & _MASK))
        heapq.heapify(queue)
        while queue:
            _, pos, new_id = heapq.heappop(queue)
            right = nxt[pos]
            if not alive[pos] or right >= count:
                continue
            found = merges.get(ids[pos] << _SHIFT | ids[right])
            if found is None or found & _MASK != new_id:
                continue  # an entry made stale by an earlier merge
            ids[pos] = new_id
            alive[right] = False
            after = nxt[right]
            nxt[pos] = after
            if after < count:
                prev[after] = pos
            before = prev[pos]
            if before >= 0:
                found = merges.get(ids[before] << _SHIFT | new_id)
                if found is not None:
                    heapq.heappush(queue, (found >> _SHIFT, before, found & _MASK))
            if after < count:
                found = merges.get(new_id << _SHIFT | ids[after])
                if found is not None:
                    heapq.heappush(queue, (found >> _SHIFT, pos, found & _MASK))
        return [ids[i] for i in range(count) if alive[i]]


def derive(config: dict[str, Any]) -> tuple[Any, ...] | None:
    """The tables of a tokenizer file's JSON (as saved), or None when it is not of the plain
    shape."""
    model = config.get("model") or {}
    normalizer = config.get("normalizer")
    plain_normalizer = {
        "type": "Sequence",
        "normalizers": [
            {"type": "Prepend", "prepend": PREPEND},
            {"type": "Replace", "pattern": {"String": " "}, "content": PREPEND},
        ],
    }
    if (
        normalizer != plain_normalizer
        or config.get("pre_tokenizer") is not None
        or model.get("type") != "BPE"
        or model.get("dropout") is not None
        or model.get("continuing_subword_prefix")
        or model.get("end_of_word_suffix")
        or model.get("byte_fallback") is not True
        or model.get("ignore_merges")
    ):
        return None
    vocab: dict[str, int] = model["vocab"]
    if max(vocab.values(), default=0) > _MASK or len(model["merges"]) > _MASK:
        return None
    byte_ids = [vocab.get(f"<0x{b:02X}>") for b in range(256)]
    if any(i is None for i in byte_ids):
        return None
    merges: dict[int, int] = {}
    for rank, merge in enumerate(model["merges"]):
        left, right = merge.split(" ") if isinstance(merge, str) else merge
        merged = vocab.get(left + right)
        if left not in vocab or right not in vocab or merged is None:
            return None  # `tokenizers` refuses such a file; let it say so
        merges[vocab[left] << _SHIFT | vocab[right]] = rank << _SHIFT | merged
    chars = {token: i for token, i in vocab.items() if len(token) == 1}
    specials = tuple(t["content"] for t in config.get("added_tokens") or [] if t.get("content"))
    pairs = Merges.of(merges)
    return chars, byte_ids, pairs.keys.tobytes(), pairs.values.tobytes(), specials, _apart(model)


def _apart(model: dict[str, Any]) -> bool:
    """Whether words separated by one space are merged each alone: no merge joins a symbol
    holding anything but "▁" to one starting with "▁" (only runs of "▁" join "▁"s). A text
    "▁w1▁w2…" with no "▁" in its words then never merges across a "▁", and the merges inside
    each "▁word" come in the same order as for that "▁word" alone (by rank, then leftmost)."""
    for merge in model["merges"]:
        left, right = merge.split(" ") if isinstance(merge, str) else merge
        if right.startswith(PREPEND) and left.strip(PREPEND):
            return False
    return True


def _table_path(tokenizer_file: Path, folder: Path) -> Path:
    st = tokenizer_file.stat()
    key = f"{FORMAT}\0{tokenizer_file.resolve()}\0{st.st_size}\0{st.st_mtime_ns}"
    return folder / f"query-tokens-{hashlib.sha256(key.encode()).hexdigest()[:16]}.marshal"


def load_query_tokens(tokenizer_file: Path, folder: Path) -> QueryTokens | None:
    """The query tables of `tokenizer_file`, derived and saved in `folder` the first time.
    None when the file is of another shape or cannot be read (the real tokenizer then says
    why); a folder that cannot be written costs only the derivation, each time."""
    try:
        table = _table_path(tokenizer_file, folder)
    except OSError:
        return None
    with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
        with table.open("rb") as f:
            saved = marshal.load(f)
        if isinstance(saved, tuple) and len(saved) == 7 and saved[0] == FORMAT:
            return _tokens(saved[1:])
    try:
        derived = derive(json.loads(tokenizer_file.read_bytes()))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if derived is None:
        return None
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        part = table.with_name(f"{table.name}.{os.getpid()}.part")
        part.write_bytes(marshal.dumps((FORMAT, *derived)))
        os.replace(part, table)
    return _tokens(derived)


def _tokens(tables: tuple[Any, ...]) -> QueryTokens:
    chars, byte_ids, keys, values, specials, apart = tables
    return QueryTokens(chars, byte_ids, Merges(keys, values), specials, bool(apart))

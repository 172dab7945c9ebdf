"""Text vectors for semantic search, computed here with no network at all.

The default model is WordLlama's 256-dimension token table (MIT), whose weights and tokenizer
ship inside the `wordllama` wheel. A text's vector is the average of its tokens' rows,
L2-normalised, so the dot product of two vectors is their cosine similarity. WordLlama's
own loader looks for the tokenizer in a folder the wheel does not have and then tries to
download it; we never import that loader: the two files are opened by explicit path, and a
missing or damaged file is an error that names it and the fix, never a download.
"""

from __future__ import annotations

import functools
import importlib.util
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # imported when the model loads: a process that never searches skips it
    import numpy as np
    from tokenizers import Encoding, Tokenizer

    from cortexgraph_vault.index.vectors.query_tokens import QueryTokens

WEIGHTS = "weights/l2_supercat_256.safetensors"
TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"
MAX_CHARS = 2000  # a note's vector is taken from its first characters: the gist, cheaply
BATCH = 256
# Up to this many texts (an edited note, a save) are embedded from the mapped float16 rows
# and, when derived, the query tables' ids: neither the 33 MB float32 table nor the parsed
# tokenizer (16 MB) is made and kept for them. Same ids, same float32 rows: the same vectors.
SMALL_BATCH = 16
# Past this many texts the whole float32 table is made (33 MB) and
# gathered from; below it each text's rows are converted from the mapped float16 ones (the
# same values): a long-lived process embedding the 120 memories saved since its last search
# no longer grows by the table for them.
TABLE_MIN = 1024
# A tokenizer parsed again this many seconds or less after it was let go is kept from then on.
REUSED_WITHIN = 60.0


class VectorModel(Protocol):
    """What the note vectors need of a model: WordLlama's `Embedder`, minilm's encoder."""

    @property
    def source(self) -> str: ...  # where it was loaded from
    @property
    def dim(self) -> int: ...
    def embed(self, texts: list[str]) -> np.ndarray: ...
    def embed_one(self, text: str) -> np.ndarray: ...
    def let_go(self, now: float) -> None: ...


class ModelUnavailable(Exception):
    """The embedding model cannot be loaded; search goes on with words alone."""


def model_folder() -> Path:
    """Where the installed `wordllama` package keeps its files (the package is not imported:
    its loader sets up logging and may reach the network)."""
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable(
            "the embedding model package `wordllama` is not installed; "
            "reinstall cortexgraph-vault (`pip install cortexgraph-vault`) or set "
            "CORTEXGRAPH_SEMANTIC_SEARCH=false to search by words alone"
        )
    return Path(next(iter(spec.submodule_search_locations)))


@dataclass(frozen=True)
class Embedder:
    shipped: np.ndarray  # (tokens, dim) as the wheel ships it (float16)
    # parses the tokenizer file, or hands back the one parsed already (`tokenizer`)
    load_tokenizer: Callable[[], Tokenizer]
    source: str
    # a query's ids without the tokenizer loaded (index/vectors/query_tokens.py), when derived
    query_tokens: QueryTokens | None = None
    # when `let_go` last dropped the parsed tokenizer (monotonic seconds), and whether it
    # keeps it now; mutable in a frozen model, as the cached properties are
    _drops: dict[str, float] = field(default_factory=dict, compare=False, repr=False)

    @property
    def dim(self) -> int:
        return int(self.shipped.shape[1])

    @functools.cached_property
    def tokenizer(self) -> Tokenizer:
        """Parsed when first used: a process that embeds only its query with the derived
        tables (index/vectors/query_tokens.py) never parses it."""
        return self.load_tokenizer()

    @functools.cached_property
    def table(self) -> np.ndarray:
        """Every row as float32, converted when many notes are embedded:
        a process that embeds only its query converts only the query's rows."""
        import numpy as np

        return np.ascontiguousarray(self.shipped, dtype=np.float32)

    def _rows(self, ids: np.ndarray) -> np.ndarray:
        """The float32 rows of `ids`: the same values the whole table would give."""
        import numpy as np

        # read once: `let_go` may drop the table meanwhile (another thread's big embedding)
        table = self.__dict__.get("table")
        rows: np.ndarray = table[ids] if table is not None else self.shipped[ids].astype(np.float32)
        return rows

    def _ids(self, texts: list[str]) -> list[list[int]]:
        """Token ids of each text (cut to MAX_CHARS already): by the derived query tables
        when the tokenizer is not parsed (a few texts), else by the tokenizer."""
        if self.query_tokens is not None and "tokenizer" not in self.__dict__:
            found = [self.query_tokens.ids(text) for text in texts]
            if all(ids is not None for ids in found):
                return [ids for ids in found if ids is not None]
        return [enc.ids for enc in self._encode(texts, add_special_tokens=False)]

    def let_go(self, now: float) -> None:
        """Drop the float32 table and, when a few texts can do without it, the parsed
        tokenizer (after a big embedding: a long-lived process need not keep 50 MB for the
        odd edited note). Made again if another big embedding comes.

        A tokenizer parsed again within REUSED_WITHIN of being let go is kept from then on
        (`now`: monotonic seconds): this process embeds batches steadily. A daemon under many
        saves takes them in twenty at a time, and parsing the tokenizer anew for each batch
        would cost more of its CPU than the memory it keeps back between them."""
        self.__dict__.pop("table", None)
        drops = self._drops
        if self.query_tokens is None or "tokenizer" not in self.__dict__ or "steady" in drops:
            return
        if "at" in drops and now - drops["at"] <= REUSED_WITHIN:
            drops["steady"] = now
            return
        self.__dict__.pop("tokenizer", None)
        drops["at"] = now

    @property
    def _encode(self) -> Callable[..., list[Encoding]]:
        # the fast variant skips offsets we never read (tokenizers >= 0.20)
        tok = self.tokenizer
        fast: Callable[..., list[Encoding]] | None = getattr(tok, "encode_batch_fast", None)
        return fast or tok.encode_batch

    def embed(self, texts: list[str]) -> np.ndarray:
        """One unit vector per text (a zero vector for a text with no tokens)."""
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        last = self.shipped.shape[0] - 1
        # very many texts: the whole table converted once is cheaper than a conversion per text
        table = self.table if len(texts) > TABLE_MIN else None
        for start in range(0, len(texts), BATCH):
            chunk = [t[:MAX_CHARS] for t in texts[start : start + BATCH]]
            if len(texts) <= SMALL_BATCH:
                found = self._ids(chunk)
            else:
                found = [enc.ids for enc in self._encode(chunk, add_special_tokens=False)]
            for i, token_ids in enumerate(found, start):
                ids = np.asarray(token_ids, dtype=np.intp)
                if ids.size:
                    # a row gather and a sum per text: far cheaper than one gather per batch
                    np.clip(ids, 0, last, out=ids)
                    rows = table[ids] if table is not None else self._rows(ids)  # same values
                    rows.sum(axis=0, out=out[i])
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out

    def embed_one(self, text: str) -> np.ndarray:
        import numpy as np

        text = text[:MAX_CHARS]
        found = self.query_tokens.ids(text) if self.query_tokens is not None else None
        if found is None:
            found = self.tokenizer.encode(text, add_special_tokens=False).ids
        ids = np.asarray(found, dtype=np.intp)
        out = np.zeros(self.dim, dtype=np.float32)
        if ids.size:
            np.clip(ids, 0, self.shipped.shape[0] - 1, out=ids)
            self._rows(ids).sum(axis=0, out=out)
            norm = float(np.linalg.norm(out))
            if norm > 0:
                out /= norm
        return out


def _parse_tokenizer(path: Path, fix: str) -> Tokenizer:
    from tokenizers import Tokenizer

    try:
        return Tokenizer.from_file(str(path))
    except Exception as exc:
        what = "missing" if not path.exists() else f"unreadable ({exc})"
        raise ModelUnavailable(f"{path}: tokenizer {what}; {fix}") from None


def load_embedder(folder: Path | None = None, *, tables: Path | None = None) -> Embedder:
    """The bundled model, from its two files; ModelUnavailable names the file and the fix.
    `tables`: the folder keeping the query tables derived from the tokenizer file."""
    base = folder or model_folder()
    weights, tok = base / WEIGHTS, base / TOKENIZER
    fix = "reinstall the package (`pip install --force-reinstall wordllama`)"
    try:
        from cortexgraph_vault.index.vectors.mapped_weights import mapped_table

        table = mapped_table(weights)  # a query reads a dozen rows of it, not 16 MB
        if table is None:
            from safetensors.numpy import load_file

            table = next(iter(load_file(str(weights)).values()))
        if table.ndim != 2 or table.shape[0] < 2:
            raise ValueError(f"unexpected shape {table.shape}")
    except FileNotFoundError:
        raise ModelUnavailable(f"{weights}: embedding weights missing; {fix}") from None
    except Exception as exc:
        raise ModelUnavailable(f"{weights}: embedding weights unreadable ({exc}); {fix}") from None
    query_tokens = None
    if tables is not None:
        from cortexgraph_vault.index.vectors.query_tokens import load_query_tokens

        query_tokens = load_query_tokens(tok, tables)
    if query_tokens is not None:  # derived only from a file that parsed, unchanged since
        return Embedder(
            table, functools.partial(_parse_tokenizer, tok, fix), str(base), query_tokens
        )
    tokenizer = _parse_tokenizer(tok, fix)
    return Embedder(table, lambda: tokenizer, str(base))


_loaded: dict[str, Embedder | ModelUnavailable] = {}
_loading = threading.Lock()


def shared_embedder(folder: Path | None = None, *, tables: Path | None = None) -> Embedder:
    """One model per process (it is read-only); a failure is remembered, not retried.
    `tables`: as for `load_embedder` (the first load's is kept)."""
    key = str(folder or "")
    with _loading:
        found = _loaded.get(key)
        if found is None:
            try:
                found = load_embedder(folder, tables=tables)
            except ModelUnavailable as exc:
                found = exc
            _loaded[key] = found
    if isinstance(found, ModelUnavailable):
        raise found
    return found

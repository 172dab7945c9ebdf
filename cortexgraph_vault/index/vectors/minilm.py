"""A sentence encoder for search by meaning: all-MiniLM-L6-v2 (Apache-2.0, NOTICE), run in numpy.

WordLlama's vectors (embedder.py) average a static row per token: a note is the sum of its
words. This model reads them in context (six attention layers over at most 128 tokens, a
note's title and opening), so "where do I keep my bike" lands near "the garage" note. It
costs ~3 GFLOP for a long note, so notes get these vectors behind the searches
(index/catalog/vault_catalog.py) while WordLlama's serve meanwhile.

The weights ship in one file made by scripts/convert_minilm.py: the big matrices as int8
with a scale per row (their vectors stay at cosine ≥ 0.99 of the float32 model's), the
tokenizer's JSON beside them. They are read when first needed; a missing or damaged file is
`ModelUnavailable` naming it, and search goes on with WordLlama's vectors.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from cortexgraph_vault.index.vectors.embedder import ModelUnavailable

if TYPE_CHECKING:
    import numpy as np
    from tokenizers import Tokenizer

WEIGHTS = Path(__file__).with_name("minilm.npz")
LAYERS, HEADS, DIM = 6, 12, 384
MAX_TOKENS = 128  # the title and opening of a note: longer inputs were measured no better
MAX_CHARS = 1500  # enough text for MAX_TOKENS, so a long note is not tokenised whole
# Texts of similar length at once, up to this many tokens: little padding, and the widest
# arrays (attention, the inner layer) stay a few megabytes.
BATCH_TOKENS = 1024
_DENSE = ["attention.self.query", "attention.self.key", "attention.self.value"]
_DENSE += ["attention.output.dense", "intermediate.dense", "output.dense"]
_NORMS = ["embeddings.LayerNorm"] + [
    f"encoder.layer.{i}.{n}.LayerNorm"
    for i in range(LAYERS)
    for n in ("attention.output", "output")
]
NAMES = [
    f"encoder.layer.{i}.{d}.{k}"
    for i in range(LAYERS)
    for d in _DENSE
    for k in ("weight", "weight.scale", "bias")
]
NAMES += [f"{n}.{k}" for n in _NORMS for k in ("weight", "bias")]
NAMES += [f"embeddings.{e}_embeddings.weight" for e in ("word", "position", "token_type")]
NAMES.append("embeddings.word_embeddings.weight.scale")


def _layer_norm(x: np.ndarray, gain: np.ndarray, bias: np.ndarray) -> np.ndarray:
    import numpy as np

    mean = x.mean(-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(-1, keepdims=True)
    out: np.ndarray = centred / np.sqrt(var + 1e-12) * gain + bias
    return out


def _gelu(x: np.ndarray) -> np.ndarray:
    """GELU (tanh form), in place: the layers' widest arrays are its input."""
    import numpy as np

    y: np.ndarray = x * x
    y *= x
    y *= 0.044715
    y += x
    y *= 0.7978845608
    np.tanh(y, out=y)
    y += 1.0
    y *= x
    y *= 0.5
    return y


class SentenceEncoder:
    """Unit vectors of texts (mean of the last layer over the tokens, L2-normalised)."""

    dim = DIM

    def __init__(self, weights: dict[str, np.ndarray], tokenizer: Tokenizer, source: str) -> None:
        import numpy as np

        # The layers' matrices as float32, transposed, scaled (42 MB): made from int8 at each
        # product, the conversion cost a query three times the product itself.
        for name in [
            n for n in weights if n.startswith("encoder.") and n.endswith(".weight.scale")
        ]:
            matrix = name.removesuffix(".scale")
            scaled = weights[matrix].astype(np.float32) * weights.pop(name)[:, None]
            weights[matrix] = np.ascontiguousarray(scaled.T)
        self.w = weights
        self.source = source
        self.tokenizer = tokenizer
        tokenizer.enable_truncation(MAX_TOKENS)
        tokenizer.no_padding()

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        out: np.ndarray = x @ self.w[name + ".weight"] + self.w[name + ".bias"]
        return out

    def _forward(self, ids: list[list[int]]) -> np.ndarray:
        import numpy as np

        w, n, width = self.w, len(ids), max(len(i) for i in ids)
        tokens = np.zeros((n, width), dtype=np.intp)
        mask = np.zeros((n, width), dtype=np.float32)
        for row, seq in enumerate(ids):
            tokens[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1.0
        table = "embeddings.word_embeddings.weight"
        x = w[table][tokens].astype(np.float32) * w[table + ".scale"][tokens][..., None]
        x += w["embeddings.position_embeddings.weight"][:width]
        x += w["embeddings.token_type_embeddings.weight"][0]
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        hidden = -1e9 * (1.0 - mask)[:, None, None, :]  # padding takes no attention
        size = DIM // HEADS
        for layer in range(LAYERS):
            p = f"encoder.layer.{layer}."

            q, k, v = (
                self._dense(x, p + "attention.self." + part)
                .reshape(n, width, HEADS, size)
                .transpose(0, 2, 1, 3)
                for part in ("query", "key", "value")
            )
            att = q @ k.transpose(0, 1, 3, 2) / np.sqrt(size) + hidden
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(n, width, DIM)
            x = _layer_norm(
                x + self._dense(ctx, p + "attention.output.dense"),
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
            )
            inner = _gelu(self._dense(x, p + "intermediate.dense"))
            x = _layer_norm(
                x + self._dense(inner, p + "output.dense"),
                w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"],
            )
        pooled: np.ndarray = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled

    def embed(self, texts: list[str]) -> np.ndarray:
        """One unit vector per text, in their order."""
        import numpy as np

        out = np.zeros((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        ids = [e.ids for e in self.tokenizer.encode_batch([t[:MAX_CHARS] for t in texts])]
        chunk: list[int] = []
        for i in sorted(range(len(ids)), key=lambda i: len(ids[i])):  # batches of like lengths
            if chunk and len(ids[i]) * (len(chunk) + 1) > BATCH_TOKENS:  # (the widest last)
                out[chunk] = self._forward([ids[j] for j in chunk])
                chunk = []
            chunk.append(i)
        out[chunk] = self._forward([ids[j] for j in chunk])
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out

    def embed_one(self, text: str) -> np.ndarray:
        vec: np.ndarray = self.embed([text])[0]
        return vec

    def let_go(self, now: float) -> None:
        """Nothing to drop: the weights are what a search needs (WordLlama's `let_go`)."""


def one_blas_thread() -> None:
    """OpenBLAS to one thread (what OPENBLAS_NUM_THREADS=1 does, after numpy loaded): its
    threads spin waiting for work, and on a busy machine the encoder ran five times slower
    with them. The process's other products are matrix-vector ones (einsum, no BLAS)."""
    import ctypes

    with contextlib.suppress(OSError):
        with Path("/proc/self/maps").open() as maps:
            libs = {line.split()[-1] for line in maps if "openblas" in line}
        for lib in libs:
            loaded = ctypes.CDLL(lib)
            for name in ("scipy_openblas_set_num_threads64_", "openblas_set_num_threads"):
                if hasattr(loaded, name):
                    getattr(loaded, name)(1)


def load_encoder(path: Path = WEIGHTS) -> SentenceEncoder:
    """The encoder from its weights file; `ModelUnavailable` names the file and the fix."""
    import numpy as np
    from tokenizers import Tokenizer

    fix = (
        "reinstall cortexgraph-vault (`pip install --force-reinstall cortexgraph-vault`) or set "
        "CORTEXGRAPH_MEANING_SEARCH=false to search with the word vectors alone"
    )
    try:
        with np.load(path, allow_pickle=False) as found:
            weights = {name: found[name] for name in found.files}
        tokenizer = Tokenizer.from_str(weights.pop("tokenizer").tobytes().decode("utf-8"))
        table = weights["embeddings.word_embeddings.weight"]
        if table.shape != (tokenizer.get_vocab_size(), DIM):
            raise ValueError(f"token table of shape {table.shape}")
        missing = [name for name in NAMES if name not in weights]
        if missing:
            raise ValueError(f"no {', '.join(missing[:3])}")
    except FileNotFoundError:
        raise ModelUnavailable(f"{path}: sentence encoder weights missing; {fix}") from None
    except Exception as exc:
        raise ModelUnavailable(
            f"{path}: sentence encoder weights unreadable ({type(exc).__name__}: {exc}); {fix}"
        ) from None
    one_blas_thread()
    return SentenceEncoder(weights, tokenizer, str(path))


_loading = threading.Lock()


@functools.cache
def _shared(path: Path) -> SentenceEncoder | ModelUnavailable:
    try:
        return load_encoder(path)
    except ModelUnavailable as exc:
        return exc


def shared_encoder(path: Path = WEIGHTS) -> SentenceEncoder:
    """One encoder per process (read-only); a failure is remembered, not retried."""
    with _loading:
        found = _shared(path)
    if isinstance(found, ModelUnavailable):
        raise found
    return found

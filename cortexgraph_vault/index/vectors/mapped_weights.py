"""The model's token table mapped from its file, not read whole: a search command's query
needs a dozen of its 32,000 rows, and reading the 16 MB costs it more than the rest of the
model's load. The file is a safetensors file (an 8-byte header length, a JSON header, the
raw little-endian data); one holding exactly one float tensor is mapped as a read-only
array of the same values. Anything else is read by `safetensors`.
"""

from __future__ import annotations

import json
import mmap
import struct
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

DTYPES = {"F16": "<f2", "F32": "<f4"}
MAX_HEADER = 1 << 20


def mapped_table(path: Path) -> np.ndarray | None:
    """The file's one tensor as a read-only mapped array, or None: read it the usual way."""
    import numpy as np

    with path.open("rb") as f:
        head = f.read(8)
        if len(head) != 8:
            return None
        (size,) = struct.unpack("<Q", head)
        if size > MAX_HEADER:
            return None
        try:
            header = json.loads(f.read(size))
        except ValueError:
            return None
        tensors = (
            {k: v for k, v in header.items() if k != "__metadata__"}
            if isinstance(header, dict)
            else {}
        )
        if len(tensors) != 1:
            return None
        (tensor,) = tensors.values()
        if not isinstance(tensor, dict):
            return None
        dtype = DTYPES.get(str(tensor.get("dtype")))
        shape, offsets = tensor.get("shape"), tensor.get("data_offsets")
        if (
            dtype is None
            or not isinstance(shape, list)
            or not all(type(n) is int and n >= 0 for n in shape)
            or not isinstance(offsets, list)
            or len(offsets) != 2
            or not all(type(n) is int for n in offsets)
        ):
            return None
        begin, end = offsets
        count = 1
        for n in shape:
            count *= n
        start = 8 + size + begin
        if (
            end - begin != count * np.dtype(dtype).itemsize
            or start + (end - begin) > path.stat().st_size
        ):
            return None
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    table = np.frombuffer(mapped, dtype=dtype, count=count, offset=start).reshape(shape)
    return table

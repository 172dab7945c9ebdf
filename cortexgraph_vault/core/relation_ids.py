"""The id of a typed relation between two memories: the same relation always gets the same id,
in every process and on every device, so exports and reads agree without storing it."""

from __future__ import annotations

import hashlib


def relation_id(from_id: str | None, to_id: str | None, kind: str, target: str) -> str:
    key = f"{from_id}|{to_id or target.lower()}|{kind}"
    return hashlib.sha256(key.encode()).hexdigest()[:16]

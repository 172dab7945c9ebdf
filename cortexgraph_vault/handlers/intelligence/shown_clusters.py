"""What `cluster_memories` showed, remembered so `consolidate_memories` can act on it later.

A cluster id is derived from its member ids, so any process can recompute it; the book adds
what the members looked like when they were shown (hash of text, tags, entities), so a later
consolidation can say exactly which member changed instead of "unknown id". One JSON file per
vault in the user's cache folder (never in the vault); losing it only loses that detail.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cortexgraph_vault.config import user_cache_dir
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.merge import memory_hash
from cortexgraph_vault.vault.files import atomic_write
from cortexgraph_vault.vault.lock import vault_key

log = logging.getLogger(__name__)

KEEP = 2000  # clusters remembered per vault, newest kept


@dataclass(frozen=True)
class PinnedMember:
    key: str  # the memory id, or its path when it has none
    id: str | None
    path: str
    title: str
    hash: str


@dataclass(frozen=True)
class PinnedCluster:
    id: str
    members: tuple[PinnedMember, ...]
    cohesion: float


def pin(m: Memory) -> PinnedMember:
    return PinnedMember(member_key(m), m.id, m.path, m.title, pinned_hash(m))


def member_key(m: Memory) -> str:
    return m.id or m.path


def pinned_hash(m: Memory) -> str:
    return memory_hash(m.content, m.tags, m.entities)


class ClusterBook:
    def __init__(self, root: Path) -> None:
        self.path = user_cache_dir() / "clusters" / f"{vault_key(root)}.json"

    def _load(self) -> dict[str, Any]:  # JSON as read: recall checks each entry's shape
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("%s: cluster book unreadable (%s); starting a new one", self.path, exc)
            return {}
        return data if isinstance(data, dict) else {}

    def remember(self, clusters: Iterable[PinnedCluster]) -> None:
        book = self._load()
        for c in clusters:
            book.pop(c.id, None)  # re-inserted last: newest
            book[c.id] = {"cohesion": c.cohesion, "members": [asdict(m) for m in c.members]}
        while len(book) > KEEP:
            book.pop(next(iter(book)))
        try:
            atomic_write(self.path, json.dumps(book, ensure_ascii=False).encode("utf-8"))
        except OSError as exc:
            log.warning("%s: cannot write the cluster book (%s)", self.path, exc.strerror)

    def recall(self, cluster_id: str) -> PinnedCluster | None:
        entry = self._load().get(cluster_id)
        if not isinstance(entry, dict):
            return None
        try:
            members = tuple(PinnedMember(**m) for m in entry["members"])
            return PinnedCluster(cluster_id, members, float(entry["cohesion"]))
        except (KeyError, TypeError, ValueError):
            return None

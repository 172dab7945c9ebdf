"""The persistent index cache: a warm start re-parses only the files that changed.

One file per vault in the user's cache folder (never in the vault: vaults are synced and
committed), named by the vault's key. It holds every note as parsed (with its size, mtime and
hash) and the word index, stamped with a format version, the parser version and the vault's
layout. Anything unexpected — another version, another layout, a truncated or corrupt file —
means the cache is ignored and rebuilt; deleting it is always safe.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import secrets
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cortexgraph_vault.index.catalog import VaultCatalog
from cortexgraph_vault.index.gc_pause import gc_paused
from cortexgraph_vault.index.records import IndexedNote, parser_version
from cortexgraph_vault.index.text_index import TextIndex
from cortexgraph_vault.vault.layout import VaultLayout
from cortexgraph_vault.vault.lock import vault_key

log = logging.getLogger(__name__)

# 4: memories carry use_days, titles come from aliases; 5: the terms of big notes, vectors
CACHE_FORMAT = 5
NOTE_CHUNK = 200
TERM_CHUNK = 2000
_END = "end of the cortexgraph-vault index cache"


@dataclass(frozen=True)
class CachedIndex:
    notes: dict[str, IndexedNote]
    text: TextIndex
    vectors: dict[str, Any] | None = None


def cache_path(cache_dir: Path, root: Path) -> Path:
    return cache_dir / "index" / f"{vault_key(root)}.pickle"


def _stamp(layout: VaultLayout, max_note_bytes: int) -> dict[str, Any]:
    return {
        "format": CACHE_FORMAT,
        "parser": parser_version(),
        "root": str(layout.root),
        "layout": (layout.stm, layout.ltm, layout.archive),
        "max_note_bytes": max_note_bytes,
    }


# Caches being written by a background thread of this process (a reader waits for them).
_writing: dict[Path, threading.Thread] = {}
_writing_lock = threading.Lock()


def wait_for_writes(path: Path) -> None:
    with _writing_lock:
        thread = _writing.get(path)
    if thread is not None:
        thread.join()


def load_cache(path: Path, layout: VaultLayout, max_note_bytes: int) -> CachedIndex | None:
    """The cached index, or None when there is none or it cannot be trusted."""
    wait_for_writes(path)
    try:
        with open(path, "rb") as fh, gc_paused():
            if pickle.load(fh) != _stamp(layout, max_note_bytes):
                log.info("%s: index cache is from another version or layout; rebuilding it", path)
                return None
            header = pickle.load(fh)
            notes: dict[str, IndexedNote] = {}
            for _ in range(header["note_chunks"]):
                notes.update((n.path, n) for n in pickle.load(fh))
            # term → [docs, parts, df, dead], as TextIndex.restore reads them
            postings: dict[str, list[Any]] = {}
            for _ in range(header["term_chunks"]):
                postings.update((t, rest) for t, *rest in pickle.load(fh))
            vectors = pickle.load(fh)
            if pickle.load(fh) != _END:
                raise ValueError("the end marker is missing")
    except FileNotFoundError:
        return None
    except Exception as exc:  # a corrupt or foreign cache is rebuilt, never fatal
        log.warning("%s: index cache unreadable (%s); rebuilding it", path, exc)
        return None
    try:
        text = TextIndex.restore(
            {"paths": header["paths"], "norms": header["norms"], "postings": postings,
             "terms_of": header["terms_of"]}
        )  # fmt: skip
        if set(notes) != text.paths():
            raise ValueError("notes and word index disagree")
    except Exception as exc:
        log.warning("%s: index cache inconsistent (%s); rebuilding it", path, exc)
        return None
    return CachedIndex(notes, text, vectors)


def _private_folders(folder: Path) -> None:
    """The cache's folder and the app's cache folder above it, readable by the user only
    (made so again when an older version left them 0755)."""
    with contextlib.suppress(OSError):
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        for each in (folder, folder.parent):
            if stat.S_IMODE(each.stat().st_mode) != 0o700:
                each.chmod(0o700)


def _chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def save_cache(
    path: Path,
    layout: VaultLayout,
    max_note_bytes: int,
    notes: dict[str, IndexedNote],
    text: dict[str, Any],
    vectors: dict[str, Any] | None = None,
) -> float:
    """Write the cache atomically (a reader sees the old file or the new one); seconds taken.

    Written as a sequence of small pickles: a watching process writes it in the background,
    and one big pickle would hold the interpreter lock (and every search) for a second.
    """
    started = time.perf_counter()
    _private_folders(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    note_chunks = _chunks(list(notes.values()), NOTE_CHUNK)
    terms = [(t, *rest) for t, rest in text["postings"].items()]
    term_chunks = _chunks(terms, TERM_CHUNK)
    header = {
        "note_chunks": len(note_chunks),
        "term_chunks": len(term_chunks),
        "paths": text["paths"],
        "norms": text["norms"],
        "terms_of": text.get("terms_of", {}),
    }
    try:
        # 0600 from its creation: the cache holds the text of every note in the vault
        with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as fh:
            for part in (
                _stamp(layout, max_note_bytes),
                header,
                *note_chunks,
                *term_chunks,
                vectors,
                _END,
            ):
                pickle.dump(part, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except Exception as exc:  # a cache is only a speed-up: failing to write one is never fatal
        reason = exc.strerror if isinstance(exc, OSError) else f"{type(exc).__name__}: {exc}"
        log.warning("%s: cannot write the index cache (%s); the next start re-parses", path, reason)
        with contextlib.suppress(OSError):
            tmp.unlink()
    return time.perf_counter() - started


class IndexCache:
    """The cache file of one vault, and when it is worth writing again."""

    def __init__(self, path: Path, layout: VaultLayout, max_note_bytes: int) -> None:
        self.path = path
        self.layout = layout
        self.max_note_bytes = max_note_bytes
        self.loaded_at_start = False
        self._written = False  # the file holds this process's index (or a loaded one)
        self.load_seconds = 0.0
        self.saved_at: float | None = None
        self._written_at = time.time()  # of the file this process started from, or wrote
        self.save_seconds = 0.0
        self._parsed_at_save = 0
        self._removed_at_save = 0

    def load_into(self, catalog: VaultCatalog) -> bool:
        started = time.perf_counter()
        cached = load_cache(self.path, self.layout, self.max_note_bytes)
        if cached is not None:
            catalog.adopt(cached.notes, cached.text, cached.vectors)
        self.loaded_at_start = self._written = cached is not None
        self.load_seconds = time.perf_counter() - started
        self._parsed_at_save = catalog.parsed
        self._removed_at_save = catalog.removed
        return self.loaded_at_start

    def changes_since_save(self, catalog: VaultCatalog) -> int:
        return catalog.parsed - self._parsed_at_save + catalog.removed - self._removed_at_save

    def save(
        self,
        catalog: VaultCatalog,
        *,
        background: bool = False,
        after: threading.Thread | None = None,
    ) -> None:
        """Write the cache; in the background, the snapshot is taken now and written by a
        thread the process waits for before it exits (a CLI call never leaves half a file).
        `after`: a thread (the embedding of new notes) the snapshot waits for, so the file
        holds its vectors."""
        parsed, removed = catalog.parsed, catalog.removed
        now = None if after is not None else catalog.snapshot()
        self.saved_at = self._written_at = time.time()
        self._parsed_at_save, self._removed_at_save = parsed, removed

        def write() -> None:
            if after is not None:
                after.join()
            notes, text, vectors = now or catalog.snapshot()
            self.save_seconds = save_cache(
                self.path, self.layout, self.max_note_bytes, notes, text, vectors
            )

        wait_for_writes(self.path)
        if not background:
            write()
            return
        thread = threading.Thread(target=write, name="cgv-index-cache", daemon=False)
        with _writing_lock:
            _writing[self.path] = thread
        thread.start()

    def save_if_changed(
        self,
        catalog: VaultCatalog,
        *,
        min_changes: int = 1,
        min_interval: float = 0.0,
        background: bool = False,
        after: threading.Thread | None = None,
    ) -> bool:
        """Write the cache when enough changed since it was written (and not too recently)."""
        if self._written and self.changes_since_save(catalog) < min_changes:
            return False
        if time.time() - self._written_at < min_interval:
            return False
        self.save(catalog, background=background or after is not None, after=after)
        self._written = True
        return True

"""What every operation needs: config, clock, vault files, lock, catalogue and git history.

The service facade owns one engine; operations in `handlers/` take it as their first argument.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import logging
import math
import threading
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from cortexgraph_vault.config import Config, user_cache_dir, vault_root
from cortexgraph_vault.core.decay import score_at
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.rules import DecayFields, memory_score
from cortexgraph_vault.engine.call_timing import CallRecorder
from cortexgraph_vault.engine.commits import CommitTicket, GroupCommitter
from cortexgraph_vault.engine.memory_lookup import find_memory
from cortexgraph_vault.engine.memory_views import memory_view
from cortexgraph_vault.engine.start_writes import vectors_and_cache_at_start
from cortexgraph_vault.errors import GitError, GitOperationInProgress, LockTimeout
from cortexgraph_vault.history.git_states import GitStateWatch, held
from cortexgraph_vault.history.locate import locate
from cortexgraph_vault.index.cache.index_cache import IndexCache, cache_path
from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from cortexgraph_vault.index.gc_pause import gc_paused
from cortexgraph_vault.index.heap_trim import one_heap
from cortexgraph_vault.index.vectors.embedder import shared_embedder
from cortexgraph_vault.index.vectors.encoder_worker import shared_worker_encoder
from cortexgraph_vault.progress import ProgressFactory, no_progress
from cortexgraph_vault.vault.commit_outbox import CommitOutbox
from cortexgraph_vault.vault.files import sweep_temp_files
from cortexgraph_vault.vault.journal import WriteJournal
from cortexgraph_vault.vault.layout import VaultLayout
from cortexgraph_vault.vault.lock import VaultLock
from cortexgraph_vault.vault.paths import vault_relative

if TYPE_CHECKING:  # imported where used: a CLI call shows no memory, or watches nothing
    from cortexgraph_vault.history import VaultHistory
    from cortexgraph_vault.index.catalog.early_walk import EarlyWalk
    from cortexgraph_vault.index.watcher import VaultWatcher
    from cortexgraph_vault.models import MemoryView
    from cortexgraph_vault.vault.store import NoteStore

log = logging.getLogger("cortexgraph_vault")

Clock = Callable[[], datetime]

# A process re-parses a few changed notes faster than it rewrites the whole cache, so at start
# the cache is rewritten only when many changed; a watching process writes it when idle.
CACHE_SAVE_AT_START = 200
CACHE_SAVE_INTERVAL = 300.0
BIG_VAULT_NOTES = 2000
# A one-call process (a CLI command) reads what its start's walk found if it asks this soon.
START_WALK_TRUSTED = 1.0
REPAIR_LOCK_WAIT = 2.0


def device_name(config: Config) -> str:
    """CORTEXGRAPH_DEVICE_NAME, or the host's name without its domain."""
    named = " ".join(str(config.device_name or "").split())
    if named:
        return named
    import socket  # a read never names the device: not at every start

    return socket.gethostname().split(".")[0] or "device"


class VaultEngine:
    def __init__(
        self,
        config: Config,
        *,
        clock: Clock | None = None,
        on_catalog: Callable[[VaultCatalog], None] | None = None,
        one_call: bool = False,
        before_vectors: Callable[[VaultEngine], object] | None = None,
        progress: ProgressFactory = no_progress,
        early_walk: EarlyWalk | None = None,
    ) -> None:
        """`on_catalog` is handed the catalogue before it is filled (progress while loading);
        `progress`: how long work reports how far it got, the first index of the vault too;
        `one_call`: the process makes one call and ends (engine/start_writes.py);
        `before_vectors`: the start's last step, run before vectors are made behind it;
        `early_walk`: the vault's walk begun before the engine was (early_walk.py), taken as
        the start's own."""
        self.root = vault_root(config)
        self.config = config
        fixed = config.fixed_now
        self.clock: Clock = clock or ((lambda: fixed) if fixed else (lambda: datetime.now(UTC)))
        self.decay = config.decay
        self.rules = config.rules
        self.layout = VaultLayout(
            self.root, config.stm_folder, config.ltm_folder, config.archive_folder
        )
        self.lock = VaultLock(self.root, user_cache_dir() / "locks")
        # The change lock: a call that changes the vault holds it, so changes run one at a time
        # in this process (the service takes it for each call; the pipeline for each item).
        self.change_lock = threading.RLock()
        self.metrics = CallRecorder()  # how long each call took (get_performance_metrics)
        self.journal = WriteJournal(self.root, user_cache_dir() / "journals")
        self.catalog = VaultCatalog(
            self.layout,
            max_note_bytes=config.max_note_bytes,
            # a query's tokens from tables derived once into the cache folder, not from
            # the tokenizer parsed at every search command (index/vectors/query_tokens.py)
            embedder=functools.partial(shared_embedder, tables=user_cache_dir() / "models")
            if config.semantic_search
            else None,
            encoder=shared_worker_encoder
            if config.semantic_search and config.meaning_search
            else None,
        )
        self.catalog.meaning.behind = not one_call  # its thread would die with the call
        self.report_progress(progress)
        if on_catalog is not None:
            on_catalog(self.catalog)
        self._history: VaultHistory | None = None  # made when first needed (`history`)
        # Commits about to be made, kept outside the vault until made (vault/commit_outbox.py)
        self.outbox = CommitOutbox(self.root, user_cache_dir() / "outbox")
        self._held: set[str] = set()  # our outbox entries held while git was busy
        self._others_held = False  # entries of ended processes found while git was busy
        self._held_lock = threading.Lock()
        self.git_state = GitStateWatch(self.git_dir)
        self.group_commits = GroupCommitter(self.make_commit, self.outbox.put)
        self._device_mark: str | None = None
        self.watching = False  # set by the watcher once it keeps the catalogue current
        self.warned_no_history = False  # the "not a git repository" warning is given once
        self.watcher: VaultWatcher | None = None
        sweep_temp_files(self.root, [self.layout.stm, self.layout.ltm, self.layout.archive])
        if early_walk is not None and (
            early_walk.root != self.root or self.journal.pending() is not None
        ):
            # a write to repair changes the vault after that walk looked
            early_walk.leave()
            early_walk = None
        # A live holder of the lock is finishing its own write; a dead one left it to us.
        with contextlib.suppress(LockTimeout):
            self.repair_interrupted(lock_timeout=REPAIR_LOCK_WAIT)
        # Every process starts from the persistent cache and re-parses only what changed.
        self.index_cache = IndexCache(
            cache_path(user_cache_dir(), self.root),
            self.layout,
            config.max_note_bytes,
            one_call=one_call,
        )
        self._copies_tried: dict[str, str] = {}
        # The collector stays off while the index is loaded and brought up to date: it would
        # walk the growing heap of notes again and again.
        with gc_paused():
            self.index_cache.load_into(self.catalog)
            cached_vectors = not self.catalog.vectors_waiting()  # before any note changes
            walked = early_walk.result() if early_walk is not None else None
            self._walk_began = walked.began if walked is not None else time.monotonic()
            added = self.catalog.refresh(walked=walked.found if walked is not None else None).added
            big = len(self.catalog) >= BIG_VAULT_NOTES
            if big:
                # A big index is millions of long-lived objects: keep the cyclic collector
                # from walking them again and again, during searches too.
                gc.freeze()
        self._walked_at = time.monotonic()
        self._trusted_until: float | None = None  # the next `fresh` reads the start's walk
        self.merge_conflict_copies(added)
        if before_vectors is not None:
            # before the vectors are made behind: their thread holds the interpreter lock for
            # much of its start, which a cold start would wait out
            before_vectors(self)
        vectors_and_cache_at_start(
            self.catalog,
            self.index_cache,
            big=big,
            one_call=one_call,
            cached_vectors=cached_vectors,
            min_changes=CACHE_SAVE_AT_START,
        )
        if big:
            gc.freeze()  # what the start made since (vectors, the cache's snapshot) as well

    @functools.cached_property
    def store(self) -> NoteStore:
        """The notes' reader and writer, made when first needed: it imports the note parser
        and YAML, which a read answered from the index never uses."""
        from cortexgraph_vault.vault.store import NoteStore

        store = NoteStore(
            self.layout, self.lock, self.journal, max_note_bytes=self.config.max_note_bytes
        )
        store.before_change = self.git_state.refuse_change
        return store

    @functools.cached_property
    def device_name(self) -> str:
        """This device's name in what it writes (asked of the system when first needed)."""
        return device_name(self.config)

    def repair_interrupted(self, *, lock_timeout: float | None = None) -> str | None:
        """Finish or undo a forget or move that a killed process left half done (journal)."""
        if self.journal.pending() is None:
            return None
        with self.lock.held(lock_timeout):
            return self.journal.repair(lambda paths, msg: self.commit(paths, msg, required=True))

    # freshness -----------------------------------------------------------------
    def fresh(self) -> VaultCatalog:
        """The catalogue, current: a live watcher keeps it so; otherwise a stat walk does."""
        until, self._trusted_until = self._trusted_until, None
        if until is not None and time.monotonic() < until:
            return self.catalog
        if not self.watching:
            self.merge_conflict_copies(self.catalog.refresh().added)
        return self.catalog

    def trust_start_walk(self, asked_at: float | None = None) -> None:
        """For a process that makes one call as soon as it has started (a CLI command): that
        call reads the vault as the start's walk found it a moment before, instead of walking
        10k files again. Any later call, or one made after a pause, walks as usual.

        A call asked before the start's walk began (`asked_at`, on `time.monotonic()`'s clock:
        a search a client sent while the vault was opening) reads that walk however long ago
        it ended: the walk saw the vault as it was after the call was asked."""
        if asked_at is not None and asked_at <= self._walk_began:
            self._trusted_until = math.inf
        else:
            self._trusted_until = self._walked_at + START_WALK_TRUSTED

    def merge_conflict_copies(self, paths: Iterable[str]) -> None:
        """Merge file-sync conflict copies of memories among `paths` (engine/conflict_copies.py);
        a copy that could not be merged is tried again only once it changes."""
        paths = list(paths)
        if not paths:  # most starts and refreshes: nothing new, nothing to import
            return
        if self.git_state.state() is not None:
            return  # mid-rebase the original may be reset by an abort: merged once it is over
        from cortexgraph_vault.core.conflict_names import looks_like_copy

        wanted = []
        for rel in paths:
            if looks_like_copy(rel) and self.layout.is_memory_path(rel):
                note = self.catalog.note(rel)
                stamp = note.sha256 if note is not None else ""
                if self._copies_tried.get(rel) != stamp:
                    self._copies_tried[rel] = stamp
                    wanted.append(rel)
        if wanted:  # the merger (and what it imports) only when a copy is found: rarely
            from cortexgraph_vault.engine.conflict_copies import merge_copies

            merge_copies(self, wanted)

    # live index -------------------------------------------------------------------
    def start_watcher(self, **options: float) -> None:
        """Keep the catalogue current from file-system events (daemon, stdio MCP server)."""
        if self.watcher is not None and self.watcher.running:
            return
        from cortexgraph_vault.index.watcher import VaultWatcher

        # A long-lived process: its later threads (requests, reads, the watcher) share one
        # heap (index/heap_trim.py). Not at the engine's start: a cold start's embedding
        # threads (the tokenizer's) each keep a heap of their own, or wait on the one.
        one_heap()
        self.watcher = VaultWatcher(self.catalog, on_idle=self._save_cache_when_idle, **options)
        self.watcher.start()
        self.watching = True

    def follow_told_changes(self) -> None:
        """The catalogue is kept current by another process telling this one every path that
        changed (the daemon's read processes, api/read_worker.py): reads trust it as they trust
        a watcher's, without a walk or the change lock. Its sentence vectors are those the
        other process makes, taken from their file (index/vectors/meaning.py)."""
        self.watching = True
        self.catalog.meaning.follows = True

    def stop_watcher(self) -> None:
        self.watching = False
        if self.watcher is not None:
            self.watcher.stop()
            self.index_cache.save_if_changed(self.catalog)

    def _save_cache_when_idle(self) -> None:
        self.merge_conflict_copies(n.path for n in self.catalog.notes())
        self.index_cache.save_if_changed(self.catalog, min_interval=CACHE_SAVE_INTERVAL)

    def memory_folders(self) -> list[str]:
        return [self.layout.stm, self.layout.ltm, self.layout.archive]

    def now(self) -> datetime:
        return self.clock()

    # finding memories -------------------------------------------------------------
    def resolve(self, ref: str, *, statuses: Iterable[str] | None = None) -> Memory:
        """A memory by id, path, title or unique id prefix; clear errors otherwise."""
        return find_memory(self.fresh(), self.root, self.layout.stm, ref, statuses)

    def safe_rel(self, rel: str) -> str:
        return vault_relative(self.root, rel)

    # views -------------------------------------------------------------------------
    def score(self, m: Memory, now: datetime | None = None) -> float:
        return self.score_of(m.decay, now)

    def score_of(self, decay: DecayFields, now: datetime | None = None) -> float:
        """The score of a memory's decay fields (a note's `memory_state.decay` spares
        decoding the memory)."""
        return memory_score(decay, now or self.now(), self.decay)

    def view(
        self,
        m: Memory,
        *,
        now: datetime | None = None,
        preview: int = 0,
        include_score: bool = True,
    ) -> MemoryView:
        now = now or self.now()
        # `memory_score(m.decay, ...)` without making the decay fields: the same formula
        score = score_at(
            m.use_count, m.last_used.timestamp(), m.strength, now.timestamp(), self.decay
        )
        return memory_view(
            m, now, score, self.decay, self.rules, preview=preview, include_score=include_score
        )

    # git ---------------------------------------------------------------------------
    @property
    def history(self) -> VaultHistory:
        """The vault's git history, made (and its module imported) when an operation first
        needs it: a read command needs only `history_located`."""
        if self._history is None:
            from cortexgraph_vault.history import VaultHistory

            self._history = VaultHistory(self.root, lock_wait_seconds=self.config.git_lock_wait)
            self._history.device = self.device_name
        return self._history

    @history.setter
    def history(self, value: VaultHistory) -> None:
        self._history = value

    def history_located(self) -> str:
        """Nothing ("") when the vault has history, else why not: read from the `.git` files
        when they show it (no git process), else from `VaultHistory.located`."""
        if self._history is None:
            found = locate(self.root)
            if found is not None:
                return found.reason
        return self.history.located()

    def git_dir(self) -> Path | None:
        """The repository's folder when the `.git` files show it plainly, else None."""
        if self._history is None:
            found = locate(self.root)
            return found.git_dir if found is not None else None
        return self._history.git_dir()

    def device_mark(self) -> str:
        """What a use writes in `last_used_on`: this device's name and its clone's id. Two
        devices' uses of one memory in one second then never make byte-identical notes, which
        git would merge by taking one of them (losing the other's use) without asking the driver."""
        if self._device_mark is None:
            clone = self.history.clone_id()
            if clone is None:  # not (yet) a repository: nothing to merge with until it is
                return self.device_name
            self._device_mark = f"{self.device_name} ({clone})"
        return self._device_mark

    def commit(self, paths: Iterable[str], message: str, *, required: bool = False) -> str | None:
        """Record `paths` in git if the vault is a repository and writes are committed.

        Plain writes never fail because git is missing: the file is the truth. Operations
        that delete (gc, remove) pass required=True and check before they delete.
        """
        if not required and not self.config.git_commit_writes:
            return None
        if not self.history.available:
            if required:
                raise GitError(self.history.why_unavailable())
            return None
        try:
            return self.record(list(paths), message, required=required)
        except GitError as exc:
            if required:
                raise
            log.warning("%s", exc)
            return None

    def record(self, paths: list[str], message: str, *, required: bool = False) -> str | None:
        """Commit `paths`, kept in the outbox until git holds them. Raises GitError saying why
        not: GitOperationInProgress when git is in the middle of a rebase or merge (the commit
        is then held, and made by the next commit or start once it is over). `required`: the
        caller undoes its change when this fails, so nothing is kept for later."""
        name = self.outbox.put(paths, message)
        try:
            return self.make_commit(paths, message, [name])
        except GitError:
            if required:
                self.outbox.done(name)
                with self._held_lock:
                    self._held.discard(name)
            raise

    def make_commit(self, paths: list[str], message: str, kept: list[str]) -> str | None:
        """Commit `paths`, then let go of the `kept` outbox entries it holds. A failure leaves
        them kept (held, when git is busy with a rebase or merge) and raises GitError."""
        try:
            state = self.git_state.state()
            if state is not None:
                raise held(state)
            self.commit_held()
            sha = self.history.commit_paths(paths, message)
        except GitOperationInProgress:
            with self._held_lock:
                self._held.update(kept)
            self._release(kept)
            raise
        except (GitError, OSError, UnicodeError, ValueError) as exc:
            self._release(kept)
            if isinstance(exc, GitError):
                raise
            raise GitError(f"{self.root}: git commit failed ({exc})") from exc
        for name in kept:
            self.outbox.done(name)
        return sha

    def _release(self, kept: list[str]) -> None:
        for name in kept:
            self.outbox.release(name)

    def commit_held(self, *, left_by_others: bool = False) -> list[str]:
        """Make the commits this engine held while git was busy (and, `left_by_others`, every
        kept one not under way: those of processes that ended before making them), each with
        its own message, oldest first; one that cannot be made yet stays kept. Returns their
        subjects. Looks at nothing when nothing is held."""
        with self._held_lock:
            names, self._held = self._held, set()
            left_by_others, self._others_held = left_by_others or self._others_held, False
        if not names and not left_by_others:
            return []
        made: list[str] = []
        entries = [e for e in self.outbox.pending() if left_by_others or e.name in names]
        for index, entry in enumerate(entries):
            try:
                self.history.commit_paths(list(entry.paths), entry.message)
            except GitOperationInProgress:
                with self._held_lock:  # still busy: all that is left waits again
                    self._held.update(e.name for e in entries[index:] if e.name in names)
                    self._others_held = self._others_held or left_by_others
                break
            except (GitError, OSError, UnicodeError, ValueError) as exc:
                log.warning("%s: kept commit %r not made yet: %s", self.root, entry.subject, exc)
                continue
            self.outbox.done(entry.name)
            made.append(entry.subject)
        return made

    def commit_soon(
        self, paths: Iterable[str], subject: str, operation: str, ids: Iterable[str]
    ) -> CommitTicket:
        """`commit` of a plain write, made together with others (`engine/commits.py`) when
        the call can wait for it after its lock; `ticket.sha` is then set once it is made."""
        if not self.config.git_commit_writes or not self.history.available:
            return CommitTicket(done=True)
        return self.group_commits.submit(paths, subject, operation, ids)

    def report_progress(self, factory: ProgressFactory) -> None:
        self.progress: ProgressFactory = factory  # the CLI draws bars; other doors do not
        self.catalog.progress = factory("indexing")
        self.catalog.vector_progress = factory("embedding")

    def history_warning(self) -> str | None:
        """Once per process: a save outside a git repository works, but nothing it wrote can
        be forgotten by gc or restored until the vault has history."""
        if self.warned_no_history or self.history.available or self.config.git_auto_init:
            return None
        self.warned_no_history = True
        return (
            f"{self.root} is not a git repository: memories are saved, but gc (forgetting) and "
            "restore need history; run `cortexgraph-vault init` to start it"
        )

    def ensure_git(self) -> None:
        if self.history.available:
            return
        if self.config.git_auto_init:
            from cortexgraph_vault.history import VaultHistory

            VaultHistory.init_repo(self.root)
            self.history = VaultHistory(self.root, lock_wait_seconds=self.config.git_lock_wait)
            return
        raise GitError(self.history.why_unavailable())


def new_id() -> str:
    import uuid  # loads `platform`: not at every start

    return str(uuid.uuid4())

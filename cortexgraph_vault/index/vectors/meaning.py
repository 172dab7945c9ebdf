"""The sentence encoder's note vectors (minilm.py), made behind the searches.

A long note costs the encoder about half a second of one core, so a vault's vectors are made
behind the searches, a slice at a time, by a low-priority worker process
(encoder_worker.py) a thread of this one feeds, and kept in a file beside the index
cache (`<cache>.meaning`) so a restart embeds only what changed. A search uses them only
when every note has its vector (`ready`: a few new ones, a memory just saved, are embedded on
the spot); until then it uses the word vectors exactly as before, so quality never drops
below theirs while these are made.

A note's vector is keyed by the hash of the text it was made from (semantic.py `text_key`,
of what the catalogue's `meaning_text` gives): the file is checked against the notes as they
are when loaded, and a note changed since is embedded again.

The daemon's read processes answer its searches from indexes of their own. They make no
vectors (`follows`): the daemon makes them once, and each read process takes the file the
daemon saved once it holds every note, so a vault is embedded once, not once a process.
A note saved or changed after that is embedded by the daemon at once, behind its answer
(`mark`), before the rest of a fill still running (a large vault's first), and its vector
handed to each read process (`on_made`, `take`). A search there that finds a few notes
waiting waits for the daemon's vectors of them (`await_made`) rather than embed them again:
what it ranks by depends on the vault and the query, not on how far the daemon's file has got
under a burst of saves.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cortexgraph_vault.index.vectors.embedder import ModelUnavailable
from cortexgraph_vault.index.vectors.minilm import MAX_CHARS

if TYPE_CHECKING:
    import numpy as np

    from cortexgraph_vault.index.vectors.embedder import VectorModel
    from cortexgraph_vault.index.vectors.semantic import SemanticIndex
    from cortexgraph_vault.index.vectors.vector_rows import ExportedVectors

log = logging.getLogger(__name__)

MadeVector = tuple[str, bytes, "np.ndarray"]  # a note's path, its text's key, its vector

# A search embeds the notes waiting itself when they are this few and this short (a memory
# just saved); an edited page or more goes to the thread, the word vectors meanwhile.
ON_THE_SPOT = 16
ON_THE_SPOT_CHARS = 2000
SLICE = 64  # notes embedded between two saves of the file
# The vectors of at most this many notes changed since are handed to the read processes with
# messages; those of more (a fill of the vault) they take from the file.
HAND_ON = 1024
# The daemon saves the file after a few notes made at a change, not after each: its read
# processes have their vectors from its messages; one started since takes the file and
# embeds the few it lacks itself.
SAVE_AFTER = ON_THE_SPOT // 2
# The fill starts this long after the search that asked for it, which answers first: the
# fill's first step (every note's text and its hash) would hold the interpreter meanwhile.
START_AFTER = 1.0


BY_ENCODER, BY_WORD_VECTORS = "by_encoder", "by_word_vectors"


@dataclass(frozen=True)
class MeaningState:
    """How far the vectors are, as a person asks it: are searches ranked by the encoder yet?"""

    ready: bool  # a search ranks by the sentence encoder now
    vectors: int  # notes whose vector is of their text as it is
    notes: int
    problem: str | None = None  # why there are none (turned off, weights unusable, a failure)


class MeaningVectors:
    def __init__(
        self,
        loader: Callable[[], VectorModel] | None,
        known: Callable[[], Iterable[str]],
        text_of: Callable[[str], str | None],
    ) -> None:
        self.loader = loader
        self.known = known
        self.text_of = text_of
        self.file: Path | None = None  # set by the index cache
        self.behind = True  # a process that makes one call starts no thread
        # another process makes the vectors (the daemon, for its read processes): they are
        # taken from the file it saves, never made here
        self.follows = False
        self._taken: tuple[int, int] | None = None  # the file as a follower last looked at it
        self._marked: set[str] = set()  # a follower's notes changed since it took the file
        # a follower's notes marked since a search last checked them against their vectors
        # (None: every note): a search checks these, not every note still waiting
        self._unchecked: set[str] | None = None
        # the maker: told the vectors of each batch of notes it has just embedded
        self.on_made: Callable[[list[MadeVector]], None] | None = None
        # a follower: waits until `done()`, taking in meanwhile the vectors the maker hands
        # on (`take`); False when they did not come
        self.await_made: Callable[[Callable[[], bool]], bool] | None = None
        self._early: dict[str, MadeVector] = {}  # a follower's vectors of a change to come
        # a follower's notes told changed, whose vectors the maker sends (not those the file
        # it took lacked: the maker made them before this process listened), each with the
        # count of changes told when it was told
        self._told: dict[str, int] = {}
        self.told = 0  # a follower's changes told so far
        # a follower's search waits only for the vectors of changes told up to this count
        # (those before it came: a later one it may not see, as any read and change that
        # overlap); None: of every change told
        self.horizon: int | None = None
        self._unsaved = 0  # the maker's notes embedded since it last saved the file
        # the maker's notes changed since it has read processes (what they are told of):
        # embedded before the rest of a fill, and their vectors handed on
        self._changed: set[str] = set()
        self._quick = False  # the fill running embeds a few notes just changed
        self._index: SemanticIndex | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.broken: str | None = None  # why the last fill failed: none is tried again
        # searches the encoder would read, by what ranked them (a benchmark's row says which)
        self.searches: dict[str, int] = {BY_ENCODER: 0, BY_WORD_VECTORS: 0}

    @property
    def index(self) -> SemanticIndex:
        """Made when first needed, from the file when there is one; every note is then
        marked, so the next fill checks each one's text against its vector's key."""
        with self._lock:
            if self._index is None:
                from cortexgraph_vault.index.vectors.semantic import SemanticIndex

                index = SemanticIndex(self.loader)
                known = list(self.known())
                if self.loader is not None and self.file is not None and self.file.exists():
                    try:
                        index.restore(_read(self.file), known)
                    except Exception as exc:  # a damaged file costs an embedding
                        log.warning("%s unusable (%s); embedding again", self.file, exc)
                        index = SemanticIndex(self.loader)
                for path in known:
                    index.mark(path)
                self._index = index
            return self._index

    def reset(self) -> None:
        """Every note anew (the catalogue took over another state): made again from the file."""
        if self._index is not None:
            self.save()
            self._index = None
            self._unchecked = None

    def mark(self, path: str) -> None:
        with self._lock:
            if self.follows:  # marked again on the vectors taken next
                self._marked.add(path)
                self.told += 1
                self._told[path] = self.told
        index = self._index
        if index is not None:  # else marked when made
            index.mark(path)
        if self.follows:
            with self._lock:  # after its mark: a search that took the set before checks it next
                if self._unchecked is not None:
                    self._unchecked.add(path)
            return
        # a change told to the read processes (they and `on_made` come after the vault's
        # first load); after its mark: `_hand_on` sends only what is no longer marked
        with self._lock:
            if self.on_made is not None and len(self._changed) < HAND_ON:
                self._changed.add(path)
        if index is not None:
            # made now, behind the change, not at a search: the daemon's read processes
            # search, not the daemon, and wait for these vectors
            self.fill_behind()

    def drop(self, path: str) -> None:
        if self._index is not None:
            self._index.drop(path)

    @property
    def filling(self) -> bool:
        """A fill of more than a few notes is running (searches use the word vectors)."""
        thread = self._thread
        return thread is not None and thread.is_alive() and not self._quick

    def take(self, made: list[MadeVector]) -> None:
        """A follower: vectors the maker has just made put in (those of a change not taken
        in yet, or come before this process took the file, are kept for it: the maker saves
        its file after a few notes made, so the file may lack them)."""
        early = self._early
        if len(early) > HAND_ON:
            early.clear()
        index = self._index
        if index is None:
            for item in made:
                early[item[0]] = item
            return
        other = index.take(made, self.text_of)
        for item in other:
            early[item[0]] = item
        with self._lock:
            for path, _, _ in made:
                if path not in early:
                    self._told.pop(path, None)

    def _from_maker(self, index: SemanticIndex, waiting: list[str]) -> tuple[list[str], set[str]]:
        """A follower: the notes of `waiting` to embed here once the maker's vectors of them
        have come (or could not: a few are then embedded here); and those changed after the
        search came (`horizon`), left as they are."""
        early = [self._early.pop(p) for p in waiting if p in self._early]
        if early:
            for item in index.take(early, self.text_of):
                self._early[item[0]] = item
        horizon = self.horizon
        with self._lock:
            told = {p: self._told[p] for p in waiting if p in self._told}
        later = {p for p, at in told.items() if horizon is not None and at > horizon}
        missing = set(told) - later
        here = set(waiting) - set(told)

        def done() -> bool:
            missing.intersection_update(index.waiting())
            return not missing

        if not done() and self.await_made is not None and not self.await_made(done):
            log.warning("%d note vectors did not come from the daemon: embedded here", len(missing))
        return sorted(missing | here), later

    def ready(self) -> SemanticIndex | None:
        """The index when every note has its vector (a few missing are made now), else None
        and the missing ones are made behind."""
        if self.loader is None or self.filling or self.broken is not None:
            return None
        if self.follows:
            if self._index is None or self._index.pending > ON_THE_SPOT:
                self._take_file()  # else the maker's vectors come with its messages
            if self._index is None and len(list(self.known())) > ON_THE_SPOT:
                # the maker's fill is under way: made now from the file it has saved so far,
                # the index would hold most notes waiting, and checking each one's text
                # against its vector's (seconds at 10k notes) would be this search's wait
                return None
        elif self._index is None and len(list(self.known())) > ON_THE_SPOT:
            # made now, it would hold every note marked until the fill has checked them: no
            # search could use it meanwhile, and reading the file would only delay this one
            self.fill_behind()
            return None
        thread = self._thread
        if self._quick and thread is not None:
            thread.join()  # a few notes just changed: what a search would embed here
        index = self.index
        if self.follows:  # a touch leaves a note's vector as it is: nothing is sent for it
            with self._lock:
                unchecked, self._unchecked = self._unchecked, set()
            index.sync(self.text_of, embed=False, only=unchecked)
        waiting = index.waiting() if index.pending <= ON_THE_SPOT else None
        later: set[str] = set()
        seen = set(waiting or ())
        if waiting and self.follows:
            waiting, later = self._from_maker(index, waiting)
        texts = [self.text_of(path) or "" for path in waiting or ()]
        if waiting is None or sum(min(len(t), MAX_CHARS) for t in texts) > ON_THE_SPOT_CHARS:
            self.fill_behind()
            return None
        try:
            index.sync(self.text_of, only=waiting if self.follows else None)
            with self._lock:
                for path in waiting or ():
                    self._told.pop(path, None)
            if not self.follows:
                self._hand_on(index)
        except ModelUnavailable as exc:  # this process's copy (the worker's loaded)
            log.warning("sentence encoder unavailable: %s", exc)
            self.broken = str(exc)
            return None
        if not index.available:
            return None
        if self.follows:  # a note marked since this search looked (the watcher's) is later too
            left = seen.intersection(index.waiting()) - later if index.pending else set()
            return None if left else index
        return None if index.pending else index

    def ranked(self, *, by_encoder: bool) -> None:
        """A search the encoder would read was ranked by it, or by the word vectors (its
        vectors not all made yet, or it is unusable)."""
        self.searches[BY_ENCODER if by_encoder else BY_WORD_VECTORS] += 1

    def wait(self) -> SemanticIndex | None:
        """`ready`, once the thread has made every vector (a benchmark, a test); None when
        the model cannot be loaded or turned off."""
        while (found := self.ready()) is None and self.loader is not None:
            thread = self.fill_behind()
            if thread is None or self.index.problem is not None or self.broken is not None:
                return None
            thread.join()
        return found

    def state(self) -> MeaningState:
        """How many notes have their vector, without making any or reading the file."""
        notes = len(list(self.known()))
        if self.loader is None:
            return MeaningState(False, 0, notes, "the sentence encoder is turned off")
        index = self._index
        waiting = notes if index is None else index.pending
        filling = self.filling
        problem = self.broken or (index.problem if index is not None else None)
        ready = problem is None and not filling and index is not None and waiting <= ON_THE_SPOT
        return MeaningState(ready, max(0, notes - waiting), notes, problem)

    def _take_file(self) -> None:
        """A follower takes the vectors the file holds once the process that makes them saved
        it with every note, or all but a few (`complete`): each note is checked against its
        vector's key, and those changed since stay waiting (a few are made on the spot, as a
        memory just saved)."""
        stamp = _stamp(self.file)
        if stamp is None or stamp == self._taken or self.file is None:
            return
        self._taken = stamp
        try:
            found = _read_complete(self.file)
        except Exception as exc:  # the maker writes it aside and renames: seldom half a file
            log.warning("%s unusable (%s); searching by the word vectors", self.file, exc)
            return
        if found is None:
            return
        from cortexgraph_vault.index.vectors.semantic import SemanticIndex

        with self._lock:
            self._marked.clear()  # changes from here on are marked again below
        index = SemanticIndex(self.loader)
        known = list(self.known())
        index.restore(found, known)
        for path in known:
            index.mark(path)
        index.sync(self.text_of, embed=False)
        with self._lock:
            for path in self._marked:
                index.mark(path)
            self._unchecked = set(self._marked)
            self._marked.clear()
            self._index = index

    def fill_behind(self) -> threading.Thread | None:
        """Start making the missing vectors on a thread of their own (one at a time)."""
        if self.loader is None or not self.behind or self.follows or self.broken is not None:
            return None
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._fill, name="cgv-meaning", daemon=True)
                self._thread.start()
            return self._thread

    def _fill(self) -> None:
        before = self._index
        self._quick = before is not None and before.pending <= ON_THE_SPOT
        if not self._quick:
            time.sleep(START_AFTER)
        index = self.index
        full = not self._quick  # saved at its end whatever it made: complete, to be taken
        try:
            # the marks of notes whose vector is of their text come off at once: those left
            # are what is left to embed (the status counts them)
            index.sync(self.text_of, embed=False)
            while True:
                quick = self._quick = index.pending <= ON_THE_SPOT
                full = full or not quick
                embedded = index.sync(self.text_of, only=self._next_batch(index))
                self._hand_on(index)
                self._unsaved += embedded
                if (
                    self._unsaved >= (SAVE_AFTER if quick else SLICE)
                    # complete from here (a few at most wait): the read processes take it
                    # before the status says the vectors are made
                    or (not quick and index.pending <= ON_THE_SPOT)
                    or (full and not index.pending)
                ):
                    self.save()
                with self._lock:  # a note marked from here on starts another fill
                    if not index.pending or index is not self._index:
                        self._thread = None
                        break
        except Exception as exc:  # the word vectors serve the searches; the cause to the log
            log.exception("making the sentence encoder's note vectors failed")
            self.broken = f"making the sentence encoder's note vectors failed ({exc})"
        finally:
            self._quick = False
            model = index.embedder()
            if model is not None:
                model.let_go(0.0)  # its worker process ends

    def _next_batch(self, index: SemanticIndex) -> list[str]:
        """The notes to embed next: those changed since first (a memory just saved, that a
        read process waits for), then a slice of the rest; the one batch in flight is all a
        change waits for."""
        waiting = index.waiting()
        with self._lock:
            changed = [path for path in waiting if path in self._changed] if self._changed else []
        return changed[:SLICE] or waiting[:SLICE]

    def _hand_on(self, index: SemanticIndex) -> None:
        """The vectors of the notes changed since that have theirs now, to the read
        processes (a touched note's, unchanged, too: a message of a few)."""
        if not self._changed:  # no read processes, or nothing changed since
            return
        with index.embedding, self._lock:  # none half made: each is of its note's text
            waiting = set(index.waiting())
            made = [path for path in self._changed if path not in waiting]
            self._changed.difference_update(made)
        found = index.made(made) if made else []
        if found and self.on_made is not None:
            self.on_made(found)

    def save(self) -> None:
        """The vectors to the file (written aside, then renamed over it)."""
        import numpy as np

        index = self._index
        if self.follows:  # the file is the maker's
            return
        self._unsaved = 0
        exported = index.export() if index is not None else None
        if self.file is None or exported is None:
            return
        used = [i for i, path in enumerate(exported["paths"]) if path is not None]
        # a few notes changed during the fill (a memory saved meanwhile) leave it complete: a
        # follower has their vectors from the messages, or embeds them on the spot
        complete = len(exported["pending"]) <= ON_THE_SPOT
        aside = self.file.with_name(f"{self.file.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            with aside.open("wb") as f:
                np.savez(
                    f,
                    paths=np.array([exported["paths"][i] for i in used], dtype=str),
                    keys=exported["keys"][used],
                    notes=exported["notes"][used],
                    complete=np.array(complete),
                )
            os.replace(aside, self.file)
        except OSError as exc:
            log.warning("%s: the note vectors could not be kept (%s)", self.file, exc)
            aside.unlink(missing_ok=True)


def _read(path: Path) -> ExportedVectors:
    found = _read_complete(path, whole=False)
    assert found is not None
    return found


def _read_complete(path: Path, *, whole: bool = True) -> ExportedVectors | None:
    """The vectors the file holds; `whole`: only when it held every note when it was saved
    (else None, the vectors not read: a follower looks at each file a fill saves)."""
    import numpy as np

    with np.load(path, allow_pickle=False) as found:
        if whole and not ("complete" in found.files and bool(found["complete"])):
            return None
        paths: list[str | None] = [str(p) for p in found["paths"]]
        exported: ExportedVectors = {
            "paths": paths,
            "keys": found["keys"],
            "notes": found["notes"],
            "pending": [],
        }
        return exported


def _stamp(path: Path | None) -> tuple[int, int] | None:
    """When the file was last written, and its size; None when there is none."""
    if path is None:
        return None
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size

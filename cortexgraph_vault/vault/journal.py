"""What a two-step write is about to do, so the next holder of the vault lock can finish it.

A forget deletes files and then commits; a move writes the new file and then removes the old.
A process killed between the steps would leave memories deleted but never committed (gone
from the vault, absent from `forgotten`) or one memory in two places. So before the first
step the intent goes to a journal file outside the vault (beside the lock), and after the
last step it is removed. Whoever takes the vault lock next and finds a journal repairs the
vault from it: a move is completed (or undone if a person edited the old note meanwhile), a
forget is completed and committed (or, when git cannot commit, undone: the notes it had renamed
aside are renamed back).

Only one intent is open at a time: every step runs under the vault lock.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Literal, TypedDict, cast

from cortexgraph_vault.core import wording
from cortexgraph_vault.errors import VaultError
from cortexgraph_vault.vault.files import (
    NotRegularFile,
    atomic_write,
    lexists,
    read_bytes,
    remove_file,
    rename_file,
)
from cortexgraph_vault.vault.lock import vault_key

log = logging.getLogger(__name__)

Commit = Callable[[list[str], str], object]

# `from` is a Python keyword
MoveIntent = TypedDict(
    "MoveIntent",
    {"kind": Literal["move"], "from": str, "from_sha": str | None, "to": str, "to_sha": str},
)


class AsideFile(TypedDict):
    sha: str  # the note's content when the forget chose it
    aside: str  # where it is renamed to until the commit


class ForgetIntent(TypedDict):
    kind: Literal["forget"]
    message: str
    files: dict[str, AsideFile]


Intent = MoveIntent | ForgetIntent


def _strings(data: Mapping[str, object], *keys: str) -> bool:
    return all(isinstance(data.get(k), str) for k in keys)


def _checked(data: Mapping[str, object]) -> Intent | None:
    """The entry as the intent its kind names, or None when a field is missing or mistyped."""
    if data.get("kind") == "move":
        sha = data.get("from_sha")
        whole = _strings(data, "from", "to", "to_sha") and (sha is None or isinstance(sha, str))
    else:
        files = data.get("files")
        if not _strings(data, "message") or not isinstance(files, dict):
            return None
        whole = all(isinstance(e, dict) and _strings(e, "sha", "aside") for e in files.values())
    return cast(Intent, data) if whole else None


def file_sha(path: Path) -> str | None:
    try:
        return read_bytes(path)[1].sha256
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, NotRegularFile):
        return None


def _same_id(a: Path, b: Path) -> bool:
    """Both notes are the same memory (the moved copy was edited since, not replaced)."""
    from cortexgraph_vault.core.note import parse_note  # YAML: only for a repair

    ids = []
    for path in (a, b):
        try:
            ids.append(parse_note(read_bytes(path)[0].decode("utf-8")).frontmatter.get("id"))
        except (OSError, UnicodeDecodeError):
            return False
    return bool(ids[0]) and ids[0] == ids[1]


class WriteJournal:
    def __init__(self, root: Path, folder: Path) -> None:
        self.root = root
        self.path = folder / f"{vault_key(root)}.json"

    def begin(self, intent: Intent) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, json.dumps(intent).encode("utf-8"))

    def done(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)

    def pending(self) -> dict[str, object] | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            # Written atomically, so this is not ours half-written: say so and set it aside.
            log.warning("%s: unreadable write journal (%s); ignored", self.path, exc)
            self.done()
            return None
        return data if isinstance(data, dict) else None

    def repair(self, commit: Commit) -> str | None:
        """Finish (or undo) the intent a killed process left; the caller holds the vault lock.
        Returns a sentence saying what was done, or None when there was nothing to repair."""
        intent = self.pending()
        if intent is None:
            return None
        said = self._repair(intent, commit)
        self.done()
        log.warning("%s: an interrupted write was repaired: %s", self.root, said)
        return said

    def _repair(self, intent: dict[str, object], commit: Commit) -> str:
        kind = intent.get("kind")
        if kind not in ("move", "forget"):
            return f"unknown journal entry {kind!r} ignored"
        checked = _checked(intent)
        if checked is None:
            return f"damaged {kind} entry ignored"
        if checked["kind"] == "move":
            return self._repair_move(checked)
        return self._repair_forget(checked, commit)

    def _repair_move(self, intent: MoveIntent) -> str:
        old, new = self.root / intent["from"], self.root / intent["to"]
        old_sha, new_sha = file_sha(old), file_sha(new)
        if new_sha is None or old_sha is None:
            return f"move of {intent['from']} needed nothing more"
        if old_sha == intent["from_sha"] and (new_sha == intent["to_sha"] or _same_id(old, new)):
            remove_file(old)  # the copy is complete; the old note is exactly what was moved
            return f"move of {intent['from']} to {intent['to']} completed"
        if new_sha == intent["to_sha"]:
            remove_file(new)  # a person edited the old note since: theirs stays, ours goes
            return f"move of {intent['from']} undone: it was edited meanwhile"
        return f"{intent['from']} and {intent['to']} were both edited; both kept"

    def _repair_forget(self, intent: ForgetIntent, commit: Commit) -> str:
        files = intent["files"]
        out: list[str] = []  # taken out of the vault, waiting for the commit
        for rel, entry in files.items():
            note, aside = self.root / rel, self.root / entry["aside"]
            if lexists(aside):
                if not lexists(note):
                    out.append(rel)
            elif file_sha(note) == entry["sha"]:
                rename_file(note, aside)  # what the forget chose, unchanged: finish it
                out.append(rel)
        try:
            commit(out, str(intent["message"]))
        except (VaultError, OSError) as exc:
            for rel in out:
                rename_file(self.root / files[rel]["aside"], self.root / rel)
            return wording.forget_recovered(len(out), str(exc))
        for rel in out:
            remove_file(self.root / files[rel]["aside"])
        return wording.forget_recovered(len(out), None)

"""The one place tests build memories, memory notes and vaults, and read notes back.

Import from any test folder: `from tests.builders import a_memory, memory_text, ...` (pytest
runs with `pythonpath = ["."]` and importlib mode, so `tests` is a namespace package).

- `a_memory(...)`: a core `Memory` with sensible defaults and keyword overrides.
- `memory_fields(...)` / `memory_text(...)`: a memory note's text, frontmatter in the order and
  format `save` writes it (`render_note`), then the body.
- `write_note(...)` / `a_vault(...)`: files on disk; a vault of folders and notes, optionally a
  committed git repository.
- `split_frontmatter(...)` / `note_parts(...)`: the raw YAML (or plain-YAML fields) and body of
  a note, by the `---` lines alone, so an assertion does not lean on the parser it may be
  testing; `frontmatter_of(...)` / `body_of(...)` read a note through the package's parser.
- `service_for(...)`: a `MemoryService` on a vault at a fixed time.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from cortexgraph_vault.config import load_config
from cortexgraph_vault.core.memory import Memory
from cortexgraph_vault.core.note import parse_note, render_note
from cortexgraph_vault.service import MemoryService
from tests.conftest import NOW, git

# A fixed moment for pure (core) memories, apart from the service clock NOW.
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def a_memory(
    title: str = "A memory",
    *,
    path: str | None = None,
    id: str | None = None,
    created: datetime = T0,
    last_used: datetime | None = None,
    use_count: int = 1,
    strength: float = 1.0,
    status: str = "active",
    body: str = "",
    content_hash: str = "",
    **more: Any,
) -> Memory:
    """A core `Memory` in `_stm/<title>.md`, used once at `created`; any other `Memory` field
    (tags, entities, relations, source, use_days, ...) as a keyword."""
    return Memory(
        path=path if path is not None else f"_stm/{title}.md",
        title=title,
        id=id,
        created=created,
        last_used=last_used if last_used is not None else created,
        use_count=use_count,
        strength=strength,
        status=status,
        body=body,
        content_hash=content_hash,
        **more,
    )


def memory_fields(
    memory_id: str,
    *,
    created: datetime = NOW,
    last_used: datetime | None = None,
    use_count: int = 1,
    strength: float = 1.0,
    status: str = "active",
    tags: Sequence[str] = (),
    entities: Sequence[str] = (),
    **more: object,
) -> dict[str, object]:
    """A memory note's frontmatter fields in the order `save` writes them; `more` (related,
    aliases, source, use_days, ...) follow."""
    return {
        "id": memory_id,
        "created": created,
        "last_used": last_used if last_used is not None else created,
        "use_count": use_count,
        "strength": strength,
        "status": status,
        "tags": list(tags),
        "entities": list(entities),
        **more,
    }


def memory_text(memory_id: str, body: str = "I prefer green tea.\n", **fields: Any) -> str:
    """The text of a memory note as the vault writes it: `memory_fields(...)` then the body."""
    return render_note(memory_fields(memory_id, **fields), body)


def write_note(vault: Path, rel: str, text: str) -> Path:
    """Write `text` (bytes as given: no newline translation) at `vault/rel`, folders included."""
    path = vault / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def a_vault(
    root: Path,
    notes: Mapping[str, str] = {},
    *,
    folders: Sequence[str] = (),
    git_init: bool = False,
    message: str = "test vault",
) -> Path:
    """A vault at `root`: the given (empty) folders and notes (relative path → text), and when
    `git_init` a git repository on `main` with everything committed."""
    root.mkdir(parents=True, exist_ok=True)
    for folder in folders:
        (root / folder).mkdir(parents=True, exist_ok=True)
    for rel, text in notes.items():
        write_note(root, rel, text)
    if git_init:
        git(root, "init", "-q", "-b", "main")
        git(root, "add", "-A")
        git(root, "commit", "-q", "--allow-empty", "-m", message)
    return root


def split_frontmatter(text: str) -> tuple[str | None, str]:
    """(YAML between the first two `---` lines, body), or (None, text) without frontmatter."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n") != "---":
        return None, text
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r\n") == "---":
            return "".join(lines[1:i]), "".join(lines[i + 1 :])
    raise AssertionError("frontmatter opened with --- but never closed")


def note_parts(path: Path) -> tuple[dict[str, Any], str]:
    """(frontmatter read by plain YAML, body) of the note at `path`: independent of the
    package's note parser, for fixtures whose reading is what a test checks."""
    raw, body = split_frontmatter(path.read_text(encoding="utf-8"))
    return (yaml.safe_load(raw) or {}, body) if raw is not None else ({}, body)


def frontmatter_of(path: Path) -> dict[str, Any]:
    """The frontmatter of the note at `path`, as the package reads it."""
    return dict(parse_note(path.read_text(encoding="utf-8")).frontmatter)


def body_of(path: Path) -> str:
    return parse_note(path.read_text(encoding="utf-8")).body


def service_for(vault: Path, now: datetime = NOW, **settings: object) -> MemoryService:
    """A service on `vault` whose clock stands at `now`."""
    return MemoryService(load_config({"vault": str(vault), **settings}), clock=lambda: now)


def path_at(name: str | os.PathLike[str], dir_fd: int | None = None) -> Path:
    """The path an `os` call names with `name` relative to the folder descriptor `dir_fd`
    (as the vault's files are reached: vault/anchored.py), for a test that intercepts it."""
    if dir_fd is None:
        return Path(name)
    return Path(os.readlink(f"/proc/self/fd/{dir_fd}")) / name


def has_conflict_markers(text: str) -> bool:
    """Whether a text holds a merge conflict: an opening and a closing marker line."""
    lines = text.splitlines()
    return any(line.startswith("<<<<<<< ") for line in lines) and any(
        line.startswith(">>>>>>> ") for line in lines
    )


def a_git_that_logs(tmp_path: Path) -> tuple[str, Path]:
    """A PATH whose `git` writes each command line to a log, then runs the real git: how many
    git processes a step starts, counted from outside the process that starts them."""
    import shutil

    real = shutil.which("git")
    assert real is not None
    folder = tmp_path / "logging-git"
    folder.mkdir()
    log = tmp_path / "git-calls.log"
    script = folder / "git"
    script.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n', encoding="utf-8")
    script.chmod(0o755)
    return f"{folder}{os.pathsep}{os.environ.get('PATH', '')}", log


def git_calls(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []

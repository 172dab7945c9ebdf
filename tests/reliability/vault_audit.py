"""Builders of test vaults and the checks every scenario ends with: nothing lost, all readable."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.vault.files import TEMP_MARK
from tests.builders import a_vault, memory_text
from tests.conftest import GIT_ENV, MEANING_OFF, NOW, git

MEMORY_FOLDERS = ("_stm", "memories", "_archive")


def a_memory(
    index: int,
    *,
    use_count: int = 1,
    age: timedelta = timedelta(days=1),
    unused_for: timedelta | None = None,
    tags: tuple[str, ...] = ("reliability",),
) -> tuple[str, str, str]:
    """(file name, id, text) of a memory note written as the backend writes them."""
    memory_id = f"00000000-0000-4000-8000-{index:012d}"
    text = memory_text(
        memory_id,
        f"Reliability memory number {index} keeps its words.\n",
        created=NOW - age,
        last_used=NOW - (unused_for if unused_for is not None else age / 2),
        use_count=use_count,
        tags=tags,
    )
    return f"Memory {index:03d}.md", memory_id, text


def memory_vault(dest: Path, count: int, *, faded: int = 0, promotable: int = 0,
                 with_git: bool = True) -> dict[str, str]:  # fmt: skip
    """A vault of `count` fresh memories, `faded` forgettable ones and `promotable` much-used ones
    in `_stm/`, plus an ordinary note; committed when `with_git`. Returns id → path."""
    (dest / "_stm").mkdir(parents=True)
    (dest / "Home.md").write_text("# Home\n\nA person's own note, never ours to change.\n")
    ids: dict[str, str] = {}
    for i in range(count + faded + promotable):
        if i < count:
            name, mid, text = a_memory(i)
        elif i < count + faded:
            name, mid, text = a_memory(i, age=timedelta(days=90), unused_for=timedelta(days=80))
        else:
            name, mid, text = a_memory(i, use_count=6, age=timedelta(days=2))
        (dest / "_stm" / name).write_text(text)
        ids[mid] = f"_stm/{name}"
    if with_git:
        a_vault(dest, git_init=True)
    return ids


def note_files(vault: Path) -> list[Path]:
    return sorted(
        p for p in vault.rglob("*.md") if ".git" not in p.relative_to(vault).parts and p.is_file()
    )


def unreadable_notes(vault: Path) -> list[str]:
    """Every note that is not UTF-8 or whose frontmatter does not parse, with the reason."""
    bad = []
    for path in note_files(vault):
        rel = path.relative_to(vault).as_posix()
        try:
            problem = parse_note(path.read_bytes().decode("utf-8")).problem
        except UnicodeDecodeError as exc:
            problem = str(exc)
        if problem:
            bad.append(f"{rel}: {problem}")
    return bad


def temp_files(vault: Path) -> list[str]:
    """Our writers' temp files (hidden or not) anywhere in the vault outside .git."""
    return sorted(
        p.relative_to(vault).as_posix()
        for p in vault.rglob(f"*{TEMP_MARK}*")
        if ".git" not in p.relative_to(vault).parts
    )


def memories_on_disk(vault: Path) -> dict[str, list[tuple[str, dict]]]:
    """id → [(path, frontmatter)] of every memory note in the memory folders."""
    found: dict[str, list[tuple[str, dict]]] = {}
    for folder in MEMORY_FOLDERS:
        for path in sorted((vault / folder).rglob("*.md")) if (vault / folder).is_dir() else []:
            fm = parse_note(path.read_text(encoding="utf-8")).frontmatter
            if fm.get("id"):
                rel = path.relative_to(vault).as_posix()
                found.setdefault(str(fm["id"]), []).append((rel, fm))
    return found


def git_status(vault: Path) -> list[str]:
    out = git(vault, "status", "--porcelain=v1", "--untracked-files=all", "-z")
    return [entry for entry in out.split("\0") if entry]


def head(vault: Path) -> str:
    return git(vault, "rev-parse", "HEAD").strip()


def fingerprint(vault: Path) -> dict[str, str]:
    """Every file outside .git by content hash, with git's HEAD and index when there is one."""
    prints = {
        p.relative_to(vault).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(vault.rglob("*"))
        if p.is_file() and not p.is_symlink() and ".git" not in p.relative_to(vault).parts
    }
    if (vault / ".git").is_dir():
        prints[".git HEAD"] = subprocess.run(
            ["git", "-C", str(vault), "rev-parse", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
        # What the index holds (git may rewrite the file's stat cache without changing that).
        staged = subprocess.run(
            ["git", "-C", str(vault), "ls-files", "--stage", "-z"], capture_output=True
        ).stdout
        prints[".git index"] = hashlib.sha256(staged).hexdigest()
    return prints


def child_env(home: Path | None = None, **extra: str) -> dict[str, str]:
    """The environment of a child process: the test's isolated user dirs and git identity."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CORTEXGRAPH_")}
    for key in ("CORTEXGRAPH_CONFIG_DIR", "CORTEXGRAPH_CACHE_DIR", "CORTEXGRAPH_DATA_DIR"):
        if home is not None:
            env[key] = str(home / key.rsplit("_", 2)[-2].lower())
        elif key in os.environ:
            env[key] = os.environ[key]
    env.update(GIT_ENV)
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault(*MEANING_OFF)  # as in the tests' own process: a test turns it on by `extra`
    env.update(extra)
    return env


def cli_argv(vault: Path, *args: str, now: datetime | None = NOW) -> list[str]:
    argv = [sys.executable, "-m", "cortexgraph_vault.cli.main", "--vault", str(vault)]
    if now is not None:
        argv += ["--now", now.strftime("%Y-%m-%dT%H:%M:%SZ")]
    return [*argv, *args]


@dataclass
class Loss:
    """What a scenario could not find again; every list must be empty."""

    missing_ids: list[str]
    unreadable: list[str]
    visible_temp: list[str]

    @property
    def nothing(self) -> bool:
        return not (self.missing_ids or self.unreadable or self.visible_temp)

    def count(self) -> int:
        return len(self.missing_ids) + len(self.unreadable) + len(self.visible_temp)

"""CLI commands for memories: save, show, search, touch, ... history, restore, stats, config."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.errors import VaultError

if TYPE_CHECKING:
    from cortexgraph_vault.config import Config
    from cortexgraph_vault.service import MemoryService

Handler = Callable[["MemoryService", argparse.Namespace], Any]
COMMANDS: dict[str, Handler] = {}


def command(name: str) -> Callable[[Handler], Handler]:
    def add(fn: Handler) -> Handler:
        COMMANDS[name] = fn
        return fn

    return add


def split_list(values: Sequence[str] | None) -> list[str] | None:
    if values is None:
        return None
    return [p.strip() for v in values for p in v.split(",") if p.strip()]


@command("save")
def _save(s: MemoryService, a: argparse.Namespace) -> Any:
    content = a.content if a.content != "-" else sys.stdin.read()
    return s.save(
        content, title=a.title, tags=split_list(a.tags), entities=split_list(a.entities),
        source=a.source, context=a.context, strength=a.strength, force=a.force,
    )  # fmt: skip


@command("show")
def _show(s: MemoryService, a: argparse.Namespace) -> Any:
    return s.open(a.ids, include_relations=True, cursor=a.cursor)


@command("search")
def _search(s: MemoryService, a: argparse.Namespace) -> Any:
    return s.search(
        a.query, tags=split_list(a.tags), status=a.status, top_k=a.limit, window_days=a.window_days,
        min_score=a.min_score, page=a.page, preview_length=a.preview, explain=a.explain,
        cursor=a.cursor,
    )  # fmt: skip


@command("touch")
def _touch(s: MemoryService, a: argparse.Namespace) -> Any:
    return s.touch(a.id, boost=a.boost)


@command("observe")
def _observe(s: MemoryService, a: argparse.Namespace) -> Any:
    return s.observe(a.ids, split_list(a.context_tags))


@command("update")
def _update(s: MemoryService, a: argparse.Namespace) -> Any:
    content = sys.stdin.read() if a.content == "-" else a.content
    return s.update(
        a.id, content=content, tags=split_list(a.tags), entities=split_list(a.entities),
        strength=a.strength, expected_hash=a.expected_hash, force=a.force,
    )  # fmt: skip


@command("delete")
def _delete(s: MemoryService, a: argparse.Namespace) -> Any:
    return s.delete(a.id, mode="remove" if a.remove else "archive", expected_hash=a.expected_hash)


@command("relate")
def _relate(s: MemoryService, a: argparse.Namespace) -> Any:
    return s.relate(a.from_id, a.to_id, a.type, strength=a.strength)


@command("gc")
def _gc(s: MemoryService, a: argparse.Namespace) -> Any:
    if a.yes and not a.json:
        print("collecting forgotten memories…", file=sys.stderr)
    return s.gc(
        dry_run=not a.yes, archive_instead=a.archive, limit=a.limit, skip_paths=a.skip or []
    )


@command("promote")
def _promote(s: MemoryService, a: argparse.Namespace) -> Any:
    if not a.id and not a.auto:
        raise VaultError("give a memory id, or --auto to find candidates")
    return s.promote(a.id, auto_detect=a.auto, dry_run=not a.yes, force=a.force)


@command("snapshot")
def _snapshot(s: MemoryService, a: argparse.Namespace) -> Any:
    return s.snapshot()


@command("history")
def _history(s: MemoryService, a: argparse.Namespace) -> Any:
    if a.at:
        return s.version(a.id, a.at)
    return s.history(a.id, limit=a.limit)


@command("restore")
def _restore(s: MemoryService, a: argparse.Namespace) -> Any:
    if a.list or not a.id:
        return s.forgotten(limit=a.limit).forgotten
    return s.restore(a.id, commit=a.at)


@command("stats")
def _stats(s: MemoryService, a: argparse.Namespace) -> Any:
    return s.stats()


@command("config")
def _config(config: Config, a: argparse.Namespace) -> Any:
    """Needs no vault: it also says where the user's config file goes before there is one."""
    from cortexgraph_vault.config import config_files, describe
    from cortexgraph_vault.models import ConfigFile, ConfigReport

    files = [ConfigFile(scope=k, path=str(p), exists=p.is_file()) for k, p in config_files(config)]
    return ConfigReport(files=files, settings=describe(config))


_config.standalone = True  # type: ignore[attr-defined]


@command("init")
def _init(s: MemoryService, a: argparse.Namespace) -> Any:
    return {"message": s.init_git()}


def register(sub: argparse._SubParsersAction) -> dict[str, Handler]:  # type: ignore[type-arg]

    c = sub.add_parser("init", help="make the vault a git repository (history and restore need it)")
    c = sub.add_parser("save", help="save a new memory")
    c.add_argument("content", help="the memory's text, or - to read it from stdin")
    c.add_argument("--title")
    c.add_argument("--tags", action="append", help="comma-separated; repeatable")
    c.add_argument("--entities", action="append")
    c.add_argument("--source")
    c.add_argument("--context")
    c.add_argument("--strength", type=float, help="importance 0..2 (default 1)")
    c.add_argument("--force", action="store_true", help="save even if it looks like a secret")

    c = sub.add_parser("show", help="show memories by id, id prefix, path or title")
    c.add_argument("ids", nargs="+")
    c.add_argument("--cursor", help="continue an answer cut to its size (the --cursor it printed)")

    c = sub.add_parser("search", help="search memories (a query filters and ranks)")
    c.add_argument("query", nargs="?")
    c.add_argument("--tags", action="append")
    c.add_argument("--status", choices=["active", "promoted", "archived", "all"])
    c.add_argument("--limit", type=int, default=10)
    c.add_argument("--window-days", type=float)
    c.add_argument("--min-score", type=float)
    c.add_argument("--page", type=int)
    c.add_argument("--preview", type=int, default=300)
    c.add_argument(
        "--explain", action="store_true", help="show why each memory ranks where it does"
    )
    c.add_argument("--cursor", help="continue an answer cut to its size (the --cursor it printed)")

    c = sub.add_parser("touch", help="reinforce a memory (a use)")
    c.add_argument("id")
    c.add_argument("--boost", action="store_true", help="also raise its strength by 0.1")

    c = sub.add_parser("observe", help="record that memories were used in a conversation")
    c.add_argument("ids", nargs="+")
    c.add_argument("--context-tags", action="append")

    c = sub.add_parser("update", help="change a memory's content, tags, entities or strength")
    c.add_argument("id")
    c.add_argument("--content", help="new text, or - for stdin")
    c.add_argument("--tags", action="append")
    c.add_argument("--entities", action="append")
    c.add_argument("--strength", type=float)
    c.add_argument("--expected-hash", help="refuse if the note changed since you read it")
    c.add_argument("--force", action="store_true")

    c = sub.add_parser("delete", help="archive a memory (or --remove it; git keeps it)")
    c.add_argument("id")
    c.add_argument("--remove", action="store_true")
    c.add_argument("--expected-hash")

    c = sub.add_parser("relate", help="link two memories with a typed relation")
    c.add_argument("from_id")
    c.add_argument("to_id")
    c.add_argument("--type", default="related")
    c.add_argument("--strength", type=float, default=1.0)

    c = sub.add_parser("gc", help="forget faded memories (preview unless --yes)")
    c.add_argument("--yes", action="store_true", help="really forget them (one git commit)")
    c.add_argument("--archive", action="store_true", help="move them to the archive instead")
    c.add_argument("--limit", type=int)
    c.add_argument(
        "--skip", action="append", metavar="PATH", help="leave this note alone (open in an editor)"
    )

    c = sub.add_parser("promote", help="promote memories into the vault (preview unless --yes)")
    c.add_argument("id", nargs="?")
    c.add_argument("--auto", action="store_true", help="find every candidate")
    c.add_argument("--yes", action="store_true")
    c.add_argument("--force", action="store_true", help="promote even if it does not qualify")

    sub.add_parser("snapshot", help="commit the reinforcements gathered since the last snapshot")

    c = sub.add_parser("history", help="the git history of a memory, across renames")
    c.add_argument("id")
    c.add_argument("--at", metavar="COMMIT", help="print the memory as it was at this commit")
    c.add_argument("--limit", type=int, default=50)

    c = sub.add_parser("restore", help="bring back a forgotten or archived memory (--list them)")
    c.add_argument("id", nargs="?")
    c.add_argument("--at", metavar="COMMIT", help="restore the version at this commit")
    c.add_argument("--list", action="store_true")
    c.add_argument("--limit", type=int, default=100)

    sub.add_parser("stats", help="counts, score histogram and notes with problems")
    sub.add_parser(
        "config", help="print the effective configuration and where each value came from"
    )
    return COMMANDS

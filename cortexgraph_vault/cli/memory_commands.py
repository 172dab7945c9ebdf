"""CLI commands for memories: save, show, search, touch, ... history, restore, stats, config."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.command import Arg, Command, Request, Said, calls
from cortexgraph_vault.errors import InvalidArgument

if TYPE_CHECKING:
    from cortexgraph_vault.config import Config
    from cortexgraph_vault.service import MemoryService

# Parameters several commands share, declared once.
MEMORY_ID = Arg("id", param="memory_id", help="id, id prefix, vault path or title")
MEMORY_IDS = Arg("ids", param="memory_ids", many=True, help="ids, id prefixes, paths or titles")
TAGS = Arg(
    "--tags", many=True, metavar="TAG", help="tags: several words, comma-separated or repeated"
)
ENTITIES = Arg("--entities", many=True, metavar="ENTITY", help="people, places, things it is about")
EXPECTED_HASH = Arg(
    "--expected-hash", help="refuse if the note changed since you read it (its content_hash)"
)
YES = Arg("--yes", param="dry_run", flag=True, negate=True, help="really do it (one git commit)")
CURSOR = Arg("--cursor", help="continue an answer cut to its size (the --cursor it printed)")


def _show(s: MemoryService, r: Request) -> Any:
    return s.open(r.params["memory_ids"], include_relations=True, cursor=r.params["cursor"])


def _gc(s: MemoryService, r: Request) -> Any:
    p = r.params
    if not p["dry_run"] and not r.as_json:
        print("collecting forgotten memories…", file=sys.stderr)
    return s.gc(**{**p, "skip_paths": p["skip_paths"] or []})


def _promote(s: MemoryService, r: Request) -> Any:
    if not r.params["memory_id"] and not r.params["auto_detect"]:
        raise InvalidArgument("give a memory id, or --auto to find candidates")
    return s.promote(**r.params)


def _history(s: MemoryService, r: Request) -> Any:
    p = r.params
    if p["commit"]:
        return s.version(p["memory_id"], p["commit"])
    return s.history(p["memory_id"], limit=p["limit"])


def _restore(s: MemoryService, r: Request) -> Any:
    p = r.params
    if p["list"] or not p["memory_id"]:
        forgotten = s.forgotten(limit=p["limit"])
        return forgotten.forgotten if r.as_json else forgotten  # --json: the list, as before
    return s.restore(p["memory_id"], commit=p["commit"])


def _config(config: Config, r: Request) -> Any:
    """Needs no vault: it also says where the user's config file goes before there is one."""
    from cortexgraph_vault.config import config_files, describe
    from cortexgraph_vault.models import ConfigFile, ConfigReport

    files = [ConfigFile(scope=k, path=str(p), exists=p.is_file()) for k, p in config_files(config)]
    return ConfigReport(files=files, settings=describe(config))


def _init(s: MemoryService, r: Request) -> Any:
    return Said(s.init_git())


COMMANDS = (
    Command("init", "make the vault a git repository (history and restore need it)", _init),
    Command(
        "save",
        "save a new memory",
        calls("save"),
        operation="save_memory",
        args=(
            Arg("content", stdin_dash=True, help="the memory's text, or - to read it from stdin"),
            Arg("--title"),
            TAGS,
            ENTITIES,
            Arg("--source"),
            Arg("--context"),
            Arg("--strength", type=float, help="importance 0..2 (default 1)"),
            Arg("--force", flag=True, help="save even if it looks like a secret"),
        ),
    ),
    Command(
        "show",
        "show memories by id, id prefix, path or title",
        _show,
        args=(MEMORY_IDS, CURSOR),
        operation="open_memories",
    ),
    Command(
        "search",
        "search memories (a query filters and ranks)",
        calls("search"),
        operation="search_memory",
        args=(
            Arg("query", optional=True),
            TAGS,
            Arg("--status", choices=["active", "promoted", "archived", "all"]),
            Arg("--limit", param="top_k", type=int, default=10),
            Arg("--window-days", type=float),
            Arg("--min-score", type=float),
            Arg("--page", type=int),
            Arg("--preview", param="preview_length", type=int, default=300),
            Arg("--explain", flag=True, help="show why each memory ranks where it does"),
            CURSOR,
        ),
    ),
    Command(
        "touch",
        "reinforce a memory (a use)",
        calls("touch"),
        operation="touch_memory",
        args=(MEMORY_ID, Arg("--boost", flag=True, help="also raise its strength by 0.1")),
    ),
    Command(
        "observe",
        "record that memories were used in a conversation",
        calls("observe"),
        operation="observe_memory_usage",
        args=(MEMORY_IDS, Arg("--context-tags", many=True, metavar="TAG")),
    ),
    Command(
        "update",
        "change a memory's content, tags, entities or strength",
        calls("update"),
        operation="update_memory",
        args=(
            MEMORY_ID,
            Arg("--content", stdin_dash=True, help="new text, or - for stdin"),
            TAGS,
            ENTITIES,
            Arg("--strength", type=float),
            EXPECTED_HASH,
            Arg("--force", flag=True, help="update even if it looks like a secret"),
        ),
    ),
    Command(
        "delete",
        "archive a memory (or --remove it; git keeps it)",
        calls("delete"),
        operation="delete_memory",
        args=(
            MEMORY_ID,
            Arg(
                "--remove",
                param="mode",
                const="remove",
                default="archive",
                help="delete the file instead of archiving it",
            ),
            EXPECTED_HASH,
        ),
    ),
    Command(
        "relate",
        "link two memories with a typed relation",
        calls("relate"),
        operation="create_relation",
        args=(
            Arg("from_id", param="from_memory_id", metavar="FROM_ID"),
            Arg("to_id", param="to_memory_id", metavar="TO_ID"),
            Arg("--type", param="relation_type", default="related"),
            Arg("--strength", type=float, default=1.0),
        ),
    ),
    Command(
        "gc",
        "forget faded memories (preview unless --yes)",
        _gc,
        operation="gc",
        args=(
            Arg(
                "--yes",
                param="dry_run",
                flag=True,
                negate=True,
                help="really forget them (one git commit)",
            ),
            Arg(
                "--archive",
                param="archive_instead",
                flag=True,
                help="move them to the archive instead",
            ),
            Arg("--limit", type=int),
            # a path may hold a comma: only repeats and words make the list
            Arg(
                "--skip",
                param="skip_paths",
                many=True,
                split_commas=False,
                metavar="PATH",
                help="leave this note alone (open in an editor)",
            ),
        ),
    ),
    Command(
        "promote",
        "promote memories into the vault (preview unless --yes)",
        _promote,
        operation="promote_memory",
        args=(
            Arg("id", param="memory_id", optional=True, help="the memory (or --auto)"),
            Arg("--auto", param="auto_detect", flag=True, help="find every candidate"),
            YES,
            Arg("--force", flag=True, help="promote even if it does not qualify"),
        ),
    ),
    Command(
        "snapshot",
        "commit the reinforcements gathered since the last snapshot",
        calls("snapshot"),
    ),
    Command(
        "history",
        "the git history of a memory, across renames",
        _history,
        operation="memory_history",
        args=(
            MEMORY_ID,
            Arg(
                "--at",
                param="commit",
                metavar="COMMIT",
                help="print the memory as it was at this commit",
            ),
            Arg("--limit", type=int, default=50),
        ),
    ),
    Command(
        "restore",
        "bring back a forgotten or archived memory (--list them)",
        _restore,
        operation="restore_memory",
        args=(
            Arg("id", param="memory_id", optional=True, help="the memory (or --list)"),
            Arg(
                "--at", param="commit", metavar="COMMIT", help="restore the version at this commit"
            ),
            Arg("--list", flag=True, help="list forgotten and archived memories"),
            Arg("--limit", type=int, default=100),
        ),
    ),
    Command("stats", "counts, score histogram and notes with problems", calls("stats")),
    Command(
        "config",
        "print the effective configuration and where each value came from",
        _config,
        needs="config",
    ),
)

"""CLI commands for memories: save, show, search, touch, ... history, restore, stats, config."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.command import Arg, Command, Request, in_process, number, runs
from cortexgraph_vault.core.relation_types import RELATION_TYPES
from cortexgraph_vault.errors import InvalidArgument

if TYPE_CHECKING:
    from cortexgraph_vault.cli.operation_calls import Operations
    from cortexgraph_vault.config import Config

# Parameters several commands share, declared once.
MEMORY_ID = Arg("id", "id, id prefix, vault path or title", param="memory_id")
MEMORY_IDS = Arg("ids", "ids, id prefixes, paths or titles", param="memory_ids", many=True)
TAGS = Arg("--tags", "tags: several words, comma-separated or repeated", many=True, metavar="TAG")
ENTITIES = Arg("--entities", "people, places, things it is about", many=True, metavar="ENTITY")
EXPECTED_HASH = Arg(
    "--expected-hash", "refuse if the note changed since you read it (its content_hash)"
)
YES = Arg("--yes", "really do it (one git commit)", param="dry_run", flag=True, negate=True)
SUPERSEDES = Arg(
    "--supersedes", "memories this one replaces (no longer true)", many=True, metavar="ID"
)
CURSOR = Arg("--cursor", "continue an answer cut to its size (the --cursor it printed)")
# The filters and paging `search` and `search-all` share.
WINDOW_DAYS = Arg(
    "--window-days", "only memories used within this many days", type=float, metavar="DAYS"
)
MIN_SCORE = Arg(
    "--min-score", "only memories whose score is at least this (0..1)", type=float, metavar="SCORE"
)
PAGE = number("--page", "page N of the results, from 1 (--limit a page)")
PREVIEW = Arg(
    "--preview",
    "characters of each result's text to show (0: all; default 300)",
    param="preview_length",
    type=int,
    default=300,
    metavar="CHARS",
)
SEARCH_LIMIT = number("--limit", "how many results at most (1..100, default 10)", 10, param="top_k")


def _gc(ops: Operations, r: Request) -> Any:
    if not r.params["dry_run"] and not r.as_json:
        print("collecting forgotten memories…", file=sys.stderr)
    return ops.run("gc", r.params)


def _promote(ops: Operations, r: Request) -> Any:
    if not r.params["memory_id"] and not r.params["auto_detect"]:
        raise InvalidArgument("give a memory id, or --auto to find candidates")
    return ops.run("promote_memory", r.params)


def _history(ops: Operations, r: Request) -> Any:
    p = r.params
    if p["commit"]:
        return ops.run("memory_version", {"memory_id": p["memory_id"], "commit": p["commit"]})
    return ops.run("memory_history", {"memory_id": p["memory_id"], "limit": p["limit"]})


def _restore(ops: Operations, r: Request) -> Any:
    p = r.params
    if p["list"] or not p["memory_id"]:
        forgotten = ops.run("forgotten_memories", {"limit": p["limit"]})
        return forgotten.forgotten if r.as_json else forgotten  # --json: the list alone
    return ops.run("restore_memory", {"memory_id": p["memory_id"], "commit": p["commit"]})


def _config(config: Config, r: Request) -> Any:
    """Needs no vault: it also says where the user's config file goes before there is one."""
    from cortexgraph_vault.config import config_files, describe
    from cortexgraph_vault.models import ConfigFile, ConfigReport

    files = [ConfigFile(scope=k, path=str(p), exists=p.is_file()) for k, p in config_files(config)]
    return ConfigReport(files=files, settings=describe(config))


COMMANDS = (
    in_process("init", "make the vault a git repository (history and restore need it)", "init_git"),
    runs(
        "save",
        "save a new memory",
        "save_memory",
        Arg(
            "content",
            "the memory's text (every word; quotes optional), or - to read stdin",
            words=True,
            stdin_dash=True,
        ),
        Arg("--title", "the note's title (default: its first words)"),
        TAGS,
        ENTITIES,
        Arg("--source", "where it came from (chat, email, ...)"),
        Arg("--context", "what was going on when it was learned"),
        Arg("--strength", "importance 0..2 (default 1)", type=float),
        Arg("--force", "save even if it looks like a secret", flag=True),
        SUPERSEDES,
    ),
    Command(
        "show",
        "show memories by id, id prefix, path or title",
        operation="open_memories",
        args=(MEMORY_IDS, CURSOR),
    ),
    runs(
        "search",
        "search memories (a query filters and ranks)",
        "search_memory",
        Arg(
            "query",
            "the words to look for (quotes optional; none: list by score)",
            optional=True,
            words=True,
        ),
        TAGS,
        Arg(
            "--status",
            "which memories (default: active and promoted)",
            choices=["active", "promoted", "archived", "all"],
        ),
        SEARCH_LIMIT,
        WINDOW_DAYS,
        MIN_SCORE,
        PAGE,
        PREVIEW,
        Arg("--explain", "show why each memory ranks where it does", flag=True),
        CURSOR,
    ),
    runs(
        "touch",
        "reinforce a memory (a use)",
        "touch_memory",
        MEMORY_ID,
        Arg("--boost", "also raise its strength by 0.1", param="boost_strength", flag=True),
    ),
    runs(
        "observe",
        "record that memories were used in a conversation",
        "observe_memory_usage",
        MEMORY_IDS,
        Arg(
            "--context-tags",
            "tags of the conversation (a use outside a memory's own tags strengthens it)",
            many=True,
            metavar="TAG",
        ),
    ),
    runs(
        "update",
        "change a memory's content, tags, entities or strength",
        "update_memory",
        MEMORY_ID,
        Arg("--content", "new text, or - for stdin", stdin_dash=True),
        TAGS,
        ENTITIES,
        Arg("--strength", "importance 0..2", type=float),
        EXPECTED_HASH,
        Arg("--force", "update even if it looks like a secret", flag=True),
        SUPERSEDES,
    ),
    runs(
        "delete",
        "archive a memory (or --remove it; git keeps it)",
        "delete_memory",
        MEMORY_ID,
        Arg(
            "--remove",
            "delete the file instead of archiving it",
            param="mode",
            const="remove",
            default="archive",
        ),
        EXPECTED_HASH,
    ),
    runs(
        "relate",
        "link two memories with a typed relation",
        "create_relation",
        Arg(
            "from_id",
            "the memory the relation goes from (id, prefix, path or title)",
            param="from_memory_id",
            metavar="FROM_ID",
        ),
        Arg("to_id", "the memory it goes to", param="to_memory_id", metavar="TO_ID"),
        Arg(
            "--type",
            "the relation's type (default: related)",
            param="relation_type",
            default="related",
            choices=RELATION_TYPES,
        ),
        Arg(
            "--strength",
            "how strong the relation is, 0..1 (default 1)",
            type=float,
            default=1.0,
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
                "really forget them (one git commit)",
                param="dry_run",
                flag=True,
                negate=True,
            ),
            Arg(
                "--archive", "move them to the archive instead", param="archive_instead", flag=True
            ),
            number("--limit", "forget at most N memories (the faintest)"),
            # a path may hold a comma: only repeats and words make the list
            Arg(
                "--skip",
                "leave this note alone (open in an editor)",
                param="skip_paths",
                many=True,
                split_commas=False,
                metavar="PATH",
            ),
        ),
    ),
    Command(
        "promote",
        "promote memories into the vault (preview unless --yes)",
        _promote,
        operation="promote_memory",
        args=(
            Arg("id", "the memory (or --auto)", param="memory_id", optional=True),
            Arg("--auto", "find every candidate", param="auto_detect", flag=True),
            YES,
            Arg("--force", "promote even if it does not qualify", flag=True),
        ),
    ),
    in_process(
        "snapshot", "commit the reinforcements gathered since the last snapshot", "snapshot"
    ),
    Command(
        "history",
        "the git history of a memory, across renames",
        _history,
        operation="memory_history",
        also=("memory_version",),
        args=(
            MEMORY_ID,
            Arg(
                "--at",
                "print the memory as it was at this commit",
                param="commit",
                metavar="COMMIT",
            ),
            number("--limit", "the N most recent commits (default 50)", 50),
        ),
    ),
    Command(
        "restore",
        "bring back a forgotten or archived memory (--list them)",
        _restore,
        operation="restore_memory",
        also=("forgotten_memories",),
        args=(
            Arg("id", "the memory (or --list)", param="memory_id", optional=True),
            Arg("--at", "restore the version at this commit", param="commit", metavar="COMMIT"),
            Arg(
                "--list",
                "list forgotten and archived memories",
                flag=True,
                local=True,
                runs="forgotten_memories",
            ),
            number("--limit", "with --list: at most N memories (default 100)", 100),
        ),
    ),
    in_process("stats", "counts, score histogram and notes with problems", "vault_stats"),
    Command(
        "config",
        "print the effective configuration and where each value came from",
        on_config=_config,
    ),
)

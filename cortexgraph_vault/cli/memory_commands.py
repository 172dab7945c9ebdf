"""CLI commands for memories: save, show, search, touch, ... history, restore, stats, config."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.command import Arg, Command, Request, operation_command
from cortexgraph_vault.core.relation_types import RELATION_TYPES
from cortexgraph_vault.errors import InvalidArgument

if TYPE_CHECKING:
    from cortexgraph_vault.cli.operation_calls import Operations
    from cortexgraph_vault.config import Config

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
SUPERSEDES = Arg(
    "--supersedes", many=True, metavar="ID", help="memories this one replaces (no longer true)"
)
CURSOR = Arg("--cursor", help="continue an answer cut to its size (the --cursor it printed)")
# The filters and paging `search` and `search-all` share.
WINDOW_DAYS = Arg(
    "--window-days", type=float, metavar="DAYS", help="only memories used within this many days"
)
MIN_SCORE = Arg(
    "--min-score",
    type=float,
    metavar="SCORE",
    help="only memories whose score is at least this (0..1)",
)
PAGE = Arg("--page", type=int, metavar="N", help="page N of the results, from 1 (--limit a page)")
PREVIEW = Arg(
    "--preview",
    param="preview_length",
    type=int,
    default=300,
    metavar="CHARS",
    help="characters of each result's text to show (0: all; default 300)",
)
SEARCH_LIMIT = Arg(
    "--limit",
    param="top_k",
    type=int,
    default=10,
    metavar="N",
    help="how many results at most (1..100, default 10)",
)


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
    from cortexgraph_vault.models import ConfigFile, ConfigReport, SettingRow

    files = [ConfigFile(scope=k, path=str(p), exists=p.is_file()) for k, p in config_files(config)]
    return ConfigReport(
        files=files,
        settings=[SettingRow.model_validate(r, from_attributes=True) for r in describe(config)],
    )


COMMANDS = (
    operation_command(
        "init",
        "make the vault a git repository (history and restore need it)",
        "init_git",
        through_daemon=False,
    ),
    operation_command(
        "save",
        "save a new memory",
        "save_memory",
        args=(
            Arg(
                "content",
                words=True,
                stdin_dash=True,
                help="the memory's text (every word; quotes optional), or - to read stdin",
            ),
            Arg("--title", help="the note's title (default: its first words)"),
            TAGS,
            ENTITIES,
            Arg("--source", help="where it came from (chat, email, ...)"),
            Arg("--context", help="what was going on when it was learned"),
            Arg("--strength", type=float, help="importance 0..2 (default 1)"),
            Arg("--force", flag=True, help="save even if it looks like a secret"),
            SUPERSEDES,
        ),
    ),
    operation_command(
        "show",
        "show memories by id, id prefix, path or title",
        "open_memories",
        args=(MEMORY_IDS, CURSOR),
    ),
    operation_command(
        "search",
        "search memories (a query filters and ranks)",
        "search_memory",
        args=(
            Arg(
                "query",
                optional=True,
                words=True,
                help="the words to look for (quotes optional; none: list by score)",
            ),
            TAGS,
            Arg(
                "--status",
                choices=["active", "promoted", "archived", "all"],
                help="which memories (default: active and promoted)",
            ),
            SEARCH_LIMIT,
            WINDOW_DAYS,
            MIN_SCORE,
            PAGE,
            PREVIEW,
            Arg("--explain", flag=True, help="show why each memory ranks where it does"),
            CURSOR,
        ),
    ),
    operation_command(
        "touch",
        "reinforce a memory (a use)",
        "touch_memory",
        args=(
            MEMORY_ID,
            Arg(
                "--boost", param="boost_strength", flag=True, help="also raise its strength by 0.1"
            ),
        ),
    ),
    operation_command(
        "observe",
        "record that memories were used in a conversation",
        "observe_memory_usage",
        args=(
            MEMORY_IDS,
            Arg(
                "--context-tags",
                many=True,
                metavar="TAG",
                help="tags of the conversation (a use outside a memory's own tags strengthens it)",
            ),
        ),
    ),
    operation_command(
        "update",
        "change a memory's content, tags, entities or strength",
        "update_memory",
        args=(
            MEMORY_ID,
            Arg("--content", stdin_dash=True, help="new text, or - for stdin"),
            TAGS,
            ENTITIES,
            Arg("--strength", type=float, help="importance 0..2"),
            EXPECTED_HASH,
            Arg("--force", flag=True, help="update even if it looks like a secret"),
            SUPERSEDES,
        ),
    ),
    operation_command(
        "delete",
        "archive a memory (or --remove it; git keeps it)",
        "delete_memory",
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
    operation_command(
        "relate",
        "link two memories with a typed relation",
        "create_relation",
        args=(
            Arg(
                "from_id",
                param="from_memory_id",
                metavar="FROM_ID",
                help="the memory the relation goes from (id, prefix, path or title)",
            ),
            Arg("to_id", param="to_memory_id", metavar="TO_ID", help="the memory it goes to"),
            Arg(
                "--type",
                param="relation_type",
                default="related",
                choices=RELATION_TYPES,
                help="the relation's type (default: related)",
            ),
            Arg(
                "--strength",
                type=float,
                default=1.0,
                help="how strong the relation is, 0..1 (default 1)",
            ),
        ),
    ),
    Command(
        "gc",
        "forget faded memories (preview unless --yes)",
        _gc,
        operation="gc",
        needs="operations",
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
            Arg("--limit", type=int, metavar="N", help="forget at most N memories (the faintest)"),
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
        needs="operations",
        args=(
            Arg("id", param="memory_id", optional=True, help="the memory (or --auto)"),
            Arg("--auto", param="auto_detect", flag=True, help="find every candidate"),
            YES,
            Arg("--force", flag=True, help="promote even if it does not qualify"),
        ),
    ),
    operation_command(
        "snapshot",
        "commit the reinforcements gathered since the last snapshot",
        "snapshot",
        through_daemon=False,
    ),
    Command(
        "history",
        "the git history of a memory, across renames",
        _history,
        operation="memory_history",
        needs="operations",
        also=("memory_version",),
        args=(
            MEMORY_ID,
            Arg(
                "--at",
                param="commit",
                metavar="COMMIT",
                help="print the memory as it was at this commit",
            ),
            Arg(
                "--limit",
                type=int,
                default=50,
                metavar="N",
                help="the N most recent commits (default 50)",
            ),
        ),
    ),
    Command(
        "restore",
        "bring back a forgotten or archived memory (--list them)",
        _restore,
        operation="restore_memory",
        needs="operations",
        also=("forgotten_memories",),
        args=(
            Arg("id", param="memory_id", optional=True, help="the memory (or --list)"),
            Arg(
                "--at", param="commit", metavar="COMMIT", help="restore the version at this commit"
            ),
            Arg(
                "--list",
                flag=True,
                local=True,
                runs="forgotten_memories",
                help="list forgotten and archived memories",
            ),
            Arg(
                "--limit",
                type=int,
                default=100,
                metavar="N",
                help="with --list: at most N memories (default 100)",
            ),
        ),
    ),
    operation_command(
        "stats",
        "counts, score histogram and notes with problems",
        "vault_stats",
        through_daemon=False,
    ),
    Command(
        "config",
        "print the effective configuration and where each value came from",
        _config,
        needs="config",
    ),
)

"""CLI commands to move memories in and out and look after the vault:
import, export, reindex, doctor, graph --html."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.command import Arg, Command, Group, Request, operation_command

if TYPE_CHECKING:
    from cortexgraph_vault.config import Config

# A bar on a terminal comes from the service's progress reports (cli/progress.py).
DRY_RUN = Arg("--dry-run", flag=True, help="show what would happen; write nothing")


def _doctor(config: Config, r: Request) -> Any:
    # Needs only the config: the doctor must also speak when the vault cannot be opened at all.
    from cortexgraph_vault.cli.doctor import diagnose

    return diagnose(config, fix=r.params["fix"])


def _merge_driver(config: Config, r: Request) -> None:
    """Reached only with options before the command (`main` runs the driver at once
    otherwise): the same driver, its exit status kept for git."""
    from cortexgraph_vault.merge_driver import main as merge

    p = r.params
    code = merge([p["base"], p["ours"], p["theirs"], p["marker_size"], p["path"]])
    if code:
        raise SystemExit(code)


COMMANDS = (
    Group("import", "bring memories in from CortexGraph or the MCP memory server", "SOURCE"),
    operation_command(
        "import cortexgraph",
        "CortexGraph / mnemex JSONL (memories.jsonl + relations.jsonl)",
        "import_cortexgraph",
        through_daemon=False,
        args=(
            Arg(
                "path",
                type=Path,
                optional=True,
                help="their storage folder (default ~/.config/cortexgraph/jsonl)",
            ),
            DRY_RUN,
            Arg(
                "--overwrite",
                flag=True,
                help="replace memories the vault already has even when the vault's copy is newer",
            ),
            Arg("--allow-secrets", flag=True, help="import memories that look like credentials"),
        ),
    ),
    operation_command(
        "import memory-json",
        "the MCP memory server's memory.json",
        "import_memory_json",
        through_daemon=False,
        args=(
            Arg(
                "path", param="file", type=Path, metavar="FILE", help="the memory.json file to read"
            ),
            DRY_RUN,
            Arg(
                "--status",
                choices=["promoted", "active"],
                default="promoted",
                help="promoted (kept for good, the default) or active (short-term, fades unless used)",
            ),
            Arg("--allow-secrets", flag=True, help="import entities that look like credentials"),
        ),
    ),
    Group("export", "write every memory out (to go back to CortexGraph, or as JSON)", "FORMAT"),
    operation_command(
        "export cortexgraph",
        "memories.jsonl + relations.jsonl in a folder",
        "export_cortexgraph",
        through_daemon=False,
        args=(
            Arg(
                "path",
                param="folder",
                type=Path,
                metavar="DIR",
                help="the folder to write them into",
            ),
            Arg("--force", flag=True, help="replace files already there"),
        ),
    ),
    operation_command(
        "export json",
        "one JSON file with every memory and link",
        "export_json",
        through_daemon=False,
        args=(
            Arg("path", param="file", type=Path, metavar="FILE", help="the JSON file to write"),
            Arg("--force", flag=True, help="replace the file if it exists"),
        ),
    ),
    operation_command(
        "reindex",
        "throw the index cache away and parse every note again",
        "reindex",
        through_daemon=False,
    ),
    Command(
        "merge-driver",
        "merge two versions of a memory note field by field (git runs it; see doctor --fix)",
        _merge_driver,
        needs="config",
        description="The git merge driver for memory notes, as `.git/config` names it: "
        "`cortexgraph-vault merge-driver %O %A %B %L %P`. Writes the merge into OURS; exit "
        "status 0 when merged, 1 when git must keep the note in conflict.",
        args=(
            Arg("base", metavar="BASE", help="the common version (a temporary file)"),
            Arg("ours", metavar="OURS", help="this side's version; the merge is written here"),
            Arg("theirs", metavar="THEIRS", help="the other side's version"),
            Arg("marker_size", metavar="MARKER_SIZE", help="the length of conflict markers"),
            Arg("path", metavar="PATH", help="the note's path in the vault"),
        ),
    ),
    Command(
        "doctor",
        "check the vault, git, lock, daemon, token and settings; say how to fix",
        _doctor,
        needs="config",
        args=(
            Arg("--fix", flag=True, help="install the merge driver for memory notes if missing"),
        ),
    ),
    operation_command(
        "graph",
        "draw the memory graph as one offline HTML page",
        "graph_html",
        through_daemon=False,
        args=(
            Arg(
                "--html",
                param="file",
                type=Path,
                required=True,
                metavar="FILE",
                help="the page to write",
            ),
            Arg(
                "--memories-only",
                param="include_notes",
                flag=True,
                negate=True,
                help="leave out the notes memories link to",
            ),
        ),
    ),
)

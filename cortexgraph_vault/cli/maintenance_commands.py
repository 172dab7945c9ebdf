"""CLI commands to move memories in and out and look after the vault:
import, export, reindex, doctor, graph --html."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cortexgraph_vault.cli.command import Arg, Command, Group, Request, in_process

if TYPE_CHECKING:
    from cortexgraph_vault.config import Config

# A bar on a terminal comes from the service's progress reports (cli/progress.py).
DRY_RUN = Arg("--dry-run", "show what would happen; write nothing", flag=True)


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


def _export(kind: str, help: str, path: Arg, replaces: str) -> Command:
    """`export KIND PATH`: refuses to write over what is there unless --force."""
    force = Arg("--force", replaces, flag=True)
    return in_process(f"export {kind}", help, f"export_{kind}", path, force)


COMMANDS = (
    Group("import", "bring memories in from CortexGraph or the MCP memory server", "SOURCE"),
    in_process(
        "import cortexgraph",
        "CortexGraph / mnemex JSONL (memories.jsonl + relations.jsonl)",
        "import_cortexgraph",
        Arg(
            "path",
            "their storage folder (default ~/.config/cortexgraph/jsonl)",
            type=Path,
            optional=True,
        ),
        DRY_RUN,
        Arg(
            "--overwrite",
            "replace memories the vault already has even when the vault's copy is newer",
            flag=True,
        ),
        Arg("--allow-secrets", "import memories that look like credentials", flag=True),
    ),
    in_process(
        "import memory-json",
        "the MCP memory server's memory.json",
        "import_memory_json",
        Arg("path", "the memory.json file to read", param="file", type=Path, metavar="FILE"),
        DRY_RUN,
        Arg(
            "--status",
            "promoted (kept for good, the default) or active (short-term, fades unless used)",
            choices=["promoted", "active"],
            default="promoted",
        ),
        Arg("--allow-secrets", "import entities that look like credentials", flag=True),
    ),
    Group("export", "write every memory out (to go back to CortexGraph, or as JSON)", "FORMAT"),
    _export(
        "cortexgraph",
        "memories.jsonl + relations.jsonl in a folder",
        Arg("path", "the folder to write them into", param="folder", type=Path, metavar="DIR"),
        "replace files already there",
    ),
    _export(
        "json",
        "one JSON file with every memory and link",
        Arg("path", "the JSON file to write", param="file", type=Path, metavar="FILE"),
        "replace the file if it exists",
    ),
    in_process("reindex", "throw the index cache away and parse every note again", "reindex"),
    Command(
        "merge-driver",
        "merge two versions of a memory note field by field (git runs it; see doctor --fix)",
        on_config=_merge_driver,
        description="The git merge driver for memory notes, as `.git/config` names it: "
        "`cortexgraph-vault merge-driver %O %A %B %L %P`. Writes the merge into OURS; exit "
        "status 0 when merged, 1 when git must keep the note in conflict.",
        args=(
            Arg("base", "the common version (a temporary file)", metavar="BASE"),
            Arg("ours", "this side's version; the merge is written here", metavar="OURS"),
            Arg("theirs", "the other side's version", metavar="THEIRS"),
            Arg("marker_size", "the length of conflict markers", metavar="MARKER_SIZE"),
            Arg("path", "the note's path in the vault", metavar="PATH"),
        ),
    ),
    Command(
        "doctor",
        "check the vault, git, lock, daemon, token and settings; say how to fix",
        on_config=_doctor,
        args=(Arg("--fix", "install the merge driver for memory notes if missing", flag=True),),
    ),
    in_process(
        "graph",
        "draw the memory graph as one offline HTML page",
        "graph_html",
        Arg(
            "--html",
            "the page to write",
            param="file",
            type=Path,
            required=True,
            metavar="FILE",
        ),
        Arg(
            "--memories-only",
            "leave out the notes memories link to",
            param="include_notes",
            flag=True,
            negate=True,
        ),
    ),
)

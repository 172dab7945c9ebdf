"""CLI commands to move memories in and out and look after the vault:
import, export, reindex, doctor, graph --html."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cortexgraph_vault.config import Config
    from cortexgraph_vault.service import MemoryService

Handler = Callable[["MemoryService", argparse.Namespace], Any]


def _import(s: MemoryService, a: argparse.Namespace) -> Any:
    # A bar on a terminal comes from the service's progress reports (cli/progress.py).
    if a.source == "cortexgraph":
        return s.import_cortexgraph(
            a.path, dry_run=a.dry_run, overwrite=a.overwrite, allow_secrets=a.allow_secrets
        )
    return s.import_memory_json(
        a.path, dry_run=a.dry_run, status=a.status, allow_secrets=a.allow_secrets
    )


def _export(s: MemoryService, a: argparse.Namespace) -> Any:
    if a.target == "cortexgraph":
        return s.export_cortexgraph(a.path, force=a.force)
    return s.export_json(a.path, force=a.force)


def _reindex(s: MemoryService, a: argparse.Namespace) -> Any:
    return s.reindex()


def _graph(s: MemoryService, a: argparse.Namespace) -> Any:
    return s.graph_html(a.html, include_notes=not a.memories_only)


def _doctor(config: Config, a: argparse.Namespace) -> Any:
    # Standalone: the doctor must also speak when the vault cannot be opened at all.
    from cortexgraph_vault.cli.doctor import diagnose

    return diagnose(config, fix=a.fix)


_doctor.standalone = True  # type: ignore[attr-defined]


def register(sub: argparse._SubParsersAction) -> dict[str, Handler]:  # type: ignore[type-arg]
    c = sub.add_parser("import", help="bring memories in from CortexGraph or the MCP memory server")
    kinds = c.add_subparsers(dest="source", metavar="SOURCE", required=True)
    k = kinds.add_parser(
        "cortexgraph", help="CortexGraph / mnemex JSONL (memories.jsonl + relations.jsonl)"
    )
    k.add_argument(
        "path", nargs="?", help="their storage folder (default ~/.config/cortexgraph/jsonl)"
    )
    k.add_argument("--dry-run", action="store_true", help="show what would happen; write nothing")
    k.add_argument(
        "--overwrite", action="store_true",
        help="replace memories the vault already has even when the vault's copy is newer",
    )  # fmt: skip
    k.add_argument(
        "--allow-secrets", action="store_true", help="import memories that look like credentials"
    )
    k = kinds.add_parser("memory-json", help="the MCP memory server's memory.json")
    k.add_argument("path", metavar="FILE")
    k.add_argument("--dry-run", action="store_true", help="show what would happen; write nothing")
    k.add_argument(
        "--status", choices=["promoted", "active"], default="promoted",
        help="promoted (kept for good, the default) or active (short-term, fades unless used)",
    )  # fmt: skip
    k.add_argument(
        "--allow-secrets", action="store_true", help="import entities that look like credentials"
    )

    c = sub.add_parser(
        "export", help="write every memory out (to go back to CortexGraph, or as JSON)"
    )
    kinds = c.add_subparsers(dest="target", metavar="FORMAT", required=True)
    k = kinds.add_parser("cortexgraph", help="memories.jsonl + relations.jsonl in a folder")
    k.add_argument("path", metavar="DIR")
    k.add_argument("--force", action="store_true", help="replace files already there")
    k = kinds.add_parser("json", help="one JSON file with every memory and link")
    k.add_argument("path", metavar="FILE")
    k.add_argument("--force", action="store_true", help="replace the file if it exists")

    sub.add_parser("reindex", help="throw the index cache away and parse every note again")
    c = sub.add_parser(
        "doctor", help="check the vault, git, lock, daemon, token and settings; say how to fix"
    )
    c.add_argument(
        "--fix", action="store_true", help="install the merge driver for memory notes if missing"
    )
    c = sub.add_parser("graph", help="draw the memory graph as one offline HTML page")
    c.add_argument("--html", required=True, metavar="FILE", help="the page to write")
    c.add_argument(
        "--memories-only", action="store_true", help="leave out the notes memories link to"
    )
    return {
        "import": _import, "export": _export, "reindex": _reindex, "doctor": _doctor,
        "graph": _graph,
    }  # fmt: skip

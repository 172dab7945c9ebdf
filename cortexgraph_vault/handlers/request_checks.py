"""The checks reading requests share: the statuses asked for, a folder filter that stays inside the vault. Each error names the argument."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import NotFound, UnsafePath


def wanted_statuses(
    status: str | Sequence[str] | None, *, known: Sequence[str], default: Sequence[str]
) -> set[str]:
    """The statuses a request asks for: one or several of `known` (its model allows no other),
    "all" of them, or `default`."""
    if status is None:
        return set(default)
    wanted = {status} if isinstance(status, str) else set(status)
    return set(known) if "all" in wanted else wanted


def asks_for_history(status: str | Sequence[str] | None) -> bool:
    """Whether a search wants memories that are no longer current: asking for every status or
    for the archive (where gc puts superseded memories) asks for them."""
    wanted = {status} if isinstance(status, str) else set(status or ())
    return bool(wanted & {"all", "archived"})


def vault_folder(engine: VaultEngine, name: str, folder: str | None) -> str | None:
    """A folder filter as a clean vault path (None or `/`: the whole vault). A path leaving
    the vault is refused, as every path argument is, rather than quietly matching nothing."""
    if folder is None or not folder.strip("/ "):
        return None
    try:
        rel = engine.safe_rel(folder.strip().rstrip("/"))
    except UnsafePath as exc:
        raise UnsafePath(f"{name}: {exc}") from None
    try:
        is_folder = (engine.root / rel).is_dir()
    except OSError:  # a name too long for the file system is no folder of the vault
        is_folder = False
    if not is_folder:
        folders = {
            p.rsplit("/", 1)[0] for p in (n.path for n in engine.catalog.notes()) if "/" in p
        }
        meant = difflib.get_close_matches(rel, sorted(folders), n=1, cutoff=0.6)
        hint = f"; did you mean {meant[0]!r}?" if meant else "; leave it out to search everywhere"
        raise NotFound(f"{name}: {rel!r}: no such folder in the vault{hint}", params=(name,))
    return rel

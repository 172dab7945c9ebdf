"""Where a vault's daemon claim is, and whether a live process holds it: asked without
importing pydantic (the claim's record), so a CLI command knows cheaply whether a daemon may
answer it (and then begins no walk of the vault of its own)."""

from __future__ import annotations

import os
from pathlib import Path

from cortexgraph_vault.config import user_cache_dir
from cortexgraph_vault.vault.lock import held_elsewhere, vault_key


def claims_dir() -> Path:
    return user_cache_dir() / "daemons"


def claim_file(vault: Path) -> Path:
    """The claim file of the daemon serving `vault` (named for its real path)."""
    return claims_dir() / f"{vault_key(Path(os.path.realpath(vault)))}.json"


def claimed(vault: Path) -> bool:
    """Whether a live daemon holds the claim of `vault` (serving it, or about to)."""
    return held_elsewhere(claim_file(vault))

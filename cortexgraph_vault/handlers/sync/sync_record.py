"""The last sync of a vault on this device, kept in the user's cache folder (never in the vault,
which travels to other devices): whatever ran it — the CLI, an MCP server, the daemon — the
daemon can report it, and the plugin's status bar show it."""

from __future__ import annotations

import contextlib
import json
import logging
from pathlib import Path

from pydantic import ValidationError

from cortexgraph_vault.config import user_cache_dir
from cortexgraph_vault.core.times import format_time
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.errors import VaultError
from cortexgraph_vault.models import LastSync, SyncResult
from cortexgraph_vault.vault.files import atomic_write
from cortexgraph_vault.vault.lock import vault_key

log = logging.getLogger("cortexgraph_vault")


def record_path(engine: VaultEngine) -> Path:
    return user_cache_dir() / "syncs" / f"{vault_key(engine.root)}.json"


def remember(engine: VaultEngine, result: SyncResult | None, error: str | None = None) -> None:
    """Never fails the sync it records: a cache folder we cannot write only loses the record."""
    last = LastSync(at=format_time(engine.now()), ok=result is not None, result=result, error=error)
    try:
        atomic_write(record_path(engine), last.model_dump_json().encode("utf-8"))
    except (OSError, VaultError) as exc:
        log.warning("the outcome of this sync was not recorded: %s", exc)


def last_sync(engine: VaultEngine) -> LastSync:
    """The record, or an empty one (`at` null) when there is none or it cannot be read."""
    with contextlib.suppress(OSError, ValueError, ValidationError):
        data = json.loads(record_path(engine).read_text(encoding="utf-8"))
        return LastSync.model_validate(data)
    return LastSync()

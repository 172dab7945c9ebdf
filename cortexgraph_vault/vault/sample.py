"""The bundled sample vault, copied for demos and tests with its times moved to now.

Its memories were written as of one moment (`.cortexgraph/sample.json` → `authored_at`);
time passes, so a copy shifts every memory time by (now − authored_at) and the ages,
scores and categories come out as authored.
"""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path

from cortexgraph_vault.core.note import minimal_update, parse_note
from cortexgraph_vault.core.times import parse_time
from cortexgraph_vault.errors import ConfigError

TIME_FIELDS = ("created", "last_used", "promoted_at", "last_review_at", "archived_at")
MEMORY_FOLDERS = ("_stm", "memories", "_archive")


def sample_vault_source() -> Path:
    """The sample vault: package data (pyproject.toml), in a checkout and in a wheel alike."""
    packaged = resources.files("cortexgraph_vault") / "sample_vault"
    if packaged.is_dir():
        return Path(str(packaged))
    raise ConfigError(
        "the sample vault is missing from this installation; reinstall cortexgraph-vault"
    )


def authored_at(vault: Path) -> datetime:
    meta = json.loads((vault / ".cortexgraph" / "sample.json").read_text(encoding="utf-8"))
    moment = parse_time(meta["authored_at"])
    if moment is None:
        raise ConfigError(f"{vault}/.cortexgraph/sample.json: authored_at is not a time")
    return moment


def copy_sample_vault(dest: Path, now: datetime, source: Path | None = None) -> Path:
    """Copy the sample vault to `dest` (which must not exist) with times rebased to `now`."""
    source = source or sample_vault_source()
    if dest.exists():
        raise ConfigError(f"{dest}: already exists; choose another folder or remove it")
    shutil.copytree(source, dest)
    rebase_times(dest, now - authored_at(source))
    return dest


def rebase_times(vault: Path, shift: timedelta) -> int:
    """Shift the time fields of every memory note; returns how many notes changed."""
    changed = 0
    for folder in MEMORY_FOLDERS:
        base = vault / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.md")):
            text = path.read_text(encoding="utf-8")
            fm = parse_note(text).frontmatter
            changes = {}
            for name in TIME_FIELDS:
                moment = parse_time(fm.get(name))
                if moment is not None:
                    changes[name] = (moment + shift).replace(microsecond=0)
            if changes:
                path.write_text(minimal_update(text, changes), encoding="utf-8", newline="")
                changed += 1
    return changed

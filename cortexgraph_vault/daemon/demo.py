"""`serve --demo`: the sample vault in the user's data folder, and what a newcomer needs to know.

The copy has its times moved to now (so memories are as fresh or faded as authored) and is a
git repository from the start (history, gc and restore need one). It is kept between runs, so
what a person did in it stays; `--fresh` starts over.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from cortexgraph_vault.config import user_data_dir
from cortexgraph_vault.daemon.instance import DaemonClaim
from cortexgraph_vault.history import VaultHistory
from cortexgraph_vault.vault.sample import copy_sample_vault

DEMO_FOLDER = "demo-vault"


@dataclass(frozen=True)
class DemoVault:
    path: Path
    created: bool


def prepare_demo_vault(now: datetime, *, fresh: bool = False) -> DemoVault:
    dest = user_data_dir() / DEMO_FOLDER
    if fresh and dest.exists():
        # Refuses (naming the pid) while a daemon serves it, before anything is deleted.
        with DaemonClaim(dest):
            shutil.rmtree(dest)
    created = not dest.exists()
    if created:
        dest.parent.mkdir(parents=True, exist_ok=True)
        # Copied aside and renamed into place: an interrupted copy is never taken for the vault.
        staging = dest.with_name(f".{DEMO_FOLDER}.{os.getpid()}.partial")
        shutil.rmtree(staging, ignore_errors=True)
        copy_sample_vault(staging, now)
        staging.rename(dest)
    VaultHistory.init_repo(dest)  # idempotent: a reused vault keeps its history
    return DemoVault(Path(os.path.realpath(dest)), created)

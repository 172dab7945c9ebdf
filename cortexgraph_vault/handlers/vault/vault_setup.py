"""Setting a vault up and saying how it is set: `git init` with the merge driver, the
effective settings."""

from __future__ import annotations

from cortexgraph_vault.config import describe
from cortexgraph_vault.engine import VaultEngine
from cortexgraph_vault.history import VaultHistory
from cortexgraph_vault.models import InitResult, SettingsList


def init_git(engine: VaultEngine) -> InitResult:
    """The vault made a git repository (history and restore need one), with the merge driver
    for memory notes installed; one already made is left as it is."""
    was = engine.history.available
    VaultHistory.init_repo(engine.root)
    engine.history = VaultHistory(engine.root, lock_wait_seconds=engine.config.git_lock_wait)
    installed = engine.history.install_merge_driver(engine.memory_folders())
    said = "already a git repository" if was else f"initialised git in {engine.root}"
    return InitResult(
        message=said + (f"; installed {' and '.join(installed)}" if installed else "")
    )


def settings(engine: VaultEngine) -> SettingsList:
    """Every setting with its environment variable, value and where the value came from."""
    return SettingsList(settings=describe(engine.config))

"""Layer 4, history: the vault's git repository.

Commits record exactly the paths an operation touched (never `git add -A`, never a person's
unrelated work), waiting while another git holds `index.lock`; each memory's history is followed
across renames and moves by the `id` in its frontmatter; forgotten memories can be found and read
back from the commit that deleted them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cortexgraph_vault.deferred_import import package_names

if TYPE_CHECKING:
    from cortexgraph_vault.history.recording import GITIGNORE
    from cortexgraph_vault.history.results import VersionNotFound
    from cortexgraph_vault.history.vault_history import VaultHistory

# Imported when first named: a process that only reads the vault (or needs one small module of
# this package, such as `trailers`) does not load the machinery that runs git.
_WHERE = {"GITIGNORE": "recording", "VersionNotFound": "results", "VaultHistory": "vault_history"}
__getattr__ = package_names(__name__, _WHERE)
__all__ = ["GITIGNORE", "VaultHistory", "VersionNotFound"]

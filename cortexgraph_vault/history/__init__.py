"""Layer 4, history: the vault's git repository.

Commits record exactly the paths an operation touched (never `git add -A`, never a person's
unrelated work), waiting while another git holds `index.lock`; each memory's history is followed
across renames and moves by the `id` in its frontmatter; forgotten memories can be found and read
back from the commit that deleted them.
"""

from cortexgraph_vault.history.recording import FALLBACK_EMAIL, FALLBACK_NAME, GITIGNORE
from cortexgraph_vault.history.results import (
    CommitInfo,
    ForgottenMemory,
    MemoryVersion,
    VersionNotFound,
)
from cortexgraph_vault.history.vault_history import VaultHistory

__all__ = [
    "FALLBACK_EMAIL",
    "FALLBACK_NAME",
    "GITIGNORE",
    "CommitInfo",
    "ForgottenMemory",
    "MemoryVersion",
    "VaultHistory",
    "VersionNotFound",
]

"""cortexgraph-vault: a forgetting memory kept in an Obsidian vault."""

__version__ = "0.1.0"

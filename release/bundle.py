"""The Claude Desktop bundle (`.mcpb`, manifest version 0.3): a manifest asking for the vault
folder, and `server/launch.py`, which starts the installed `cortexgraph-vault` (or `uvx`).

The bundle carries no Python packages: numpy, tokenizers and the vectors are built per
platform and weigh tens of megabytes, and `uv tool install` / `pipx install` already put
them in an environment of their own that upgrades in place. The bundle is the one-click
configuration over that install; launch.py says which command it looks for.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from cortexgraph_vault.mcp.handshake import SERVER_DESCRIPTION
from release.versions import write_json

LAUNCHER = Path(__file__).resolve().parent / "launch.py"
NAME = "cortexgraph-vault"
VAULT_SETTING = "vault"


def tools() -> list[dict[str, str]]:
    """The MCP tools the server lists, each with its title (the catalogue's)."""
    from cortexgraph_vault.operations import OPERATION_MODULES, operation_named

    listed = []
    for name in OPERATION_MODULES:
        op = operation_named(name)
        if op.mcp_tool:
            listed.append({"name": op.name, "description": op.title})
    return listed


def manifest(version: str) -> dict[str, Any]:
    return {
        "manifest_version": "0.3",
        "name": NAME,
        "display_name": "CortexGraph vault memory",
        "version": version,
        "description": SERVER_DESCRIPTION,
        "long_description": (
            "Claude saves what it learns as Markdown notes in your Obsidian vault's `_stm/` "
            "folder. Memories that are used stay; those used on several days are promoted into "
            "the vault for good; the rest fade and are forgotten, each time in a git commit "
            "you can restore from. Needs `cortexgraph-vault` installed (`uv tool install "
            "cortexgraph-vault` or `pipx install cortexgraph-vault`), or uv."
        ),
        "author": {"name": "cortexgraph-vault developers"},
        "license": "MIT",
        "keywords": ["memory", "obsidian", "notes", "forgetting", "git"],
        "server": {
            "type": "python",
            "entry_point": "server/launch.py",
            "mcp_config": {
                "command": "python3",
                "args": [
                    "${__dirname}/server/launch.py",
                    "--vault",
                    f"${{user_config.{VAULT_SETTING}}}",
                ],
                "env": {},
                "platform_overrides": {"win32": {"command": "python"}},
            },
        },
        "user_config": {
            VAULT_SETTING: {
                "type": "directory",
                "title": "Obsidian vault",
                "description": "The vault folder the memories live in (their notes go to its "
                "_stm/ and memories/ folders).",
                "required": True,
            }
        },
        "tools": tools(),
        "tools_generated": False,
        "compatibility": {
            "platforms": ["darwin", "linux", "win32"],
            "runtimes": {"python": ">=3.11"},
        },
    }


def bundle_folder(folder: Path, version: str) -> Path:
    """The bundle's contents, laid out in `folder` (made empty first), ready for `mcpb pack`."""
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "server").mkdir(parents=True)
    shutil.copyfile(LAUNCHER, folder / "server" / "launch.py")
    write_json(folder / "manifest.json", manifest(version))
    return folder

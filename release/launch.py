"""The Claude Desktop bundle's server: starts `cortexgraph-vault --vault VAULT mcp`.

Copied into the `.mcpb` as `server/launch.py`; Claude Desktop runs it with the vault folder the
person chose. It uses only the standard library and writes nothing on stdout (the MCP stream
is the program's, not ours). The program is found, in this order:

1. `CORTEXGRAPH_VAULT_COMMAND`, when set: the program to run;
2. `cortexgraph-vault` on PATH;
3. where `uv tool install` and `pipx install` put it, which a desktop app's PATH often lacks:
   `UV_TOOL_BIN_DIR`, `PIPX_BIN_DIR`, `XDG_BIN_HOME`, then `~/.local/bin`;
4. `uvx --from cortexgraph-vault==VERSION` (this bundle's version), when `uvx` is found the
   same way: uv fetches the package from PyPI once and caches it.

None of them: one line on stderr saying how to install it, exit status 127.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

PROGRAM = "cortexgraph-vault"
NOT_FOUND = 127  # a shell's status for a command not found


def bundle_version() -> str:
    manifest = Path(__file__).resolve().parent.parent / "manifest.json"
    version: str = json.loads(manifest.read_text(encoding="utf-8"))["version"]
    return version


def install_folders(env: dict[str, str]) -> Iterator[Path]:
    for variable in ("UV_TOOL_BIN_DIR", "PIPX_BIN_DIR", "XDG_BIN_HOME"):
        if env.get(variable):
            yield Path(env[variable])
    yield Path.home() / ".local" / "bin"


def find(name: str, env: dict[str, str]) -> str | None:
    found = shutil.which(name, path=env.get("PATH"))
    if found:
        return found
    for folder in install_folders(env):
        found = shutil.which(name, path=str(folder))
        if found:
            return found
    return None


def command_for(vault: str, env: dict[str, str]) -> list[str] | None:
    """The command line that serves `vault` over stdio; None when nothing can."""
    args = ["--vault", vault, "mcp"]
    chosen = env.get("CORTEXGRAPH_VAULT_COMMAND")
    if chosen:
        return [chosen, *args]
    program = find(PROGRAM, env)
    if program:
        return [program, *args]
    uvx = find("uvx", env)
    if uvx:
        return [uvx, "--from", f"{PROGRAM}=={bundle_version()}", PROGRAM, *args]
    return None


def main(argv: Sequence[str]) -> int:
    if len(argv) != 2 or argv[0] != "--vault" or not argv[1]:
        print(f"launch.py: expected --vault FOLDER, got {list(argv)}", file=sys.stderr)
        return 2
    env = dict(os.environ)
    command = command_for(argv[1], env)
    if command is None:
        print(
            f"{PROGRAM} is not installed: run `uv tool install {PROGRAM}` or "
            f"`pipx install {PROGRAM}` (or install uv), then restart Claude Desktop",
            file=sys.stderr,
        )
        return NOT_FOUND
    if os.name == "nt":  # no exec on Windows: the child keeps our stdin and stdout
        return subprocess.call(command)
    os.execv(command[0], command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""What `serve` prints once it listens: where things are and how to connect each client.

Commands are printed with absolute paths, because Claude Desktop starts servers without the
person's shell PATH.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

from cortexgraph_vault.daemon.demo import DemoVault
from cortexgraph_vault.daemon.serve import Serving
from cortexgraph_vault.history.merge_setup import this_program

PLUGIN_NAME = "CortexGraph Memories"


def executable() -> list[str]:
    """An absolute command that runs this cortexgraph-vault (Claude Desktop needs one)."""
    found = this_program() or shutil.which("cortexgraph-vault")
    if found:
        return [str(Path(found).absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "cortexgraph_vault.cli.main"]


def command_line_steps(vault: Path) -> list[str]:
    """The shell lines that make the bare `cortexgraph-vault` this one, aimed at `vault`: a
    PATH line only when the program on PATH is another one (or none), as after
    `./scripts/demo`, which installs into the checkout's .venv."""
    command = executable()
    lines = []
    on_path = shutil.which("cortexgraph-vault")
    mine = Path(command[0]).resolve()
    if len(command) > 1:  # no script of ours: the module, through this Python
        lines.append(f"alias cortexgraph-vault={shlex.quote(shlex.join(command))}")
    elif on_path is None or Path(on_path).resolve() != mine:
        lines.append(f'export PATH={shlex.quote(str(Path(command[0]).parent))}:"$PATH"')
    lines.append(f"export CORTEXGRAPH_VAULT={shlex.quote(str(vault))}")
    return lines


def plugin_folder() -> Path | None:
    checkout = Path(__file__).resolve().parents[2] / "obsidian-plugin"
    return checkout if (checkout / "package.json").is_file() else None


def claude_desktop_config(vault: Path) -> dict[str, object]:
    command, *prefix = executable()
    return {
        "mcpServers": {
            "cortexgraph": {"command": command, "args": [*prefix, "--vault", str(vault), "mcp"]}
        }
    }


def demo_banner(serving: Serving, demo: DemoVault) -> str:
    vault = serving.vault
    cmd = shlex.join(executable())
    q = shlex.quote
    made = "made just now" if demo.created else "kept from last time; --fresh starts over"
    desktop = json.dumps(claude_desktop_config(vault), indent=2).replace("\n", "\n  ")
    plugin = plugin_folder()
    plugin_steps = (
        f"cd {q(str(plugin))} && npm ci && npm run build && "
        f"npm run install-plugin -- {q(str(vault))}"
        if plugin
        else f"from a cortexgraph-vault checkout: cd obsidian-plugin && npm ci && "
        f"npm run build && npm run install-plugin -- {q(str(vault))}"
    )
    shell = "\n  ".join(command_line_steps(vault))
    return f"""\
cortexgraph-vault demo: serving a copy of the sample vault ({made})

  vault    {vault}  (a git repository)
  REST     {serving.url}/api/v1   (spec: /api/v1/openapi.json)
  MCP      {serving.url}/mcp
  token    {serving.token_path}   (print it: {cmd} token)

Command line, in another terminal:
  {shell}
  cortexgraph-vault search typescript      # then: show, touch, gc, promote --auto, --help

Claude Desktop: add this to claude_desktop_config.json and restart it
  {desktop}

Claude Code:
  claude mcp add cortexgraph -- {cmd} --vault {q(str(vault))} mcp
or through this daemon:
  claude mcp add --transport http cortexgraph {serving.url}/mcp --header "Authorization: Bearer $({cmd} token)"

Obsidian: "Open folder as vault" → {vault}, then install the plugin:
  {plugin_steps}
  and enable "{PLUGIN_NAME}" in Settings → Community plugins; paste the token in its settings.

Stop with Ctrl-C.
"""


def serve_banner(serving: Serving) -> str:
    cmd = shlex.join(executable())
    return f"""\
cortexgraph-vault: serving {serving.vault}
  REST     {serving.url}/api/v1   (spec: /api/v1/openapi.json)
  MCP      {serving.url}/mcp
  token    {serving.token_path}   (print it: {cmd} token)
Stop with Ctrl-C.
"""

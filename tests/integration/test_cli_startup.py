"""`--version` and `--help` answer without loading what only commands need (pydantic, numpy,
the MCP SDK, the web stack), and say exactly what the full parser says."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY_PACKAGES = ("pydantic", "numpy", "mcp", "starlette", "uvicorn", "tokenizers")
HEAVY_MODULES = (
    "cortexgraph_vault.service",
    "cortexgraph_vault.models",
    "cortexgraph_vault.engine",
)

# Runs the CLI's main() in a fresh interpreter, then reports its output and what it imported.
PROBE = """
import contextlib, io, json, sys
from cortexgraph_vault.cli.main import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exc:
        code = exc.code
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {packages} or m in {modules})
print(json.dumps({{"code": code, "out": out.getvalue(), "loaded": loaded}}))
"""


def probe(*args: str) -> dict[str, object]:
    code = PROBE.format(packages=list(HEAVY_PACKAGES), modules=list(HEAVY_MODULES))
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return json.loads(proc.stdout)


@pytest.mark.parametrize(
    "args", [("--version",), ("--help",), ("search", "--help"), ("mcp", "--help"), ()]
)
def test_version_and_help_load_nothing_heavy(args: tuple[str, ...]) -> None:
    result = probe(*args)
    assert result["code"] in (0, None)
    assert "cortexgraph-vault" in str(result["out"])
    assert result["loaded"] == [], f"{args} imported {result['loaded']}"


def test_version_fast_path_prints_what_argparse_prints(cli) -> None:
    fast = cli("--version", now=None)
    # with another option first, argparse's own version action answers
    parsed = cli("-v", "--version", now=None)
    assert fast.code == parsed.code == 0
    assert fast.out == parsed.out
    assert fast.out.startswith("cortexgraph-vault ") and fast.out.strip().split()[1][0].isdigit()


def test_help_is_the_full_parsers_help_with_every_command(cli) -> None:
    shown = cli("--help", now=None)
    # The same parser built after every command's dependencies are loaded: lazy imports
    # must change nothing a person reads.
    proc = subprocess.run(
        [sys.executable, "-c",
         "import cortexgraph_vault.service, cortexgraph_vault.mcp, cortexgraph_vault.cli.render\n"
         "from cortexgraph_vault.cli.main import build_parser\n"
         "print(build_parser().format_help(), end='')"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert shown.code == 0
    assert shown.out == proc.stdout
    for command in ("save", "search", "show", "gc", "mcp", "serve", "graph", "stats"):
        assert f"\n    {command} " in shown.out, command

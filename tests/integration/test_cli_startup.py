"""`--version` and `--help` answer without loading what only commands need (pydantic, numpy,
the MCP SDK, the web stack), and say exactly what the full parser says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import NOW_ISO

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


CREDENTIAL_DETECTOR = [
    "cortexgraph_vault.core.credentials",
    "cortexgraph_vault.core.credential_phrases",
]


def _run_loading(
    vault: Path, *args: str, watched: list[str] = CREDENTIAL_DETECTOR
) -> tuple[int, str, str, list[str]]:
    """`main(args)` on `vault` in a fresh interpreter: its exit code, output and errors, and
    which of the `watched` modules (the credential detector's) it loaded."""
    code = (
        "import contextlib, io, json, sys\n"
        "from cortexgraph_vault.cli.main import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    code = main(sys.argv[1:])\n"
        f"loaded = [m for m in {watched!r} if m in sys.modules]\n"
        "print(json.dumps({'code': code, 'out': out.getvalue(), 'loaded': loaded}))\n"
    )
    argv = ["--vault", str(vault), "--now", NOW_ISO, *args]
    proc = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.splitlines()[-1])
    return result["code"], result["out"], proc.stderr, result["loaded"]


def test_a_search_does_not_load_the_credential_detector_a_save_uses(sample_vault: Path) -> None:
    # Its phrase patterns take a tenth of a second of CPU to compile: a spawned MCP server's
    # first search waited for them though it checks no text.
    code, out, _, loaded = _run_loading(sample_vault, "--json", "search", "coffee")
    assert code in (0, None) and json.loads(out)["results"], out
    assert loaded == []
    # A save checks its text: the detector loads and refuses a credential in everyday words.
    before = sorted(p.name for p in (sample_vault / "_stm").iterdir())
    code, _, err, loaded = _run_loading(sample_vault, "save", "my wifi password is hunter4")
    assert code not in (0, None) and "password" in err, err
    assert loaded == CREDENTIAL_DETECTOR
    assert sorted(p.name for p in (sample_vault / "_stm").iterdir()) == before


YAML_LOADER = ["yaml", "cortexgraph_vault.core.note"]


def test_a_search_on_an_indexed_vault_does_not_load_the_yaml_loader(sample_vault: Path) -> None:
    # The index cache holds every note parsed: a search parses no frontmatter, and the YAML
    # loader's import was a tenth of what a one-call search spends on imports.
    code, _, _, loaded = _run_loading(sample_vault, "search", "coffee", watched=YAML_LOADER)
    assert code in (0, None)
    assert loaded == YAML_LOADER  # the first process parsed every note
    code, out, _, loaded = _run_loading(
        sample_vault, "--json", "search", "coffee", watched=YAML_LOADER
    )
    assert code in (0, None) and json.loads(out)["results"], out
    assert loaded == []
    # A change reads the note's frontmatter and writes it back: the loader is there for it.
    code, _, err, loaded = _run_loading(
        sample_vault, "save", "coffee after lunch keeps me up", watched=YAML_LOADER
    )
    assert code in (0, None), err
    assert loaded == YAML_LOADER


OTHER_RESULTS = [
    "cortexgraph_vault.models.graph",
    "cortexgraph_vault.models.notes",
    "cortexgraph_vault.models.sync",
    "cortexgraph_vault.requests.vault",
]


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (("stats",), "notes"),
        (("search", "coffee"), "coffee"),
        (("show", "Cat named Pixel"), "pixel"),
    ],
)
def test_a_read_builds_the_models_of_its_own_answer_only(
    sample_vault: Path, args: tuple[str, ...], shown: str
) -> None:
    # pydantic collects each model's fields when its class is made: `stats` built the sync,
    # graph and note-read results its area declares, and a search the unified search's request.
    _run_loading(sample_vault, "stats")  # the first process indexes the vault
    code, out, err, loaded = _run_loading(sample_vault, *args, watched=OTHER_RESULTS)
    assert code in (0, None), err
    assert shown in out.lower()
    assert loaded == []

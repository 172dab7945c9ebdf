"""Read commands as whole processes on a warm vault (an index cache written by an earlier
run): the program's answer is the one `main` gives in this process, byte for byte; what
changed on disk between two runs is seen (an edit, a note added, a note removed); failures
keep their exit status and message although the program leaves without tearing down."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.vaultgen import generate_vault
from cortexgraph_vault.cli.main import main
from tests.conftest import NOW, NOW_ISO, CliResult, git

NOTES = 300  # enough that a cold start writes the index cache


@pytest.fixture
def warm_vault(tmp_path: Path, cli) -> Path:  # type: ignore[no-untyped-def]
    vault = tmp_path / "vault"
    generate_vault(vault, NOTES, now=NOW)
    git(vault, "init", "-q", "-b", "main")
    first = cli("stats", vault=vault)
    assert first.code == 0, first.err
    assert any((Path(os.environ["CORTEXGRAPH_CACHE_DIR"]) / "index").iterdir())
    return vault


def _a_memory(vault: Path) -> Path:
    return sorted((vault / "_stm").glob("*.md"))[0]


def _in_process(argv: list[str], capsys: pytest.CaptureFixture[str]) -> CliResult:
    capsys.readouterr()
    code = main(argv)
    got = capsys.readouterr()
    return CliResult(code, got.out, got.err)


def test_a_warm_read_prints_what_main_prints_in_process(
    warm_vault: Path,
    cli,
    capsys: pytest.CaptureFixture[str],  # type: ignore[no-untyped-def]
) -> None:
    memory = _a_memory(warm_vault).relative_to(warm_vault).as_posix()
    title = _a_memory(warm_vault).stem
    for args in (
        ["stats"],
        ["show", memory],
        ["search", title],
        ["search", "the", "--limit", "100"],
    ):
        for json_flag in ([], ["--json"]):
            argv = [*json_flag, *args]
            process = cli(*argv, vault=warm_vault)
            here = _in_process(["--vault", str(warm_vault), "--now", NOW_ISO, *argv], capsys)
            assert process.code == here.code == 0, process.err
            assert process.out == here.out and process.out.strip(), argv
            assert process.err == here.err


def test_an_edit_between_two_runs_is_seen(warm_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    note = _a_memory(warm_vault)
    rel = note.relative_to(warm_vault).as_posix()
    assert "zanzibarquill" not in cli("show", rel, vault=warm_vault).out
    text = note.read_text(encoding="utf-8")
    note.write_text(text.rstrip("\n") + "\nzanzibarquill\n", encoding="utf-8")
    shown = cli("--json", "show", rel, vault=warm_vault).json()
    assert "zanzibarquill" in shown["memories"][0]["content"]  # type: ignore[index]
    found = cli("--json", "search", "zanzibarquill", vault=warm_vault).json()
    assert [hit["path"] for hit in found["results"]] == [rel]  # type: ignore[index]
    # the same size, only its time and bytes changed: still seen
    edited = note.read_text(encoding="utf-8").replace("zanzibarquill", "quillzanzibar")
    note.write_text(edited, encoding="utf-8")
    st = note.stat()
    os.utime(note, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert cli("--json", "search", "zanzibarquill", vault=warm_vault).json()["count"] == 0  # type: ignore[index]
    found = cli("--json", "search", "quillzanzibar", vault=warm_vault).json()
    # first by its word; the generated vault's made-up words may lend others a likeness
    assert found["results"][0]["path"] == rel  # type: ignore[index]


def test_a_note_added_or_removed_between_two_runs_is_seen(warm_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    before = cli("--json", "stats", vault=warm_vault).json()
    added = warm_vault / "_stm" / "Walrus Committee.md"
    added.write_text("The walrus committee meets on Thursdays.\n", encoding="utf-8")
    after = cli("--json", "stats", vault=warm_vault).json()
    assert after["total_notes"] == before["total_notes"] + 1  # type: ignore[index]
    shown = cli("--json", "show", "Walrus Committee", vault=warm_vault)
    assert shown.code == 0 and "walrus committee meets" in shown.out
    added.unlink()
    again = cli("--json", "stats", vault=warm_vault).json()
    assert again["total_notes"] == before["total_notes"]  # type: ignore[index]
    gone = cli("show", "Walrus Committee", vault=warm_vault)
    assert gone.code == 4 and "no memory matches 'Walrus Committee'" in gone.err
    assert gone.out == ""


def test_a_failure_keeps_its_exit_status_and_message(warm_vault: Path, cli) -> None:  # type: ignore[no-untyped-def]
    refused = cli("search", "x", "--limit", "500", vault=warm_vault)
    assert refused.code != 0 and "--limit" in refused.err and refused.out == ""
    bad = cli("serch", "x", vault=warm_vault)
    assert bad.code == 2 and "invalid choice: 'serch'" in bad.err


def test_the_program_runs_without_pydantic_plugins_unless_told() -> None:
    # `entry` leaves with os._exit: what it set is looked at from a child process
    code = (
        "import os\n"
        "from cortexgraph_vault.cli import main as m\n"
        "m.main = lambda **_: print(os.environ.get('PYDANTIC_DISABLE_PLUGINS')) or 0\n"
        "m.entry()\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and out.stdout.strip() == "__all__"
    env["PYDANTIC_DISABLE_PLUGINS"] = ""  # a person's own setting wins
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and out.stdout == "\n"


def test_with_plugins_disabled_pydantic_never_looks_for_them() -> None:
    # the loader that finds none: models build and validate, importlib.metadata never loads
    code = (
        "import os, sys\n"
        "os.environ['PYDANTIC_DISABLE_PLUGINS'] = '__all__'\n"
        "from cortexgraph_vault.cli.main import without_plugin_search\n"
        "without_plugin_search()\n"
        "from pydantic import BaseModel\n"
        "class A(BaseModel):\n"
        "    x: int\n"
        "assert A.model_validate({'x': '3'}).x == 3\n"
        "print('importlib.metadata' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"

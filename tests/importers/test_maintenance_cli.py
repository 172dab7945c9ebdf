"""The maintenance commands as a person runs them: the real CLI in a subprocess."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.importers.helpers import CORTEXGRAPH, MEMORY_JSON, empty_git_vault, snapshot


def test_import_from_cortexgraphs_default_folder_with_json_output(
    tmp_path: Path, cli_in_process
) -> None:  # type: ignore[no-untyped-def]
    cli = cli_in_process
    home = tmp_path / "home"
    shutil.copytree(CORTEXGRAPH, home / ".config" / "cortexgraph" / "jsonl")
    vault = empty_git_vault(tmp_path / "vault")
    result = cli("--json", "import", "cortexgraph", vault=vault, env={"HOME": str(home)})
    assert result.code == 0, result.err
    data = result.json()
    assert (data["created"], data["path"]) == (5, str(home / ".config" / "cortexgraph" / "jsonl"))
    assert [p["line"] for p in data["problems"] if p["file"] == "memories.jsonl"] == [9, 11, 12]
    assert result.err == ""


def test_a_dry_run_prints_the_plan_and_the_skipped_lines(tmp_path: Path, cli_in_process) -> None:  # type: ignore[no-untyped-def]
    cli = cli_in_process
    vault = empty_git_vault(tmp_path / "vault")
    result = cli("import", "cortexgraph", str(CORTEXGRAPH), "--dry-run", vault=vault)
    assert result.code == 0, result.err
    assert result.out.startswith("Dry run: 5 memories would be created")
    assert "created   Commit style → memories/Commit style.md" in result.out
    assert "skipped memories.jsonl:12: truncated last line" in result.out
    assert snapshot(vault) == {}


def test_memory_json_export_reindex_and_graph_from_the_command_line(
    tmp_path: Path, cli_in_process
) -> None:  # type: ignore[no-untyped-def]
    cli = cli_in_process
    vault = empty_git_vault(tmp_path / "vault")
    assert cli("import", "memory-json", str(MEMORY_JSON), vault=vault).code == 0
    out = tmp_path / "out"
    exported = cli("--json", "export", "cortexgraph", str(out), vault=vault)
    assert exported.code == 0, exported.err
    assert exported.json()["memories"] == 3
    assert len((out / "memories.jsonl").read_text().splitlines()) == 3
    again = cli("export", "cortexgraph", str(out), vault=vault)
    assert again.code == 2 and "already exists" in again.err and "--force" in again.err
    as_json = cli("export", "json", str(tmp_path / "all.json"), vault=vault)
    assert as_json.code == 0 and json.loads((tmp_path / "all.json").read_text())["memories"]
    reindexed = cli("--json", "reindex", vault=vault)
    assert reindexed.code == 0 and reindexed.json()["memories"] == 3
    drawn = cli("graph", "--html", str(tmp_path / "g.html"), vault=vault)
    assert drawn.code == 0 and "3 nodes" in drawn.out
    assert (tmp_path / "g.html").read_text().startswith("<!DOCTYPE html>")


def test_long_imports_are_quiet_off_a_terminal(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    store = tmp_path / "store"
    store.mkdir()
    base = 1793523600
    records = [
        {"id": f"m-{i:04d}", "content": f"Fact number {i} about the garden", "meta": {"tags": ["garden"]},
         "created_at": base + i, "last_used": base + i, "use_count": i % 4, "strength": 1.0, "status": "active"}
        for i in range(250)
    ]  # fmt: skip
    (store / "memories.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    vault = empty_git_vault(tmp_path / "vault")
    # Not a terminal (a pipe here), and --json: stdout is the result, stderr stays quiet.
    result = cli("--json", "import", "cortexgraph", str(store), vault=vault)
    assert result.code == 0, result.err
    assert result.json()["created"] == 250
    assert result.err == ""
    assert len(list((vault / "_stm").iterdir())) == 250

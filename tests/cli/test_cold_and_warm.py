"""A read command answers the same from a cold start (no index cache) and a warm one (the
cache of an earlier process), and a warm start follows what changed while no process ran."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

READS = (
    ("stats",),
    ("search", "coffee"),
    ("search", "typescript javascript", "--limit", "3"),
    ("search", "--status", "all", "--limit", "100", "--preview", "40"),
    ("search-all", "coffee"),
)


def _answers(cli, vault: Path, env: dict[str, str], memory_id: str) -> list[str]:  # type: ignore[no-untyped-def]
    out = []
    for args in (*READS, ("show", memory_id)):
        result = cli("--json", *args, vault=vault, env=env)
        assert result.code == 0, result.err
        out.append(result.out)
    return out


@pytest.fixture
def cache_env(tmp_path: Path) -> dict[str, str]:
    return {"CORTEXGRAPH_CACHE_DIR": str(tmp_path / "cache"), "CORTEXGRAPH_NO_DAEMON": "1"}


def _cold(cli, vault: Path, env: dict[str, str], memory_id: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Each answer from a process that finds no cache (it writes one; thrown away after)."""
    out = []
    for args in (*READS, ("show", memory_id)):
        shutil.rmtree(env["CORTEXGRAPH_CACHE_DIR"], ignore_errors=True)
        result = cli("--json", *args, vault=vault, env=env)
        assert result.code == 0, result.err
        out.append(result.out)
    return out


def _differences(warm: list[str], cold: list[str]) -> list[tuple[int, str, object, object]]:
    """(answer, field, warm value, cold value) of every field that differs. The size of the
    cache file aside: a warm start that re-parsed a few notes does not rewrite it."""
    found = []
    for i, (w, c) in enumerate(zip(warm, cold, strict=True)):
        a, b = json.loads(w), json.loads(c)
        keys = sorted({*a, *b} - {"cache_bytes"})
        found += [(i, k, a.get(k), b.get(k)) for k in keys if a.get(k) != b.get(k)]
    return found


def _a_memory_id(cli, vault: Path, env: dict[str, str]) -> str:  # type: ignore[no-untyped-def]
    found = cli("--json", "search", "coffee", vault=vault, env=env).json()
    return str(found["results"][0]["id"])


def test_cold_and_warm_answers_are_the_same(cli, git_vault: Path, cache_env) -> None:  # type: ignore[no-untyped-def]
    memory_id = _a_memory_id(cli, git_vault, cache_env)
    cold = _cold(cli, git_vault, cache_env, memory_id)
    cli("stats", vault=git_vault, env=cache_env)  # leaves the cache the warm calls start from
    warm = _answers(cli, git_vault, cache_env, memory_id)
    assert _differences(warm, cold) == []


def test_a_warm_start_follows_changes_made_while_no_process_ran(  # type: ignore[no-untyped-def]
    cli, git_vault: Path, cache_env
) -> None:
    memory_id = _a_memory_id(cli, git_vault, cache_env)
    cli("stats", vault=git_vault, env=cache_env)  # the cache of the vault as it was
    stm = git_vault / "_stm"
    notes = sorted(p for p in stm.glob("*.md") if memory_id not in p.read_text("utf-8"))
    edited, deleted, renamed = notes[0], notes[1], notes[2]
    edited.write_text(edited.read_text("utf-8") + "\nNow about coffee grinders too.\n", "utf-8")
    deleted.unlink()
    renamed.rename(stm / "A new name.md")
    (stm / "Added by hand.md").write_text("Coffee beans from a new roaster.\n", "utf-8")
    warm = _answers(cli, git_vault, cache_env, memory_id)
    assert _differences(warm, _cold(cli, git_vault, cache_env, memory_id)) == []
    assert "A new name" in warm[3] and "Added by hand" in warm[3]
    assert deleted.stem not in warm[3]

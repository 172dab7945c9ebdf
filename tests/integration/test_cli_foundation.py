"""The foundation's promises, checked through the CLI's commands (its `main`, in this process) and
real git."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from cortexgraph_vault.core.note import parse_note
from tests.conftest import NOW, git


@pytest.fixture
def cli(cli_in_process):  # type: ignore[no-untyped-def]
    """This module's tests are about what the commands answer: the CLI's main in this process
    (tests/cli/test_main.py and others start the program for real)."""
    return cli_in_process


WORKED = {
    "exponential": {1: 0.7937, 3: 0.5000, 7: 0.1984, 14: 0.0394},
    "power_law": {1: 0.7540, 3: 0.5000, 7: 0.2934, 14: 0.1667},
    "two_component": {1: 0.4469, 3: 0.2338, 7: 0.1500, 14: 0.0749},
}


def iso(days: float) -> str:
    return (NOW + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.mark.parametrize("model", list(WORKED))
def test_each_decay_model_set_by_env_gives_the_worked_scores(
    model: str, tmp_path: Path, cli
) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    env = {"CORTEXGRAPH_DECAY_MODEL": model}
    saved = cli("--json", "save", "Maya drinks oat milk in her coffee.", vault=vault, env=env)
    assert saved.code == 0, saved.err
    memory_id = saved.json()["id"]
    for days, expected in WORKED[model].items():
        shown = cli("--json", "show", memory_id, vault=vault, now=iso(days), env=env)
        assert shown.code == 0, shown.err
        score = shown.json()["memories"][0]["score"]
        assert round(score, 4) == pytest.approx(expected, abs=1e-4), (model, days, score)


def test_invalid_setting_names_variable_and_range(tmp_path: Path, cli) -> None:
    result = cli("stats", vault=tmp_path, env={"CORTEXGRAPH_PL_ALPHA": "-3"})
    assert result.code != 0
    assert "CORTEXGRAPH_PL_ALPHA" in result.err and "from 0.01 to 10" in result.err


def changed_lines(vault: Path, rel: str) -> list[str]:
    diff = git(vault, "diff", "--unified=0", "--", rel)
    return [ln for ln in diff.splitlines() if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]


def test_touch_changes_only_the_use_lines(git_vault: Path, cli) -> None:
    rel = "_stm/Curious about Rust.md"
    before = (git_vault / rel).read_text()
    result = cli("--json", "touch", "Curious about Rust", vault=git_vault)
    assert result.code == 0, result.err
    assert result.json()["use_count"] == 3
    lines = changed_lines(git_vault, rel)
    assert sorted(ln[1:].split(":", 1)[0] for ln in lines) == [
        "last_used",
        "last_used",
        "last_used_on",  # which device used it last (multi-device sync, README)
        "use_count",
        "use_count",
        "use_days",
    ]
    # Saved Nov 1, used again Nov 15, now Dec 1: the third day of use, which the note's other
    # fields cannot tell, so it is written down (README, Scoring).
    assert "+use_days: 3" in lines
    after = (git_vault / rel).read_text()
    assert "# Maya added this herself after a late-night chat\nmood: curious\n" in after
    assert parse_note(after).body == parse_note(before).body


def test_gc_makes_one_commit_naming_every_forgotten_id_and_restore_brings_one_back(
    git_vault: Path, cli
) -> None:
    bodies = {p.name: parse_note(p.read_text()).body for p in (git_vault / "_stm").glob("*.md")}
    commits_before = int(git(git_vault, "rev-list", "--count", "HEAD"))
    preview = cli("--json", "gc", vault=git_vault)
    assert preview.code == 0, preview.err
    ids = preview.json()["memory_ids"]
    assert len(ids) >= 3
    assert int(git(git_vault, "rev-list", "--count", "HEAD")) == commits_before

    run = cli("--json", "gc", "--yes", vault=git_vault)
    assert run.code == 0, run.err
    assert sorted(run.json()["memory_ids"]) == sorted(ids)
    assert int(git(git_vault, "rev-list", "--count", "HEAD")) == commits_before + 1
    message = git(git_vault, "log", "-1", "--format=%B")
    for memory_id in ids:
        assert f"Cortexgraph-Forgotten: {memory_id}" in message
    assert git(git_vault, "status", "--porcelain") == ""

    restored = cli("--json", "restore", ids[0], vault=git_vault)
    assert restored.code == 0, restored.err
    path = git_vault / restored.json()["path"]
    text = path.read_text()
    assert parse_note(text).body == bodies[path.name]
    fm = parse_note(text).frontmatter
    assert fm["id"] == ids[0] and fm["status"] == "active"
    shown = cli("--json", "show", ids[0], vault=git_vault)
    assert shown.json()["memories"][0]["path"] == restored.json()["path"]


def test_gc_with_index_lock_held_fails_clearly_and_forgets_nothing(git_vault: Path, cli) -> None:
    files = {p: p.read_bytes() for p in (git_vault / "_stm").glob("*.md")}
    (git_vault / ".git" / "index.lock").write_text("")
    result = cli("--set", "git_lock_wait=1", "gc", "--yes", vault=git_vault)
    assert result.code != 0
    assert "index.lock" in result.err and "nothing was" in result.err
    assert {p: p.read_bytes() for p in (git_vault / "_stm").glob("*.md")} == files


def test_promote_auto_preview_count_is_what_is_promoted(git_vault: Path, cli) -> None:
    preview = cli("--json", "promote", "--auto", vault=git_vault)
    assert preview.code == 0, preview.err
    count = preview.json()["candidates_found"]
    assert count >= 3 and preview.json()["promoted_count"] == 0
    done = cli("--json", "promote", "--auto", "--yes", vault=git_vault)
    assert done.code == 0, done.err
    assert done.json()["promoted_count"] == count
    for old, new in done.json()["moved"].items():
        assert not (git_vault / old).exists() and new.startswith("memories/")
        assert parse_note((git_vault / new).read_text()).frontmatter["status"] == "promoted"
    assert git(git_vault, "status", "--porcelain") == ""


def test_broken_notes_are_reported_and_left_byte_identical(git_vault: Path, cli) -> None:
    broken = {
        "_stm/bad yaml.md": b"---\ntitle: x\nsource: chat: 2025\n---\nA note with bad YAML.\n",
        "_stm/latin1.md": "---\nuse_count: 2\n---\nCaf\xe9 au lait\n".encode("latin-1"),
        "_stm/empty.md": b"",
    }
    for rel, data in broken.items():
        (git_vault / rel).write_bytes(data)
    stats = cli("--json", "stats", vault=git_vault)
    assert stats.code == 0, stats.err
    reported = {p["path"]: p["reason"] for p in stats.json()["problems"]}
    assert "not valid YAML" in reported["_stm/bad yaml.md"]
    assert "UTF-8" in reported["_stm/latin1.md"]
    assert "empty" in reported["_stm/empty.md"]
    for args in (
        ["search", "coffee"],
        ["gc"],
        ["gc", "--yes"],
        ["promote", "--auto", "--yes"],
        ["touch", "Time zone"],
    ):
        result = cli(*args, vault=git_vault, now=iso(90))
        assert result.code == 0, (args, result.err)
    touched = cli("touch", "bad yaml", vault=git_vault)
    assert touched.code != 0 and "bad yaml.md" in touched.err and "left untouched" in touched.err
    for rel, data in broken.items():
        assert (git_vault / rel).read_bytes() == data, rel


def test_human_output_never_passes_terminal_control_characters(cli, git_vault: Path) -> None:  # type: ignore[no-untyped-def]
    hostile = "# Pwned\x1b]0;owned title\x07\x1b[2J\x1b[31mred\x9b1m beep\x07 and\ttab"
    (git_vault / "_stm" / "Terminal trick.md").write_text(hostile + "\n")
    for args in (("show", "Terminal trick"), ("search", "Pwned"), ("search-all", "Pwned")):
        result = cli(*args, vault=git_vault)
        assert result.code == 0, result.err
        shown = result.out
        for control in ("\x1b", "\x07", "\x9b"):
            assert control not in shown, (args, shown)
        if args[0] == "show":
            assert "\\x1b]0;owned title\\x07" in shown and "and\ttab" in shown
    missing = cli("show", "no such \x1b[2J memory", vault=git_vault)
    shown = missing.out + missing.err
    assert "\x1b" not in shown and "\\x1b[2J" in shown

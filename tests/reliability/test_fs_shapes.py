"""Scenario 4b — shapes a vault takes: a 50 MB note, 10,000 files in one folder (2,000 in a
person's run: tests/conftest.py `scenario_size`), and file names with unicode (NFC and NFD),
spaces, `#`, `[]`, quotes, a newline and 240+ bytes.

A huge note is indexed up to `max_note_bytes`, reported, and never rewritten; the memory of
the process that reads it depends on the cap, not on the file. Every odd name survives
touch, gc, restore and promote with git recording exactly those paths.
"""

from __future__ import annotations

import json
import subprocess
import time
import unicodedata
from datetime import timedelta
from pathlib import Path

from cortexgraph_vault.core.note import parse_note, render_note
from tests.conftest import NOW, git, scenario_size
from tests.reliability.vault_audit import (
    a_memory,
    child_env,
    cli_argv,
    fingerprint,
    memory_vault,
    unreadable_notes,
)

MB = 1_000_000
LINE = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\n"


# The child reports its own peak RSS: rusage from wait4 would count the test process too
# (Linux carries the parent's high-water mark across fork and exec).
PEAK_RSS = (
    "import atexit, runpy, sys\n"
    "def peak():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            sys.stderr.write('peak-rss-kb ' + line.split()[1] + '\\n')\n"
    "atexit.register(peak)\n"
    "sys.argv = ['cortexgraph-vault', *sys.argv[1:]]\n"
    "runpy.run_module('cortexgraph_vault.cli.main', run_name='__main__')\n"
)


def run_measured(vault: Path, home: Path, *args: str) -> tuple[dict, float, float]:
    """(JSON output, peak RSS in MB, seconds) of one CLI process."""
    argv = cli_argv(vault, "--json", *args)
    start = time.monotonic()
    done = subprocess.run([argv[0], "-c", PEAK_RSS, *argv[3:]], env=child_env(home),
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    peak = int(done.stderr.rsplit("peak-rss-kb ", 1)[1].split()[0]) / 1024
    return json.loads(done.stdout), peak, time.monotonic() - start


def huge_memory(size: int, words: tuple[str, str]) -> str:
    head = render_note(
        {
            "id": f"huge-{size}",
            "created": NOW - timedelta(days=1),
            "last_used": NOW,
            "use_count": 1,
            "status": "active",
        },
        f"{words[0]} starts this huge memory.\n",
    )
    return head + LINE * (size // len(LINE)) + f"{words[1]} ends it.\n"


def test_a_50_mb_note_is_indexed_up_to_the_cap_reported_and_never_rewritten(
    tmp_path: Path, figures: dict[str, object]
) -> None:
    rss = {}
    for size in (6 * MB, 50 * MB):
        vault = tmp_path / f"vault-{size}"
        memory_vault(vault, 3, with_git=False)
        (vault / "_stm" / "Huge memory.md").write_text(
            huge_memory(size, ("alphaword", "omegaword"))
        )
        (vault / "Huge note.md").write_text("# Huge\n\n" + LINE * (size // len(LINE)))
        home = tmp_path / f"home-{size}"  # no cache: every note is read
        stats, rss[size], seconds = run_measured(vault, home, "stats")
        reported = {p["path"]: p["reason"] for p in stats["problems"]}
        assert "larger than 5000000 bytes" in reported.get("_stm/Huge memory.md", ""), reported
        assert "larger than 5000000 bytes" in reported.get("Huge note.md", ""), reported
        found, _, _ = run_measured(vault, home, "search", "alphaword")
        assert [r["id"] for r in found["results"]] == [f"huge-{size}"]
        beyond, _, _ = run_measured(vault, home, "search", "omegaword")
        assert beyond["results"] == []  # past the cap: not indexed
        before = fingerprint(vault)
        touched = subprocess.run(cli_argv(vault, "touch", f"huge-{size}"), env=child_env(home),
                                 capture_output=True, text=True)  # fmt: skip
        assert touched.returncode == 1 and "larger than max_note_bytes" in touched.stderr
        assert fingerprint(vault) == before
    # Memory follows the cap, not the file: 50 MB costs what 6 MB costs.
    assert rss[50 * MB] - rss[6 * MB] < 25, rss
    figures.update(rss_mb_6MB=round(rss[6 * MB]), rss_mb_50MB=round(rss[50 * MB]),
                   index_seconds_50MB=round(seconds, 1), lost=0)  # fmt: skip


def test_ten_thousand_files_in_one_folder(tmp_path: Path, figures: dict[str, object]) -> None:
    vault, home = tmp_path / "vault", tmp_path / "home"
    files, faded = scenario_size(10_000, 2_000), 100
    fresh = files - faded
    ids = memory_vault(vault, fresh, faded=faded)
    stats, rss, cold = run_measured(vault, home, "stats")
    assert stats["memories"] == {"active": files}
    _, _, warm = run_measured(vault, home, "stats")
    saved, _, _ = run_measured(
        vault, home, "save", "One more in a crowded folder", "--title", "Memory 042"
    )
    assert saved["path"] == "_stm/Memory 042 2.md"
    last = sorted(ids)[fresh - 1]
    touched, _, _ = run_measured(vault, home, "touch", last)
    assert touched["use_count"] == 2
    forgot, _, gc_seconds = run_measured(vault, home, "gc", "--yes")
    assert forgot["removed_count"] == faded
    names = git(vault, "show", "--name-only", "--format=", forgot["commit"]).splitlines()
    assert sorted(names) == sorted(ids[i] for i in sorted(ids)[fresh:])
    assert unreadable_notes(vault) == []
    figures.update(files=files, cold_index_seconds=round(cold, 1), warm_seconds=round(warm, 1),
                   gc_100_seconds=round(gc_seconds, 1), peak_rss_mb=round(rss), lost=0)  # fmt: skip


ODD_NAMES = (
    unicodedata.normalize("NFD", "Café crème"),  # as macOS writes it
    "日本語のメモ",
    "🧠 memory",
    "spaces  in   the name ",
    "C# tips #1",
    "[[brackets]] and [x]",
    "\"quoted\" and 'single'",
    "back\\slash",
    "new\nline",
    "ü" * 120,  # 240 bytes: near the 255-byte limit of a name
)


def test_odd_names_survive_touch_gc_restore_and_promote(tmp_path: Path, cli_in_process) -> None:  # type: ignore[no-untyped-def]
    cli = cli_in_process  # the names on disk are the matter here, not the process
    vault = tmp_path / "vault"
    memory_vault(vault, 1, with_git=False)
    faded, promotable = {}, {}
    for n, name in enumerate(ODD_NAMES):
        _, mid, text = a_memory(100 + n, age=timedelta(days=90), unused_for=timedelta(days=80))
        (vault / "_stm" / f"{name}.md").write_text(text)
        faded[mid] = name
        _, mid, text = a_memory(200 + n, use_count=6, age=timedelta(days=2))
        (vault / "_stm" / f"{name} (p).md").write_text(text)
        promotable[mid] = name
    git(vault, "init", "-q", "-b", "main")
    git(vault, "add", "-A")
    git(vault, "commit", "-q", "-m", "odd names")

    for mid, name in promotable.items():
        by_path = cli("--json", "touch", f"_stm/{name} (p).md", vault=vault)
        assert by_path.code == 0 and json.loads(by_path.out)["use_count"] == 7, (name, by_path.err)
        by_id = cli("--json", "touch", mid, vault=vault)
        assert by_id.code == 0 and json.loads(by_id.out)["use_count"] == 8, (name, by_id.err)
    promoted = cli("--json", "promote", "--auto", "--yes", vault=vault)
    assert promoted.code == 0, promoted.err
    moved = json.loads(promoted.out)["moved"]
    assert sorted(moved) == sorted(f"_stm/{n} (p).md" for n in promotable.values())
    committed = git(vault, "show", "-z", "--name-only", "--no-renames", "--format=", "HEAD")
    assert sorted(filter(None, committed.split("\0"))) == sorted([*moved, *moved.values()])
    assert git(vault, "status", "--porcelain", "-z", "--", "memories") == ""
    forgot = cli("--json", "gc", "--yes", vault=vault)
    assert forgot.code == 0, forgot.err
    result = json.loads(forgot.out)
    assert sorted(result["memory_ids"]) == sorted(faded)
    committed = git(vault, "show", "-z", "--name-only", "--format=", result["commit"]).split("\0")
    assert sorted(filter(None, committed)) == sorted(f"_stm/{n}.md" for n in faded.values())
    for mid, name in faded.items():
        back = cli("--json", "restore", mid, vault=vault)
        assert back.code == 0, (name, back.err)
        restored = vault / json.loads(back.out)["path"]
        assert "keeps its words" in parse_note(restored.read_text()).body

    assert unreadable_notes(vault) == []

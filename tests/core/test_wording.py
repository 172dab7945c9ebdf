"""Every message template with a count reads right for 0, 1 and 2."""

from __future__ import annotations

import re
import subprocess
from datetime import timedelta

import pytest

from cortexgraph_vault.core.wording import (
    TEMPLATES,
    count,
    gc_preview,
    gc_record_subject,
    run_with_yes,
)
from tests.conftest import NOW

SINGULAR_PLURAL = {
    "memory": "memories", "note": "notes", "cluster": "clusters", "link": "links",
    "path": "paths", "relation": "relations", "node": "nodes", "item": "items", "line": "lines",
    "time": "times", "hop": "hops", "orphan": "orphans", "tag": "tags", "file": "files",
    "near-duplicate": "near-duplicates", "pair": "pairs", "deletion": "deletions",
    "marker": "markers", "source": "sources", "setting": "settings", "candidate": "candidates", "day": "days",
}  # fmt: skip
PLURAL_SINGULAR = {p: s for s, p in SINGULAR_PLURAL.items()}


def counted_nouns(text: str) -> list[tuple[int, str]]:
    """(number, noun) for every "N noun" — the noun after a compound's first word too
    ("1 memory file", "2 near-duplicate pairs")."""
    found = []
    for match in re.finditer(r"\b(\d+) ([a-z-]+)(?: ([a-z]+))?", text):
        number, first, second = int(match.group(1)), match.group(2), match.group(3)
        compound = first in ("memory", "near-duplicate", "deletion", "source", "unknown") and (
            second in ("file", "files", "pair", "pairs", "marker", "markers", "line", "lines",
                       "setting", "settings")
        )  # fmt: skip
        found.append((number, second if compound and second else first))
    return found


@pytest.mark.parametrize("name", sorted(TEMPLATES))
@pytest.mark.parametrize("n", [0, 1, 2])
def test_every_template_agrees_in_number(name: str, n: int) -> None:
    text = TEMPLATES[name](n)
    assert "(s)" not in text
    assert not re.search(r"\b(forget|archive|promote|merge|delete|restore)ed\b", text), text
    nouns = [(k, w) for k, w in counted_nouns(text) if w in SINGULAR_PLURAL or w in PLURAL_SINGULAR]
    assert nouns, f"{name}: no counted noun in {text!r}"
    for number, word in nouns:
        if number == 1:
            assert word in SINGULAR_PLURAL, f"{name}: {text!r}"
        else:
            assert word in PLURAL_SINGULAR, f"{name}: {text!r}"


def test_the_messages_the_issue_quoted() -> None:
    assert gc_preview(4, "forget") == "4 memories would be forgotten"
    assert gc_preview(1, "forget") == "1 memory would be forgotten"
    assert gc_preview(0, "archive") == "0 memories would be archived"
    assert gc_record_subject("gc", 1) == "gc: record 1 memory before forgetting it"
    assert gc_record_subject("gc", 3) == "gc: record 3 memories before forgetting them"
    assert count(1, "memory file") == "1 memory file"
    assert run_with_yes("promote", 1) == "(preview: run with --yes to promote it)"
    assert count(2, "memory file") == "2 memory files"


def test_gc_of_one_memory_reads_right_on_the_cli_and_in_git(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    vault = tmp_path / "vault"
    vault.mkdir()
    assert cli("init", vault=vault).code == 0
    assert cli("save", "Maya prefers oat milk", vault=vault).code == 0
    later = (NOW + timedelta(days=182)).strftime("%Y-%m-%dT%H:%M:%SZ")
    preview = cli("gc", vault=vault, now=later)
    assert "1 memory would be forgotten" in preview.out, preview.out + preview.err
    done = cli("gc", "--yes", vault=vault, now=later)
    assert "forgot 1 memory;" in done.out, done.out + done.err
    subject = subprocess.run(
        ["git", "-C", str(vault), "log", "-1", "--format=%s"], capture_output=True, text=True
    ).stdout.strip()
    assert subject == "gc: forget 1 memory"

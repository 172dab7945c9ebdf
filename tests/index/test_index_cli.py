"""The index commands through the real CLI: search-all, links, status, reindex."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.index.index_helpers import file_hashes


@pytest.fixture
def cli(cli_in_process):  # type: ignore[no-untyped-def]
    """This module's tests are about what the commands answer: the CLI's main in this process
    (tests/cli/test_main.py and others start the program for real)."""
    return cli_in_process


def test_search_all_finds_memories_and_notes(sample_vault: Path, cli) -> None:
    before = file_hashes(sample_vault)
    found = cli("--json", "search-all", "atlas launch", "--limit", "5", vault=sample_vault)
    assert found.code == 0, found.err
    data = found.json()
    assert data["count"] == 5
    assert {"stm", "note"} <= {r["source"] for r in data["results"]}
    assert data["results"][0]["path"] == "_stm/Atlas launch date.md"
    human = cli("search-all", "atlas", "--status", "note", vault=sample_vault)
    assert human.code == 0 and "Project Atlas" in human.out and "stm" not in human.out.split()
    nothing = cli("search-all", "zebra quantum xylophone", vault=sample_vault)
    assert nothing.code == 0 and "no matching" in nothing.out
    bad = cli("search-all", "atlas", "--stm-weight", "5", vault=sample_vault)
    assert bad.code != 0 and "--stm-weight: must be from 0 to 2" in bad.err
    assert file_hashes(sample_vault) == before


def test_links_page_and_neighbourhood(sample_vault: Path, cli) -> None:
    page = cli("--json", "links", "--status", "all", "--limit", "3", vault=sample_vault)
    assert page.code == 0, page.err
    assert page.json()["total_count"] == 43 and len(page.json()["memories"]) == 3
    around = cli("links", "--around", "Project Atlas", "--hops", "1", vault=sample_vault)
    assert around.code == 0 and "People/Jonas Berg.md" in around.out
    missing = cli("links", "--around", "Nowhere at all", vault=sample_vault)
    assert missing.code != 0 and "Nowhere at all" in missing.err


def test_status_and_reindex(sample_vault: Path, cli) -> None:
    (sample_vault / "Broken.md").write_bytes(b"---\nx: [\n---\n")
    status = cli("status", vault=sample_vault)
    assert status.code == 0, status.err
    assert "notes 44" in status.out and "Broken.md" in status.out
    assert "not running" in status.out
    again = cli("--json", "status", vault=sample_vault)
    assert again.json()["cache"]["loaded_at_start"] is True
    assert again.json()["cache"]["notes_parsed"] == 0  # every CLI call starts from the cache
    rebuilt = cli("--json", "reindex", vault=sample_vault)
    assert rebuilt.code == 0 and rebuilt.json()["notes"] == 44


def test_links_pages_by_size_with_a_cursor_and_counts_unresolved_links(tmp_path: Path, cli) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "A.md").write_text("[x](Example.md), [[Example]] and [[Example#Part]].\n")
    for i in range(30):
        (vault / f"N{i:02d}.md").write_text("".join(f"[[A]] [[N{j:02d}]]\n" for j in range(30)))
    human = cli("links", "--status", "all", "--max-chars", "6000", vault=vault)
    assert human.code == 0, human.err
    assert "unresolved: Example (3 links) ← A.md" in human.out
    cursor = human.out.split("more notes follow: --cursor ")[1].split()[0]
    rest = cli("--json", "links", "--status", "all", "--max-chars", "6000", "--cursor", cursor,
               vault=vault)  # fmt: skip
    assert rest.code == 0, rest.err
    assert rest.json()["memories"][0]["path"] > "A.md" and rest.json()["unresolved"] == []
    bad = cli("links", "--cursor", "nonsense", vault=vault)
    assert bad.code != 0 and "cursor" in bad.err

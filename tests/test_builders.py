"""The shared builders write memory notes as the vault itself does, and read them back."""

from __future__ import annotations

from pathlib import Path

from cortexgraph_vault.core.note import parse_note
from tests.builders import (
    a_memory,
    a_vault,
    frontmatter_of,
    memory_fields,
    memory_text,
    note_parts,
    service_for,
    split_frontmatter,
)
from tests.conftest import NOW, git


def test_a_built_memory_note_has_the_lines_save_writes(tmp_path: Path) -> None:
    vault = a_vault(tmp_path / "vault", folders=["_stm"], git_init=True)
    saved = service_for(vault).save("I prefer green tea.", tags=["drinks"], entities=[])
    written = (vault / saved.path).read_text(encoding="utf-8")
    built = memory_text(saved.memory_id, "I prefer green tea.\n", tags=["drinks"])
    assert built == written  # same keys, order, formatting and body


def test_a_memory_note_reads_back_as_its_fields(tmp_path: Path) -> None:
    text = memory_text("m-1", "Body line.\n", use_count=3, related=["[[Other]]"])
    parsed = parse_note(text)
    assert parsed.problem is None and parsed.body == "Body line.\n"
    fields = memory_fields("m-1", use_count=3, related=["[[Other]]"])
    assert list(parsed.frontmatter) == list(fields)
    assert parsed.frontmatter["use_count"] == 3 and parsed.frontmatter["related"] == ["[[Other]]"]
    path = a_vault(tmp_path / "v", {"_stm/M.md": text}) / "_stm" / "M.md"
    assert frontmatter_of(path)["id"] == "m-1"
    assert note_parts(path) == (
        parsed.frontmatter | {"created": NOW, "last_used": NOW},
        "Body line.\n",
    )


def test_the_splitter_reads_only_the_dashes() -> None:
    assert split_frontmatter("---\nid: x\n---\nbody\n") == ("id: x\n", "body\n")
    assert split_frontmatter("---\r\nid: x\r\n---\r\nbody") == ("id: x\r\n", "body")
    assert split_frontmatter("no frontmatter\n") == (None, "no frontmatter\n")


def test_a_core_memory_has_sensible_defaults() -> None:
    m = a_memory("Tea", id="t", use_count=2, tags=("drinks",))
    assert (m.path, m.title, m.last_used, m.tags) == ("_stm/Tea.md", "Tea", m.created, ("drinks",))


def test_a_git_vault_has_everything_committed(tmp_path: Path) -> None:
    vault = a_vault(tmp_path / "vault", {"Home.md": "# Home\n"}, git_init=True)
    assert git(vault, "status", "--porcelain") == ""
    assert git(vault, "ls-files").split() == ["Home.md"]

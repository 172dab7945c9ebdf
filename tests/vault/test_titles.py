"""Titles keep their meaning: the file name is valid on every OS, and a title it cannot hold as
written is kept in the note's `aliases`, where links, search, the CLI and the plugin find it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cortexgraph_vault.config import load_config
from cortexgraph_vault.core.note import parse_note
from cortexgraph_vault.service import MemoryService
from cortexgraph_vault.vault.layout import among, safe_title, title_as_written, unique_name
from tests.conftest import NOW


@pytest.mark.parametrize(
    ("title", "file_title"),
    [
        ("../../tmp/escaped", "tmp escaped"),
        ("..\\..\\Windows\\system32", "Windows system32"),
        ("./.hidden", "hidden"),
        ("...", "memory"),
        ("The team standup is at 9:30", "The team standup is at 9 30"),
        ("  spaced   out.  ", "spaced out"),
        ("CON", "CON memory"),
        ("lpt1.txt", "lpt1.txt memory"),
        ("Console output", "Console output"),
        ("v1.2 release notes", "v1.2 release notes"),
    ],
)
def test_file_names_are_clean_on_every_os(title: str, file_title: str) -> None:
    name = safe_title(title)
    assert name == file_title
    assert not name.startswith((" ", ".")) and not name.endswith((" ", "."))
    assert not set(name) & set('\\/:*?"<>|#^[]')


def test_clean_names_stay_unique() -> None:
    taken = among({"tmp escaped.md"})
    assert unique_name("../../tmp/escaped", taken) == "tmp escaped 2.md"


def test_the_title_is_the_alias_the_file_name_was_made_from() -> None:
    alias = "The team standup is at 9:30"
    assert title_as_written("The team standup is at 9 30", [alias]) == alias
    assert title_as_written("The team standup is at 9 30 2", [alias]) == alias
    # A person's own alias, or a file they renamed, leaves the file name as the title.
    assert title_as_written("Standup", ["Daily standup", alias]) == "Standup"
    assert title_as_written("Coffee", ["coffee"]) == "Coffee"


def service(vault: Path) -> MemoryService:
    return MemoryService(load_config({"vault": str(vault)}), clock=lambda: NOW)


def test_a_saved_title_is_kept_as_written(git_vault: Path) -> None:
    s = service(git_vault)
    saved = s.save("We meet every weekday morning.", title="The team standup is at 9:30")
    assert saved.path == "_stm/The team standup is at 9 30.md"
    assert saved.title == "The team standup is at 9:30"
    note = parse_note((git_vault / saved.path).read_text(encoding="utf-8"))
    assert note.frontmatter["aliases"] == ["The team standup is at 9:30"]
    # Found by its title as written, by its file name, and by search.
    assert s.open(["The team standup is at 9:30"]).memories[0].id == saved.id
    assert s.open(["The team standup is at 9 30"]).memories[0].id == saved.id
    hits = s.search("standup 9:30").results
    assert hits and hits[0].title == "The team standup is at 9:30"


def test_a_title_that_fits_a_file_name_adds_no_alias(git_vault: Path) -> None:
    saved = service(git_vault).save("Maya prefers oat milk in her coffee.")
    assert saved.path == "_stm/Maya prefers oat milk in her coffee.md"
    assert "aliases" not in parse_note((git_vault / saved.path).read_text()).frontmatter


def test_an_unsafe_title_makes_a_clean_unique_name_inside_the_memory_folder(
    git_vault: Path,
) -> None:
    s = service(git_vault)
    first = s.save("One thing.", title="../../tmp/escaped")
    second = s.save("Another thing.", title="../../tmp/escaped")
    assert (first.path, second.path) == ("_stm/tmp escaped.md", "_stm/tmp escaped 2.md")
    assert first.title == second.title == "../../tmp/escaped"
    assert not (git_vault.parent / "tmp").exists()

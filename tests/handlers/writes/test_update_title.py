"""`update_memory` keeps a memory's name true: a title made from the old text follows the new
text (file name, title, alias), keeping its id and history; a title a person chose stays."""

from __future__ import annotations

from pathlib import Path

from tests.builders import frontmatter_of, service_for
from tests.conftest import git

PRIYA = "My manager is Priya Natarajan"
TOM = "My manager is Tom Becker"


def test_new_content_renames_a_memory_named_from_its_old_content(vault: Path) -> None:
    s = service_for(vault)
    saved = s.save(PRIYA + ".")
    assert saved.path == f"_stm/{PRIYA}.md"
    result = s.update(saved.memory_id, content=TOM + ".")
    assert result.path == f"_stm/{TOM}.md"
    assert result.changed == ["content", "title"]
    assert not (vault / saved.path).exists()
    assert (vault / result.path).read_text().endswith(TOM + ".\n")
    assert frontmatter_of(vault / result.path)["id"] == saved.memory_id
    # search shows the new title over the new text
    hit = s.search("manager", top_k=1).results[0]
    assert (hit.id, hit.title) == (saved.memory_id, TOM)
    # the rename and the new text are one commit; history still finds the old version
    assert git(vault, "status", "--porcelain") == ""
    commits = s.history(saved.memory_id).commits
    assert [c.summary.split(":")[0] for c in commits] == ["update", "save"]
    old = s.version(saved.memory_id, commits[-1].sha)
    assert old.path == saved.path and PRIYA in old.text


def test_a_title_set_by_a_person_stays(vault: Path) -> None:
    s = service_for(vault)
    saved = s.save(PRIYA + ".", title="Who I report to")
    result = s.update(saved.memory_id, content=TOM + ".")
    assert result.path == saved.path == "_stm/Who I report to.md"
    assert result.changed == ["content"]


def test_a_file_a_person_renamed_keeps_its_name(vault: Path) -> None:
    s = service_for(vault)
    saved = s.save(PRIYA + ".")
    (vault / saved.path).rename(vault / "_stm" / "Work people.md")
    result = service_for(vault).update(saved.memory_id, content=TOM + ".")
    assert result.path == "_stm/Work people.md"


def test_an_alias_holding_the_old_title_follows_it(vault: Path) -> None:
    s = service_for(vault)
    saved = s.save("The standup is at 9:30 on Mondays.")
    assert frontmatter_of(vault / saved.path)["aliases"] == ["The standup is at 9:30 on Mondays"]
    result = s.update(saved.memory_id, content="The standup is at 10:15 on Mondays.")
    assert result.path == "_stm/The standup is at 10 15 on Mondays.md"
    assert frontmatter_of(vault / result.path)["aliases"] == ["The standup is at 10:15 on Mondays"]
    moved = s.update(result.memory_id, content="Standups happen on Mondays.")
    assert "aliases" not in frontmatter_of(vault / moved.path)


def test_relations_naming_the_old_title_follow_the_rename(vault: Path) -> None:
    s = service_for(vault)
    priya = s.save(PRIYA + ".")
    older = s.save("My manager was Jo Smith until June.")
    s.supersede(priya.memory_id, [older.memory_id])
    result = s.update(priya.memory_id, content=TOM + ".")
    assert frontmatter_of(vault / older.path)["superseded_by"] == [f"[[{TOM}]]"]
    assert git(vault, "status", "--porcelain") == ""
    found = s.search("manager Jo Smith", top_k=5, status="all").results
    assert [h.id for h in found][:2] == [result.memory_id, older.memory_id]

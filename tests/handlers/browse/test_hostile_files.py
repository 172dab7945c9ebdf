"""Files a synced vault may hold that no one meant as notes: names that are not UTF-8,
frontmatter nested hundreds of levels deep. Every door keeps answering; such files are
reported as problems; a write that happened is never answered with an error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cortexgraph_vault.errors import NotFound, VaultError
from cortexgraph_vault.service import MemoryService
from tests.builders import service_for
from tests.conftest import git

MEMORY = (
    "---\nid: 7d9e2c1a-0b3f-4c5d-8e6f-a1b2c3d4e5f6\ncreated: 2025-06-01T10:00:00Z\n"
    "last_used: 2025-06-01T10:00:00Z\nuse_count: 1\nstrength: 1.0\nstatus: active\n"
    "{extra}---\n\nThe cafe on the corner serves cardamom buns.\n"
)


def every_read_answers(s: MemoryService) -> dict[str, str]:
    """The JSON each read door would send (a lone surrogate cannot be encoded)."""
    return {
        "list": s.list_memories().model_dump_json(),
        "search": s.search("cardamom").model_dump_json(),
        "unified": s.search_unified("cardamom").model_dump_json(),
        "graph": s.read_graph().model_dump_json(),
        "status": s.vault_status().model_dump_json(),
        "stats": s.stats().model_dump_json(),
    }


def test_a_file_name_that_is_not_utf8_is_a_problem_not_a_failure(git_vault: Path) -> None:
    bad = os.path.join(os.fsencode(git_vault / "_stm"), b"caf\xe9.md")
    with open(bad, "wb") as fh:
        fh.write(MEMORY.format(extra="").encode())
    s = service_for(git_vault)
    answers = every_read_answers(s)
    assert "caf\\\\xe9.md" in answers["status"] or "caf\\\\xe9.md" in answers["graph"]
    problems = dict((p.path, p.reason) for p in s.vault_status().unparseable)
    assert "not UTF-8" in problems["_stm/caf\\xe9.md"]
    # it is not a memory: nothing can touch it, and nothing changed it
    assert "cafe" not in answers["list"].lower()
    with open(bad, "rb") as fh:
        assert fh.read() == MEMORY.format(extra="").encode()


def test_a_folder_name_that_is_not_utf8_is_a_problem_too(git_vault: Path) -> None:
    folder = os.path.join(os.fsencode(git_vault), b"Proj\xffects")
    os.mkdir(folder)
    with open(os.path.join(folder, b"plan.md"), "wb") as fh:
        fh.write(b"# Plan\n\nCardamom for everyone.\n")
    s = service_for(git_vault)
    every_read_answers(s)
    problems = dict((p.path, p.reason) for p in s.vault_status().unparseable)
    assert "not UTF-8" in problems["Proj\\xffects/plan.md"]


def deep(levels: int) -> str:
    return "deep: " + "[" * levels + "1" + "]" * levels + "\n"


def test_frontmatter_nested_too_deep_is_reported_and_never_breaks_the_cache(
    git_vault: Path, tmp_path: Path
) -> None:
    path = git_vault / "_stm" / "Deep.md"
    path.write_text(MEMORY.format(extra=deep(500)))
    git(git_vault, "add", "-A")
    git(git_vault, "commit", "-qm", "deep")
    s = service_for(git_vault)
    problems = dict((p.path, p.reason) for p in s.vault_status().unparseable)
    assert "nested" in problems["_stm/Deep.md"]
    every_read_answers(s)
    # the cache is written, and no temp file is left beside it
    s.engine.index_cache.save(s.engine.catalog)
    cache = s.engine.index_cache.path
    assert cache.is_file()
    assert [p.name for p in cache.parent.iterdir()] == [cache.name]
    # a touch is refused with a reason naming the note, and leaves it as it was
    before = path.read_bytes()
    with pytest.raises(VaultError, match=r"Deep\.md.*nested"):
        s.touch("_stm/Deep.md")
    with pytest.raises(NotFound):  # its id is in the frontmatter no one can read
        s.touch("7d9e2c1a-0b3f-4c5d-8e6f-a1b2c3d4e5f6")
    assert path.read_bytes() == before


def test_an_empty_note_is_reported_and_left_byte_identical(git_vault: Path) -> None:
    for name, data in (("Empty.md", b""), ("Blank.md", b"\n  \n")):
        (git_vault / "_stm" / name).write_bytes(data)
    s = service_for(git_vault)
    problems = {p.path: p.reason for p in s.vault_status().unparseable}
    for name, data in (("Empty.md", b""), ("Blank.md", b"\n  \n")):
        rel = f"_stm/{name}"
        assert problems[rel] == "empty note"
        writes = (
            lambda r=rel: s.touch(r),
            lambda r=rel: s.delete(r),
            lambda r=rel: s.update(r, tags=["x"]),
        )
        for write in writes:
            with pytest.raises(VaultError, match=rf"{rel}: empty note"):
                write()
            assert (git_vault / rel).read_bytes() == data
        assert not (git_vault / "_archive" / name).exists()


@pytest.mark.parametrize(
    "ref", ["0" * 1000, "notes/" + "é" * 200 + ".md"], ids=["1000 digits", "400 bytes in a part"]
)
def test_a_name_longer_than_a_file_name_can_be_is_not_found_not_a_failure(
    git_vault: Path, ref: str
) -> None:
    """The system refuses to look up such a name at all (ENAMETOOLONG): no note has it."""
    service = service_for(git_vault)
    with pytest.raises(NotFound, match="no note matches"):
        service.read_note(ref=ref)
    with pytest.raises(NotFound, match="no note matches"):
        service.graph_neighbourhood(path=ref)

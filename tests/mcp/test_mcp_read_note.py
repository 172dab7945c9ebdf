"""read_note through the real MCP client: any vault note, found as Obsidian opens a link, read a
page at a time; bad references, attachments, huge notes and stale cursors."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client
from mcp.server import MCPServer

from tests.mcp.mcp_session import connected, service_for, text_of, vault_fingerprint
from tests.mcp.test_mcp_tools import session_for

pytestmark = pytest.mark.anyio

ATLAS = "Projects/Project Atlas.md"


async def test_a_note_is_found_by_path_title_alias_link_or_memory_id(git_vault: Path) -> None:
    before = vault_fingerprint(git_vault)
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        tool = s.tools["read_note"]
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        paths = {
            ref: (await s.call("read_note", ref=ref))["path"]
            for ref in (ATLAS, "Projects/Project Atlas", "project atlas", "[[Project Atlas#Goals]]",
                        "Start here")
        }  # fmt: skip
        memory = await s.call("read_note", ref="Prefers TypeScript")
        by_id = await s.call("read_note", ref=memory["memory_id"])
    assert paths == {
        ATLAS: ATLAS,
        "Projects/Project Atlas": ATLAS,
        "project atlas": ATLAS,
        "[[Project Atlas#Goals]]": ATLAS,
        "Start here": "Home.md",  # an alias of Home
    }
    assert memory["source"] == "stm" and by_id["path"] == "_stm/Prefers TypeScript.md"
    assert by_id["frontmatter"]["id"] == memory["memory_id"]
    assert vault_fingerprint(git_vault) == before, "reading changes nothing"


async def test_frontmatter_body_links_and_backlinks_come_apart(git_vault: Path) -> None:
    text = (git_vault / ATLAS).read_text(encoding="utf-8")
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        note = await s.call("read_note", ref=ATLAS)
    assert note["frontmatter"]["tags"] == ["project", "work"]
    assert note["body"].startswith("# Project Atlas\n") and "tags:" not in note["body"]
    assert text.endswith(note["body"]) and note["body_chars"] == len(note["body"])
    assert "next_cursor" not in note and note["offset"] == 0
    by_target = {link["target"]: link for link in note["links"]}
    assert by_target["Jonas Berg"]["path"] == "People/Jonas Berg.md"
    assert by_target["atlas-architecture.png"]["kind"] == "embed"
    assert by_target["atlas-architecture.png"]["path"] == "Projects/assets/atlas-architecture.png"
    assert note["link_count"] == len(note["links"])
    assert "Home.md" in {b["path"] for b in note["backlinks"]}
    assert note["backlink_count"] == len(note["backlinks"])
    assert note["content_hash"] and note["size_bytes"] == len(text.encode("utf-8"))


async def test_pages_join_into_the_whole_body_and_each_is_bounded(git_vault: Path) -> None:
    body = "".join(f"Line {n}: the shipment events of carrier {n % 7}.\n" for n in range(300))
    (git_vault / "Projects" / "Carrier log.md").write_text(f"---\ntags: [log]\n---\n{body}")
    async with connected(service_for(git_vault)) as client:
        answers = [await client.call_tool("read_note", {"ref": "Carrier log", "max_chars": 1000})]
        while "next_cursor" in answers[-1].structured_content:
            cursor = answers[-1].structured_content["next_cursor"]
            answers.append(
                await client.call_tool(
                    "read_note", {"ref": "Carrier log", "max_chars": 1000, "cursor": cursor}
                )
            )
    pages = [a.structured_content for a in answers]
    assert "".join(p["body"] for p in pages) == body
    assert all(len(text_of(a)) <= 1000 for a in answers), "the whole answer, not its body"
    assert len(pages) >= len(body) // 1000
    assert all(p["body"] and p["body"].endswith("\n") for p in pages), "pages end on a line break"
    assert [p["offset"] for p in pages[1:]] == [p["offset"] + len(p["body"]) for p in pages[:-1]]
    assert pages[0]["frontmatter"] == {"tags": ["log"]}
    assert all("frontmatter" not in p and "links" not in p for p in pages[1:])


async def test_a_note_with_3000_backlinks_keeps_its_budget_and_pages_the_rest(
    git_vault: Path,
) -> None:
    sources = git_vault / "Daily"
    sources.mkdir(exist_ok=True)
    for n in range(3000):
        (sources / f"Day {n:04d} of the shipment log.md").write_text(
            f"Shipped. See [[Hub]] ({n}).\n"
        )
    hub = "".join(
        f"Line {n} of the hub links [[Day {n:04d} of the shipment log]].\n" for n in range(300)
    )
    (git_vault / "Hub.md").write_text(f"---\ntags: [hub]\n---\n{hub}")
    async with connected(service_for(git_vault)) as client:
        small = await client.call_tool("read_note", {"ref": "Hub", "max_chars": 1000})
        first = await client.call_tool("read_note", {"ref": "Hub", "max_chars": 10_000})
        page = first.structured_content

        async def every(kind: str, max_chars: int) -> tuple[list[dict], list[int]]:
            items, sizes, cursor = [], [], page[f"{kind}_cursor"]
            while cursor:
                answer = await client.call_tool(
                    "read_note", {"ref": "Hub", "max_chars": max_chars, "cursor": cursor}
                )
                assert not answer.is_error, text_of(answer)
                sizes.append(len(text_of(answer)))
                items += answer.structured_content[kind]
                cursor = answer.structured_content.get(f"{kind}_cursor")
            return items, sizes

        backlinks, back_sizes = await every("backlinks", 10_000)
        links, link_sizes = await every("links", 4_000)
    assert not small.is_error and len(text_of(small)) <= 1000, len(text_of(small))
    assert small.structured_content["backlink_count"] == 3000
    assert len(text_of(first)) <= 10_000
    assert page["link_count"] == 300 and page["backlink_count"] == 3000
    assert page["body"] and page["next_cursor"], "the body comes first, its rest by cursor"
    # every backlink, once, in order, over pages that each keep their budget
    listed = page.get("backlinks", []) + backlinks
    assert [b["path"] for b in listed] == [
        f"Daily/Day {n:04d} of the shipment log.md" for n in range(3000)
    ]
    assert max(back_sizes) <= 10_000 and len(back_sizes) < 60, "pages are filled"
    assert [link["target"] for link in page.get("links", []) + links] == [
        f"Day {n:04d} of the shipment log" for n in range(300)
    ]
    assert max(link_sizes) <= 4_000


async def test_a_5_mb_note_comes_a_bounded_page_at_a_time(git_vault: Path) -> None:
    line = "Ledger row: debit 10.00 from account 4711, credit to account 0815, ok.\n"
    body = line * (5 * 1024 * 1024 // len(line) + 1)
    (git_vault / "Big ledger.md").write_text(f"---\nkind: export\n---\n{body}", encoding="utf-8")
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        first = await s.call("read_note", ref="Big ledger", max_chars=4000)
        second = await s.call("read_note", ref="Big ledger", cursor=first["next_cursor"])
        result = await client.call_tool("read_note", {"ref": "Big ledger", "max_chars": 4000})
    assert first["size_bytes"] > 5 * 1024 * 1024 and first["body_chars"] == len(body)
    assert len(first["body"]) <= 4000 and body.startswith(first["body"])
    assert len(text_of(result)) < 20_000, "the whole answer stays small"
    assert second["offset"] == len(first["body"])
    assert body[second["offset"] :].startswith(second["body"]) and len(second["body"]) <= 10_000
    assert any("indexed" in p for p in first["problems"]), "the index holds only part of it"


async def test_a_cursor_given_before_an_edit_is_refused(git_vault: Path) -> None:
    path = git_vault / "Reading" / "Reading List.md"
    path.write_text(path.read_text(encoding="utf-8") + "- one more book\n" * 200, encoding="utf-8")
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        first = await s.call("read_note", ref="Reading List", max_chars=1000)
        assert first["next_cursor"]
        path.write_text("A new list.\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
        stale = await client.call_tool(
            "read_note", {"ref": "Reading List", "cursor": first["next_cursor"]}
        )
        other = await client.call_tool("read_note", {"ref": "Home", "cursor": first["next_cursor"]})
        again = await s.call("read_note", ref="Reading List", max_chars=1000)
    for result in (stale, other):
        assert result.is_error
        assert "cursor:" in text_of(result) and "without cursor" in text_of(result)
        assert result.structured_content and result.structured_content["error"] == "stale"
    assert again["body"].startswith("A new list.")


BAD_REFS = [
    ({"ref": "No such note anywhere"}, "not_found", "search_unified"),
    ({"ref": "../outside.md"}, "unsafe_path", "leave the vault"),
    ({"ref": "/etc/passwd"}, "unsafe_path", "absolute"),
    ({"ref": ".obsidian/app.json"}, "unsafe_path", "belongs to another tool"),
    ({"ref": "atlas-architecture.png"}, "invalid_argument", "attachment (.png)"),
    ({"ref": "Projects/assets/atlas-architecture.png"}, "invalid_argument", "not a Markdown note"),
    ({"ref": "Projects"}, "invalid_argument", "is a folder"),
    ({"ref": "Home", "cursor": "page-two"}, "invalid_argument", "not a cursor from read_note"),
    (
        {"ref": "Home", "max_chars": 10},
        "invalid_argument",
        "max_chars: must be from 1000 to 100000, got 10",
    ),
    ({"ref": ""}, "invalid_argument", "ref: must not be empty"),
    ({"path": "Home"}, "invalid_argument", "path: unknown argument (did you mean ref?)"),
]


@pytest.mark.parametrize(("arguments", "kind", "words"), BAD_REFS, ids=lambda v: str(v)[:40])
async def test_bad_references_are_refused_naming_the_reason(
    arguments: dict, kind: str, words: str, read_only_git_vault: Path, read_only_server: MCPServer
) -> None:
    git_vault = read_only_git_vault
    before = vault_fingerprint(git_vault)
    async with Client(read_only_server) as client:
        result = await client.call_tool("read_note", arguments)
    message = text_of(result)
    assert result.is_error, result.structured_content
    assert result.structured_content is not None
    assert result.structured_content["error"] == kind and words in message, message
    assert vault_fingerprint(git_vault) == before


async def test_an_alias_that_looks_like_a_drive_letter_is_a_name_not_a_path(
    git_vault: Path,
) -> None:
    (git_vault / "Reading" / "Questions.md").write_text(
        "---\naliases: ['Q: why Atlas']\n---\nBecause the monolith is slow.\n"
    )
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        note = await s.call("read_note", ref="Q: why Atlas")
        refused = await client.call_tool("read_note", {"ref": "C:/Windows/win.ini"})
    assert note["path"] == "Reading/Questions.md"
    assert note["body"] == "Because the monolith is slow.\n"
    assert refused.is_error and "absolute paths are refused" in text_of(refused)


async def test_frontmatter_comes_as_json_whatever_yaml_it_holds(git_vault: Path) -> None:
    (git_vault / "Reading" / "Odd values.md").write_text(
        "---\nwhen: 2026-11-29\nat: 2026-11-29T10:15:00Z\nratio: .nan\n"
        "nested: {a: [1, 2.5, true, null]}\n---\nBody.\n"
    )
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        note = await s.call("read_note", ref="Odd values")
    assert note["frontmatter"] == {
        "when": "2026-11-29",
        "at": "2026-11-29T10:15:00Z",
        "ratio": "nan",
        "nested": {"a": [1, 2.5, True, None]},
    }


async def test_binary_bytes_in_a_note_are_read_with_replacements_and_reported(
    git_vault: Path,
) -> None:
    blob = git_vault / "Reading" / "Blob.md"
    blob.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 40)
    before = vault_fingerprint(git_vault)
    async with connected(service_for(git_vault)) as client:
        s = await session_for(client)
        note = await s.call("read_note", ref="Reading/Blob.md", max_chars=1000)
    assert len(note["body"]) <= 1000 and note["next_cursor"]
    assert "\ufffd" in note["body"]
    assert any("not UTF-8" in p for p in note["problems"]), note["problems"]
    assert vault_fingerprint(git_vault) == before, "never rewritten"

"""The link graph over a vault with every link and tag form (tests/fixtures/link-vault).

The expected graph is written out in full: what each note's links resolve to (code, math and
comments hold no links), backlinks, unresolved links, orphans and nested tags; then how it
follows changes (a forward reference resolves when its note appears, a deleted note's incoming
links become unresolved, renames and alias changes re-resolve).
"""

from __future__ import annotations

from pathlib import Path

from cortexgraph_vault.index.catalog.vault_catalog import VaultCatalog
from tests.index.index_helpers import catalog_of, fresh_signature, graph_signature, signature

# note → [(link target as written, the file it resolves to)], in reading order
# (frontmatter properties first)
EXPECTED_LINKS: dict[str, list[tuple[str, str | None]]] = {
    "Alpha.md": [
        ("Beta", "Beta.md"),  # related: property
        ("Projects/Project Atlas", "Projects/Project Atlas.md"),
        ("Home", "Home.md"),  # supports: property
        ("Beta.md", "Beta.md"),  # [beta](Beta.md)
        ("Projects/My Plan.md", "Projects/My Plan.md"),  # URL-encoded
        ("Projects/My Plan.md", "Projects/My Plan.md"),  # <angle brackets>
        ("Beta.md", "Beta.md"),  # Beta.md#Intro
        ("Home", "Home.md"),  # no extension
        ("assets/diagram.png", "assets/diagram.png"),  # an image resolves to the file
        ("./Home.md", "Home.md"),
        ("Beta", "Beta.md"),  # [[Beta#Intro]]; URLs, mailto and #anchors are not files
    ],
    "Areas/Lists.md": [
        ("Alpha", "Alpha.md"),  # inside a callout
        ("Beta", "Beta.md"),
        ("Home", "Home.md"),  # nested list item
        ("InHtml", None),  # HTML block text counts
        ("Home", "Home.md"),  # setext heading
    ],
    "Areas/Note.md": [
        ("Note", "Areas/Note.md"),  # the note in the same folder wins: itself (no backlink)
        ("Projects/Note", "Projects/Note.md"),
    ],
    "Beta.md": [  # everything in fences, indented code, code spans, math and comments: none
        ("Gamma", None),
        ("AfterCode", None),
        ("AfterDollars", None),
    ],
    "Daily/2026-01-05.md": [
        ("Project Atlas", "Projects/Project Atlas.md"),
        ("Atlas", None),  # an alias of Project Atlas: no link, as Obsidian shows it
        ("../Projects/Status.md", "Projects/Status.md"),  # relative Markdown link
        ("../Home.md", "Home.md"),
        ("Areas/Note", "Areas/Note.md"),  # an embed
    ],
    "Edge.md": [("Beta", "Beta.md"), ("Home", "Home.md")],  # not the reference link
    "Home.md": [
        ("Alpha", "Alpha.md"),
        ("Alpha", "Alpha.md"),  # with an alias
        ("Alpha", "Alpha.md"),  # #Goals
        ("Beta", "Beta.md"),  # #^block1
        ("Beta.md", "Beta.md"),  # [[#Welcome]] comes next: a place in this note, no edge
        ("Note", "Areas/Note.md"),  # ambiguous from the root: shallowest, then shortest
        ("Projects/Note", "Projects/Note.md"),
        ("Areas/Note", "Areas/Note.md"),
        ("Atlas", None),  # an alias, not a name
        ("Missing Note", None),
        ("diagram.png", "assets/diagram.png"),
        ("Alpha", "Alpha.md"),  # ![[Alpha]]
    ],
    "Lonely.md": [],
    "Projects/My Plan.md": [
        ("Alpha", "Alpha.md"),
        ("Beta", "Beta.md"),
        ("Home", "Home.md"),
        ("Projects/Note", "Projects/Note.md"),
    ],
    "Projects/Note.md": [("Home", "Home.md"), ("Status", "Projects/Status.md")],
    "Projects/Project Atlas.md": [("People/Jonas", None)],
    "Projects/Status.md": [
        ("Note", "Projects/Note.md"),  # from a project folder, the sibling
        ("Alpha", "Alpha.md"),
        ("Nowhere", None),  # contradicts: property
        ("Note", "Projects/Note.md"),
        ("My Plan", "Projects/My Plan.md"),
    ],
    "_stm/Prefers spaces.md": [("Home", "Home.md"), ("PEP 8", None)],
}

EXPECTED_BACKLINKS = {
    "Alpha.md": ["Areas/Lists.md", "Home.md", "Projects/My Plan.md", "Projects/Status.md"],
    "Areas/Lists.md": [],
    "Areas/Note.md": ["Daily/2026-01-05.md", "Home.md"],
    "Beta.md": ["Alpha.md", "Areas/Lists.md", "Edge.md", "Home.md", "Projects/My Plan.md"],
    "Daily/2026-01-05.md": [],
    "Edge.md": [],
    "Home.md": [
        "Alpha.md", "Areas/Lists.md", "Daily/2026-01-05.md", "Edge.md", "Projects/My Plan.md",
        "Projects/Note.md", "_stm/Prefers spaces.md",
    ],
    "Lonely.md": [],
    "Projects/My Plan.md": ["Alpha.md", "Projects/Status.md"],
    "Projects/Note.md": ["Areas/Note.md", "Home.md", "Projects/My Plan.md", "Projects/Status.md"],
    "Projects/Project Atlas.md": ["Alpha.md", "Daily/2026-01-05.md"],
    "Projects/Status.md": ["Daily/2026-01-05.md", "Projects/Note.md"],
    "_stm/Prefers spaces.md": [],
}  # fmt: skip

EXPECTED_UNRESOLVED = {
    "AfterCode": ["Beta.md"],
    "Atlas": ["Daily/2026-01-05.md", "Home.md"],
    "AfterDollars": ["Beta.md"],
    "Gamma": ["Beta.md"],
    "InHtml": ["Areas/Lists.md"],
    "Missing Note": ["Home.md"],
    "Nowhere": ["Projects/Status.md"],
    "PEP 8": ["_stm/Prefers spaces.md"],
    "People/Jonas": ["Projects/Project Atlas.md"],
}

# Lower case; frontmatter (list, string, `tag:`) and inline; never from code, math, comments,
# URLs, links or headings; a nested tag counts for its parents.
EXPECTED_TAGS = {
    "Alpha.md": ("café", "日本語", "tag-with_dash", "in-parens"),
    "Areas/Lists.md": ("callout",),
    "Beta.md": ("visible",),
    "Daily/2026-01-05.md": ("daily", "journal", "daily/standup"),
    "Home.md": ("home", "index", "nested/tag/deep"),
    "Projects/My Plan.md": ("plan", "work", "draft", "nested-list"),
    "Projects/Project Atlas.md": ("project",),
    "Projects/Status.md": ("status", "project/atlas"),
    "_stm/Prefers spaces.md": ("preferences", "preferences/code"),
}
EXPECTED_TAG_COUNTS = {
    "café": 1, "callout": 1, "daily": 1, "daily/standup": 1, "draft": 1, "home": 1,
    "in-parens": 1, "index": 1, "journal": 1, "nested": 1, "nested-list": 1, "nested/tag": 1,
    "nested/tag/deep": 1, "plan": 1, "preferences": 1, "preferences/code": 1, "project": 2,
    "project/atlas": 1, "status": 1, "tag-with_dash": 1, "visible": 1, "work": 1, "日本語": 1,
}  # fmt: skip


def links_of(catalog: VaultCatalog) -> dict[str, list[tuple[str, str | None]]]:
    return {path: list(links) for path, links in graph_signature(catalog).items()}


def test_every_link_resolves_as_obsidian_resolves_it(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    assert links_of(catalog) == EXPECTED_LINKS


def test_backlinks_unresolved_links_and_orphans(link_vault: Path) -> None:
    graph = catalog_of(link_vault).graph
    assert {p: graph.backlinks(p) for p in EXPECTED_BACKLINKS} == EXPECTED_BACKLINKS
    assert graph.unresolved() == EXPECTED_UNRESOLVED
    assert graph.orphans() == ["Lonely.md"]
    links = [target for found in EXPECTED_LINKS.values() for _, target in found]
    assert graph.link_counts() == (44, 10) == (len([t for t in links if t]), links.count(None))


def test_tags_with_nesting_and_entities(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    tags = {n.path: n.tags for n in catalog.notes() if n.tags}
    assert tags == EXPECTED_TAGS
    assert catalog.graph.tag_counts() == EXPECTED_TAG_COUNTS
    assert catalog.graph.entity_counts() == {"Python": 1}
    memory = catalog.note("_stm/Prefers spaces.md")
    assert memory is not None and memory.memory is not None and memory.kind == "stm"


def test_neighbourhood_follows_links_both_ways(link_vault: Path) -> None:
    graph = catalog_of(link_vault).graph
    near, truncated = graph.neighbourhood("Projects/Status.md", 1, 100)
    assert near == {
        "Projects/Status.md": 0, "Alpha.md": 1, "Daily/2026-01-05.md": 1,
        "Projects/My Plan.md": 1, "Projects/Note.md": 1,
    }  # fmt: skip
    assert not truncated
    two, _ = graph.neighbourhood("Lonely.md", 2, 100)
    assert two == {"Lonely.md": 0}
    capped, truncated = graph.neighbourhood("Home.md", 3, 4)
    assert len(capped) == 4 and truncated


def test_a_forward_reference_resolves_when_its_note_appears(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    assert "Missing Note" in catalog.graph.unresolved()
    (link_vault / "Deep" / "Down").mkdir(parents=True)
    (link_vault / "Deep" / "Down" / "Missing Note.md").write_text("here now\n")
    catalog.refresh()
    assert "Missing Note" not in catalog.graph.unresolved()
    assert catalog.graph.backlinks("Deep/Down/Missing Note.md") == ["Home.md"]
    assert signature(catalog) == fresh_signature(link_vault)


def test_a_deleted_notes_incoming_links_become_unresolved_not_lost(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    (link_vault / "Beta.md").unlink()
    catalog.refresh()
    unresolved = catalog.graph.unresolved()
    assert unresolved["Beta"] == ["Alpha.md", "Areas/Lists.md", "Edge.md", "Home.md",
                                  "Projects/My Plan.md"]  # fmt: skip
    # `[[Beta.md]]` and `[x](Beta.md)` name the same missing note: one target, not two
    assert "Beta.md" not in unresolved
    # ... and resolve again when it comes back
    (link_vault / "Beta.md").write_text("# Beta again\n")
    catalog.refresh()
    assert "Beta" not in catalog.graph.unresolved()
    assert len(catalog.graph.backlinks("Beta.md")) == 5
    assert signature(catalog) == fresh_signature(link_vault)


def test_a_note_whose_links_and_names_stay_keeps_its_edges_as_a_fresh_graph(
    link_vault: Path,
) -> None:
    """A change of other fields (a touch, a new line of text without links) leaves the
    note's edges standing; changes of its links or aliases after it are followed."""
    import os

    catalog = catalog_of(link_vault)
    graph_signature(catalog)  # built: later changes are applied to it
    home, atlas = link_vault / "Home.md", link_vault / "Projects" / "Project Atlas.md"

    def edit(path: Path, text: str) -> None:
        path.write_text(text)
        stamp = path.stat().st_mtime_ns + 1_000_000_000
        os.utime(path, ns=(stamp, stamp))
        catalog.refresh()

    edit(home, home.read_text() + "\nA line with no link at all.\n")
    edit(atlas, atlas.read_text().replace("---\n", "---\nstatus_note: touched\n", 1))
    assert signature(catalog) == fresh_signature(link_vault)
    edit(home, home.read_text() + "\nNow [[Missing Later]].\n")
    assert catalog.graph.unresolved()["Missing Later"] == ["Home.md"]
    edit(atlas, atlas.read_text().replace('aliases: [Atlas, "Project A"]', "aliases: [PA]"))
    assert catalog.graph.unresolved()["Atlas"] == ["Daily/2026-01-05.md", "Home.md"]
    assert catalog.graph.resolve("PA") == "Projects/Project Atlas.md", "a tool finds the alias"
    assert catalog.graph.resolve("Atlas") is None
    assert signature(catalog) == fresh_signature(link_vault)


def test_a_nearer_note_takes_over_an_ambiguous_name(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    assert dict(graph_signature(catalog)["Home.md"])["Note"] == "Areas/Note.md"
    (link_vault / "Note.md").write_text("a root note\n")  # same folder as Home: it wins
    catalog.refresh()
    assert dict(graph_signature(catalog)["Home.md"])["Note"] == "Note.md"
    (link_vault / "Note.md").unlink()
    catalog.refresh()
    assert dict(graph_signature(catalog)["Home.md"])["Note"] == "Areas/Note.md"


def test_a_link_to_an_alias_is_unresolved_as_obsidian_shows_it(link_vault: Path) -> None:
    # Obsidian resolves `[[Atlas]]` by file name only; picking the alias in its suggestions
    # writes `[[Project Atlas|Atlas]]`, which the graph follows
    catalog = catalog_of(link_vault)
    assert catalog.graph.unresolved()["Atlas"] == ["Daily/2026-01-05.md", "Home.md"]
    assert "Home.md" not in catalog.graph.backlinks("Projects/Project Atlas.md")
    (link_vault / "Linker.md").write_text("[[Project Atlas|Atlas]] and [[Start]]\n")
    catalog.refresh()
    assert "Linker.md" in catalog.graph.backlinks("Projects/Project Atlas.md")
    assert catalog.graph.unresolved()["Start"] == ["Linker.md"]  # Home's alias
    assert catalog.graph.resolve("Start") == "Home.md", "read_note still finds a note by alias"


def test_aliases_and_renames_re_resolve(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    atlas = link_vault / "Projects" / "Project Atlas.md"
    atlas.write_text(atlas.read_text().replace('aliases: [Atlas, "Project A"]', "aliases: [PA]"))
    catalog.refresh()
    assert catalog.graph.unresolved()["Atlas"] == ["Daily/2026-01-05.md", "Home.md"]
    atlas.rename(link_vault / "Atlas.md")  # now the name itself matches [[Atlas]]
    catalog.refresh()
    assert catalog.graph.backlinks("Atlas.md") == ["Daily/2026-01-05.md", "Home.md"]
    assert "Projects/Project Atlas" in catalog.graph.unresolved()
    assert signature(catalog) == fresh_signature(link_vault)


def test_an_attachment_appearing_or_going_changes_what_links_to_it(link_vault: Path) -> None:
    catalog = catalog_of(link_vault)
    (link_vault / "assets" / "diagram.png").unlink()
    catalog.refresh()
    assert catalog.graph.unresolved()["diagram.png"] == ["Home.md"]
    (link_vault / "other.png").write_bytes(b"\x89PNG")
    (link_vault / "diagram.png").write_bytes(b"\x89PNG")
    catalog.attachment_changed("diagram.png")
    assert "diagram.png" not in catalog.graph.unresolved()
    assert dict(graph_signature(catalog)["Home.md"])["diagram.png"] == "diagram.png"


def test_names_are_compared_in_nfc_as_the_resolver_compares_them(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Links.md").write_text("[[Café]] and [[Crème]]\n", encoding="utf-8")
    catalog = catalog_of(vault)
    assert set(catalog.graph.unresolved()) == {"Café", "Crème"}
    decomposed = "Cafe\u0301"  # how macOS spells a file name
    (vault / f"{decomposed}.md").write_text("the café\n", encoding="utf-8")
    (vault / "Cre\u0300me.md").write_text("by name\n", encoding="utf-8")
    catalog.refresh()
    assert catalog.graph.unresolved() == {}
    assert signature(catalog) == fresh_signature(vault)


# --- links inside a note, and to itself ----------------------------------------------------------

SELF_LINKING = """# Heading

See [[#Heading]], [[#^abc]] and [[Its Own Title]], [[its own title#Heading|again]].

A paragraph with a block id ^abc
"""


def outgoing_of(catalog: VaultCatalog, path: str) -> list[tuple[str, str | None]]:
    return [(e.link.target, e.target) for e in catalog.graph.outgoing(path)]


def test_links_inside_a_note_and_to_itself_connect_it_to_nothing(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Its Own Title.md").write_text(SELF_LINKING, encoding="utf-8")
    (vault / "Other.md").write_text("# Heading\n\n[[#Heading]] of its own\n", encoding="utf-8")
    catalog = catalog_of(vault)
    graph = catalog.graph
    # `[[#Heading]]` and `[[#^abc]]` are no edge; naming itself is an outgoing link, as Obsidian
    # lists it, but no backlink and no way out of the orphans.
    assert outgoing_of(catalog, "Its Own Title.md") == [
        ("Its Own Title", "Its Own Title.md"),
        ("its own title", "Its Own Title.md"),
    ]
    assert outgoing_of(catalog, "Other.md") == []
    assert graph.backlinks("Its Own Title.md") == []
    assert graph.unresolved() == {}
    assert graph.orphans() == ["Its Own Title.md", "Other.md"]
    assert graph.neighbours("Its Own Title.md") == set()
    assert graph.link_counts() == (2, 0)

    # Another note linking to one of its headings is a backlink, and ends both orphanhoods.
    (vault / "Other.md").write_text("[[Its Own Title#Heading]] and [[#Heading]]\n", "utf-8")
    catalog.refresh()
    assert graph.backlinks("Its Own Title.md") == ["Other.md"]
    assert outgoing_of(catalog, "Other.md") == [("Its Own Title", "Its Own Title.md")]
    assert graph.orphans() == []
    assert signature(catalog) == fresh_signature(vault)


# --- names in either Unicode form ---------------------------------------------------------------


def test_decomposed_links_find_composed_names_and_case_does_not_matter(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Café.md").write_text("composed file name\n", encoding="utf-8")
    (vault / "Crème.md").write_text("composed name\n", encoding="utf-8")
    (vault / "Links.md").write_text(
        "[[Cafe\u0301]] [[CAFE\u0301]] [[CRE\u0300ME]] [[cre\u0300me]]\n", encoding="utf-8"
    )
    catalog = catalog_of(vault)
    assert [target for _, target in outgoing_of(catalog, "Links.md")] == [
        "Café.md", "Café.md", "Crème.md", "Crème.md",
    ]  # fmt: skip
    assert catalog.graph.backlinks("Café.md") == ["Links.md"]
    assert catalog.graph.unresolved() == {}


def test_a_macos_file_name_is_found_by_a_typed_link_in_any_case(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Links.md").write_text("[[CAFÉ]] [[Crème Brûlée]]\n", encoding="utf-8")
    catalog = catalog_of(vault)
    assert set(catalog.graph.unresolved()) == {"CAFÉ", "Crème Brûlée"}
    # Both appear after the link: the live graph must re-resolve by the normalised name.
    (vault / "Cafe\u0301.md").write_text("decomposed, as macOS writes it\n", encoding="utf-8")
    (vault / "Cre\u0300me Bru\u0302le\u0301e.md").write_text("dessert\n", encoding="utf-8")
    catalog.refresh()
    assert catalog.graph.unresolved() == {}
    assert catalog.graph.backlinks("Cafe\u0301.md") == ["Links.md"]
    assert signature(catalog) == fresh_signature(vault)

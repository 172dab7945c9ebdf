from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cortexgraph_vault.core.links import extract_links
from cortexgraph_vault.core.resolve import LinkResolver, name_key
from tests.builders import note_parts
from tests.conftest import examples

VAULT = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "link-vault"


PATHS = [
    "Home.md",
    "Note.md",
    "a/Note.md",
    "a/b/Note.md",
    "zz/Note.md",
    "a/Sibling.md",
    "folder/Deep.md",
    "x/folder/Deep.md",
    "holder/Deep.md",
    "assets/diagram.png",
    "others/diagram.png",
    "docs/v1.2 notes.md",
    "docs/report.pdf",
    "Cased/MixedCase.md",
]


@pytest.fixture
def resolver() -> LinkResolver:
    return LinkResolver(PATHS, {"a/Sibling.md": ["Sib", "Little Brother"], "Home.md": ["Start"]})


@pytest.mark.parametrize(
    ("target", "source", "expected"),
    [
        # 1. exact path, ignoring case; relative to the source folder first
        ("Home", "a/x.md", "Home.md"),
        ("home", "a/x.md", "Home.md"),
        ("a/b/Note", "zz/x.md", "a/b/Note.md"),
        ("A/B/NOTE.MD", "zz/x.md", "a/b/Note.md"),
        ("b/Note", "a/x.md", "a/b/Note.md"),
        ("Note", "a/x.md", "a/Note.md"),
        ("Note", "x.md", "Note.md"),
        ("./Note", "a/b/x.md", "a/b/Note.md"),
        ("../Note.md", "a/b/x.md", "a/Note.md"),
        ("../../Home.md", "a/b/x.md", "Home.md"),
        ("/Note", "a/x.md", "Note.md"),
        ("cased/mixedcase", "x.md", "Cased/MixedCase.md"),
        # attachments, and names with a dot
        ("assets/diagram.png", "x.md", "assets/diagram.png"),
        ("v1.2 notes", "x.md", "docs/v1.2 notes.md"),
        ("report.pdf", "a/x.md", "docs/report.pdf"),
        # 2. by suffix; same folder, then shallowest, then shortest, then alphabetical
        # (assets/ and others/ tie on length: alphabetical)
        ("Note", "a/b/c/x.md", "Note.md"),
        ("Note", "zz/x.md", "zz/Note.md"),
        ("diagram.png", "x.md", "assets/diagram.png"),
        ("diagram.png", "others/x.md", "others/diagram.png"),
        ("folder/Deep", "q/x.md", "folder/Deep.md"),
        ("Deep", "q/x.md", "folder/Deep.md"),
        ("older/Deep", "q/x.md", None),  # a suffix match starts at a folder boundary
        ("b/Note", "zz/x.md", "a/b/Note.md"),
        ("../../../Deep", "x.md", "folder/Deep.md"),
        # 3. never an alias: Obsidian shows such a link unresolved
        ("Sib", "x.md", None),
        ("little brother", "x.md", None),
        ("Start", "x.md", None),
        # nothing
        ("Missing", "x.md", None),
        ("Note.png", "x.md", None),
        ("", "Nowhere.md", None),
        ("  ", "Nowhere.md", None),
    ],
)
def test_resolve(resolver: LinkResolver, target: str, source: str, expected: str | None) -> None:
    assert resolver.resolve(target, source) == expected


@pytest.mark.parametrize(
    ("target", "expected"),
    [("Sib", "a/Sibling.md"), ("little brother", "a/Sibling.md"), ("Start", "Home.md"),
     ("Note", "Note.md"), ("Missing", None)],
)  # fmt: skip
def test_a_tool_finds_a_note_by_alias_too(
    resolver: LinkResolver, target: str, expected: str | None
) -> None:
    assert resolver.resolve(target, "x.md", aliases=True) == expected


def test_self_link_resolves_to_the_source(resolver: LinkResolver) -> None:
    assert resolver.resolve("", "a/Sibling.md") == "a/Sibling.md"


def test_a_name_beats_an_alias() -> None:
    resolver = LinkResolver(["Note.md", "Other.md"], {"Other.md": ["Note"]})
    assert resolver.resolve("Note", "x.md", aliases=True) == "Note.md"


def test_alphabetical_when_all_else_ties() -> None:
    resolver = LinkResolver(["b/Note.md", "a/Note.md", "c/Note.md"])
    assert resolver.resolve("Note", "x.md") == "a/Note.md"
    resolver = LinkResolver(["q/One.md", "r/Two.md"], {"r/Two.md": ["Dup"], "q/One.md": ["dup"]})
    assert resolver.resolve("DUP", "x.md", aliases=True) == "q/One.md"


def test_unicode_forms_match() -> None:
    decomposed = unicodedata.normalize("NFD", "Café.md")
    resolver = LinkResolver([decomposed])
    assert resolver.resolve("café", "x.md") == decomposed


@pytest.mark.parametrize(
    ("written", "alias"),
    [
        ("Café", "Cafe\u0301"),
        ("Cafe\u0301", "Café"),
        ("CAFÉ", "cafe\u0301"),
        ("ÅNGSTRÖM", "ångström"),
    ],
)
def test_aliases_match_in_either_unicode_form_and_any_case(written: str, alias: str) -> None:
    resolver = LinkResolver(["notes/Coffee.md"], {"notes/Coffee.md": [alias]})
    assert resolver.resolve(written, "x.md", aliases=True) == "notes/Coffee.md"


def test_composed_file_names_are_found_by_decomposed_links() -> None:
    resolver = LinkResolver(["Café.md", "Dir/Crème.md"])
    assert resolver.resolve("Cafe\u0301", "x.md") == "Café.md"
    assert resolver.resolve("dir/CRE\u0300ME", "x.md") == "Dir/Crème.md"


@pytest.mark.parametrize(
    ("a", "b"),
    [("Café", "Cafe\u0301"), ("CAFÉ", "café"), ("Ὀδυσσεύς", "ὈΔΥΣΣΕΎΣ"), ("Note.MD", "note.md")],
)
def test_name_key_is_nfc_and_case_folded(a: str, b: str) -> None:
    assert name_key(a) == name_key(b) == unicodedata.normalize("NFC", name_key(a))


def test_add_and_remove() -> None:
    resolver = LinkResolver([])
    assert resolver.resolve("Later", "x.md") is None
    resolver.add("notes/Later.md", ["Soon"])
    assert resolver.resolve("Later", "x.md") == "notes/Later.md"
    assert resolver.resolve("soon", "x.md", aliases=True) == "notes/Later.md"
    resolver.add("notes/Later.md", ["Eventually"])  # a second add replaces the aliases
    assert resolver.resolve("Soon", "x.md", aliases=True) is None
    assert resolver.resolve("Eventually", "x.md", aliases=True) == "notes/Later.md"
    resolver.add("Later.md")
    assert resolver.resolve("Later", "x.md") == "Later.md"
    resolver.remove("Later.md")
    assert resolver.resolve("Later", "x.md") == "notes/Later.md"
    resolver.remove("notes/Later.md")
    resolver.remove("never/added.md")
    assert resolver.resolve("Later", "x.md") is None
    assert resolver.resolve("Eventually", "x.md", aliases=True) is None
    assert len(resolver) == 0 and "notes/Later.md" not in resolver


def test_paths_differing_only_in_case() -> None:
    resolver = LinkResolver(["Note.md", "note.md"])
    assert resolver.resolve("NOTE", "x.md") == "Note.md"
    resolver.remove("Note.md")
    assert resolver.resolve("NOTE", "x.md") == "note.md"


_NAMES = st.sampled_from(["a", "b", "Note", "note", "x.png"])
_PATH = st.lists(_NAMES, min_size=1, max_size=3).map(
    lambda parts: "/".join(parts) + ("" if parts[-1].endswith(".png") else ".md")
)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), _PATH, st.lists(_NAMES, max_size=2)), max_size=25),
    st.lists(st.tuples(st.sampled_from(["Note", "a/Note", "x.png", "b", "../Note", "A"]), _PATH)),
)
def test_incremental_changes_equal_a_fresh_build(
    events: list[tuple[bool, str, list[str]]], queries: list[tuple[str, str]]
) -> None:
    live = LinkResolver([])
    files: dict[str, list[str]] = {}
    for is_add, path, aliases in events:
        if is_add:
            live.add(path, aliases)
            files[path] = aliases
        else:
            live.remove(path)
            files.pop(path, None)
    fresh = LinkResolver(files, files)
    for target, source in queries:
        assert live.resolve(target, source) == fresh.resolve(target, source)
        assert live.resolve(target, source, aliases=True) == fresh.resolve(
            target, source, aliases=True
        )


# --- the fixture vault: every edge of the graph -------------------------------------------------

EXPECTED_EDGES = {
    "Home.md": [  # its [[Atlas]] is an alias of Project Atlas: unresolved, as Obsidian shows it
        "Alpha.md", "Areas/Note.md", "Beta.md", "Projects/Note.md", "assets/diagram.png",
    ],
    "Alpha.md": [
        "Beta.md", "Home.md", "Projects/My Plan.md", "Projects/Project Atlas.md",
        "assets/diagram.png",
    ],
    "Beta.md": [],
    "Edge.md": ["Beta.md", "Home.md"],
    "Areas/Lists.md": ["Alpha.md", "Beta.md", "Home.md"],
    "Areas/Note.md": ["Areas/Note.md", "Projects/Note.md"],
    "Daily/2026-01-05.md": [
        "Areas/Note.md", "Home.md", "Projects/Project Atlas.md", "Projects/Status.md",
    ],
    "Projects/My Plan.md": ["Alpha.md", "Beta.md", "Home.md", "Projects/Note.md"],
    "Projects/Note.md": ["Home.md", "Projects/Status.md"],
    "Projects/Project Atlas.md": [],
    "Projects/Status.md": ["Alpha.md", "Projects/My Plan.md", "Projects/Note.md"],
    "_stm/Prefers spaces.md": ["Home.md"],
}  # fmt: skip
EXPECTED_UNRESOLVED = {
    "Home.md": ["Atlas", "Missing Note"],
    "Daily/2026-01-05.md": ["Atlas"],
    "Beta.md": ["AfterCode", "AfterDollars", "Gamma"],
    "Areas/Lists.md": ["InHtml"],
    "Projects/Project Atlas.md": ["People/Jonas"],
    "Projects/Status.md": ["Nowhere"],
    "_stm/Prefers spaces.md": ["PEP 8"],
}


def test_fixture_vault_graph() -> None:
    files = sorted(p.relative_to(VAULT).as_posix() for p in VAULT.rglob("*") if p.is_file())
    notes = {name: note_parts(VAULT / name) for name in files if name.endswith(".md")}
    aliases = {name: fm.get("aliases", []) for name, (fm, _) in notes.items()}
    resolver = LinkResolver(files, aliases)
    edges: dict[str, list[str]] = {}
    unresolved: dict[str, list[str]] = {}
    for name, (frontmatter, body) in notes.items():
        found, missing = set(), set()
        for ref in extract_links(body, frontmatter):
            if not ref.target:
                assert resolver.resolve(ref.target, name) == name  # a self link
                continue
            path = resolver.resolve(ref.target, name)
            if path is None:
                missing.add(ref.target)
            else:
                found.add(path)
        edges[name] = sorted(found)
        if missing:
            unresolved[name] = sorted(missing)
    assert edges == EXPECTED_EDGES
    assert unresolved == EXPECTED_UNRESOLVED


def test_fixture_vault_ambiguous_note_depends_on_the_source() -> None:
    files = [p.relative_to(VAULT).as_posix() for p in VAULT.rglob("*") if p.is_file()]
    resolver = LinkResolver(files)
    assert resolver.resolve("Note", "Home.md") == "Areas/Note.md"  # shortest of two
    assert resolver.resolve("Note", "Projects/Status.md") == "Projects/Note.md"  # same folder
    assert resolver.resolve("Note", "Areas/Lists.md") == "Areas/Note.md"

"""Checks on the bundled sample vault (`cortexgraph_vault/sample_vault/`, package data).

The sample vault is used by the demo, the docs and other tests, so its shape is a contract:
enough notes, well-formed memory frontmatter, memories spread over every decay category at the
authoring anchor, and no broken wikilinks except the one deliberate forward reference.

This test reads the repo's copy and never writes to it. It depends only on the stdlib and PyYAML,
and implements the default scoring model itself so that it does not depend on the package.
"""

from __future__ import annotations

import json
import math
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
import yaml

from tests.builders import split_frontmatter

VAULT = Path(__file__).resolve().parents[1] / "cortexgraph_vault" / "sample_vault"
STM_DIR = "_stm"
LTM_DIR = "memories"
STATUS_BY_FOLDER = {STM_DIR: "active", LTM_DIR: "promoted"}

# The one wikilink that is meant to point at a note that does not exist yet.
FORWARD_REFERENCE = "Atlas Retrospective"

# Decoys inside a fenced code block: they must never be taken for a link or a tag.
CODE_BLOCK_LINK = "[[Not A Link]]"
CODE_BLOCK_TAG = "#not-a-tag"

# Default power-law model and thresholds (README.md, "Scoring").
BETA = 0.6
ALPHA = 1.1
HALF_LIFE_S = 3 * 86400
T0_S = HALF_LIFE_S / (2 ** (1 / ALPHA) - 1)
FORGET_BELOW = 0.05
DANGER_LOW, DANGER_HIGH = 0.15, 0.35
PROMOTE_SCORE = 0.65
PROMOTE_USE_COUNT = 5
PROMOTE_WINDOW_S = 14 * 86400

REQUIRED_MEMORY_KEYS = {"id", "created", "last_used", "use_count", "strength", "status"}

FENCE_RE = re.compile(r"^\s*(`{3,}|~{3,})")
INLINE_CODE_RE = re.compile(r"`[^`\n]*`")
WIKILINK_RE = re.compile(r"!?\[\[([^\[\]]+?)\]\]")
HEADING_RE = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


# --------------------------------------------------------------------------- helpers


@dataclass(frozen=True)
class Note:
    path: Path  # absolute
    rel: str  # vault-relative POSIX path
    text: str
    frontmatter: dict | None
    body: str

    @property
    def folder(self) -> str:
        return self.rel.split("/", 1)[0] if "/" in self.rel else ""

    @property
    def stem(self) -> str:
        return self.path.stem


def load_note(path: Path) -> Note:
    text = path.read_text(encoding="utf-8")
    raw, body = split_frontmatter(text)
    fm = None
    if raw is not None:
        fm = yaml.safe_load(raw)
        if fm is None:
            fm = {}
    return Note(path, path.relative_to(VAULT).as_posix(), text, fm, body)


def all_notes() -> list[Note]:
    return [load_note(p) for p in sorted(VAULT.rglob("*.md"))]


def memory_notes() -> list[Note]:
    return [n for n in all_notes() if n.folder in STATUS_BY_FOLDER]


def as_utc(value: object) -> datetime:
    """A frontmatter time as an aware UTC datetime (PyYAML may already have parsed it)."""
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, str):
        dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
    else:
        raise AssertionError(f"not a timestamp: {value!r}")
    assert dt.tzinfo is not None, f"timestamp without a time zone: {value!r}"
    return dt.astimezone(UTC)


def anchor() -> datetime:
    data = json.loads((VAULT / ".cortexgraph" / "sample.json").read_text(encoding="utf-8"))
    return as_utc(data["authored_at"])


def power_law_score(use_count: int, strength: float, last_used: datetime, now: datetime) -> float:
    """Default model: n^beta * (1 + dt/t0)^-alpha * strength."""
    dt = max(0.0, (now - last_used).total_seconds())
    return use_count**BETA * (1 + dt / T0_S) ** (-ALPHA) * strength


def is_promotable(score: float, use_count: int, created: datetime, last_used: datetime) -> bool:
    used_again = use_count >= 2
    burst = (
        use_count >= PROMOTE_USE_COUNT and (last_used - created).total_seconds() <= PROMOTE_WINDOW_S
    )
    return (score >= PROMOTE_SCORE and used_again) or burst


def decay_category(fm: dict, now: datetime) -> tuple[str, float]:
    """Category of a memory at `now`: promotable, forgettable, danger, fresh or other."""
    created, last_used = as_utc(fm["created"]), as_utc(fm["last_used"])
    use_count, strength = int(fm["use_count"]), float(fm["strength"])
    score = power_law_score(use_count, strength, last_used, now)
    if is_promotable(score, use_count, created, last_used):
        return "promotable", score
    if score < FORGET_BELOW:
        return "forgettable", score
    if DANGER_LOW <= score <= DANGER_HIGH:
        return "danger", score
    if score > DANGER_HIGH:
        return "fresh", score
    return "other", score


def strip_code(markdown: str) -> str:
    """Drop fenced code blocks and inline code spans, where Obsidian sees no links or tags."""
    out: list[str] = []
    fence: str | None = None
    for line in markdown.splitlines():
        m = FENCE_RE.match(line)
        if fence is None:
            if m:
                fence = m.group(1)[0] * 3
                continue
            out.append(INLINE_CODE_RE.sub("", line))
        elif m and m.group(1).startswith(fence):
            fence = None
    return "\n".join(out)


def wikilinks(markdown: str) -> list[tuple[str, str | None]]:
    """(target, heading) for each [[target#heading|alias]] or ![[embed]] outside code."""
    links = []
    for inner in WIKILINK_RE.findall(strip_code(markdown)):
        target = inner.split("|", 1)[0]
        target, _, heading = target.partition("#")
        links.append((target.strip(), heading.strip() or None))
    return links


def headings(note: Note) -> set[str]:
    return {h.strip().lower() for h in HEADING_RE.findall(strip_code(note.body))}


class Resolver:
    """Obsidian-style link resolution: vault path, file name, or alias (case-insensitive)."""

    def __init__(self, notes: list[Note]):
        self.by_path: dict[str, Note] = {}
        self.by_name: dict[str, list[Note]] = {}
        for n in notes:
            self.by_path[n.rel[: -len(".md")].lower()] = n
            self.by_name.setdefault(n.stem.lower(), []).append(n)
            for alias in aliases(n):
                self.by_name.setdefault(alias.lower(), []).append(n)
        self.files = {
            p.relative_to(VAULT).as_posix().lower(): p
            for p in VAULT.rglob("*")
            if p.is_file()
            and p.suffix != ".md"
            and not p.relative_to(VAULT).parts[0].startswith(".")
        }

    def note(self, target: str) -> Note | None:
        key = target.lower().removesuffix(".md")
        if key in self.by_path:
            return self.by_path[key]
        candidates = self.by_name.get(key, [])
        return candidates[0] if candidates else None

    def attachment(self, target: str) -> Path | None:
        key = target.lower()
        if key in self.files:
            return self.files[key]
        for rel, path in self.files.items():
            if rel.rsplit("/", 1)[-1] == key:
                return path
        return None


def aliases(note: Note) -> list[str]:
    raw = (note.frontmatter or {}).get("aliases") or []
    if isinstance(raw, str):
        raw = [raw]
    return [str(a) for a in raw]


# --------------------------------------------------------------------------- tests


def test_vault_layout():
    assert VAULT.is_dir(), VAULT
    assert json.loads((VAULT / ".obsidian" / "app.json").read_text(encoding="utf-8")) == {}
    assert not (VAULT / ".git").exists(), "the sample vault must not carry its own git repo"
    assert not (VAULT / "README.md").exists(), "a README inside the vault would be a note"
    assert (VAULT / "Home.md").is_file()
    assert anchor() == datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_note_counts():
    notes = all_notes()
    stm = [n for n in notes if n.folder == STM_DIR]
    ltm = [n for n in notes if n.folder == LTM_DIR]
    ordinary = [n for n in notes if n.folder not in STATUS_BY_FOLDER]
    assert 30 <= len(notes) <= 60, len(notes)
    assert 15 <= len(stm) <= 25, len(stm)
    assert 3 <= len(ltm) <= 5, len(ltm)
    assert 15 <= len(ordinary) <= 30, len(ordinary)


@pytest.mark.parametrize("note", all_notes(), ids=lambda n: n.rel)
def test_frontmatter_parses_to_mapping(note: Note):
    if note.folder in STATUS_BY_FOLDER:
        assert note.frontmatter is not None, f"{note.rel}: memory without frontmatter"
    if note.frontmatter is not None:
        assert isinstance(note.frontmatter, dict), f"{note.rel}: frontmatter is not a mapping"


def test_memory_fields():
    now = anchor()
    ids: dict[str, str] = {}
    for note in memory_notes():
        fm = note.frontmatter
        assert isinstance(fm, dict)
        missing = REQUIRED_MEMORY_KEYS - fm.keys()
        assert not missing, f"{note.rel}: missing {sorted(missing)}"

        parsed = uuid.UUID(str(fm["id"]))
        assert parsed.version == 4 and str(parsed) == str(fm["id"]), f"{note.rel}: bad id"
        assert str(fm["id"]) not in ids, f"{note.rel}: id also used by {ids.get(str(fm['id']))}"
        ids[str(fm["id"])] = note.rel

        created, last_used = as_utc(fm["created"]), as_utc(fm["last_used"])
        assert created <= last_used <= now, f"{note.rel}: created/last_used out of order"
        assert isinstance(fm["use_count"], int) and fm["use_count"] >= 1, note.rel
        assert isinstance(fm["strength"], int | float), note.rel
        assert 0 < fm["strength"] <= 2, f"{note.rel}: strength {fm['strength']}"
        assert fm["status"] == STATUS_BY_FOLDER[note.folder], f"{note.rel}: status {fm['status']}"

        for key in ("tags", "entities", "related"):
            if key in fm:
                assert isinstance(fm[key], list), f"{note.rel}: {key} must be a list"
                assert all(isinstance(v, str) for v in fm[key]), f"{note.rel}: {key}"
        assert note.body.strip(), f"{note.rel}: empty body"

        if fm["status"] == "promoted":
            promoted_at = as_utc(fm["promoted_at"])
            assert created <= promoted_at <= now, f"{note.rel}: promoted_at out of range"
        else:
            assert "promoted_at" not in fm, note.rel


def test_memory_frontmatter_variety():
    """The sample shows people's own touches: unknown keys, comments, block-style lists."""
    resolver = Resolver(all_notes())
    stm = [n for n in memory_notes() if n.folder == STM_DIR]
    stm_paths = {n.path for n in stm}
    known = REQUIRED_MEMORY_KEYS | {"tags", "entities", "source", "related"}
    assert any(set(n.frontmatter) - known for n in stm), "no memory with a person's extra key"
    assert any(
        line.lstrip().startswith("#")
        for n in stm
        for line in (split_frontmatter(n.text)[0] or "").splitlines()
    ), "no memory with a YAML comment line"
    assert any("tags:\n  - " in n.text for n in stm), "no memory with block-style tags"
    assert any(
        getattr(resolver.note(t), "path", None) in stm_paths
        for n in stm
        for t, _ in wikilinks(n.text)
    ), "no memory related to another memory"


def test_memories_spread_over_decay_categories():
    now = anchor()
    by_category: dict[str, list[str]] = {}
    for note in memory_notes():
        if note.folder != STM_DIR:
            continue
        category, score = decay_category(note.frontmatter, now)
        by_category.setdefault(category, []).append(f"{note.stem} ({score:.3f})")
    summary = "; ".join(f"{k}: {', '.join(v)}" for k, v in sorted(by_category.items()))
    for category in ("forgettable", "danger", "promotable", "fresh"):
        assert len(by_category.get(category, [])) >= 3, f"too few {category}. {summary}"
    assert "other" not in by_category, f"memories between categories. {summary}"


def test_score_helper_matches_design():
    now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    assert math.isclose(power_law_score(1, 1.0, now, now), 1.0)
    half_life_ago = datetime.fromtimestamp(now.timestamp() - HALF_LIFE_S, UTC)
    assert math.isclose(power_law_score(1, 1.0, half_life_ago, now), 0.5)
    forget_age = datetime.fromtimestamp(now.timestamp() - 48.64 * 86400, UTC)
    assert math.isclose(power_law_score(1, 1.0, forget_age, now), 0.05, rel_tol=1e-3)


def test_wikilinks_resolve():
    notes = all_notes()
    resolver = Resolver(notes)
    unresolved: list[str] = []
    bad_headings: list[str] = []
    for note in notes:
        for target, heading in wikilinks(note.text):
            if not target:  # [[#Heading]] within the same note
                dest = note
            elif Path(target).suffix and Path(target).suffix != ".md":
                if resolver.attachment(target) is None:
                    unresolved.append(f"{note.rel} -> {target}")
                continue
            else:
                dest = resolver.note(target)
            if dest is None:
                unresolved.append(f"{note.rel} -> {target}")
            elif heading and heading.lower() not in headings(dest):
                bad_headings.append(f"{note.rel} -> {target}#{heading}")
    forward = [u for u in unresolved if u.endswith(f"-> {FORWARD_REFERENCE}")]
    assert forward, f"the deliberate forward reference [[{FORWARD_REFERENCE}]] is gone"
    assert sorted(set(unresolved) - set(forward)) == [], unresolved
    assert bad_headings == []


def test_link_forms_present():
    """The sample exercises every link form Obsidian users write."""
    everything = "\n".join(n.text for n in all_notes())
    for form in (
        "[[Project Atlas]]",
        "[[Project Atlas|Atlas]]",
        "[[Project Atlas#Decisions]]",
        "[[People/Jonas Berg]]",
        "![[atlas-architecture.png]]",
    ):
        assert form in everything, form
    atlas = load_note(VAULT / "Projects" / "Project Atlas.md")
    assert "Atlas" in aliases(atlas)


def test_attachment_is_a_png():
    data = (VAULT / "Projects" / "assets" / "atlas-architecture.png").read_bytes()
    assert (
        data.startswith(b"\x89PNG\r\n\x1a\n")
        and b"IHDR" in data
        and data.endswith(b"IEND\xaeB`\x82")
    )


def test_code_block_decoys_are_ignored():
    notes = all_notes()
    raw = [n for n in notes if CODE_BLOCK_LINK in n.text and CODE_BLOCK_TAG in n.text]
    assert raw, "the code-block decoys are missing from the sample"
    for note in notes:
        visible = strip_code(note.text)
        assert CODE_BLOCK_LINK not in visible, note.rel
        assert CODE_BLOCK_TAG not in visible, note.rel
    targets = {t for n in notes for t, _ in wikilinks(n.text)}
    assert "Not A Link" not in targets


def test_tags_present():
    body_text = "\n".join(strip_code(n.body) for n in all_notes())
    assert re.search(r"(?<![\w/])#area/health\b", body_text), "nested tag missing"
    ordinary = [n for n in all_notes() if n.folder not in STATUS_BY_FOLDER]
    assert any(isinstance((n.frontmatter or {}).get("tags"), list) for n in ordinary)


def test_daily_note_dates_are_not_in_the_future():
    now = anchor()
    for note in all_notes():
        if note.folder == "Daily":
            day = date.fromisoformat(note.stem)
            assert day <= now.date(), note.rel

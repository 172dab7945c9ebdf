"""Scenario 5a — hostile notes: generated frontmatter and bodies, written into `_stm/` as a
person (or a sync tool) would, then indexed and touched through the service.

Never a crash (only our own errors, naming the file), never a change outside the lines of
the fields the write sets, never a change at all when the write is refused. Beyond
tests/core/test_note_properties.py: YAML alias bombs, recursive aliases, tags, merge keys,
duplicate and non-string keys, flow mappings, deep nesting, BOMs, mixed newlines, NUL bytes
and fences in the body, all through the index and the store rather than the parser alone.
"""

from __future__ import annotations

import difflib
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cortexgraph_vault.config import load_config
from cortexgraph_vault.errors import VaultError
from cortexgraph_vault.service import MemoryService
from tests.conftest import NOW_ISO, examples

TARGET = re.compile(r"^\ufeff?\s*[\"']?(use_count|last_used|last_used_on|id)[\"']?\s*:")

BOMB = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{n}: &{n} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n"
    for p, n in zip("abcdefgh", "bcdefghi", strict=True)
)
HOSTILE_LINES = (
    BOMB + "tags: *i",
    "loop: &l [*l]",
    "deep: " + "[" * 500 + "]" * 500,
    "deep2: " + "[" * 5000 + "]" * 5000,
    "obj: !!python/object:os.system {}",
    "bin: !!binary aGVsbG8=",
    "base: &b {use_count: 99}\nother:\n  <<: *b",
    "use_count: 1\nuse_count: 2",
    "? [complex, key]\n: value",
    "1: numeric key",
    "null: null key",
    "use_count: &u 3\nsame: *u",
    "use_count: [1, 2]",
    "use_count: -5",
    "use_count: 1e400",
    "use_count: .nan",
    "use_count: '7'",
    "last_used: not a date",
    "last_used: 2026-13-45T99:99:99Z",
    "last_used: 0001-01-01T00:00:00Z",
    "id: [not, a, string]",
    "id: ''",
    "tags: {a: b}",
    "tags:\n- [nested, list]\n- {map: x}",
    "status: promoted",
    "strength: 1e308",
    "key with spaces: value # comment",
    "\tindented: with a tab",
    "multi: |\n  a block\n  ---\n  with a fence",
    'quoted: "unterminated',
    "x: " + "y" * 100_000,
    "long_list: [" + ",".join(["1"] * 20_000) + "]",
)
FENCES = ("---", "---\r", "--- ", "...", "----")


@st.composite
def hostile_notes(draw: st.DrawFn) -> bytes:
    newline = draw(st.sampled_from(["\n", "\r\n", "\r", "\n\r"]))
    lines = draw(st.lists(st.one_of(st.sampled_from(HOSTILE_LINES), st.text(max_size=40)),
                          max_size=6))  # fmt: skip
    body = draw(
        st.one_of(st.text(max_size=200), st.sampled_from(FENCES).map(lambda f: f"x\n{f}\ny"))
    )
    opener = draw(st.sampled_from(["---", "---", "\ufeff---", "--- ", "", "----"]))
    closer = draw(st.sampled_from(["---", "---", "...", "", "--- # end"]))
    text = newline.join([opener, *lines, closer, body]) if opener else body
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.booleans()) and draw(st.booleans()):
        data = data.replace(b"x", b"\x00", 1) + draw(st.sampled_from([b"", b"\xff\xfe", b"\xc3"]))
    return data


def outside_target_lines(before: str, after: str) -> list[str]:
    """Lines the write removed or added that are not lines of the fields it sets (nor the
    fences of a frontmatter block it had to add)."""
    a, b = before.splitlines(), after.splitlines()
    wrong: list[str] = []
    in_target = False
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        for line in [*a[i1:i2], *b[j1:j2]]:
            if TARGET.match(line):
                in_target = True
            elif not (in_target and line[:1] in (" ", "-", "\t")) and line.strip() != "---":
                wrong.append(line)
                in_target = False
    return wrong


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> MemoryService:
    vault = tmp_path_factory.mktemp("hostile") / "vault"
    (vault / "_stm").mkdir(parents=True)
    (vault / "Home.md").write_text("# Home\n")
    return MemoryService(load_config({"vault": str(vault), "now": NOW_ISO}))


def attack(service: MemoryService, data: bytes, n: int) -> tuple[str, float]:
    root = service.engine.root
    rel = f"_stm/hostile {n}.md"
    (root / rel).write_bytes(data)
    started = time.monotonic()
    service.engine.fresh()  # indexing it never raises
    service.stats()
    try:
        service.touch(rel)
    except VaultError as exc:
        assert (root / rel).read_bytes() == data, f"refused ({exc}) but the file changed"
        assert "hostile" in str(exc), f"the error does not name the file: {exc}"
        outcome = "refused"
    else:
        after = (root / rel).read_bytes()
        wrong = outside_target_lines(data.decode("utf-8"), after.decode("utf-8"))
        assert not wrong, f"changed lines outside the fields it sets: {wrong[:3]}"
        outcome = "written"
    (root / rel).unlink()
    return outcome, time.monotonic() - started


COUNTS: dict[str, int] = {"written": 0, "refused": 0}


def test_hostile_notes_are_indexed_and_touched_safely(
    service: MemoryService, soak: bool, figures: dict[str, object]
) -> None:
    count = 3000 if soak else examples(1000)
    slowest = [0.0]

    @settings(max_examples=count, deadline=None, derandomize=not soak,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])  # fmt: skip
    @given(hostile_notes())
    def check(data: bytes) -> None:
        outcome, seconds = attack(service, data, sum(COUNTS.values()))
        COUNTS[outcome] += 1
        slowest[0] = max(slowest[0], seconds)

    check()
    assert COUNTS["written"] and COUNTS["refused"]  # both paths were exercised
    figures.update(notes=sum(COUNTS.values()), **COUNTS, slowest_s=round(slowest[0], 2),
                   crashes=0, changed_outside_targets=0)  # fmt: skip


# A line built to blow up a parser (an alias bomb, deep nesting) must not hang the indexer:
# the test's own time limit catches one that does; the figures report the slowest note.
@pytest.mark.timeout(60)
@pytest.mark.parametrize("line", HOSTILE_LINES, ids=lambda s: s[:24])
def test_each_hostile_frontmatter_line(service: MemoryService, line: str) -> None:
    data = f"---\n{line}\n---\nThe person's body stays.\n".encode()
    attack(service, data, 10_000 + HOSTILE_LINES.index(line))

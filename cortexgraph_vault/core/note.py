"""Reading a memory note's frontmatter leniently and changing it surgically.

A note belongs to the person: unknown keys, comments, key order, quoting, blank lines, line
endings and the body are theirs. `minimal_update` therefore rewrites only the lines of the keys
it changes, finds those lines from the YAML parser's own positions (not by guessing from
indentation), and checks its result by parsing it again before handing it back.

Decisions callers rely on:
- Duplicate keys: a YAML loader keeps the last one, so a change updates the last occurrence
  (earlier ones stay shadowed) and REMOVE deletes every occurrence.
- A closing `---` without a final newline stays without one; a note without frontmatter gets a
  block in front of its unchanged text, which keeps whatever ending that text had.
- An unclosed block is reported as a problem and its whole text is the body.
- Frontmatter whose lines end in a bare CR is reported as a problem (`CR_ONLY`): such a note
  is refused, never given a second block.
"""

from __future__ import annotations

import hashlib
import math
import re
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import accumulate, pairwise
from typing import Final

import yaml

from cortexgraph_vault.core.plain_frontmatter import plain_frontmatter
from cortexgraph_vault.core.yaml_values import as_loaded, format_yaml_key, format_yaml_value
from cortexgraph_vault.errors import NoteFormatError

REMOVE: Final = object()

_BOM = "\ufeff"
_CLOSERS = ("---", "...")
_Loader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# Aliases may repeat a value: a few lines can stand for billions of values ("billion laughs"),
# and a reader walking them never ends. Real frontmatter holds tens of values; one past this
# many (each use of an alias counted) is reported and not read, so no note can stall a process.
MAX_EXPANDED_VALUES = 10_000
# Deeper frontmatter is no one's metadata; it would exceed the interpreter's recursion limit
# wherever it is copied, pickled or sent as JSON.
MAX_DEPTH = 100


@dataclass(frozen=True)
class ParsedNote:
    """A note split for reading.

    `frontmatter` is {} when absent or unusable, and then `problem` says why (with the file's
    line number when the YAML parser gives one). `body` is the exact text after the closing
    fence, or the whole text when there is no usable block. `newline` is the note's own line
    ending, which edits reuse.
    """

    frontmatter: dict[str, object]
    body: str
    has_frontmatter: bool
    problem: str | None
    newline: str


@dataclass(frozen=True)
class _Split:
    """Where the frontmatter sits: text == prefix + head + suffix when a block was found."""

    prefix: str  # BOM (if any) and the opening line with its ending
    head: str  # the YAML between the fences
    suffix: str  # the closing line and the body
    body: str
    closed: bool
    newline: str


def parse_note(text: str) -> ParsedNote:
    """Split `text` into frontmatter and body; never raises, reports what is wrong instead."""
    if _cr_only(text):
        return ParsedNote({}, text, True, CR_ONLY, "\r")
    split = _split(text)
    if split is None:
        return ParsedNote({}, text, False, None, _newline_of(text, text.find("\n")))
    if not split.closed:
        return ParsedNote({}, text, True, "frontmatter block is never closed", split.newline)
    data, problem = _load(split.head)
    return ParsedNote(data, split.body, True, problem, split.newline)


def content_hash(text: str) -> str:
    """sha256 hex of the text's UTF-8 bytes.

    Text decoded with errors="surrogateescape" hashes to the file's own bytes.
    """
    try:
        data = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        data = text.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


def render_note(fields: Mapping[str, object], body: str, newline: str = "\n") -> str:
    """A new note: one `key: value` line per field, in the given order, then the body."""
    lines = [
        f"{format_yaml_key(key)}: {format_yaml_value(value)}{newline}"
        for key, value in fields.items()
    ]
    return f"---{newline}{''.join(lines)}---{newline}{body}"


def minimal_update(
    text: str, changes: Mapping[str, object], parsed: ParsedNote | None = None
) -> str:
    """Return `text` with only the lines of the changed top-level keys rewritten (see
    `minimal_update_parsed`)."""
    return minimal_update_parsed(text, changes, parsed)[0]


def minimal_update_parsed(
    text: str, changes: Mapping[str, object], parsed: ParsedNote | None = None
) -> tuple[str, ParsedNote]:
    """`text` with only the lines of the changed top-level keys rewritten, and the new text
    parsed (the check that it reads back as intended parses it: an indexer of the new text
    need not parse it again).

    `changes` maps a key to its new value, or to REMOVE to delete it. Raises NoteFormatError
    when the frontmatter cannot be parsed (the reason is the message) or when the edit would
    not read back exactly as intended; never returns text that loses data. A value that YAML
    cannot hold (NaN, an unsupported type) is a caller's bug: ValueError or TypeError.
    """
    parsed = parse_note(text) if parsed is None else parsed  # `parsed`: of this very text
    if parsed.problem is not None:
        raise NoteFormatError(parsed.problem)
    if not changes:
        return text, parsed
    split = _split(text)
    if split is None:
        new_text = _prepend_block(text, changes, parsed.newline)
        expected_body = text.removeprefix(_BOM)
    else:
        head = _HeadEditor(split.head, split.newline).apply(changes)
        new_text = split.prefix + head + split.suffix
        expected_body = parsed.body
    return new_text, _verify(new_text, parsed.frontmatter, changes, expected_body)


def _split(text: str) -> _Split | None:
    start = 1 if text.startswith(_BOM) else 0
    end = text.find("\n", start)
    first = text[start:] if end == -1 else text[start:end]
    if first.rstrip("\r").rstrip(" \t") != "---":
        return None
    newline = _newline_of(text, end)
    if end == -1:
        return _Split(text, "", "", "", False, newline)
    head_start = pos = end + 1
    # Walk lines only until the closing fence; the body is never scanned.
    while pos < len(text):
        end = text.find("\n", pos)
        line = text[pos:] if end == -1 else text[pos:end]
        if line.rstrip("\r").rstrip(" \t") in _CLOSERS:
            body = "" if end == -1 else text[end + 1 :]
            return _Split(text[:head_start], text[head_start:pos], text[pos:], body, True, newline)
        if end == -1:
            break
        pos = end + 1
    return _Split(text[:head_start], text[head_start:], "", "", False, newline)


# Lines ended by a carriage return alone (classic Mac OS): a reader that splits lines on \n
# alone sees one line and no block, and an edit would put a second block in front of it.
CR_ONLY = (
    "frontmatter lines end in a bare carriage return (CR, no line feed); not read or "
    "changed: save the note with LF or CRLF line endings"
)


def _cr_only(text: str) -> bool:
    """The opening fence ends in a CR that no LF follows."""
    start = 1 if text.startswith(_BOM) else 0
    if not text.startswith("---", start):
        return False
    rest = text[start + 3 :].lstrip(" \t")
    return rest.startswith("\r") and not rest.startswith("\r\n")


def _newline_of(text: str, first_newline: int) -> str:
    return "\r\n" if first_newline > 0 and text[first_newline - 1] == "\r" else "\n"


def _load(head: str) -> tuple[dict[str, object], str | None]:
    plain = plain_frontmatter(head)  # the usual flat frontmatter, without building nodes
    if plain is not None:
        return plain, None
    return _load_yaml(head)


def _load_yaml(head: str) -> tuple[dict[str, object], str | None]:
    loader = None
    try:
        loader = _Loader(head)
        node = loader.get_single_node()
        size, depth = _measure(node) if node is not None else (0, 0)
        if size > MAX_EXPANDED_VALUES:
            return {}, (
                f"frontmatter holds more than {MAX_EXPANDED_VALUES} values (each use of an "
                "alias counted); not read"
            )
        if depth > MAX_DEPTH:
            return {}, f"frontmatter is nested more than {MAX_DEPTH} levels deep; not read"
        data = loader.construct_document(node) if node is not None else None
    except Exception as exc:  # any failure of someone else's YAML is a report, not a crash
        return {}, f"frontmatter is not valid YAML ({_describe(exc)})"
    finally:
        if loader is not None:
            loader.dispose()
    if data is None:
        return {}, None
    if not isinstance(data, dict):
        return {}, f"frontmatter is not a mapping (found {_kind(data)})"
    return data, None


def _measure(root: yaml.Node) -> tuple[float, int]:
    """How many values the document has once every alias is expanded (shared nodes counted
    once per use, as a reader of the data would walk them; a recursive alias is infinite),
    and how deeply its lists and mappings nest; in time linear in the nodes."""
    measures: dict[int, tuple[float, int]] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if key in measures and not children_done:
            continue
        if isinstance(node, yaml.ScalarNode):
            measures[key] = (1, 0)
            continue
        children = (
            [c for pair in node.value for c in pair]
            if isinstance(node, yaml.MappingNode)
            else list(node.value)
        )
        if children_done:
            found = [measures.get(id(c), (math.inf, 0)) for c in children]
            size = 1 + sum(s for s, _ in found)
            measures[key] = (size, 1 + max((d for _, d in found), default=0))
            continue
        measures[key] = (math.inf, 0)  # in progress: met again before it is done is a cycle
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in measures)
    return measures[id(root)]


def _describe(exc: Exception) -> str:
    mark = getattr(exc, "problem_mark", None)
    lines = str(exc).splitlines()
    reason = getattr(exc, "problem", None) or (lines[0] if lines else type(exc).__name__)
    if mark is not None:
        # +1 for 1-based, +1 for the opening `---` line above the YAML.
        return f"line {mark.line + 2}: {reason}"
    return reason


def _kind(data: object) -> str:
    if isinstance(data, list):
        return "a list"
    return f"a single {type(data).__name__} value"


def _prepend_block(text: str, changes: Mapping[str, object], newline: str) -> str:
    fields = {key: value for key, value in changes.items() if value is not REMOVE}
    if not fields:
        return text
    bom = _BOM if text.startswith(_BOM) else ""
    return bom + render_note(fields, text.removeprefix(_BOM), newline)


_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")  # a line with its ending, or the last without one


class _HeadEditor:
    """Edits the YAML between the fences line by line, using the parser's positions."""

    def __init__(self, head: str, newline: str) -> None:
        self.head = head
        self.newline = newline
        # Only "\n" separates lines here: it is how the note is laid out on disk.
        self.lines: list[str] = _LINE.findall(head)
        self.starts = list(accumulate(map(len, self.lines), initial=0))[:-1]  # their offsets
        loader = _Loader(head)
        try:
            self.root = loader.get_single_node()
        except yaml.YAMLError as exc:
            raise NoteFormatError(f"frontmatter is not valid YAML ({_describe(exc)})") from exc
        finally:
            loader.dispose()
        if self.root is not None and (
            not isinstance(self.root, yaml.MappingNode) or self.root.flow_style
        ):
            raise NoteFormatError("frontmatter is not a block mapping; cannot edit it line by line")

    def apply(self, changes: Mapping[str, object]) -> str:
        edits: list[tuple[int, int, list[str]]] = []
        appended: list[str] = []
        pairs = self.root.value if self.root is not None else []
        indent = " " * pairs[0][0].start_mark.column if pairs else ""
        for key, value in changes.items():
            found = [
                (k, v) for k, v in pairs if k.tag == "tag:yaml.org,2002:str" and k.value == key
            ]
            if value is REMOVE:
                edits.extend((*self._extent(k, v), []) for k, v in found)
            elif found:
                edits.append(self._replace(key, value, *found[-1]))
            else:
                line = f"{indent}{format_yaml_key(key)}: {format_yaml_value(value)}{self.newline}"
                appended.append(line)
        edits.sort(key=lambda edit: edit[:2])
        for (_, end, _), (start, _, _) in pairwise(edits):
            if start < end:
                raise NoteFormatError(f"could not make a safe edit of {', '.join(changes)}")
        lines = list(self.lines)
        for start, end, replacement in reversed(edits):
            lines[start:end] = replacement
        return "".join(lines) + "".join(appended)

    def _line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def _extent(self, key_node: yaml.Node, value_node: yaml.Node) -> tuple[int, int]:
        """Lines [start, end) holding the key and its value, without trailing comments/blanks."""
        start = self._line_of(key_node.start_mark.index)
        if self.head[self.starts[start] : key_node.start_mark.index].strip(" \t"):
            raise NoteFormatError(f"could not make a safe edit of {key_node.value}")
        end_offset = value_node.end_mark.index
        last = self._line_of(end_offset)
        before_end = self.head[self.starts[last] : end_offset]
        # A value that ends at the start of a line (block lists, block scalars) does not own it.
        end = last if last > start and not before_end.strip(" \t") else last + 1
        block_scalar = isinstance(value_node, yaml.ScalarNode) and value_node.style in ("|", ">")
        content_indent = self._content_indent(start, end) if block_scalar else 0
        while end - 1 > start:
            line = self.lines[end - 1]
            stripped = line.strip()
            indent = len(line) - len(line.lstrip(" \t"))
            is_comment = stripped.startswith("#") and (not block_scalar or indent < content_indent)
            if stripped and not is_comment:
                break
            end -= 1
        return start, end

    def _content_indent(self, start: int, end: int) -> int:
        for line in self.lines[start + 1 : end]:
            if line.strip():
                return len(line) - len(line.lstrip(" "))
        return 0

    def _replace(
        self, key: str, value: object, key_node: yaml.Node, value_node: yaml.Node
    ) -> tuple[int, int, list[str]]:
        start, end = self._extent(key_node, value_node)
        key_line = self.lines[start]
        ending = self.lines[end - 1][len(self.lines[end - 1].rstrip("\r\n")) :] or self.newline
        line_start = self.starts[start]
        colon = self._colon_after(key_node.end_mark.index)
        if colon is None:
            raise NoteFormatError(f"could not make a safe edit of {key}")
        key_part = self.head[line_start : colon + 1]
        is_block_list = isinstance(value_node, yaml.SequenceNode) and not value_node.flow_style
        if is_block_list and isinstance(value, list | tuple) and value:
            dash = " " * value_node.start_mark.column + "- "
            items = [f"{dash}{format_yaml_value(item)}{self.newline}" for item in value]
            items[-1] = items[-1].removesuffix(self.newline) + ending
            return start, end, [key_line, *items]
        separator = " "
        value_start = value_node.start_mark.index
        if self._line_of(value_start) == start and value_start > colon + 1:
            gap = self.head[colon + 1 : value_start]
            separator = gap if gap.strip(" ") == "" else " "
        comment = self._trailing_comment(start, end, colon, value_node)
        return start, end, [f"{key_part}{separator}{format_yaml_value(value)}{comment}{ending}"]

    def _colon_after(self, offset: int) -> int | None:
        pos = offset
        while pos < len(self.head) and self.head[pos] in " \t":
            pos += 1
        return pos if pos < len(self.head) and self.head[pos] == ":" else None

    def _trailing_comment(self, start: int, end: int, colon: int, value_node: yaml.Node) -> str:
        """A ` # comment` after a one-line value, or after the key of a multi-line one."""
        end_offset = value_node.end_mark.index
        if self._line_of(end_offset) == end - 1:
            rest_from = end_offset
        else:
            rest_from = colon + 1
            end = start + 1
        line_end = self.starts[end - 1] + len(self.lines[end - 1].rstrip("\r\n"))
        rest = self.head[rest_from:line_end]
        if rest.strip().startswith("#") and rest[:1] in (" ", "\t"):
            return rest
        return ""


def _verify(
    new_text: str, old: dict[str, object], changes: Mapping[str, object], expected_body: str
) -> ParsedNote:
    expected = dict(old)
    for key, value in changes.items():
        if value is REMOVE:
            expected.pop(key, None)
        else:
            expected[key] = as_loaded(value)
    result = parse_note(new_text)
    ok = result.problem is None and result.body == expected_body and result.frontmatter == expected
    if not ok:
        raise NoteFormatError(f"could not make a safe edit of {', '.join(changes)}")
    return result

"""Merging two devices' versions of one memory note against their common base (pure).

The rules (README, "One memory on several devices"):
- `use_count`, `review_count`, `cross_domain_count`: base + (ours − base) + (theirs − base) — every
  use made on either device counted once; `use_days` (days with a use) the same way, so a day
  on which both devices used the memory counts twice (never more than its uses);
- `strength`: base + both changes, clamped to 0..2 (a boost on each device counts);
- `last_used`, `last_review_at`: the later; `created`, `promoted_at`, `valid_until`: the earlier;
- `last_used_on` (the device of the last use, its name and its clone's id, written by every use
  so that two devices' uses in one second never make one identical file that git would merge
  without us): the value of the side with the later `last_used`; at the same second the
  greater, so every device settles it alike;
- `status`: the side that changed it; changed on both, the further along
  (archived > promoted > active);
- lists (`tags`, `entities`, typed relations, aliases, any list): a three-way set merge — an item
  added on either side is kept, an item removed on either side is removed, our order first;
- any other key: the side that changed it; changed differently on both, ours is kept, theirs is
  named in the `merge_conflict` property, so nothing is lost;
- two different memories at one path (saved under one title on two devices): both are kept,
  the one with the smaller id at the path, the other beside it (`Title 2.md`);
- the text of the note goes through `merge_text`; lines changed differently on both sides are
  kept between conflict markers in the body, and the note gets a `merge_conflict` property that
  the index reports until a person removes it.
The frontmatter is our version edited by `minimal_update`: our comments, order and unknown
keys stay, and conflict markers never land in it.

Without a base (two copies of a file made by a file-sync service outside git) the rule is
two-way: counters take the larger (a use seen on both cannot be told from two uses), lists are
the union, other keys keep ours unless ours lacks them; bodies merge against an empty base, so
lines that differ are kept from both sides.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cortexgraph_vault.core.note import REMOVE, minimal_update, parse_note
from cortexgraph_vault.core.text_merge import merge_text
from cortexgraph_vault.core.times import parse_time
from cortexgraph_vault.core.wording import count
from cortexgraph_vault.errors import NoteFormatError

CONFLICT_KEY = "merge_conflict"
COUNTERS = ("use_count", "review_count", "cross_domain_count", "use_days")
LATER = ("last_used", "last_review_at")
LAST_USED_ON = "last_used_on"
EARLIER = ("created", "promoted_at", "valid_until")
STATUS_ORDER = {"active": 0, "promoted": 1, "archived": 2}
_MISSING: Any = object()


@dataclass(frozen=True)
class NoteMerge:
    """What came of a merge. `text` is None when the versions could not be merged as memory
    notes (`fallback` says why: the caller falls back to a plain text merge)."""

    text: str | None
    conflicts: tuple[str, ...] = ()  # what a person should look at (body regions, keys)
    fallback: str | None = None
    other_id: str | None = None  # set when the two sides are different memories
    fields: Mapping[str, Any] = field(default_factory=dict)

    @property
    def conflicted(self) -> bool:
        return bool(self.conflicts)


def _number(value: Any, default: float) -> float:
    if isinstance(value, bool) or value is _MISSING or value is None:
        return default
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    return number if number == number and abs(number) != float("inf") else default


def _summed(base: Any, ours: Any, theirs: Any, default: float) -> Any:
    """Base plus both sides' changes (without a base, the larger side); missing on both stays
    missing."""
    if theirs is _MISSING and ours is _MISSING:
        return _MISSING
    o, t = _number(ours, default), _number(theirs, default)
    if base is _MISSING:
        return max(o, t)
    b = _number(base, default)
    return b + (o - b) + (t - b)


def _time_pick(ours: Any, theirs: Any, pick: Callable[..., datetime]) -> Any:
    """The raw value (as its side wrote it) of the later or earlier time."""
    to, tt = parse_time(ours), parse_time(theirs)
    if to is None:
        return theirs if tt is not None else ours
    if tt is None:
        return ours
    return ours if pick(to, tt) == to else theirs


def _set_merge(base: Any, ours: list[Any], theirs: list[Any]) -> list[Any]:
    base_items = base if isinstance(base, list) else []
    removed = {repr(x) for x in base_items if x not in theirs or x not in ours}
    merged: dict[str, Any] = {}
    for item in [*ours, *theirs]:
        if repr(item) not in removed:
            merged.setdefault(repr(item), item)
    return list(merged.values())


def _merge_key(key: str, base: Any, ours: Any, theirs: Any, conflicts: list[str]) -> Any:
    if key in COUNTERS or key == "strength":
        least = 1 if key == "use_count" else 0
        merged = _summed(base, ours, theirs, 1.0 if key == "strength" else least)
        if merged is _MISSING:
            return merged
        return (
            round(min(2.0, max(0.0, merged)), 4) if key == "strength" else max(least, int(merged))
        )
    if key in LATER or key in EARLIER:
        if ours is _MISSING and theirs is _MISSING:
            return _MISSING
        if ours is _MISSING or theirs is _MISSING:
            present = theirs if ours is _MISSING else ours
            # Removed on one side: the removal stands unless the other side changed the value.
            return _MISSING if base is not _MISSING and present == base else present
        return _time_pick(ours, theirs, max if key in LATER else min)
    if isinstance(ours, list) and isinstance(theirs, list):
        return _set_merge(base, ours, theirs)
    if ours == theirs:
        return ours
    if base is not _MISSING and ours == base:
        return theirs
    if base is not _MISSING and theirs == base:
        return ours
    if base is _MISSING and (ours is _MISSING or theirs is _MISSING):
        return theirs if ours is _MISSING else ours
    if key == "status" and ours in STATUS_ORDER and theirs in STATUS_ORDER:
        return ours if STATUS_ORDER[ours] >= STATUS_ORDER[theirs] else theirs
    if key == CONFLICT_KEY:
        return ours if theirs is _MISSING else theirs if ours is _MISSING else f"{ours}; {theirs}"
    if ours is _MISSING:  # removed here, changed there: the change is kept
        return theirs
    if theirs is _MISSING:
        return ours
    conflicts.append(f"{key} changed on both devices (the other device's value: {theirs!r})")
    return ours


def _device_of_last_use(base: Any, ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> Any:
    o, t = ours.get(LAST_USED_ON, _MISSING), theirs.get(LAST_USED_ON, _MISSING)
    if o == t or t is _MISSING or (base is not _MISSING and t == base):
        return o
    if o is _MISSING or (base is not _MISSING and o == base):
        return t
    when_o, when_t = parse_time(ours.get("last_used")), parse_time(theirs.get("last_used"))
    if when_o is not None and when_t is not None and when_o != when_t:
        return o if when_o > when_t else t
    return o if str(o) >= str(t) else t


def merge_fields(
    base: Mapping[str, Any] | None, ours: Mapping[str, Any], theirs: Mapping[str, Any]
) -> tuple[dict[str, object], list[str]]:
    """Every key's merged value (missing keys left out) and the keys that conflicted."""
    conflicts: list[str] = []
    merged: dict[str, object] = {}
    b = base or {}
    keys = [
        *ours,
        *(k for k in theirs if k not in ours),
        *(k for k in b if k not in ours and k not in theirs),
    ]
    for key in keys:
        was = b.get(key, _MISSING)
        if key == LAST_USED_ON:
            value = _device_of_last_use(was, ours, theirs)
        else:
            value = _merge_key(
                key, was, ours.get(key, _MISSING), theirs.get(key, _MISSING), conflicts
            )
        if value is not _MISSING:
            merged[key] = value
    return merged, conflicts


def merge_note(base: str | None, ours: str, theirs: str) -> NoteMerge:
    """Merge two versions of a memory note (base None: no common version is known)."""
    parsed_o, parsed_t = parse_note(ours), parse_note(theirs)
    parsed_b = parse_note(base) if base is not None else None
    for name, parsed in (("this device's", parsed_o), ("the other device's", parsed_t)):
        if parsed.problem is not None:
            return NoteMerge(None, fallback=f"{name} version: {parsed.problem}")
    id_o, id_t = parsed_o.frontmatter.get("id"), parsed_t.frontmatter.get("id")
    if id_o not in (None, "") and id_t not in (None, "") and str(id_o) != str(id_t):
        return NoteMerge(None, fallback="two different memories", other_id=str(id_t))
    id_b = parsed_b.frontmatter.get("id") if parsed_b is not None else None
    if parsed_b is not None and (
        parsed_b.problem is not None
        or (id_b not in (None, "") and str(id_b) not in {str(id_o), str(id_t)})
    ):
        # A broken base, or another memory's (git paired two files by their likeness): no guide.
        parsed_b = None
    base_fields = parsed_b.frontmatter if parsed_b is not None else None
    fields, conflicts = merge_fields(base_fields, parsed_o.frontmatter, parsed_t.frontmatter)
    body = merge_text(parsed_b.body if parsed_b is not None else "", parsed_o.body, parsed_t.body)
    if body.conflicts:
        conflicts.insert(
            0,
            f"{count(body.conflicts, 'part')} of the text {'was' if body.conflicts == 1 else 'were'} changed on both devices "
            "(both versions kept in the text, between conflict markers)",
        )
    if conflicts:
        note = "; ".join(conflicts) + f"; resolve and delete {CONFLICT_KEY}"
        previous = fields.get(CONFLICT_KEY)
        fields[CONFLICT_KEY] = f"{previous}; {note}" if previous else note
    changes: dict[str, object] = {
        key: value
        for key, value in fields.items()
        if parsed_o.frontmatter.get(key, _MISSING) != value
    }
    changes.update({key: REMOVE for key in parsed_o.frontmatter if key not in fields})
    try:
        head = minimal_update(ours, changes) if parsed_o.has_frontmatter or changes else ours
    except (NoteFormatError, ValueError, TypeError) as exc:
        return NoteMerge(None, fallback=f"the merged frontmatter could not be written ({exc})")
    head = head[: len(head) - len(parse_note(head).body)]
    return NoteMerge(head + body.text, conflicts=tuple(conflicts), fields=fields)


@dataclass(frozen=True)
class VersionMerge:
    """A merge of three file versions as bytes, for git's driver and for `sync`."""

    result: bytes  # what the path holds afterwards
    clean: bool  # False: git is told the path is in conflict (a person must look)
    report: str | None = None  # one line for the person when something needs saying
    other: bytes | None = None  # the other device's memory, to keep under a name of its own


def _decoded(data: bytes) -> str | None:
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def merge_versions(base: bytes | None, ours: bytes, theirs: bytes) -> VersionMerge:
    """Merge as memory notes; fall back to a plain text merge when a side is not one."""
    o, t = _decoded(ours), _decoded(theirs)
    b = _decoded(base) if base else None
    if o is None or t is None or (base and b is None):
        return VersionMerge(ours, False, "not UTF-8 text (binary?): this device's version kept")
    merged = merge_note(b, o, t)
    if merged.text is not None:
        report = "; ".join(merged.conflicts) if merged.conflicted else None
        return VersionMerge(merged.text.encode("utf-8"), True, report)
    if merged.other_id is not None:
        # Every device must settle this the same way, or two devices that each kept their own
        # memory at the name would swap them back and forth: the smaller id keeps the name.
        ours_id = str(parse_note(o).frontmatter.get("id"))
        keep, other = (ours, theirs) if ours_id < merged.other_id else (theirs, ours)
        moved = max(ours_id, merged.other_id)
        return VersionMerge(keep, True, f"two different memories (id {moved} moved)", other=other)
    text = merge_text(b or "", o, t)
    report = f"{merged.fallback}; merged as plain text"
    if text.conflicts:
        report += f" with {count(text.conflicts, 'conflicting part')} left for a person"
    return VersionMerge(text.text.encode("utf-8"), text.conflicts == 0, report)


def grew_by_use(base: Mapping[str, object], later: Mapping[str, object]) -> bool:
    """Whether frontmatter `later` could have grown from `base` by uses: no fewer uses, no
    earlier use. A use count that is not a number answers no."""
    before, after = base.get("use_count", 1), later.get("use_count", 1)
    if not isinstance(before, int | float | str) or not isinstance(after, int | float | str):
        return False
    try:
        uses_ok = int(before) <= int(after)
    except ValueError:
        return False
    then, now = parse_time(base.get("last_used")), parse_time(later.get("last_used"))
    return uses_ok and (then is None or now is None or then <= now)

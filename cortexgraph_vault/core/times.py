"""Lenient reading and strict writing of the times kept in note frontmatter.

People (and other tools) write times in many shapes; we accept YAML dates and datetimes,
ISO-8601 strings with or without a zone, and epoch seconds. We always write UTC with a `Z`
at whole seconds, a form every YAML parser reads back as the same instant.
"""

from __future__ import annotations

import functools
import math
from datetime import UTC, date, datetime, time

_EPOCH_MIN = 0
_EPOCH_MAX = 253402300799  # 9999-12-31T23:59:59Z


def parse_time(value: object) -> datetime | None:
    """Return an aware UTC datetime for `value`, or None when it is not a time.

    Naive datetimes are taken as UTC: that is what we write, and guessing a local zone would
    make scores depend on the machine.
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    if isinstance(value, date):
        return datetime.combine(value, time(), tzinfo=UTC)
    if isinstance(value, int | float):
        if not math.isfinite(value) or not _EPOCH_MIN <= value <= _EPOCH_MAX:
            return None
        return datetime.fromtimestamp(value, tz=UTC)
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        try:
            number = float(text)
        except ValueError:
            pass
        else:
            return parse_time(number)
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError:
            return None
        return parse_time(parsed)
    return None


# A list page formats two times per memory shown, the same memories page after page: the
# text of a time is remembered (equal datetimes are the same instant, so the same text).
@functools.lru_cache(maxsize=4096)
def format_time(moment: datetime) -> str:
    """`2026-11-29T10:15:00Z`: UTC, whole seconds."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    m = moment.astimezone(UTC)
    # strftime does not pad years before 1000, which YAML would then not read as a time.
    return f"{m.year:04d}-{m.month:02d}-{m.day:02d}T{m.hour:02d}:{m.minute:02d}:{m.second:02d}Z"


def from_epoch(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)

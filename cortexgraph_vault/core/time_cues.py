"""What a query says about time: the present ("now", "these days", "still", "anymore") or a
span resolved against the clock passed in ("two weeks ago", "last month", "yesterday").
Pure: a query and an instant in, a `TimeFocus` out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from cortexgraph_vault.core.english import any_of, phrases

_PRESENT = any_of(
    r"\b(now|nowadays|currently|current|these days|at the moment|at present|still|"
    r"any ?more|any longer|lately|latest|these times)\b",
)
_NUMBERS = {"a": 1, "an": 1, "a couple of": 2, "couple of": 2, "a few": 3, "several": 4} | {
    word: n
    for n, word in enumerate(
        phrases("one, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve"), 1
    )
}
_UNIT_DAYS = {"day": 1.0, "week": 7.0, "fortnight": 14.0, "month": 30.44, "year": 365.25}
_AGO = any_of(
    r"\b(\d+|a couple of|couple of|a few|several|an?|one|two|three|four|five|six|seven|eight|"
    r"nine|ten|eleven|twelve)\s+(day|week|fortnight|month|year)s?\s+ago\b",
)
_LAST = any_of(r"\b(last|past|previous)\s+(week|month|year)\b")
_WITHIN = any_of(
    r"\b(?:in|over|during|within)\s+the\s+(?:last|past)\s+(\d+|a few|several|two|three|four|"
    r"five|six|seven|eight|nine|ten)\s+(day|week|month|year)s\b",
)
_THIS = any_of(r"\b(this|earlier this)\s+(week|month|year)\b")
_YESTERDAY = any_of(r"\byesterday\b")
_TODAY = any_of(r"\b(today|this morning|tonight)\b")


@dataclass(frozen=True)
class TimeFocus:
    """`present`: the query asks what holds now. `since`..`until`: the span it names."""

    present: bool = False
    since: datetime | None = None
    until: datetime | None = None

    @property
    def span(self) -> bool:
        return self.since is not None and self.until is not None


def _count(word: str) -> float:
    word = word.lower()
    return float(word) if word.isdigit() else float(_NUMBERS.get(word, 1))


def _start_of(unit: str, now: datetime) -> datetime:
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if unit == "week":
        return day - timedelta(days=day.weekday())
    if unit == "month":
        return day.replace(day=1)
    return day.replace(month=1, day=1)


def _previous(unit: str, now: datetime) -> tuple[datetime, datetime]:
    """The calendar week (Monday first), month or year before the one `now` is in."""
    end = _start_of(unit, now)
    if unit == "week":
        return end - timedelta(days=7), end
    if unit == "month":
        return _start_of("month", end - timedelta(days=1)), end
    return end.replace(year=end.year - 1), end


def time_focus(query: str, now: datetime) -> TimeFocus:
    """The time `query` is about, against `now`; an empty focus when it names none."""
    text = query or ""
    if m := _AGO.search(text):
        days = _count(m.group(1)) * _UNIT_DAYS[m.group(2).lower()]
        centre = now - timedelta(days=days)
        half = timedelta(days=max(1.0, days / 4))
        return TimeFocus(since=centre - half, until=min(now, centre + half))
    if m := _WITHIN.search(text):
        days = _count(m.group(1)) * _UNIT_DAYS[m.group(2).lower()]
        return TimeFocus(since=now - timedelta(days=days), until=now)
    if m := _LAST.search(text):
        since, until = _previous(m.group(2).lower(), now)
        return TimeFocus(since=since, until=until)
    if m := _THIS.search(text):
        return TimeFocus(since=_start_of(m.group(2).lower(), now), until=now)
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if _YESTERDAY.search(text):
        return TimeFocus(since=today - timedelta(days=1), until=today)
    if _TODAY.search(text):
        return TimeFocus(since=today, until=now)
    return TimeFocus(present=_PRESENT.search(text) is not None)


__all__ = ["TimeFocus", "time_focus"]

"""What a query says about time, against a clock passed in: values in, values out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cortexgraph_vault.core.time_cues import TimeFocus, time_focus

# A Wednesday.
NOW = datetime(2026, 12, 2, 15, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    "query",
    ["where does the user live now?", "Which city do they live in these days?",
     "Does she still work at Acme?", "is he currently vegetarian", "not a smoker anymore?"],
)  # fmt: skip
def test_questions_about_the_present(query: str) -> None:
    assert time_focus(query, NOW) == TimeFocus(present=True)


@pytest.mark.parametrize("query", ["where does the user live", "what is snow", "known for years"])
def test_questions_that_name_no_time(query: str) -> None:
    assert time_focus(query, NOW) == TimeFocus()


def test_an_amount_ago_is_a_span_around_that_day() -> None:
    focus = time_focus("what did I decide two weeks ago?", NOW)
    assert focus.span and not focus.present
    assert focus.since is not None and focus.until is not None
    assert focus.since < NOW - timedelta(days=14) < focus.until <= NOW
    assert focus.until - focus.since == timedelta(days=7)


def test_last_month_is_the_calendar_month_before() -> None:
    focus = time_focus("the plan from last month", NOW)
    assert (focus.since, focus.until) == (
        datetime(2026, 11, 1, tzinfo=UTC), datetime(2026, 12, 1, tzinfo=UTC)
    )  # fmt: skip


def test_last_week_runs_monday_to_monday() -> None:
    focus = time_focus("what happened last week", NOW)
    assert (focus.since, focus.until) == (
        datetime(2026, 11, 23, tzinfo=UTC), datetime(2026, 11, 30, tzinfo=UTC)
    )  # fmt: skip


def test_last_year_in_january_is_the_whole_year_before() -> None:
    focus = time_focus("goals I set last year", datetime(2027, 1, 10, tzinfo=UTC))
    assert (focus.since, focus.until) == (
        datetime(2026, 1, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC)
    )  # fmt: skip


def test_yesterday_today_and_the_past_few_days() -> None:
    assert time_focus("yesterday's call", NOW).since == datetime(2026, 12, 1, tzinfo=UTC)
    assert time_focus("what did I eat today", NOW).until == NOW
    within = time_focus("anything in the past 3 days?", NOW)
    assert (within.since, within.until) == (NOW - timedelta(days=3), NOW)

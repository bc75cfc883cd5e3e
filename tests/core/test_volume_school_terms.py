"""A daily group shut in school holidays no calendar names (a school's tuck shops: deliveries on school days alone,
zero at weekends, in half-term weeks and the holidays, stocked on a term's first day). Its empty days inside a
holiday that began about when last year's did, and has not outlasted it, pass as a season's closure
(`_closed_as_last_year`); an empty school day still fails as a missing group, as does a closure outlasting last
year's (its weekends' zeros are its closed weekdays', not a school day's: `_on_its_open_weekdays`); its first day
back after a holiday reads against its past first days back (`_reopening_lift`); an empty Saturday passes as its
closed weekday (`_weekday_reopened`)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

import pytest

from dw_assets.core import volume_model
from dw_assets.core.volume_model import ModelParams, Point, forecast, judge

_START = date(2024, 5, 6)  # a Monday
_LEVEL = 1_200.0
# the school holidays and half-term weeks (first day, last day): each from a Saturday to a Sunday
_CLOSURES = [
    (date(2024, 5, 25), date(2024, 6, 2)),
    (date(2024, 7, 6), date(2024, 9, 8)),
    (date(2024, 10, 26), date(2024, 11, 3)),
    (date(2024, 12, 14), date(2025, 1, 5)),
    (date(2025, 2, 15), date(2025, 2, 23)),
    (date(2025, 4, 12), date(2025, 4, 27)),
    (date(2025, 5, 24), date(2025, 6, 1)),
    (date(2025, 7, 5), date(2025, 9, 7)),
]
_TERM_STARTS = {date(2024, 9, 9), date(2025, 1, 6), date(2025, 4, 28), date(2025, 9, 8)}  # x1.4 (not half-terms)


def _tuck_shops(until: date, first_day: float = 1.4, gone: date | None = None, seed: int = 3) -> list[Point]:
    """The tuck shops' deliveries per day from _START to the day before `until`, 5% noise: zero at weekends and in
    _CLOSURES, x`first_day` on a term's first day; zero from `gone` on (a group gone)."""
    rng = random.Random(seed)
    out = []
    d = _START
    while d < until:
        shut = d.weekday() >= 5 or any(a <= d <= b for a, b in _CLOSURES) or (gone is not None and d >= gone)
        size = 0.0 if shut else _LEVEL * (first_day if d in _TERM_STARTS else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), float(round(size * math.exp(rng.gauss(0, 0.05))))))
        d += timedelta(days=1)
    return out


def _at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day)


def _passes(history: list[Point], day: date, value: float) -> bool:
    return judge(forecast(history, _at(day), grain="day"), value).passed


def test_an_empty_day_inside_a_holiday_like_last_years_passes() -> None:
    day = date(2025, 7, 16)  # a Wednesday, the summer holiday's second week (last year's from 6 July)
    fc = forecast(_tuck_shops(day), _at(day), grain="day")
    assert fc.empty_is_normal
    assert judge(fc, 0.0).passed
    assert any("as it was a year back" in n for n in fc.notes)


def test_without_the_rule_the_holiday_reads_as_a_missing_group(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(volume_model, "_closed_as_last_year", lambda *args: None)
    day = date(2025, 7, 16)
    assert not _passes(_tuck_shops(day), day, 0.0)


def test_an_empty_school_day_still_fails() -> None:
    day = date(2025, 6, 18)  # a Wednesday in term
    assert not _passes(_tuck_shops(day), day, 0.0)
    assert _passes(_tuck_shops(day), day, _LEVEL * 1.05)


def test_an_empty_school_day_failed_on_the_weekends_zeros_without_their_weekday_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # (the weekends' zeros matched a school day whose fit reads no weekday: a third of its days looked empty)
    monkeypatch.setattr(volume_model, "_on_its_open_weekdays", lambda zeros, pts_pos, target, cal: list(zeros))
    day = date(2025, 6, 18)
    assert _passes(_tuck_shops(day), day, 0.0)


def test_a_group_gone_on_a_school_day_fails_on_its_next_days() -> None:
    # rows stopped on Monday 16 June, in term, where a year back the shops were open: no season's closure
    history = _tuck_shops(date(2025, 6, 19), gone=date(2025, 6, 16))
    assert not _passes(history, date(2025, 6, 19), 0.0)


def test_a_holiday_outlasting_last_years_fails() -> None:
    # last summer's holiday ended on Sunday 8 September 2024; this year's school day 10 September 2025 is empty
    history = _tuck_shops(date(2025, 9, 10), gone=date(2025, 9, 8))
    assert volume_model._closed_as_last_year(history, _at(date(2025, 9, 10)), volume_model.HolidayCalendar()) is None
    assert not _passes(history, date(2025, 9, 10), 0.0)


def test_a_closure_needs_two_past_closures_that_ended() -> None:
    # the same holiday, the history cut to hold last summer's closure alone
    day = date(2025, 7, 16)
    history = [q for q in _tuck_shops(day) if q.at >= datetime(2024, 6, 10)]
    history = [q if q.at < datetime(2024, 9, 9) or q.at >= datetime(2025, 7, 5) else Point(q.at, q.value or 1.0)
               for q in history]  # (no other closure: the weekends and half-terms kept a row)
    assert volume_model._closed_as_last_year(history, _at(day), volume_model.HolidayCalendar()) is None


def test_a_terms_first_day_reads_against_its_past_first_days() -> None:
    day = date(2025, 4, 28)  # the first day back after Easter: past first days back (September, January) ran x1.4
    fc = forecast(_tuck_shops(day), _at(day), grain="day")
    assert judge(fc, _LEVEL * 1.05 ** (1 / 3) * 1.45).passed
    assert any("first day back" in n for n in fc.notes)
    assert not judge(fc, _LEVEL * 2.9).passed  # a duplicated first day still fails
    assert not judge(fc, _LEVEL * 0.5).passed  # ... and a drop


def test_without_the_rule_a_terms_first_day_is_a_spike(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(volume_model, "_reopening_lift", lambda *args: None)
    day = date(2025, 4, 28)
    assert not _passes(_tuck_shops(day), day, _LEVEL * 1.45)


def test_first_days_back_at_the_level_widen_nothing() -> None:
    day = date(2025, 4, 28)
    fc = forecast(_tuck_shops(day, first_day=1.0), _at(day), grain="day")
    assert not any("first day back" in n for n in fc.notes)


def test_an_empty_saturday_passes_as_its_closed_weekday() -> None:
    day = date(2025, 6, 21)  # a Saturday in term
    assert _passes(_tuck_shops(day), day, 0.0)


def test_a_closed_weekday_read_on_its_own_occurrences() -> None:
    # (its forecast-level case needs a calendar's neighbourhoods: bakery_bb seed 1's Saturday 9 May 2026, empty on
    # all 46 past Saturdays, read as a missing group once the weekdays' rows since its latest plain empty day said
    # its slot had opened)
    day = date(2025, 6, 21)
    history = _tuck_shops(day)
    assert not volume_model._weekday_reopened(history, day, ModelParams())
    opened = [Point(q.at, _LEVEL) if q.at.weekday() == 5 and q.at >= datetime(2025, 2, 1) else q for q in history]
    assert volume_model._weekday_reopened(opened, day, ModelParams())

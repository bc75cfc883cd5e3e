"""An hourly series that opened hours it kept closed has changed regime: each hour is read against its same hour on
the latest days since the opening, at the level its latest hours ran, not against the history's term-day bands
(_opened_hours_read). And a holiday the history never held, whose usual open hours so far were all empty, is shut
for the day (_holiday_shut_so_far)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import (
    ModelParams,
    Point,
    _holiday_shut_so_far,
    _opened_hours_read,
    forecast,
    judge,
)

_START = datetime(2025, 3, 3)  # a Monday
_WEEKS = 5
_OPENED = _START + timedelta(days=7 * _WEEKS, hours=22)  # a Monday evening: open around the clock from 22:00
_BUSIER = 1.5  # the open days' hours against the history's, from the next morning on
_DAY_SHAPE = [0.5, 0.8, 0.9, 1.0, 1.0, 0.95, 0.85, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]  # 08:00 to 21:00
_NIGHT = {22: 0.45, 23: 0.3, 0: 0.2, 1: 0.12, 2: 0.1, 3: 0.08, 4: 0.08, 5: 0.1, 6: 0.15, 7: 0.3}


def _hour_factor(at: datetime, opened: bool) -> float:
    if opened and at >= _OPENED:
        if at.hour in _NIGHT:
            return _NIGHT[at.hour]
        return _DAY_SHAPE[at.hour - 8] * (_BUSIER if at.date() > _OPENED.date() else 1.0)
    if at.weekday() == 6 or not 8 <= at.hour <= 21 or (at.weekday() == 5 and not 10 <= at.hour <= 17):
        return 0.0  # closed: Sundays, nights, Saturday's short day
    return _DAY_SHAPE[at.hour - 8] * (0.5 if at.weekday() == 5 else 1.0)


def _entries(until: datetime, opened: bool = True, seed: int = 5) -> list[Point]:
    """A reading room's gate entries per hour (800 at its busiest hour), only its open hours present (a closed hour
    has no rows, so no partition); from `_OPENED` on, when `opened`, open around the clock and its days busier."""
    rng = random.Random(seed)
    out, at = [], _START
    while at < until:
        f = _hour_factor(at, opened)
        if f:
            out.append(Point(at, round(800 * f * math.exp(rng.gauss(0, 0.04)))))
        at += timedelta(hours=1)
    return out


def _clean(at: datetime) -> float:
    return 800 * _hour_factor(at, True)


def test_a_busier_day_hour_after_the_opening_reads_against_the_latest_days() -> None:
    # the third day open around the clock, its noon 1.5x the history's: the term days' band flagged it
    target = _OPENED + timedelta(days=3, hours=14)
    assert target.hour == 12
    fc = forecast(_entries(target), target, grain="hour")
    assert judge(fc, _clean(target)).passed
    assert any(n.startswith("hours it kept closed opened") for n in fc.notes)
    assert not judge(fc, 2 * _clean(target)).passed
    assert not judge(fc, 0.5 * _clean(target)).passed
    assert not judge(fc, 0.0).passed


def test_a_night_hour_reads_against_the_latest_nights() -> None:
    target = _OPENED + timedelta(days=3, hours=5)
    assert target.hour == 3
    fc = forecast(_entries(target), target, grain="hour")
    assert judge(fc, _clean(target)).passed
    assert not judge(fc, 2 * _clean(target)).passed
    assert not judge(fc, 0.0).passed


def test_the_first_night_after_the_opening_has_no_reading_of_its_own() -> None:
    # the first night's 03:00: an hour never open before, no same hour anywhere, so the model reads it as before
    target = _OPENED + timedelta(hours=5)
    history = _entries(target)
    local = {q.at: q.at for q in history} | {target: target}
    assert _opened_hours_read(history, local, target, ModelParams()) is None


def test_the_first_busier_day_reads_its_hours_against_the_days_before_the_opening() -> None:
    # the first morning after the opening, 1.5x the history's: an hour kept open before reads its latest days
    # then, at the level its latest hour (08:00) ran against theirs
    target = _OPENED + timedelta(hours=11)
    assert target.hour == 9
    fc = forecast(_entries(target), target, grain="hour")
    assert judge(fc, _clean(target)).passed
    assert not judge(fc, 2 * _clean(target)).passed
    assert not judge(fc, 0.5 * _clean(target)).passed


def test_a_new_day_may_read_as_the_same_hours_rather_than_the_day_before() -> None:
    # the night after a quiet evening (x0.6 from 21:00, in no calendar): its first hour back at its usual level
    # passes, the band reaching the same hours' own reading as well as the evening's level
    target = _OPENED + timedelta(days=4, hours=2)
    assert target.hour == 0
    quiet = {target - timedelta(hours=j) for j in (1, 2, 3)}
    history = [Point(q.at, round(q.value * 0.6)) if q.at in quiet else q for q in _entries(target)]
    fc = forecast(history, target, grain="hour")
    assert judge(fc, _clean(target)).passed
    assert not judge(fc, 2 * _clean(target)).passed


def test_a_series_that_kept_its_hours_is_read_as_before() -> None:
    target = _OPENED + timedelta(days=3, hours=14)
    fc = forecast(_entries(target, opened=False), target, grain="hour")
    assert not any(n.startswith("hours it kept closed opened") for n in fc.notes)


def _branch(until: datetime, holiday: date, seed: int = 7) -> list[Point]:
    """A branch room's entries per hour (60 at its busiest hour) in the rows of a table whose other rooms open every hour
    of the working week: its closed hours and its shut holiday are zeros (the weekends have no rows)."""
    rng = random.Random(seed)
    out, at = [], _START
    while at < until:
        open_ = 8 <= at.hour <= 21 and at.date() != holiday
        if at.weekday() < 5:
            out.append(Point(at, float(round(60 * _DAY_SHAPE[at.hour - 8] * math.exp(rng.gauss(0, 0.1)))) if open_ else 0.0))
        at += timedelta(hours=1)
    return out


def test_an_empty_hour_passes_once_a_never_seen_holiday_kept_its_usual_hours_empty() -> None:
    holiday = (_START + timedelta(days=7 * _WEEKS + 1)).date()  # a Tuesday
    cal = HolidayCalendar(dates={holiday: "Founders' Day"})
    target = datetime.combine(holiday, datetime.min.time()) + timedelta(hours=12)
    fc = forecast(_branch(target, holiday), target, grain="hour", calendar_=cal)
    verdict = judge(fc, 0.0)
    assert verdict.passed and verdict.reason == "empty_as_usual"


def test_a_holiday_is_shut_only_after_three_of_its_usual_hours_held_no_rows() -> None:
    holiday = (_START + timedelta(days=7 * _WEEKS + 1)).date()
    midnight = datetime.combine(holiday, datetime.min.time())
    history = _branch(midnight + timedelta(hours=12), holiday)
    had_rows = {q.at for q in history if q.value > 0}
    days, loaded = {at.date() for at in had_rows}, {q.at for q in history}
    assert _holiday_shut_so_far(midnight + timedelta(hours=10), had_rows, days, _START, loaded) == 0  # 08h, 09h only
    assert _holiday_shut_so_far(midnight + timedelta(hours=11), had_rows, days, _START, loaded) == 3
    opened = had_rows | {midnight + timedelta(hours=9)}  # one usual hour with rows: not shut
    assert _holiday_shut_so_far(midnight + timedelta(hours=11), opened, days, _START, loaded) == 0
    # hours not loaded at all (the table's history ends the evening before, or an outage) say nothing
    unloaded = loaded - {midnight + timedelta(hours=h) for h in range(8, 11)}
    assert _holiday_shut_so_far(midnight + timedelta(hours=11), had_rows, days, _START, unloaded) == 0

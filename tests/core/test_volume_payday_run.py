"""A payday on a day of the month, moved back to the business day before when it falls on a weekend or holiday, and
the calendar days after it its cash is spent on (`_payday_run`, `_with_payday_run`). Read day by day, the pay on the
24th lifts the 24th, 25th and 26th in most months, so a "26th" is earned, and where the 24th is a Saturday (paid the
Friday 23rd: Friday, Saturday and Sunday lift) the model read Monday the 26th against the lift (the fortieth round's
`appliances_sr`: 0.63-0.71 in every store). The day is now also read as a run from its rolled day: its roll and
roll calendar as the history shows them (on two months at least where they part), its length in calendar days."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core import volume_model
from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

# receipts by weekday (Monday first): the stores shut on Sunday, the web shop's rows alone
_WEEK = (0.9, 0.9, 0.95, 1.0, 1.25, 1.45, 0.12)
_HISTORY = 400  # days, the check's default
_PAYDAY, _RUN, _LIFT = 24, 3, 1.45  # the 24th rolled back, it and the two calendar days after x1.45


def _payday(year: int, month: int, cal: HolidayCalendar) -> date:
    d = date(year, month, _PAYDAY)
    while not cal.is_business_day(d):
        d -= timedelta(days=1)
    return d


def _factor(day: date, cal: HolidayCalendar) -> float:
    f = _WEEK[day.weekday()]
    for back in range(_RUN):
        d = day - timedelta(days=back)
        if d == _payday(d.year, d.month, cal):
            return f * _LIFT
    return f


def _series(cal: HolidayCalendar, end: date, seed: int = 1) -> list[Point]:
    """Receipts per day for `_HISTORY` days to the day before `end`, 4% noise."""
    rng = random.Random(seed)
    out, day = [], end - timedelta(days=_HISTORY)
    while day < end:
        value = 1_000 * _factor(day, cal) * math.exp(rng.gauss(0, 0.04))
        out.append(Point(datetime(day.year, day.month, day.day), round(value)))
        day += timedelta(days=1)
    return out


def _read(day: date, factor: float, seed: int) -> tuple[volume_model.Forecast, bool]:
    """`day`'s forecast and whether `factor` times its ordinary weekday level passes."""
    cal = HolidayCalendar()
    fc = forecast(_series(cal, day, seed), datetime(day.year, day.month, day.day), calendar_=cal)
    ordinary = 1_000 * _WEEK[day.weekday()] * 1.0
    return fc, judge(fc, ordinary * factor).passed


def test_the_monday_after_a_payday_moved_to_the_friday_is_ordinary():
    """Saturday 24 January 2026: paid on Friday the 23rd, Monday the 26th is an ordinary Monday (read x1.45 as a
    "26th" before the run); a 35% drop on it still fails."""
    day = date(2026, 1, 26)
    assert _factor(day, HolidayCalendar()) == _WEEK[0]
    fc, passed = _read(day, 1.0, seed=2)
    assert passed, (fc.group, fc.baseline)
    assert 0.9 < fc.baseline / (1_000 * _WEEK[0]) < 1.12, (fc.group, fc.baseline)
    assert not _read(day, 0.6, seed=2)[1]


def test_the_sunday_of_a_friday_payday_is_lifted():
    """Friday 24 April 2026: its Sunday the 26th is the run's third day (x1.45), which no rolled day holds (a 26th
    rolled back lands on the Saturday); an ordinary Sunday there fails."""
    day = date(2026, 4, 26)
    fc, passed = _read(day, _LIFT, seed=1)
    assert passed, (fc.group, fc.baseline)
    assert "after" in fc.group
    assert not _read(day, 1.0, seed=1)[1]


def test_the_run_reads_the_payday_its_roll_and_length():
    cal = HolidayCalendar()
    end = date(2026, 1, 26)
    pts = _series(cal, end)
    resid = [math.log(q.value / (1_000 * _WEEK[q.at.weekday()])) for q in pts]
    run = volume_model._payday_run(pts, resid, 0.04, volume_model.ModelParams(), cal, frozenset(range(7)), {24, 26})
    assert run is not None and run[0] == 24 and run[1] == "preceding" and run[3] == _RUN


def test_a_roll_seen_once_is_not_learned():
    """From January to April 2026 the 24th falls on a weekend once (Saturday 24 January): no roll is told apart
    from the unrolled day on one month (PAYDAY_PARTED_MIN), so only the unrolled day is tried."""
    cal = HolidayCalendar()
    tests = volume_model._payday_roll_tests([Point(datetime(2026, 1, 1), 1.0)], cal, frozenset(range(7)))
    variants = volume_model._payday_variants(24, date(2026, 1, 1), date(2026, 4, 30), tests)
    assert [(c, r) for c, r, _ in variants] == [("unrolled", "preceding")]
    longer = volume_model._payday_variants(24, date(2025, 1, 1), date(2026, 4, 30), tests)
    assert ("own", "preceding") in [(c, r) for c, r, _ in longer]

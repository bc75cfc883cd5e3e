"""A holiday's run of days under one name on an hourly series (the `holidays` package names Orthodox Easter Sunday
and Easter Monday both "Easter"): a later day of the run is no past occasion of the day after it. It is read as its
own day (as a holiday never seen, then from its own hours so far) until its hours so far read the earlier days'
factor; a run whose days are alike is still read together."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point, forecast, judge

_START = date(2026, 3, 16)  # a Monday: four weeks of hours before the holiday
_FIRST = date(2026, 4, 12)  # a Sunday: the holiday's two days, one name
_NAME = "Easter"
_CAL = HolidayCalendar(dates={_FIRST + timedelta(days=k): _NAME for k in range(2)})
# a kiosk network's payments by local hour, round the clock: a midday peak, quiet nights; Saturdays x0.8, Sundays
# x0.55
_HOURS = [0.06, 0.04, 0.03, 0.02, 0.03, 0.08, 0.25, 0.5, 0.75, 0.9, 1.0, 1.0, 0.95, 0.9, 0.85, 0.85, 0.8, 0.75,
          0.7, 0.6, 0.45, 0.3, 0.18, 0.1]
_PEAK = 2000.0


def _payments(until: datetime, factors: tuple[float, ...], first: date = _FIRST, seed: int = 5
              ) -> tuple[list[Point], Callable]:
    """Hourly payments up to `until`, the holiday's days from `first` at `factors` of their ordinary weekday; and
    the expected value of an hour."""
    def expected(at: datetime) -> float:
        day = at.date()
        week = 0.8 if day.weekday() == 5 else 0.55 if day.weekday() == 6 else 1.0
        k = (day - first).days
        return _PEAK * _HOURS[at.hour] * week * (factors[k] if 0 <= k < len(factors) else 1.0)

    rng = random.Random(seed)
    out, at = [], datetime(_START.year, _START.month, _START.day)
    while at < until:
        mean = expected(at) * math.exp(rng.gauss(0, 0.04))
        out.append(Point(at, float(max(0, round(mean + math.sqrt(mean) * rng.gauss(0, 1))))))
        at += timedelta(hours=1)
    return out, expected


def _monday(hour: int) -> datetime:
    day = _FIRST + timedelta(days=1)
    return datetime(day.year, day.month, day.day, hour)


def test_the_second_day_is_not_read_from_the_first_days_hours() -> None:
    # Easter Sunday x0.3 of a Sunday, Easter Monday x0.5 of a Monday: read from Sunday's hours (x0.165 of a
    # weekday), Monday's clean noon ran 3x its reading and failed
    at = _monday(12)
    history, expected = _payments(at, (0.3, 0.5))
    fc = forecast(history, at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = expected(at)
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert any("no past occasion of this day" in n for n in fc.notes), fc.notes
    assert not judge(fc, 2 * clean).passed, (clean, fc.upper, fc.notes)  # a duplicated load still fails
    assert not judge(fc, 0.2 * clean).passed, (clean, fc.lower, fc.notes)  # and an 80% drop


def test_the_second_days_early_hours_that_part_from_the_first_days_are_read_as_never_seen() -> None:
    # 02h on Easter Monday: its two hours so far ran x3 Easter Sunday's same hours (read against a Monday), so
    # Sunday's 02h is no reading of it
    at = _monday(2)
    history, expected = _payments(at, (0.3, 0.5))
    fc = forecast(history, at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = expected(at)
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert any("read as never seen until" in n for n in fc.notes), fc.notes


def test_a_run_whose_days_are_alike_is_still_read_together() -> None:
    # a festival's two weekdays (a Tuesday and a Wednesday), both x0.65: the Wednesday's hours so far read the
    # Tuesday's, so the run is read together, as before, and a 35% drop fails
    first = _FIRST + timedelta(days=2)
    cal = HolidayCalendar(dates={first + timedelta(days=k): "Founders' Days" for k in range(2)})
    at = datetime(first.year, first.month, first.day + 1, 15)
    history, expected = _payments(at, (0.65, 0.65), first)
    fc = forecast(history, at, grain="hour", calendar_=cal, params=ModelParams())
    clean = expected(at)
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert any("too few past days for an effect of its own" in n for n in fc.notes), fc.notes
    assert not any("no past occasion of this day" in n for n in fc.notes), fc.notes
    assert not judge(fc, 0.65 * clean).passed, (clean, fc.lower, fc.notes)

"""A holiday never seen, on an hourly series whose weekend keeps a shape of its own: after one or two of its hours
(too few for its hours so far to be fitted with a factor of their own) it is read as the one likeness, unscaled, those
hours already fit (the weekend's same hours, or an ordinary day's), so a doubled or dropped hour fails where the
ordinary hour's band let it pass."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

import pytest

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point, forecast, judge

_START = date(2026, 3, 2)  # a Monday
_HOLIDAY = date(2026, 4, 8)  # a Wednesday, five weeks on: never seen in the history
_CAL = HolidayCalendar(dates={_HOLIDAY: "Founders' Day"})
# a transit operator's entries by local hour, open 06h-23h (no rows at night): commuter peaks on working days, a
# late leisure day at the weekend (its mornings a fifth to a third of a working day's)
_WORKDAY = [0.35, 0.85, 0.75, 0.45, 0.4, 0.42, 0.5, 0.6, 0.75, 0.85, 0.9, 1.0, 0.95, 0.85, 0.75, 0.65, 0.5, 0.3]
_WEEKEND = [0.1, 0.15, 0.2, 0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.75, 0.85, 0.9, 0.95, 0.9, 0.8, 0.6, 0.4]


def _entries(until: datetime, holiday_like: list[float], seed: int = 5) -> list[Point]:
    rng = random.Random(seed)
    out, day = [], _START
    while day <= until.date():
        shape = holiday_like if day == _HOLIDAY else _WEEKEND if day.weekday() >= 5 else _WORKDAY
        for k, share in enumerate(shape):
            at = datetime(day.year, day.month, day.day, 6 + k)
            if at >= until:
                return out
            mean = 6000.0 * share * math.exp(rng.gauss(0, 0.03))
            out.append(Point(at, float(round(mean + math.sqrt(mean) * rng.gauss(0, 1)))))
        day += timedelta(days=1)
    return out


@pytest.mark.parametrize("hour", [7, 8])
def test_a_holiday_opening_like_the_weekend_reads_its_next_hours_as_the_weekends(hour: int) -> None:
    at = datetime(_HOLIDAY.year, _HOLIDAY.month, _HOLIDAY.day, hour)
    fc = forecast(_entries(at, _WEEKEND), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = 6000.0 * _WEEKEND[hour - 6]
    assert judge(fc, clean).passed, (fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 2 * clean).passed, (clean, fc.baseline, fc.upper, fc.notes)  # a duplicated load
    assert not judge(fc, 0.6 * clean).passed, (clean, fc.baseline, fc.lower, fc.notes)  # two fifths lost
    assert any("which fit a Saturday" in n or "which fit a Sunday" in n for n in fc.notes), fc.notes


def test_a_holiday_worked_as_usual_reads_its_next_hour_as_an_ordinary_days() -> None:
    at = datetime(_HOLIDAY.year, _HOLIDAY.month, _HOLIDAY.day, 8)
    fc = forecast(_entries(at, _WORKDAY), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = 6000.0 * _WORKDAY[2]
    assert judge(fc, clean).passed, (fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 0.5 * clean).passed, (clean, fc.baseline, fc.lower, fc.notes)
    assert any("which fit an ordinary day" in n for n in fc.notes), fc.notes


def test_a_holidays_first_hour_with_nothing_so_far_keeps_the_wide_reading() -> None:
    at = datetime(_HOLIDAY.year, _HOLIDAY.month, _HOLIDAY.day, 6)
    fc = forecast(_entries(at, _WEEKEND), at, grain="hour", calendar_=_CAL, params=ModelParams())
    assert judge(fc, 6000.0 * _WEEKEND[0]).passed and judge(fc, 6000.0 * _WORKDAY[0]).passed, fc.notes

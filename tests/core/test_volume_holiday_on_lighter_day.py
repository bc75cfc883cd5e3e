"""A holiday seen only on working days, falling this year on a day lighter than any a holiday of the history fell on
(a shop open a little on Sundays, its founders' day on a Sunday): where the history's holidays are levels (they fall
with their weekday's effect), it is read at its own occasions' level, not as its ratio put on top of the light day's."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point, forecast, judge

_START = date(2023, 1, 2)  # a Monday
_WEEK = [0.3, 1.0, 1.0, 1.05, 1.1, 1.4, 0.1]  # a shop's sales: a few on Mondays, busy Saturdays, a kiosk on Sundays
_HOLIDAY_LEVEL = 0.08  # every holiday: the kiosk alone, whatever the weekday
_FOUNDERS = {date(2023, 6, 23): "Founders' Day", date(2024, 6, 23): "Founders' Day"}  # a Friday, then a Sunday
_MONDAYS = {d: "Spring Monday" for d in (date(2023, 4, 10), date(2023, 5, 29), date(2024, 4, 1), date(2024, 5, 20))}
_WEEKDAYS = {d: "Harvest Day" for d in (date(2023, 9, 14), date(2023, 11, 1), date(2024, 5, 9), date(2024, 5, 1))}
_CAL = HolidayCalendar(dates={**_FOUNDERS, **_MONDAYS, **_WEEKDAYS})


def _sales(until: date, seed: int = 11) -> list[Point]:
    rng = random.Random(seed)
    out, d = [], _START
    while d < until:
        share = _HOLIDAY_LEVEL if _CAL.name(d) else _WEEK[d.weekday()]
        mean = 900.0 * share * math.exp(rng.gauss(0, 0.03))
        out.append(Point(datetime(d.year, d.month, d.day), float(round(mean + math.sqrt(mean) * rng.gauss(0, 1)))))
        d += timedelta(days=1)
    return out


def test_a_holiday_on_a_lighter_day_than_any_seen_reads_at_its_own_level() -> None:
    day = date(2024, 6, 23)
    fc = forecast(_sales(day), datetime(day.year, day.month, day.day), grain="day", calendar_=_CAL,
                  params=ModelParams())
    usual = 900.0 * _HOLIDAY_LEVEL
    assert judge(fc, usual).passed, (fc.baseline, fc.group, fc.notes)
    assert 0.7 < fc.baseline / usual < 1.43
    # ... and an empty day or half of it still fails
    assert not judge(fc, 0.0).passed
    assert not judge(fc, 0.5 * usual).passed

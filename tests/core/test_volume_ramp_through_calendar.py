"""A ramp met by calendar days that fill the latest days of its level window (`_ramp_unconfirmed`): followed
through them where it is the series' own (`_ramp_own`: the windows before it already sloped its way, and the same
weeks a year back did not climb, a launch's ramp), not where the same weeks climbed a year back too (a season's
climb to its holiday, which ends with it)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

_WEEK = [1.1, 1.05, 1.0, 1.0, 0.95, 0.8, 0.85]
_START = date(2023, 1, 2)
# a long weekend each year, a Friday and the Monday after it holidays (x0.7), the days between and after them
# quiet (x0.85): with their neighbours, calendar days that fill a level window's latest days
_FAIR = {2023: date(2023, 3, 24), 2024: date(2024, 3, 22)}
_FAIR_DAYS = 5
_FAIR_SHAPE = [0.6, 0.7, 0.7, 0.6, 0.7]


def _calendar() -> HolidayCalendar:
    return HolidayCalendar(dates={d + timedelta(days=k): name for d in _FAIR.values()
                                  for k, name in ((0, "Fair Friday"), (3, "Fair Monday"))})


def _fair_effect(d: date) -> float:
    first = _FAIR.get(d.year)
    return _FAIR_SHAPE[(d - first).days] if first is not None and 0 <= (d - first).days < _FAIR_DAYS else 1.0


def _series(end: date, climb: float, seasonal: bool, seed: int = 4) -> list[Point]:
    """Daily rows from _START to the day before `end`: a weekly shape, the fair x0.8, 3% noise. Either a launch
    ramp of `climb` (log) per day from ten weeks before the 2024 fair on, the year before flat (`seasonal` False),
    or a climb of as much over the eight weeks before each year's fair, back to the level after it (True)."""
    rng = random.Random(seed)
    out = []
    d = _START
    while d < end:
        level = 0.0
        fair = _FAIR.get(d.year)
        if fair is not None:
            before = (fair - d).days
            if seasonal:
                level = climb * (56 - before) if 0 < before <= 56 else 0.0
            elif d.year == 2024:
                level = climb * max(0, 70 - before)
        value = 5_000 * math.exp(level) * _WEEK[d.weekday()] * _fair_effect(d)
        out.append(Point(datetime(d.year, d.month, d.day), value * math.exp(rng.gauss(0, 0.03))))
        d += timedelta(days=1)
    return out


def test_a_launch_ramp_is_followed_through_a_long_weekend_that_fills_the_latest_days():
    # the level window's latest five days are the long weekend's (its holidays and their quiet neighbours): the
    # ramp, ten weeks old and absent a year back, goes on through them; stopped there (the level held where its
    # ordinary days ended), the Wednesday after read its ramp's value 1.14x and a 25% drop passed
    target = _FAIR[2024] + timedelta(days=_FAIR_DAYS)
    history = _series(target, 0.016, seasonal=False)
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=_calendar())
    expected = 5_000 * math.exp(0.016 * (70 + _FAIR_DAYS)) * _WEEK[target.weekday()]
    assert any("trend of their own" in n for n in fc.notes), fc.notes
    assert abs(math.log(expected / fc.baseline)) < 0.05, expected / fc.baseline
    assert judge(fc, expected).passed
    assert not judge(fc, expected * 0.75).passed and not judge(fc, 0).passed and not judge(fc, expected * 2).passed


def test_a_seasonal_climb_is_not_carried_past_its_long_weekend():
    # the same shape of climb over the eight weeks before every year's long weekend, back to the level after it:
    # a year back climbed as much, so the climb is the season's and is not extrapolated over the long weekend
    target = _FAIR[2024] + timedelta(days=_FAIR_DAYS)
    history = _series(target, 0.008, seasonal=True)
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=_calendar())
    ordinary = 5_000 * _WEEK[target.weekday()]
    assert not any("trend of their own" in n for n in fc.notes), fc.notes
    assert fc.baseline < ordinary * math.exp(0.008 * 56), fc.baseline / ordinary

"""A series that began inside its history (zero, then rows): the empty partitions before its first rows are from
before it existed, none of its own empties, so a season it was empty through then does not make an empty day of
its first such season look usual."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

_START = date(2024, 1, 1)
_OPENS = date(2024, 6, 3)  # a region's agents signed: no rows before
_WEEK = [1.0, 1.05, 1.0, 1.1, 1.2, 1.15, 0.6]
# a month-long season in the calendar (a fast, a harvest), the first of them before the region opened
_SEASON = {"Harvest": [(date(2024, 3, 1), date(2024, 3, 31)), (date(2025, 3, 1), date(2025, 3, 31))]}
_TARGET = datetime(2025, 3, 24)  # a Monday inside the second season


def _region(opens: date | None = _OPENS, seed: int = 4) -> list[Point]:
    rng = random.Random(seed)
    out = []
    d = _START
    while d < _TARGET.date():
        value = 3_000.0 * _WEEK[d.weekday()] * (0.9 if _SEASON["Harvest"][1][0] <= d else 1.0)
        value = 0.0 if opens is not None and d < opens else round(value * math.exp(rng.gauss(0, 0.03)))
        out.append(Point(datetime(d.year, d.month, d.day), value))
        d += timedelta(days=1)
    return out


def test_an_empty_day_of_a_season_only_seen_before_the_series_began_fails() -> None:
    fc = forecast(_region(), _TARGET, grain="day", calendar_=HolidayCalendar(seasons=_SEASON))
    assert not fc.empty_is_normal
    assert judge(fc, 0.0).reason == "empty"


def test_the_same_series_open_all_along_reads_its_season_as_usual() -> None:
    fc = forecast(_region(opens=None), _TARGET, grain="day", calendar_=HolidayCalendar(seasons=_SEASON))
    assert judge(fc, 0.0).reason == "empty"
    assert judge(fc, 2_700.0).passed


def test_empties_after_the_first_rows_still_count() -> None:
    # a region closed on Sundays since it opened: an empty Sunday is one of its usual ones
    history = [q if q.at.weekday() != 6 else Point(q.at, 0.0) for q in _region()]
    target = datetime(2025, 3, 23)
    fc = forecast([q for q in history if q.at < target], target, grain="day",
                  calendar_=HolidayCalendar(seasons=_SEASON))
    assert judge(fc, 0.0).passed


def test_a_short_empty_run_the_window_starts_in_is_the_series_own() -> None:
    # a shop closed at weekends, its history starting on a Saturday: those two empty days are its usual weekend
    history = [Point(q.at, 0.0) if q.at.weekday() >= 5 else q for q in _region(opens=None)
               if q.at >= datetime(2024, 1, 6)]
    assert history[0].value == 0.0 and history[0].at.weekday() == 5
    target = datetime(2025, 3, 22)  # a Saturday
    fc = forecast([q for q in history if q.at < target], target, grain="day",
                  calendar_=HolidayCalendar(seasons=_SEASON))
    assert judge(fc, 0.0).passed

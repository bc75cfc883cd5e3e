"""A small daily series whose level moves fast through its year (a mountain town's two seasons: x2.7 in its winter,
x0.5 in its dead months, a second peak in summer) with Sundays at x0.7 every week. The one-step errors the dense groups
are judged by carry the level's lag through the season's turns, so the weekday cut them by less than the 20% asked and
every Sunday was read against all days (x0.65, below the floor band; a doubled Sunday passed at x1.29). The weekday is now also earned where it
cuts the errors within each full week (each day against its week's mean) by that 20% (`_weekday_within_weeks`): a
clean Sunday passes, a 35% drop on it and a doubled Sunday still fail, and a series with no weekly shape earns none."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

_START = date(2024, 1, 1)  # a Monday
_LEVEL = 900.0  # a small town's payments on an ordinary weekday
_WEEK = (1.0, 1.0, 1.0, 1.05, 1.15, 1.1, 0.7)  # Monday first: Sundays at x0.7
_NOISE = 0.04
_TARGET = date(2025, 4, 13)  # a Sunday, two months after the winter's peak: the level falling fast
_CAL = HolidayCalendar()


def _season(d: date) -> float:
    """The year's level in log space: a winter peak (x2.7 in February), a dead spring, a summer's second peak."""
    phase = 2 * math.pi * (d.toordinal() - date(2024, 2, 10).toordinal()) / 365.25
    return 0.9 * math.cos(phase) + 0.6 * math.cos(2 * phase)


def _town(last: date, week: tuple[float, ...] = _WEEK, seed: int = 5) -> list[Point]:
    """The town's payments per day from _START up to `last`."""
    rng = random.Random(seed)
    out, d = [], _START
    while d <= last:
        value = _LEVEL * week[d.weekday()] * math.exp(_season(d) + rng.gauss(0, _NOISE))
        out.append(Point(datetime.combine(d, datetime.min.time()), float(round(value))))
        d += timedelta(days=1)
    return out


def _expected(day: date, week: tuple[float, ...] = _WEEK) -> float:
    return _LEVEL * week[day.weekday()] * math.exp(_season(day))


def test_a_sunday_of_a_fast_season_is_read_against_sundays() -> None:
    history = _town(_TARGET - timedelta(days=1))
    fc = forecast(history, datetime.combine(_TARGET, datetime.min.time()), grain="day", calendar_=_CAL)
    assert "weekday" in fc.features and fc.group.startswith("Sun"), (fc.group, fc.features)
    clean = judge(fc, _expected(_TARGET))
    assert clean.passed, (clean, fc.lower / fc.baseline, fc.upper / fc.baseline)


def test_a_drop_and_a_double_on_that_sunday_still_fail() -> None:
    history = _town(_TARGET - timedelta(days=1))
    fc = forecast(history, datetime.combine(_TARGET, datetime.min.time()), grain="day", calendar_=_CAL)
    assert not judge(fc, 0.65 * _expected(_TARGET)).passed
    assert not judge(fc, 2 * _expected(_TARGET)).passed


def test_a_series_with_no_weekly_shape_earns_no_weekday() -> None:
    flat = (1.0,) * 7
    history = _town(_TARGET - timedelta(days=1), week=flat)
    fc = forecast(history, datetime.combine(_TARGET, datetime.min.time()), grain="day", calendar_=_CAL)
    assert "weekday" not in fc.features, (fc.group, fc.features)

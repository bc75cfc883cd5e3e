"""A holiday never seen on an hourly series, quiet in its morning and as usual from the afternoon (a late start, then
people out: a Good Friday's morning x0.5): at its second hour back the day's factor still read the morning, and the
clean hour failed at 2x (the hard ratio). One hour back at an ordinary day's own level, after hours so far quieter
than that by both tolerances, is read at that level (_holiday_back_to_ordinary); a fault there still fails, and a day
only a little quieter (x0.8) is not read from one hour."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point, forecast, judge
from tests.support.hourly_series import noisy_count

_START = date(2026, 3, 2)  # a Monday: four weeks of hours before the holiday
_HOLIDAY = date(2026, 4, 3)  # a Friday, in the calendar, never seen in the history
_CAL = HolidayCalendar(dates={_HOLIDAY: "Good Friday"})
# orders by local hour: lunch and dinner peaks; Saturdays x1.1, Sundays x0.95
_HOURS = [0.3, 0.15, 0.08, 0.05, 0.04, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.9, 0.85, 0.6, 0.5, 0.55, 0.7, 0.85, 1.0,
          0.95, 0.8, 0.6, 0.45]
_PEAK = 1200.0
_BACK_FROM = 15  # the holiday's hours before this one are quiet, from it as usual


def _ordinary(at: datetime) -> float:
    week = 1.1 if at.weekday() == 5 else 0.95 if at.weekday() == 6 else 1.0
    return _PEAK * _HOURS[at.hour] * week


def _orders(until: datetime, quiet: float, seed: int = 11) -> list[Point]:
    """Hourly orders up to `until`: the holiday's hours before _BACK_FROM at `quiet` times an ordinary Friday's."""
    rng = random.Random(seed)
    out, at = [], datetime(_START.year, _START.month, _START.day)
    while at < until:
        mean = _ordinary(at) * (quiet if at.date() == _HOLIDAY and at.hour < _BACK_FROM else 1.0)
        out.append(Point(at, noisy_count(rng, mean)))
        at += timedelta(hours=1)
    return out


def _at(hour: int) -> datetime:
    return datetime(_HOLIDAY.year, _HOLIDAY.month, _HOLIDAY.day, hour)


def _back(fc: object) -> bool:
    return any("came back to an ordinary day's" in n for n in getattr(fc, "notes", []))


def test_the_second_hour_back_is_read_at_an_ordinary_days_level() -> None:
    # x0.5 until 14h, as usual from 15h: at 16h the day's median read x0.5 and the clean hour failed at 2x
    at = _at(_BACK_FROM + 1)
    fc = forecast(_orders(at, 0.5), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at)
    assert _back(fc), fc.notes
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)


def test_faults_on_the_hour_back_still_fail() -> None:
    # the centre moved to an ordinary day's level: a doubled hour fails at its hard ratio, and so do a drop of a third
    # and an empty hour
    at = _at(_BACK_FROM + 1)
    fc = forecast(_orders(at, 0.5), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at)
    assert _back(fc), fc.notes
    assert not judge(fc, 2 * clean).passed, (clean, fc.upper, fc.notes)
    assert not judge(fc, 0.6 * clean).passed, (clean, fc.lower, fc.notes)
    assert not judge(fc, 0.0).passed, fc.notes


def test_a_day_a_little_quieter_is_not_read_from_one_hour() -> None:
    # x0.8 until 14h: one hour as usual is within the noise of either reading, so the day's factor is kept (a turn
    # needs its two hours, see _holiday_turned_busier), and a clean x0.8 hour passes as before
    at = _at(_BACK_FROM + 1)
    fc = forecast(_orders(at, 0.8), at, grain="hour", calendar_=_CAL, params=ModelParams())
    assert not _back(fc), fc.notes
    assert judge(fc, _ordinary(at) * 0.8).passed, (fc.baseline, fc.lower, fc.upper, fc.notes)


def test_a_quiet_day_is_still_read_at_its_factor() -> None:
    # the holiday quiet all day (x0.5 at 15h too): no hour came back, the hour reads the day's factor, and a doubled
    # quiet hour still fails
    at = _at(_BACK_FROM + 1)
    points = [q if q.at.hour < _BACK_FROM or q.at.date() != _HOLIDAY else Point(q.at, round(q.value * 0.5))
              for q in _orders(at, 0.5)]
    fc = forecast(points, at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * 0.5
    assert not _back(fc), fc.notes
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 2 * clean).passed, (clean, fc.upper, fc.notes)

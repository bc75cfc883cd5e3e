"""A bridge run on an hourly series: the days between two holidays of the calendar a few days apart, a working day
among them (a New Year's two days on Thursday and Friday, then a feast on Tuesday: the weekend and Monday between),
may run like the holidays around them though no calendar lists them. In its first hours, before its own hours can
read it, the lower side reaches the level its hours so far ran at; a run that works as usual keeps its band, so a
drop there still fails."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point, _bridge_run_days, forecast, judge

_START = date(2026, 3, 2)  # a Monday: four weeks of hours before the run
_FIRST = (date(2026, 3, 26), date(2026, 3, 27))  # Thursday and Friday, in the calendar
_LAST = date(2026, 3, 31)  # Tuesday, in the calendar
_RUN = (date(2026, 3, 28), date(2026, 3, 29), date(2026, 3, 30))  # Saturday to Monday, in no calendar
_CAL = HolidayCalendar(dates={_FIRST[0]: "Spring Days", _FIRST[1]: "Spring Days", _LAST: "Founders' Day"})
# a city's tram entries by local hour, trams running 07:00-22:59 only; a morning and an evening peak; Saturdays
# x0.7, Sundays x0.55; the calendar's holidays x0.35
_HOURS = {7: 0.5, 8: 1.0, 9: 0.8, 10: 0.55, 11: 0.5, 12: 0.55, 13: 0.55, 14: 0.5, 15: 0.6, 16: 0.75, 17: 0.95,
          18: 0.9, 19: 0.6, 20: 0.4, 21: 0.3, 22: 0.2}
_PEAK = 2000.0
_HOLIDAY = 0.35


def _ordinary(at: datetime) -> float:
    week = 0.7 if at.weekday() == 5 else 0.55 if at.weekday() == 6 else 1.0
    return _PEAK * _HOURS[at.hour] * week


def _entries(until: datetime, run: float, seed: int = 5) -> list[Point]:
    """Hourly entries up to `until`: the calendar's holidays at _HOLIDAY, the run's days at `run`, times their
    ordinary day's."""
    rng = random.Random(seed)
    out, at = [], datetime(_START.year, _START.month, _START.day)
    while at < until:
        if at.hour not in _HOURS:
            at += timedelta(hours=1)
            continue
        mean = _ordinary(at) * (_HOLIDAY if _CAL.name(at.date()) else run if at.date() in _RUN else 1.0)
        mean *= math.exp(rng.gauss(0, 0.05))
        out.append(Point(at, float(max(0, round(mean + math.sqrt(mean) * rng.gauss(0, 1))))))
        at += timedelta(hours=1)
    return out


def _at(day: date, hour: int) -> datetime:
    return datetime(day.year, day.month, day.day, hour)


def test_the_days_between_two_holidays_a_few_days_apart_are_a_bridge_run() -> None:
    named = _bridge_run_days(_CAL, _START, date(2026, 4, 30))
    assert sorted(named) == list(_RUN), named
    # a weekend between a Friday's and a Monday's holiday holds no working day: a long weekend, no run
    easter = HolidayCalendar(dates={date(2026, 4, 3): "Good Friday", date(2026, 4, 6): "Easter Monday"})
    assert _bridge_run_days(easter, date(2026, 3, 1), date(2026, 4, 30)) == set()
    # two holidays more than a week apart: the days between are ordinary
    apart = HolidayCalendar(dates={date(2026, 3, 26): "Spring Day", date(2026, 4, 3): "Founders' Day"})
    assert _bridge_run_days(apart, date(2026, 3, 1), date(2026, 4, 30)) == set()


def test_a_run_day_taken_off_its_second_hour_reaches_its_first_hours_level() -> None:
    # Saturday 28 March at x0.45 of a Saturday, its second hour: one hour so far, read as a plain Saturday, whose
    # lower side reaches the level of its first hour (x0.45); the centre and the upper side kept (a double of a
    # Saturday still fails; a double of the day taken off reads x0.9 of a Saturday, which no band can tell), and an
    # empty hour fails
    at = _at(_RUN[0], 8)
    fc = forecast(_entries(at, 0.45), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * 0.45
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert any("between two holidays" in n for n in fc.notes), fc.notes
    assert fc.baseline > 0.8 * _ordinary(at), (fc.baseline, fc.notes)  # the centre is the Saturday's
    assert not judge(fc, 2 * _ordinary(at)).passed, (fc.upper, fc.notes)
    assert not judge(fc, 0.0).passed, (clean, fc.lower, fc.notes)
    assert not judge(fc, 0.4 * clean).passed, (clean, fc.lower, fc.notes)  # and a 60% drop from the day's level


def test_a_run_that_works_as_usual_keeps_its_band() -> None:
    # the same run worked as usual: its first hours at the weekday's level reach nothing, and a 50% drop in its
    # second and third hours still fails
    for hour in (8, 9):
        at = _at(_RUN[2], hour)
        fc = forecast(_entries(at, 1.0), at, grain="hour", calendar_=_CAL, params=ModelParams())
        clean = _ordinary(at)
        assert judge(fc, clean).passed, (hour, clean, fc.baseline, fc.lower, fc.upper, fc.notes)
        assert not any("between two holidays" in n for n in fc.notes), fc.notes
        assert not judge(fc, 0.5 * clean).passed, (hour, clean, fc.lower, fc.notes)



def test_a_taken_off_day_in_no_run_keeps_its_band() -> None:
    # the same quiet Saturday a week earlier, between no two holidays: its first hour's x0.45 reaches nothing, the
    # second hour at x0.45 fails as before (a day in no calendar and no run is read as its weekday)
    at = _at(date(2026, 3, 21), 8)
    history = [q if q.at.date() != at.date() else Point(q.at, round(q.value * 0.45)) for q in _entries(at, 1.0)]
    fc = forecast(history, at, grain="hour", calendar_=_CAL, params=ModelParams())
    assert not any("between two holidays" in n for n in fc.notes), fc.notes
    assert not judge(fc, _ordinary(at) * 0.45).passed, (fc.lower, fc.notes)

"""A holiday never seen on an hourly series, read from its hours so far, whose latest hours turned busier than the
day's factor (a national day quiet until the afternoon, its evening's celebrations busier than an ordinary evening):
the hour is read at those hours' level (_holiday_turned_busier), not at the day's median, which still reads the
morning. One hour above is no turn (a burst, a load duplicated), and a turn back reads the day's factor again."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point, forecast, judge
from tests.support.hourly_series import noisy_count

_START = date(2026, 3, 2)  # a Monday: four weeks of hours before the holiday
_HOLIDAY = date(2026, 3, 31)  # a Tuesday, in the calendar, never seen in the history
_CAL = HolidayCalendar(dates={_HOLIDAY: "Founders' Day"})
# rides by local hour, every hour of the day: a morning and an evening peak; Saturdays x0.85, Sundays x0.7
_HOURS = [0.06, 0.04, 0.03, 0.03, 0.05, 0.2, 0.6, 0.95, 1.0, 0.7, 0.55, 0.55, 0.65, 0.6, 0.55, 0.6, 0.75, 0.95, 1.0,
          0.9, 0.6, 0.4, 0.25, 0.12]
_PEAK = 1500.0
_QUIET, _FESTIVE = 0.5, 1.3  # the holiday's day, and its evening's


def _ordinary(at: datetime) -> float:
    week = 0.85 if at.weekday() == 5 else 0.7 if at.weekday() == 6 else 1.0
    return _PEAK * _HOURS[at.hour] * week


def _rides(until: datetime, holiday: dict[int, float], seed: int = 7) -> list[Point]:
    """Hourly rides up to `until`: the holiday's hours at `holiday.get(hour, _QUIET)` times an ordinary weekday's."""
    rng = random.Random(seed)
    out, at = [], datetime(_START.year, _START.month, _START.day)
    while at < until:
        mean = _ordinary(at) * (holiday.get(at.hour, _QUIET) if at.date() == _HOLIDAY else 1.0)
        out.append(Point(at, noisy_count(rng, mean)))
        at += timedelta(hours=1)
    return out


def _at(hour: int) -> datetime:
    return datetime(_HOLIDAY.year, _HOLIDAY.month, _HOLIDAY.day, hour)


def _turned_busier(fc: object) -> bool:
    return any("turned busier" in n for n in getattr(fc, "notes", []))


_EVENING = {h: _FESTIVE for h in range(16, 24)}


def test_a_holiday_whose_evening_turned_busier_is_read_at_its_latest_hours() -> None:
    # x0.5 until 15h, x1.3 from 16h: at 18h the day's median still read x0.5 and the clean hour failed at 2.6x (the
    # hard ratio); its latest hours (16h, 17h) at x1.3 say the holiday turned
    at = _at(18)
    fc = forecast(_rides(at, _EVENING), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * _FESTIVE
    assert _turned_busier(fc), fc.notes
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)


def test_faults_on_the_turned_hours_still_fail() -> None:
    # the centre moved to the evening's level, not only the upper side: a doubled hour fails (the hard ratio reads
    # from the evening's level), and so do a drop of a third and an empty hour
    at = _at(19)
    fc = forecast(_rides(at, _EVENING), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * _FESTIVE
    assert _turned_busier(fc), fc.notes
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 2 * clean).passed, (clean, fc.upper, fc.notes)
    assert not judge(fc, 0.6 * clean).passed, (clean, fc.lower, fc.notes)
    assert not judge(fc, 0.0).passed, fc.notes


def test_one_hour_above_is_no_turn() -> None:
    # a burst at 17h alone (x1.5, above an ordinary day's: one hour back at an ordinary day's own level after a
    # quiet day is _holiday_back_to_ordinary's): the next hour is read at the day's factor, and a doubled x0.5 hour
    # there still fails
    at = _at(18)
    fc = forecast(_rides(at, {17: 3 * _QUIET}), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * _QUIET
    assert not _turned_busier(fc), fc.notes
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 2 * clean).passed, (clean, fc.upper, fc.notes)


def test_a_turn_back_reads_the_day_again() -> None:
    # the celebrations over at 20h (back to x0.5): at 21h the latest hour no longer runs above, so the hour reads
    # the day's factor, and a clean x0.5 hour passes
    at = _at(21)
    fc = forecast(_rides(at, {h: _FESTIVE for h in range(16, 20)}), at, grain="hour", calendar_=_CAL,
                  params=ModelParams())
    clean = _ordinary(at) * _QUIET
    assert not _turned_busier(fc), fc.notes
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)

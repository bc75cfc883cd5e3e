"""A holiday never seen on an hourly series, read from its hours so far: an hour the series opened only for the
holiday (a night service, every ordinary night without a partition) is no evidence of the holiday's factor, and a
holiday that turned quieter within its day (worked until the afternoon, then a half day's evening) is read at its
latest hours' level too, not only at the day's median."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point, forecast, judge
from tests.support.hourly_series import noisy_count

_START = date(2026, 3, 2)  # a Monday: four weeks of hours before the holiday
_HOLIDAY = date(2026, 3, 31)  # a Tuesday, in the calendar, never seen in the history
_NAME = "Founders' Day"
_CAL = HolidayCalendar(dates={_HOLIDAY: _NAME})
# a city's tram entries by local hour, trams running 07:00-22:59 only (no rows, so no partition, at night); a
# morning and an evening peak; Saturdays x0.7, Sundays x0.55
_HOURS = {7: 0.5, 8: 1.0, 9: 0.8, 10: 0.55, 11: 0.5, 12: 0.55, 13: 0.55, 14: 0.5, 15: 0.6, 16: 0.75, 17: 0.95,
          18: 0.9, 19: 0.6, 20: 0.4, 21: 0.3, 22: 0.2}
_PEAK = 2000.0


def _ordinary(at: datetime) -> float:
    week = 0.7 if at.weekday() == 5 else 0.55 if at.weekday() == 6 else 1.0
    return _PEAK * _HOURS[at.hour] * week


def _entries(until: datetime, holiday: dict[int, float], night: tuple[int, ...] = (), seed: int = 5) -> list[Point]:
    """Hourly entries up to `until`: the holiday's hours at `holiday[hour]` times an ordinary weekday's, and its
    `night` hours (no partition any other night) open at a third of the morning peak."""
    rng = random.Random(seed)
    out, at = [], datetime(_START.year, _START.month, _START.day)
    while at < until:
        if at.date() == _HOLIDAY and at.hour in night:
            mean = _PEAK * 0.35
        elif at.hour in _HOURS:
            mean = _ordinary(at) * (holiday[at.hour] if at.date() == _HOLIDAY else 1.0)
        else:
            at += timedelta(hours=1)
            continue
        out.append(Point(at, noisy_count(rng, mean)))
        at += timedelta(hours=1)
    return out


def _at(hour: int) -> datetime:
    return datetime(_HOLIDAY.year, _HOLIDAY.month, _HOLIDAY.day, hour)


def test_a_night_opened_only_for_the_holiday_is_no_evidence_of_its_factor() -> None:
    # the holiday opened at 00h and 01h (New Year's night's trains), hours no ordinary night held: the model fits
    # each on its own one point, so they read "x1.00", and with the first morning hour's x0.35 they read the
    # holiday at 08h as an ordinary day x0.6: its centre stood far above the holiday's hours so far
    holiday = {h: 0.35 for h in _HOURS}
    at = _at(8)
    fc = forecast(_entries(at, holiday, night=(0, 1)), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * 0.35
    assert fc.baseline < 0.5 * _ordinary(at), (clean, fc.baseline, fc.notes)
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 2 * clean).passed, (clean, fc.upper, fc.notes)  # a duplicated load still fails
    assert not judge(fc, 0.5 * clean).passed, (clean, fc.lower, fc.notes)  # and a 50% drop


def test_the_night_hours_left_out_read_the_holiday_from_its_morning() -> None:
    # later in the morning, the hours so far without the night read the holiday's factor (x0.35): a clean hour
    # passes and a 50% drop from it fails
    holiday = {h: 0.35 for h in _HOURS}
    at = _at(10)
    fc = forecast(_entries(at, holiday, night=(0, 1)), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * 0.35
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not any("latest hours ran below" in n for n in fc.notes), fc.notes  # the nights are no turn either
    assert not judge(fc, 0.5 * clean).passed, (clean, fc.lower, fc.notes)


def test_a_holiday_that_turned_quieter_in_the_afternoon_is_read_at_its_latest_hours() -> None:
    # worked at x0.7 until 15h, then x0.3 (a half day's evening): at 18h the day's median still reads x0.7, and the
    # clean hour at x0.3 failed below the band; its latest hours (16h, 17h) at x0.3 say the holiday turned
    holiday = {h: 0.7 if h < 16 else 0.3 for h in _HOURS}
    at = _at(18)
    fc = forecast(_entries(at, holiday), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * 0.3
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert any("latest hours ran below" in n for n in fc.notes), fc.notes
    assert not judge(fc, 0.0).passed, fc.notes  # an empty hour still fails
    assert not judge(fc, 2 * _ordinary(at) * 0.7).passed, (fc.upper, fc.notes)  # and a doubled x0.7 hour


def test_a_holiday_that_kept_its_factor_keeps_its_band() -> None:
    # x0.7 all day, no turn: the band is the day's factor's, and a 35% drop at 18h fails
    holiday = {h: 0.7 for h in _HOURS}
    at = _at(18)
    fc = forecast(_entries(at, holiday), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * 0.7
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not any("latest hours ran below" in n for n in fc.notes), fc.notes
    assert not judge(fc, 0.65 * clean).passed, (clean, fc.lower, fc.notes)

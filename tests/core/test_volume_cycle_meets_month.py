"""A series open every day with two paydays of different cycles: one every other Friday (a fortnightly pay run, in
no calendar, drifting through the month) and one on a day of the month rolled back over the weekend. Each earns its
own `rolled_day` group, but a day holds one label, the month's: where the fortnightly Friday falls on the month's
rolled payday, read as the month's payday alone, its cycle's lift was lost (the clean day alarmed, half of it missing
passed), and in the history a day where both met left the cycle's lift to another group it held (a holiday's
neighbourhood seen once). `_cycles_under_month_days` reads the cycle's effect, earned on its own days, on top of the
target's, and out of the history's such days."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

_WEEK = (1.0, 0.95, 0.95, 1.0, 1.15, 1.3, 0.7)  # Monday first: a busy Friday and Saturday, a quiet Sunday (open)
_CYCLE_FRIDAY = date(2023, 2, 10)  # a pay run every other Friday from here (no estate's date)
_CYCLE_LIFT = 1.7
_MONTH_DAY = 20  # the month's payday, the Friday before when it falls on a weekend (no estate's day)
_MONTH_LIFT = 1.3
_NOISE = 0.04
_START = date(2023, 3, 6)


def _month_payday(d: date, day: int = _MONTH_DAY) -> date:
    pay = date(d.year, d.month, day)
    while pay.weekday() >= 5:
        pay -= timedelta(days=1)
    return pay


def _cycle_day(d: date, friday: date = _CYCLE_FRIDAY) -> bool:
    return (d - friday).days % 14 == 0


def _paydays(cycle: float = _CYCLE_LIFT, seed: int = 5, day: int = _MONTH_DAY, friday: date = _CYCLE_FRIDAY,
             start: date = _START) -> list[Point]:
    """Two years of receipts every day (4% noise, the week's shape), `cycle` times on the fortnightly Friday and
    _MONTH_LIFT times on the month's rolled payday (both where they meet)."""
    rng = random.Random(seed)
    out = []
    for i in range(730):
        d = start + timedelta(days=i)
        mean = 9_000.0 * _WEEK[d.weekday()] * (cycle if _cycle_day(d, friday) else 1.0) \
            * (_MONTH_LIFT if d == _month_payday(d, day) else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, _NOISE)))))
    return out


def _met_days(history: list[Point]) -> list[datetime]:
    """The days of the second year where the fortnightly Friday is the month's rolled payday."""
    return [q.at for q in history[400:] if _cycle_day(q.at.date()) and q.at.date() == _month_payday(q.at.date())]


def _forecasts(history: list[Point]) -> dict[datetime, tuple[object, float]]:
    values = {q.at: q.value for q in history}
    return {at: (forecast([q for q in history if at - timedelta(days=400) <= q.at < at], at,
                          calendar_=HolidayCalendar(country="US")), values[at])
            for at in _met_days(history)}


def test_the_series_holds_days_where_both_paydays_meet():
    assert len(_met_days(_paydays())) >= 2


def test_a_clean_day_where_both_paydays_meet_passes_read_as_both():
    # (read as the month's payday alone: 1.6-1.8x its baseline, outside the band)
    for at, (fc, value) in _forecasts(_paydays()).items():
        assert judge(fc, value).passed, (at, fc.group, value / fc.baseline)
        assert abs(value / fc.baseline - 1) < 0.12, (at, fc.group, value / fc.baseline)
        assert any("14-day cycle" in note for note in fc.notes), fc.notes


def test_half_missing_where_both_paydays_meet_fails():
    # (read as the month's payday alone, the day half short stood at 0.8-0.9x: inside the band, which the month's
    # payday, a group of a dozen days, holds at its ceiling)
    for at, (fc, value) in _forecasts(_paydays()).items():
        assert not judge(fc, value * 0.5).passed, (at, fc.group, value * 0.5 / fc.baseline)


def test_no_cycle_read_where_the_fridays_hold_none():
    # (the same series with no fortnightly pay run: the month's payday alone, as before)
    for at, (fc, value) in _forecasts(_paydays(cycle=1.0)).items():
        assert not any("14-day cycle" in note for note in fc.notes), fc.notes
        assert judge(fc, value).passed, (at, fc.group, value / fc.baseline)


def test_a_holiday_neighbour_that_met_both_paydays_once_is_not_read_as_their_lift():
    # Friday 22 December 2023 was the fortnightly payday and the 24th's payday rolled back over the weekend, and
    # Christmas's third day before; read as the 24th's payday alone, the cycle's lift was left to the neighbourhood
    # (seen once), and Sunday 22 December 2024, neither payday, was read at x1.6: 0.62x, an alarm
    history = _paydays(day=24, friday=date(2023, 12, 22), start=date(2023, 6, 1))
    at = datetime(2024, 12, 22)
    value = next(q.value for q in history if q.at == at)
    fc = forecast([q for q in history if at - timedelta(days=400) <= q.at < at], at, calendar_=HolidayCalendar(country="GB"))
    assert "Christmas Day -3d" in fc.group
    assert judge(fc, value).passed, (fc.group, value / fc.baseline)
    assert abs(value / fc.baseline - 1) < 0.12, (fc.group, value / fc.baseline)

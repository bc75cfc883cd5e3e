"""A series open every day (cash machines, a web shop) whose payday is a day of the month rolled to the calendar's
business day: the 25th, the Friday before when it is a weekend day or holiday. Every day is open to the series,
so the roll comes from the calendar's weekends and holidays, not from the series' own closed days."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar, rolled_date
from dw_assets.core.volume_model import Point, forecast, judge

_WEEK = (1.0, 0.95, 0.95, 1.0, 1.3, 1.15, 0.8)  # Monday first: a busy Friday, a quiet Sunday (still open)
_PAYDAY = 1.4
_NOISE = 0.04


def _withdrawals(payday: float, seed: int = 5, day_of_month: int = 25) -> tuple[list[Point], HolidayCalendar]:
    """Two years of cash withdrawals every day (holidays x0.6, still open) with 4% noise and, `payday` times, the
    payday on `day_of_month` or the calendar's business day before it."""
    cal = HolidayCalendar(country="DE")
    rng = random.Random(seed)
    days = [date(2024, 1, 1) + timedelta(days=i) for i in range(760)]
    paydays = {rolled_date(d.year, d.month, day_of_month, "preceding", cal.is_business_day) for d in days}
    out = []
    for d in days:
        mean = 20_000.0 * _WEEK[d.weekday()] * (0.6 if cal.name(d) else 1.0) * (payday if d in paydays else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, _NOISE)))))
    return out, cal


def _forecast_on(history: list[Point], cal: HolidayCalendar, target: datetime):
    return forecast([q for q in history if q.at < target], target, calendar_=cal)


def test_a_payday_rolled_back_to_the_calendars_business_day_is_learned_on_a_series_open_every_day():
    history, cal = _withdrawals(_PAYDAY)
    values = {q.at: q.value for q in history}
    # Friday 24 October 2025 (the 25th a Saturday), Thursday 25 September 2025, Friday 24 January 2025 (a Saturday 25th)
    for target in (datetime(2025, 10, 24), datetime(2025, 9, 25), datetime(2025, 1, 24)):
        fc = _forecast_on(history, cal, target)
        assert "25 preceding" in fc.group, (target, fc.group)
        assert judge(fc, values[target]).passed, (target, fc.group, values[target] / fc.baseline)
        # the payday's lift missing (an ordinary day's withdrawals) is caught
        assert not judge(fc, values[target] / _PAYDAY).passed, (target, fc.group, fc.lower / values[target])


def test_the_weekend_25th_after_a_rolled_payday_is_an_ordinary_saturday():
    history, cal = _withdrawals(_PAYDAY)
    values = {q.at: q.value for q in history}
    target = datetime(2025, 10, 25)  # a Saturday: its payday was the Friday before
    fc = _forecast_on(history, cal, target)
    assert "25 preceding" not in fc.group, fc.group
    assert judge(fc, values[target]).passed, (fc.group, values[target] / fc.baseline)
    assert 0.85 < fc.baseline / (20_000.0 * _WEEK[5]) < 1.15, fc.baseline


def test_an_ordinary_25th_is_not_given_a_raised_expectation():
    history, cal = _withdrawals(1.0)
    target = datetime(2025, 9, 25)  # a Thursday 25th, never higher than any Thursday
    fc = _forecast_on(history, cal, target)
    assert "preceding" not in fc.group and "following" not in fc.group, fc.group
    assert 0.9 < fc.baseline / (20_000.0 * _WEEK[3]) < 1.1, fc.baseline

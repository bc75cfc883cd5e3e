"""A series open every day whose days from a day of the month to the month's end (or a few days into the next) share
one effect: salaries paid from the 24th, a monthly plan renewed from payday to the month's end. Read day by day (a
rolled day and its neighbour, the turn's last three days counted from the end) the run is cut into groups that hold
it in some months and not in others (February's last three days are its 26th to 28th, a long month's its 28th to
30th), so a short month's run reads its effect twice and a weekend's 25th not at all. Read as one run
(`_month_day_run`), every day of it compares with the run's days of past months."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point, _month_day_run, forecast, judge

_WEEK = (1.0, 0.95, 0.95, 1.0, 1.2, 1.1, 0.85)  # Monday first: a busy Friday, a quieter Sunday (still open)
_RUN_FROM = 24  # the run's first day of the month (no estate's: the bench's runs start on the 25th)
_RUN_LIFT = 1.6
_NOISE = 0.04


def _renewals(lift: float = _RUN_LIFT, seed: int = 3) -> tuple[list[Point], HolidayCalendar]:
    """Two years of renewals every day (4% noise, the week's shape) and, `lift` times, the days from the 24th to
    the month's end."""
    cal = HolidayCalendar(country="FR")
    rng = random.Random(seed)
    out = []
    for i in range(730):
        d = date(2023, 3, 6) + timedelta(days=i)
        mean = 8_000.0 * _WEEK[d.weekday()] * (lift if d.day >= _RUN_FROM else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, _NOISE)))))
    return out, cal


# the run's days in a short month (February 2025: 24th a Monday to Friday 28th) and a long month's weekend (Saturday
# 25 and Sunday 26 January 2025, Friday 31 January), against the history before each
_RUN_DAYS = [datetime(2025, 2, d) for d in (24, 25, 26, 27, 28)] + [datetime(2025, 1, d) for d in (25, 26, 31)]


def test_every_day_of_the_run_passes_clean_in_short_and_long_months():
    history, cal = _renewals()
    values = {q.at: q.value for q in history}
    forecasts = {at: forecast([q for q in history if q.at < at], at, calendar_=cal) for at in _RUN_DAYS}
    # (read day by day, February's 25th and 26th carried the run twice, a long month's 28th and 29th's places at
    # the turn on top of a rolled 25th's: x0.6-0.7 against their expected)
    flagged = [(at, fc.group, round(values[at] / fc.baseline, 3)) for at, fc in forecasts.items()
               if not judge(fc, values[at]).passed]
    assert not flagged
    assert all("24 to last" in fc.group for fc in forecasts.values()), [fc.group for fc in forecasts.values()]


def test_a_fifth_missing_on_a_day_of_the_run_fails():
    history, cal = _renewals()
    values = {q.at: q.value for q in history}
    for at in (datetime(2025, 2, 26), datetime(2025, 1, 26)):
        fc = forecast([q for q in history if q.at < at], at, calendar_=cal)
        assert not judge(fc, values[at] * 0.8).passed, (at, fc.group, values[at] * 0.8 / fc.baseline)


def _days_and_residuals(first: int, after: int, lift: float, seed: int = 7) -> tuple[list[date], list[float]]:
    rng = random.Random(seed)
    days = [date(2024, 1, 1) + timedelta(days=i) for i in range(400)]
    return days, [(lift if d.day >= first or d.day <= after else 0.0) + rng.gauss(0, _NOISE) for d in days]


def test_the_run_read_is_the_one_the_residuals_hold():
    days, resid = _days_and_residuals(26, 2, math.log(1.2))
    assert _month_day_run(days, resid, _NOISE, ModelParams()) == (26, 2)
    days, resid = _days_and_residuals(20, 0, math.log(0.75))
    assert _month_day_run(days, resid, _NOISE, ModelParams()) == (20, 0)


def test_no_run_where_the_residuals_hold_none():
    days, resid = _days_and_residuals(26, 2, 0.0)
    assert _month_day_run(days, resid, _NOISE, ModelParams()) is None

"""Two calendar groups seen once, on the very same day (a year's end that fell on the Sunday of a long weekend),
hold one residual between them: two effects learned on it split it in any proportion. The group fitted first
takes the day's residual, the later one reads none of its own, so a target carrying only one of them (the next
year's end, on a Tuesday) reads the day as it was, not half of a pair (_shared_single_occasions)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

import pytest

from dw_assets.core import volume_fit
from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

RUN = 1.7  # the month's last days (the 25th to the month's end): payday renewals


def _renewals(days: int, end: date) -> tuple[list[Point], HolidayCalendar]:
    """Daily renewals, x1.7 from the 25th to the month's end, holidays x0.9, 4% noise: the one past year's end
    (a Sunday before New Year's Day on a Monday) sat at the month's run like every other month's end."""
    rng = random.Random(3)
    cal = HolidayCalendar(country="JM")
    pts, day = [], end - timedelta(days=days)
    while day < end:
        value = 5000.0 * (RUN if day.day >= 25 else 1.0) * (0.9 if cal.name(day) else 1.0)
        pts.append(Point(datetime(day.year, day.month, day.day), value * math.exp(rng.gauss(0, 0.04))))
        day += timedelta(days=1)
    return pts, cal


@pytest.mark.parametrize("days", [400, 730])
def test_a_year_end_at_the_month_run_passes_whatever_the_history(days: int) -> None:
    """31 December 2024 (a Tuesday) at the month's run: with two years of history the month's run is one group of
    the 25th to the month's end, and the one past year's end (Sunday 31 December 2023, a long weekend's first day)
    split its residual into the year's end x1.6 and the long weekend x0.59; the year's end alone read the day 0.59x."""
    pts, cal = _renewals(days, date(2024, 12, 31))
    fc = forecast(pts, datetime(2024, 12, 31), grain="day", calendar_=cal)
    value = 5000.0 * RUN
    assert judge(fc, value).passed
    assert 0.85 < value / fc.baseline < 1.2


def _fit(x: list[float], run: set[int], shared: int) -> volume_fit.SeriesFit:
    feats = [{"day": i, "period_end": "year" if i == shared else "", "rolled_day": "run" if i in run else "",
              "near_holiday": "long weekend" if i == shared else ""} for i in range(len(x))]
    return volume_fit.SeriesFit([float(i) for i in range(len(x))], x, feats,
                                ["period_end", "rolled_day", "near_holiday"], lag=7, level_points=28)


def test_the_group_fitted_first_takes_the_shared_residual() -> None:
    """On the fit itself: a run (x1.65 on one day in ten, the shared day among them) and a day that is both the only
    year's end and the only long weekend, at the run's level. The year's end reads the day's residual once the run
    is out (none), the long weekend none: a target with the year's end and the run reads the run, not x1.6 on it."""
    rng = random.Random(5)
    run = set(range(5, 300, 10))
    shared = 155
    x = [rng.gauss(0, 0.02) + (0.5 if i in run else 0.0) for i in range(300)]
    fit = _fit(x, run, shared)
    assert abs(fit.effects["period_end"]["year"]) < 0.1
    assert fit.effects["near_holiday"]["long weekend"] == 0.0
    assert fit.members["near_holiday"]["long weekend"] == 1  # seen once: its uncertainty is kept
    total, _, _, _ = fit.effect_for({"period_end": "year", "rolled_day": "run", "near_holiday": ""})
    assert abs(total - 0.5) < 0.1


def test_groups_seen_twice_keep_their_own_effects() -> None:
    """Two occasions tell two effects apart where they differ: a year's end seen twice, once with the long weekend,
    keeps its own effect and the long weekend its own."""
    rng = random.Random(7)
    x = [rng.gauss(0, 0.02) for _ in range(300)]
    x[100] += 0.4  # a year's end alone
    x[250] += 0.4 - 0.3  # a year's end on a long weekend's day
    feats = [{"day": i, "period_end": "year" if i in (100, 250) else "",
              "near_holiday": "long weekend" if i in (250, 30) else ""} for i in range(300)]
    x[30] -= 0.3
    fit = volume_fit.SeriesFit([float(i) for i in range(300)], x, feats, ["period_end", "near_holiday"], lag=7,
                               level_points=28)
    assert fit.effects["near_holiday"]["long weekend"] < -0.2
    assert fit.effects["period_end"]["year"] > 0.2

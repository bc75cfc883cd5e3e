"""An hourly series shut for a spell of weeks inside its history (a ferry's berth closed for repairs, a branch shut
for a refit), then back: once rows are back, the spell's empty hours are not its slots' usual ones, so the route's
rows lost to a failed load fail as empty; the first hour back, the spell still running, keeps the closure's reading,
and the hours a series keeps closed every night or every weekend stay usual."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Forecast, Point, forecast, judge

_START = datetime(2025, 3, 3)  # a Monday
_DAYS = 28  # four weeks of hours, the check's default history
_SHUT = (8, 24)  # days from the start: sixteen days shut (every hour empty), back on the 24th
_HOURS = range(6, 21)  # the route's service hours (empty at night: its own closed hours)
_PEAK = 120.0


def _route(shut: tuple[int, int] | None = _SHUT, weekends_closed: bool = False, seed: int = 3) -> list[Point]:
    """A route's validations per hour for four weeks: 06:00-20:59 only, a peak at 08:00, Poisson with 5% extra
    noise; empty through the shut spell's days (and on Saturdays and Sundays with `weekends_closed`)."""
    rng = random.Random(seed)
    out = []
    for k in range(_DAYS * 24):
        at = _START + timedelta(hours=k)
        day = k // 24
        closed = (shut is not None and shut[0] <= day < shut[1]) or (weekends_closed and at.weekday() >= 5)
        if closed or at.hour not in _HOURS:
            out.append(Point(at, 0.0))
            continue
        lam = _PEAK * (1.0 - 0.04 * abs(at.hour - 8)) * math.exp(rng.gauss(0, 0.05))
        # (a Poisson draw by its normal approximation: the counts are in the hundreds)
        out.append(Point(at, float(max(0, round(lam + math.sqrt(lam) * rng.gauss(0, 1))))))
    return out


def _forecast_at(history: list[Point], target: datetime) -> Forecast:
    return forecast([q for q in history if q.at < target], target, grain="hour", calendar_=HolidayCalendar())


def test_an_empty_service_hour_after_the_route_reopened_fails() -> None:
    # back for four days: the sixteen days shut are the route's spell, not its 09:00's usual empties
    target = _START + timedelta(days=_DAYS, hours=9)
    fc = _forecast_at(_route(), target)
    assert not fc.empty_is_normal
    assert judge(fc, 0.0).reason == "empty"


def test_a_clean_hour_after_the_route_reopened_passes() -> None:
    target = _START + timedelta(days=_DAYS, hours=9)
    history = _route()
    fc = _forecast_at(history, target)
    assert judge(fc, fc.baseline).passed


def test_an_empty_hour_the_day_after_it_reopened_fails() -> None:
    # the spell ended the day before (a day of rows since): its empties are already the spell's
    target = _START + timedelta(days=_SHUT[1] + 1, hours=12)
    fc = _forecast_at(_route(), target)
    assert judge(fc, 0.0).reason == "empty"


def test_the_first_hour_back_keeps_the_closure_reading() -> None:
    # no rows since the spell began: an empty first hour cannot be told from the closure going on
    target = _START + timedelta(days=_SHUT[1], hours=6)
    fc = _forecast_at(_route(), target)
    assert judge(fc, 0.0).passed


def test_the_routes_closed_night_hours_stay_usual() -> None:
    target = _START + timedelta(days=_DAYS, hours=2)
    fc = _forecast_at(_route(), target)
    assert judge(fc, 0.0).passed


def test_a_series_closed_every_weekend_keeps_its_weekend_empties() -> None:
    # two days shut every week are runs shorter than a week: a Saturday's empty hour is one of its usual ones
    target = _START + timedelta(days=_DAYS - 2, hours=10)  # a Saturday 10:00 (the history's last weekend)
    assert target.weekday() == 5
    fc = _forecast_at(_route(shut=None, weekends_closed=True), target)
    assert judge(fc, 0.0).passed

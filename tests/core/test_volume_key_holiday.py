"""A series of multi-day partitions (a fortnight keyed on its first day) whose key day is a holiday never seen: the
holiday is one day of the partition's fourteen, so it reads like the holidays seen on key days, or as far as its
day's share moves the partition, not as a day judged by the hard rules alone (which passed its half and its
double)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

import pytest

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point, _key_holiday_reach, forecast, judge

_START = datetime(2022, 1, 6)  # a Thursday: fortnights keyed on their first day
_FORTNIGHTS = 104
_TARGET = 100  # the fortnight keyed on Thursday 2025-11-06
_SEEN = ("Founders' Day", "Harvest Day", "Unity Day")


def _calendar() -> HolidayCalendar:
    """Three holidays seen on key days in the history (one a year), and a new one on the target's key day."""
    keys = [(_START + timedelta(days=14 * i)).date() for i in range(_FORTNIGHTS)]
    dates: dict[date, str] = {keys[i]: name for i, name in zip((20, 46, 72), _SEEN)}
    dates[keys[_TARGET]] = "Republic Day"
    return HolidayCalendar(dates=dates)


def _series(cal: HolidayCalendar, seed: int) -> list[Point]:
    """Receipts per fortnight, ~100,000 with 3% noise; a fortnight keyed on a holiday loses its busiest day and
    runs at 0.85."""
    rng = random.Random(seed)
    out = []
    for i in range(_FORTNIGHTS):
        at = _START + timedelta(days=14 * i)
        factor = 0.85 if cal.name(at.date()) else 1.0
        out.append(Point(at, round(100_000.0 * factor * math.exp(rng.gauss(0, 0.03)))))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_fortnight_keyed_on_a_holiday_never_seen_fails_its_half_and_its_double(seed: int) -> None:
    cal = _calendar()
    pts = _series(cal, seed)
    fc = forecast(pts[:_TARGET], pts[_TARGET].at, grain="day", calendar_=cal, params=ModelParams())
    clean = pts[_TARGET].value
    assert fc.unseen_holiday == "Republic Day"
    assert judge(fc, clean).passed
    assert not judge(fc, clean * 0.5).passed
    assert not judge(fc, clean * 1.7).passed


def test_the_reach_is_at_least_the_holiday_days_share() -> None:
    quietest, busiest = _key_holiday_reach([-0.05], 14, 1.9)
    assert quietest == pytest.approx(math.log(13 / 14))
    assert busiest == pytest.approx(math.log(1 + 0.9 / 14))
    # a seen holiday further than the share sets the reach
    assert _key_holiday_reach([-0.3, 0.2], 14, 1.9) == (-0.3, 0.2)

"""A weekly series meeting a holiday it never saw: the quietest it may be is read per holiday day of the weeks
seen (a week that lost Christmas and Boxing Day together says a one-day holiday's week loses about half as
much), not as the quietest seen week whole."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta
from types import SimpleNamespace

import pytest

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import (
    ModelParams,
    Point,
    _behaviours_by_holiday_days,
    _holiday_days,
    forecast,
    judge,
)

_START = datetime(2023, 1, 2)  # a Monday: weeks keyed on their first day
_WEEKS = 170
_TARGET = 160  # the week from Monday 2026-01-26
_NEW_HOLIDAY = date(2026, 1, 28)  # a Wednesday, first declared this year


def _calendar(with_new: bool = True) -> HolidayCalendar:
    """Five one-day holidays a year on weekdays' dates, Christmas and Boxing Day together, and (from this year) a new
    one-day holiday."""
    dates: dict[date, str] = {}
    for year in (2023, 2024, 2025, 2026):
        for month, day, name in ((3, 15, "Spring Day"), (5, 10, "Labour Day"), (7, 20, "Harvest Day"),
                                 (9, 12, "Unity Day"), (11, 8, "Founders' Day"), (12, 25, "Christmas Day"),
                                 (12, 26, "Boxing Day")):
            dates[date(year, month, day)] = name
    if with_new:
        dates[_NEW_HOLIDAY] = "Republic Day"
    return HolidayCalendar(dates=dates)


def _series(cal: HolidayCalendar, seed: int = 3) -> list[Point]:
    """Orders per week, ~10,000 with 2% noise; a holiday on a working day closes it (a fifth of the week), the
    Christmas week loses its two days and is quieter still."""
    rng = random.Random(seed)
    out = []
    for i in range(_WEEKS):
        at = _START + timedelta(weeks=i)
        lost = sum(1 for k in range(7) if cal.name((at + timedelta(days=k)).date()) and (at + timedelta(days=k)).weekday() < 5)
        christmas = any(cal.name((at + timedelta(days=k)).date()) == "Christmas Day" for k in range(7))
        factor = (1 - lost / 5) * (0.75 if christmas else 1.0)
        out.append(Point(at, round(10_000.0 * factor * math.exp(rng.gauss(0, 0.02)))))
    return out


def _forecast_target(cal: HolidayCalendar) -> tuple[float, object]:
    pts = _series(cal)
    fc = forecast(pts[:_TARGET], pts[_TARGET].at, grain="day", calendar_=cal, params=ModelParams())
    return pts[_TARGET].value, fc


def test_holiday_days_counts_the_named_days_of_a_week() -> None:
    cal = _calendar()
    assert _holiday_days(date(2023, 12, 25), cal) == 2
    assert _holiday_days(_NEW_HOLIDAY - timedelta(days=2), cal) == 1
    assert _holiday_days(date(2023, 1, 2), cal) == 0


def test_a_new_one_day_holiday_week_is_read_per_holiday_day() -> None:
    cal = _calendar()
    clean, fc = _forecast_target(cal)
    assert fc.unseen_holiday == "Republic Day"
    # the clean holiday week (one weekday of five lost) passes
    assert judge(fc, clean).passed
    # a 35% drop of it fails: per holiday day the quietest seen week lost about x0.77, not the Christmas week's x0.6
    assert not judge(fc, clean * 0.65).passed
    assert fc.lower / fc.baseline > 0.6


def test_a_week_without_holiday_days_has_no_per_day_behaviours() -> None:
    cal = _calendar(with_new=False)
    pts = _series(cal)
    fit = SimpleNamespace(used=["holiday"], feats=[], effects={"holiday": {}}, members={"holiday": {}})
    assert _behaviours_by_holiday_days(fit, pts, pts[_TARGET].at, cal, False) == []  # type: ignore[arg-type]


def test_a_week_of_several_new_holiday_days_is_never_quieter_than_the_quietest_week_seen(monkeypatch) -> None:
    # two new named days in the target week (a Sunday holiday and its observed Monday read as two): per holiday day
    # they would reach below any week seen; the bound stays at the quietest week seen
    base = _calendar()
    cal = HolidayCalendar(dates={**base.dates, _NEW_HOLIDAY + timedelta(days=1): "Republic Day (observed)",
                                 _NEW_HOLIDAY + timedelta(days=2): "Republic Day (second day)"})
    pts = _series(base)
    fc = forecast(pts[:_TARGET], pts[_TARGET].at, grain="day", calendar_=cal, params=ModelParams())
    monkeypatch.setattr("dw_assets.core.volume_model._behaviours_by_holiday_days", lambda *a, **k: [])
    whole = forecast(pts[:_TARGET], pts[_TARGET].at, grain="day", calendar_=cal, params=ModelParams())
    assert fc.unseen_holiday is not None
    assert fc.lower == pytest.approx(whole.lower)

"""A month's days after its last holiday read outside the month's effect (`_month_tail_days`): a year-end bonus lifts
December's days to Christmas (x1.5), and the days between Christmas and New Year are ordinary. The model earns
December's effect on the month's whole (its halves alike: the lift fills the first half and most of the second), and
read so, the last days of the next December fail at 0.67 of the forecast. Where the history's December read its
days after Christmas (its neighbourhood's effect, seen once, put back) outside the month's effect, the target's days
after the same holiday read without it; a December lifted to its end, and a day before Christmas, keep it. The
fortieth round's `appliances_sr` (27 and 30 December 2025, 28 December 2026: every store at 0.62-0.71)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from datetime import date, datetime, timedelta

import pytest

from dw_assets.core import volume_model
from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

_WEEK = (0.9, 0.9, 0.95, 1.0, 1.25, 1.45, 0.5)  # receipts by weekday, Monday first
_LEVEL = 2_000.0
_LIFT = 1.5  # the bonus's December
_NOISE = 0.05  # noise per day (a store's receipts)
_DROP = 0.75  # a quarter's drop: inside the band the month's effect widens, outside the ordinary day's


def _calendar() -> HolidayCalendar:
    named = {}
    for year in (2024, 2025):
        named[date(year, 12, 25)] = "Christmas Day"
        named[date(year, 12, 26)] = "Second Day of Christmas"
        named[date(year + 1, 1, 1)] = "New Year's Day"
    return HolidayCalendar(dates=named)


def _factor(day: date, lifted_to: int) -> float:
    """A day's receipts against an ordinary Thursday: the week, the holidays closed (x0.1), December's days to
    `lifted_to` x_LIFT."""
    f = _WEEK[day.weekday()]
    if (day.month, day.day) in ((12, 25), (12, 26), (1, 1)):
        return f * 0.1
    if day.month == 12 and day.day <= lifted_to:
        f *= _LIFT
    return f


def _history(end: date, lifted_to: int, seed: int = 1) -> list[Point]:
    """The 400 days before `end` (as the check reads a daily table), _NOISE noise."""
    rng = random.Random(seed)
    days = [end - timedelta(days=k) for k in range(400, 0, -1)]
    return [Point(datetime(d.year, d.month, d.day), round(_LEVEL * _factor(d, lifted_to) * math.exp(rng.gauss(0, _NOISE))))
            for d in days]


def _forecast(day: date, lifted_to: int = 24) -> volume_model.Forecast:
    return forecast(_history(day, lifted_to), datetime(day.year, day.month, day.day), calendar_=_calendar())


@pytest.fixture
def without_rule(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    def off() -> None:
        monkeypatch.setattr(volume_model, "_month_tail_days", lambda *a, **k: set())
    return off


@pytest.mark.parametrize("day", [date(2025, 12, 30), date(2025, 12, 27), date(2025, 12, 29)])
def test_a_day_after_christmas_in_a_bonus_december_reads_ordinary(day: date):
    """December 2024 was lifted to the 24th: 2025's ordinary days after Christmas pass, without December's effect
    and in the band of an ordinary day: a quarter's drop on them and a doubled day fail."""
    fc = _forecast(day)
    ordinary = _LEVEL * _WEEK[day.weekday()]
    assert "month:Dec" not in fc.group, fc.group
    assert judge(fc, ordinary).passed, (ordinary / fc.baseline, fc.lower / fc.baseline, fc.upper / fc.baseline)
    assert not judge(fc, ordinary * _DROP).passed, (fc.lower / ordinary)
    assert not judge(fc, ordinary * 2).passed


def test_without_the_rule_the_day_after_christmas_reads_the_month(without_rule: Callable[[], None]):
    """The same day read with December's effect (the rule off; here its neighbourhood, seen once, kept against it):
    its band, as wide as the month's effect and the neighbourhood's together, passes the quarter's drop."""
    without_rule()
    day = date(2025, 12, 30)
    fc = _forecast(day)
    assert "month:Dec" in fc.group, fc.group
    assert judge(fc, _LEVEL * _WEEK[day.weekday()] * _DROP).passed


def test_a_december_lifted_to_its_end_keeps_its_effect_after_christmas():
    """December 2024 lifted on every day: the days after Christmas keep the month's effect (a lifted day passes, an
    ordinary one, a third lower, fails)."""
    day = date(2025, 12, 30)
    fc = _forecast(day, lifted_to=31)
    ordinary = _LEVEL * _WEEK[day.weekday()]
    assert "month:Dec" in fc.group, fc.group
    assert judge(fc, ordinary * _LIFT).passed
    assert not judge(fc, ordinary).passed


def test_a_day_before_christmas_keeps_the_months_effect(without_rule: Callable[[], None]):
    """A day of the bonus before Christmas (no holiday of the month before it) reads as without the rule."""
    day = date(2025, 12, 19)
    fc = _forecast(day)
    without_rule()
    base = _forecast(day)
    assert "month:Dec" in fc.group, fc.group
    assert (fc.baseline, fc.lower, fc.upper) == (base.baseline, base.lower, base.upper)
    assert judge(fc, _LEVEL * _WEEK[day.weekday()] * _LIFT).passed

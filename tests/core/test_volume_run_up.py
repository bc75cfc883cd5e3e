"""A moving holiday's run-up in no calendar (`_run_up_reach`): the days before a holiday whose date moves by weeks
between years (Diwali, the Eids) rise every year (a week of shopping), but no calendar names them, and a 400-day
history holds one past occasion. Read relative to the holiday's date in each year, a day whose past occasion ran up to
the holiday from the same number of days before it has its band reach as far as that day ran (the centre stays the
model's); a day whose past occasion was ordinary, or held one odd day, and a fixed-date holiday's neighbours keep their
band. The thirty-ninth round's `appliances_sr` (Diwali's ten days, 1.4-1.8x) and `remittances_tj` (the Eids' eves)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from datetime import date, datetime, timedelta

import pytest

from dw_assets.core import volume_model
from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

_WEEK = (0.9, 0.9, 0.95, 1.0, 1.25, 1.45, 0.6)  # receipts by weekday, Monday first
_NAME = "Harvest Feast"  # no name the model knows: a moving holiday is read by its dates alone
_FEASTS = (date(2024, 8, 1), date(2025, 7, 17))  # 16 days apart on the year's circle: a moving holiday
_FIXED = (date(2024, 7, 9), date(2025, 7, 9))  # the same date each year: in 2025 eight days before the feast
_FIXED_NAME = "Founders Day"
_RUN_UP = 8  # the days before the feast that run high


def _calendar(days: tuple[date, ...], fixed: tuple[date, ...] = ()) -> HolidayCalendar:
    return HolidayCalendar(dates={**{d: _NAME for d in days}, **{d: _FIXED_NAME for d in fixed}})


def _series(end: date, days: tuple[date, ...], lift: float, seed: int = 1, odd: date | None = None,
            fixed: tuple[date, ...] = ()) -> list[Point]:
    """Receipts per day for the 400 days before `end`: by weekday, the feast (and the `fixed` holiday) x0.5, the
    feast's _RUN_UP days before x`lift` (`odd`: one day x1.6 of its own, the run-up's other days ordinary). 4%
    noise."""
    rng = random.Random(seed)
    out = []
    for k in range(400, 0, -1):
        day = end - timedelta(days=k)
        f = _WEEK[day.weekday()]
        if day in days or day in fixed:
            f *= 0.5
        elif any(0 < (h - day).days <= _RUN_UP for h in days):
            f *= lift
        if day == odd:
            f *= 1.6
        out.append(Point(datetime(day.year, day.month, day.day), round(2_000 * f * math.exp(rng.gauss(0, 0.04)))))
    return out


def _forecast(day: date, lift: float) -> volume_model.Forecast:
    """`day`'s forecast where the feast moved and a fixed-date holiday fell inside its 2025 run-up (its days after it
    are that holiday's neighbourhood, ordinary in 2024)."""
    history = _series(day, _FEASTS, lift, fixed=_FIXED)
    return forecast(history, datetime(day.year, day.month, day.day), calendar_=_calendar(_FEASTS, _FIXED))


@pytest.fixture
def without_rule(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    def off() -> None:
        monkeypatch.setattr(volume_model, "_run_up_reach", lambda *a, **k: None)
    return off


@pytest.mark.parametrize("before", [6, 5])
def test_a_day_of_the_run_up_its_past_occasion_ran_passes(before: int):
    """The feast's 2024 run-up ran x1.5 from eight days before it (the history's one occasion, other calendar dates):
    2025's day as many days before the feast, x1.5 (two or three days after Founders Day, the neighbourhood read),
    passes; a 35% drop on it and a doubled day still fail."""
    day = _FEASTS[1] - timedelta(days=before)
    fc = _forecast(day, 1.5)
    busy = 2_000 * _WEEK[day.weekday()] * 1.5
    assert any("run-up" in n for n in fc.notes), fc.notes
    assert judge(fc, busy).passed, (busy / fc.baseline, fc.lower / fc.baseline, fc.upper / fc.baseline)
    assert not judge(fc, 2_000 * _WEEK[day.weekday()] * 0.65).passed
    assert not judge(fc, busy * 2).passed


@pytest.mark.parametrize("before", [6, 5])
def test_without_the_rule_the_run_up_day_fails(before: int, without_rule: Callable[[], None]):
    """The same day read without the rule: a day after Founders Day, as its neighbourhood was in 2024, and the
    run-up fails."""
    without_rule()
    day = _FEASTS[1] - timedelta(days=before)
    fc = _forecast(day, 1.5)
    assert _FIXED_NAME in fc.group or fc.group in ("Fri", "Sat"), fc.group
    assert not judge(fc, 2_000 * _WEEK[day.weekday()] * 1.5).passed


def test_an_ordinary_past_run_up_keeps_the_band():
    """The history's days before the feast were ordinary: no reach, and a day x1.5 fails."""
    day = _FEASTS[1] - timedelta(days=6)
    history = _series(day, _FEASTS, 1.0)
    target = datetime(day.year, day.month, day.day)
    assert volume_model._run_up_reach(history, target, {"holiday": ""}, _calendar(_FEASTS)) is None
    fc = forecast(history, target, calendar_=_calendar(_FEASTS))
    assert not judge(fc, 2_000 * _WEEK[day.weekday()] * 1.5).passed


def test_one_odd_day_is_no_run_up():
    """The past occasion's day six days before the feast ran x1.6 but the days from it to the feast were ordinary:
    an incident on one day, no run-up."""
    day = _FEASTS[1] - timedelta(days=6)
    history = _series(day, _FEASTS, 1.0, odd=_FEASTS[0] - timedelta(days=6))
    target = datetime(day.year, day.month, day.day)
    assert volume_model._run_up_reach(history, target, {"holiday": ""}, _calendar(_FEASTS)) is None


def test_a_fixed_date_holiday_is_not_read():
    """A holiday on the same date each year (its neighbours a year apart are other rules'): never read as a moving
    holiday's run-up, even where the days before it ran high."""
    day = _FIXED[1] - timedelta(days=6)
    history = _series(day, _FIXED, 1.5)
    target = datetime(day.year, day.month, day.day)
    assert volume_model._run_up_reach(history, target, {"holiday": ""}, HolidayCalendar(dates={
        d: _FIXED_NAME for d in _FIXED})) is None

"""A day in no calendar at a fixed distance from a moving holiday (a carnival's Monday, Easter's 48th day before:
Good Friday's 46th), that stood out at that distance in every past year the history holds: read against those
years' days (`_days_at_moving_distance`), not as its weekday. One past year is no rule."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dateutil.easter import easter

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

_CAL = HolidayCalendar(country="GB")  # Good Friday and Easter Monday move; the carnival is in no calendar
_WEEK = [0.9, 0.9, 0.95, 1.0, 1.2, 1.4, 0.5]  # Monday first
_PER_DAY = 8_000.0
_NOISE = 0.04
_CARNIVAL = 0.4  # the parade's Monday: the shops in its streets shut early
_START = date(2023, 1, 2)
_FEAST = 1.8  # a feast's Thursday, Easter's 59th day before (the grills' meat): up, not down


def _carnival(year: int) -> date:
    """The carnival's Monday: Easter's 48th day before (in no calendar; weeks apart between years)."""
    return easter(year) - timedelta(days=48)


def _series(until: date, start: date = _START, seed: int = 3, odd: dict[date, float] | None = None) -> list[Point]:
    """Daily rows from `start` to the day before `until`: the week, holidays x0.5, each year's carnival Monday
    x`_CARNIVAL` (`odd`: days moved once, an incident), 4% noise, +3% a year."""
    rng = random.Random(seed)
    points, d = [], start
    while d < until:
        f = _WEEK[d.weekday()] * (0.5 if _CAL.name(d) else 1.0) * (_CARNIVAL if d == _carnival(d.year) else 1.0)
        f *= (odd or {}).get(d, 1.0) * 1.03 ** ((d - _START).days / 365.25)
        points.append(Point(datetime(d.year, d.month, d.day), _PER_DAY * f * math.exp(rng.gauss(0, _NOISE))))
        d += timedelta(days=1)
    return points


def _expected(d: date) -> float:
    """The target day's clean value (no noise)."""
    f = _WEEK[d.weekday()] * (_CARNIVAL if d == _carnival(d.year) else 1.0)
    return _PER_DAY * f * 1.03 ** ((d - _START).days / 365.25)


def test_carnival_day_read_from_past_years() -> None:
    day = _carnival(2025)  # 3 March 2025; 2023's and 2024's in the history
    fc = forecast(_series(day), datetime(day.year, day.month, day.day), grain="day", calendar_=_CAL)
    assert "Good Friday -46d" in fc.group  # (GB lists Easter Monday only by region)
    assert judge(fc, _expected(day)).passed
    assert fc.baseline < 0.6 * _PER_DAY * _WEEK[0]  # the effect learned, not the ordinary Monday's band


def test_drop_on_carnival_day_still_fails() -> None:
    day = _carnival(2025)
    fc = forecast(_series(day), datetime(day.year, day.month, day.day), grain="day", calendar_=_CAL)
    assert judge(fc, _expected(day)).passed
    assert not judge(fc, 0.5 * _expected(day)).passed
    assert not judge(fc, 0.0).passed


def test_ordinary_monday_after_carnival_keeps_its_band() -> None:
    day = _carnival(2025) + timedelta(days=7)  # the same weekday a week on: no past year showed it
    fc = forecast(_series(day), datetime(day.year, day.month, day.day), grain="day", calendar_=_CAL)
    assert "-39d" not in fc.group
    assert judge(fc, _expected(day)).passed
    assert not judge(fc, _CARNIVAL * _expected(day)).passed


def test_one_past_year_is_no_rule() -> None:
    day = _carnival(2025)
    history = _series(day, start=day - timedelta(days=400))  # 2024's carnival only
    fc = forecast(history, datetime(day.year, day.month, day.day), grain="day", calendar_=_CAL)
    assert "-46d" not in fc.group


def test_day_moved_in_one_year_only_is_no_rule() -> None:
    day = date(2025, 2, 24)  # Good Friday 2025's 53rd day before: ordinary, but an incident fell there in 2024
    odd = {easter(2024) - timedelta(days=2 + 53): 0.3}
    fc = forecast(_series(day, odd=odd), datetime(day.year, day.month, day.day), grain="day", calendar_=_CAL)
    assert "-53d" not in fc.group
    assert judge(fc, _expected(day)).passed


def test_feast_day_up_read_from_past_years() -> None:
    feasts = {easter(y) - timedelta(days=59): _FEAST for y in (2023, 2024)}
    day = easter(2025) - timedelta(days=59)  # Thursday 20 February 2025: Good Friday's 57th day before
    fc = forecast(_series(day, odd=feasts), datetime(day.year, day.month, day.day), grain="day", calendar_=_CAL)
    assert "Good Friday -57d" in fc.group
    assert judge(fc, _FEAST * _expected(day)).passed
    assert not judge(fc, 0.5 * _FEAST * _expected(day)).passed

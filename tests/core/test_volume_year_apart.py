"""A daily series' day in no calendar that stood out a year apart in every past year the history holds (two at least):
the same date (a double-date sale on 11 November) or the same weekday 52 weeks back (a sale on June's second
Tuesday), read against those years' days (`_days_a_year_apart`), not as its weekday. One past year is no rule: a
history of 400 days leaves the day ordinary."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

_CAL = HolidayCalendar(country="GB")  # no holiday near 11 November or June's second Tuesday
_WEEK = [0.9, 0.9, 0.95, 1.0, 1.2, 1.4, 0.8]  # Monday first
_PER_DAY = 8_000.0
_NOISE = 0.04
_SALE = 1.7  # the double-date sale (11 November) and June's second-Tuesday sale: in no calendar
_START = date(2023, 9, 4)  # some 800 days before November 2025


def _second_tuesday_of_june(year: int) -> date:
    first = date(year, 6, 1)
    return first + timedelta(days=(1 - first.weekday()) % 7 + 7)


def _sale(d: date) -> float:
    return _SALE if (d.month, d.day) == (11, 11) or d == _second_tuesday_of_june(d.year) else 1.0


def _series(until: date, start: date = _START, seed: int = 5, odd: dict[date, float] | None = None) -> list[Point]:
    """Daily rows from `start` to the day before `until`: the week, holidays x0.5, the sales (`odd`: days moved
    once, an incident), 4% noise, +3% a year."""
    rng = random.Random(seed)
    points, d = [], start
    while d < until:
        f = _WEEK[d.weekday()] * (0.5 if _CAL.name(d) else 1.0) * _sale(d) * (odd or {}).get(d, 1.0)
        f *= 1.03 ** ((d - _START).days / 365.25)
        points.append(Point(datetime(d.year, d.month, d.day), _PER_DAY * f * math.exp(rng.gauss(0, _NOISE))))
        d += timedelta(days=1)
    return points


def _expected(d: date) -> float:
    """The target day's clean value (no noise)."""
    return _PER_DAY * _WEEK[d.weekday()] * _sale(d) * 1.03 ** ((d - _START).days / 365.25)


def _at(d: date) -> datetime:
    return datetime(d.year, d.month, d.day)


def test_double_date_read_from_two_past_years() -> None:
    day = date(2025, 11, 11)  # a Tuesday; 11 November 2023 (a Saturday) and 2024 (a Monday) in the history
    fc = forecast(_series(day), _at(day), grain="day", calendar_=_CAL)
    assert "11 Nov -1y" in fc.group
    assert judge(fc, _expected(day)).passed
    assert fc.baseline > 1.4 * _PER_DAY * _WEEK[1]  # the sale learned, not the ordinary Tuesday's band


def test_drop_on_double_date_still_fails() -> None:
    day = date(2025, 11, 11)
    fc = forecast(_series(day), _at(day), grain="day", calendar_=_CAL)
    assert not judge(fc, 0.5 * _expected(day)).passed
    assert not judge(fc, 0.0).passed
    assert not judge(fc, 2 * _expected(day)).passed


def test_weekday_sale_read_from_52_weeks_back() -> None:
    day = _second_tuesday_of_june(2025)  # 10 June 2025; 11 June 2024 and 13 June 2023 are 52 and 104 weeks back
    fc = forecast(_series(day, start=date(2023, 4, 3)), _at(day), grain="day", calendar_=_CAL)
    assert "Tue 10 Jun -52w" in fc.group
    assert judge(fc, _expected(day)).passed
    assert not judge(fc, 0.5 * _expected(day)).passed


def test_one_past_year_is_no_rule() -> None:
    day = date(2025, 11, 11)
    history = _series(day, start=day - timedelta(days=400))  # 11 November 2024 only
    fc = forecast(history, _at(day), grain="day", calendar_=_CAL)
    assert "-1y" not in fc.group and "-52w" not in fc.group


def test_day_moved_in_one_year_only_is_no_rule() -> None:
    day = date(2025, 10, 14)  # an ordinary Tuesday: an incident fell on 14 October 2024, none in 2023
    fc = forecast(_series(day, odd={date(2024, 10, 14): 0.3}), _at(day), grain="day", calendar_=_CAL)
    assert "-1y" not in fc.group and "-52w" not in fc.group
    assert judge(fc, _expected(day)).passed


def test_ordinary_day_after_the_sale_keeps_its_band() -> None:
    day = date(2025, 11, 12)  # the day after: no past year showed it
    fc = forecast(_series(day), _at(day), grain="day", calendar_=_CAL)
    assert "-1y" not in fc.group and "-52w" not in fc.group
    assert judge(fc, _expected(day)).passed
    assert not judge(fc, _SALE * 1.1 * _expected(day)).passed

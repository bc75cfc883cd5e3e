"""A day within two holidays' neighbourhoods is read by the holiday whose past days at that offset stood out of
their weeks, not simply the nearer (`_overlapping_neighbourhoods`, `holidays_within`)."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar, holidays_within, near_holiday
from dw_assets.core.volume_model import Point, forecast, judge

_BASE = 3_000.0
_NOISE = 0.04
_WEEK = (1.0, 0.9, 0.9, 0.95, 1.2, 1.05, 1.3)  # Monday first; open every day, holidays too
_START, _END = date(2024, 3, 4), date(2025, 6, 30)

# a feast that moves between years, its returns after it (x2.2, x2.6, x1.8); a rest day that moves too, quiet
# (x0.8) with ordinary days around it; in 2025 the rest day falls three days after the feast
_FEAST = {date(2024, 5, 28): 0, date(2025, 5, 14): 0}  # a Tuesday, a Wednesday
_FEAST_RUN = {0: 0.4, 1: 1.0, 2: 2.2, 3: 2.6, 4: 1.8}
_REST = [date(2024, 7, 6), date(2025, 5, 17)]  # Saturdays
_OVERLAP_CAL = HolidayCalendar(dates={**{d: "Feast" for d in _FEAST}, **{d: "Rest Day" for d in _REST}})


def _series(effects: Mapping[date, float], seed: int = 5) -> list[Point]:
    rng = random.Random(seed)
    out, day = [], _START
    while day <= _END:
        f = _WEEK[day.weekday()] * effects.get(day, 1.0)
        out.append(Point(datetime(day.year, day.month, day.day), _BASE * f * math.exp(rng.gauss(0, _NOISE))))
        day += timedelta(days=1)
    return out


def _overlap_effects(feast_run: Mapping[int, float]) -> dict[date, float]:
    out = {d: 0.8 for d in _REST}
    for feast in _FEAST:
        for k, f in feast_run.items():
            out[feast + timedelta(days=k)] = out.get(feast + timedelta(days=k), 1.0) * f
    return out


def _read(points: list[Point], day: date, cal: HolidayCalendar, factor: float = 1.0) -> tuple[bool, str]:
    at = datetime(day.year, day.month, day.day)
    value = next(q.value for q in points if q.at == at) * factor
    fc = forecast([q for q in points if q.at < at], at, grain="day", calendar_=cal)
    return judge(fc, value).passed, fc.group


def test_holidays_within_names_every_holiday_in_reach_and_counts_a_day_open_holiday() -> None:
    day = date(2025, 5, 16)  # the feast's +2d, the rest day's -1d
    assert near_holiday(day, _OVERLAP_CAL) == "Rest Day -1d"
    assert set(holidays_within(day, _OVERLAP_CAL)) == {"Rest Day -1d", "Feast +2d"}
    # the rest day between the feast and a day after it: a closed day (not counted), or a day of a series open on it
    after = date(2025, 5, 18)
    assert set(holidays_within(after, _OVERLAP_CAL)) == {"Rest Day +1d", "Feast +3d"}
    assert set(holidays_within(after, _OVERLAP_CAL, holidays_open=True)) == {"Rest Day +1d"}
    assert holidays_within(date(2025, 1, 15), _OVERLAP_CAL) == ()


def test_a_day_in_two_neighbourhoods_reads_as_the_holiday_whose_past_days_stood_out() -> None:
    points = _series(_overlap_effects(_FEAST_RUN))
    passed, group = _read(points, date(2025, 5, 16), _OVERLAP_CAL)  # x2.2: the feast's returns, not a rest day's eve
    assert passed and "Feast +2d" in group


def test_a_drop_on_a_day_in_two_neighbourhoods_still_fails() -> None:
    points = _series(_overlap_effects(_FEAST_RUN))
    passed, _ = _read(points, date(2025, 5, 16), _OVERLAP_CAL, factor=0.65)
    assert not passed


def test_a_holiday_whose_past_neighbours_ran_as_usual_does_not_take_the_day() -> None:
    # the feast's past +2d an ordinary day: the nearer rest day keeps the label, as before
    quiet = {k: f for k, f in _FEAST_RUN.items() if k != 2}
    points = _series(_overlap_effects(quiet))
    _, group = _read(points, date(2025, 5, 16), _OVERLAP_CAL)
    assert "Feast" not in group

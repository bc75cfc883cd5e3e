"""A lunar holiday whose date the calendar only estimated ("Feast (estimated)") kept a day off its listed date:
the days around it run the past years' shape a day later. Read on the day the series shows it kept, its journeys
before and after by their offset from that day, named as the years it was announced (`_as_kept`, `_kept_shift`)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, _as_kept, forecast, judge

_BASE = 2_000.0
_NOISE = 0.04
_WEEK = (1.0, 0.95, 0.95, 1.0, 1.3, 1.1, 0.85)  # Monday first
# the holiday's run, by offset from the day it is kept: the journeys out before it, the day itself quiet, the
# returns after it
_SHAPE = {-3: 1.5, -2: 1.9, -1: 2.4, 0: 0.35, 1: 1.7, 2: 2.1, 3: 1.4}
_LISTED_2025 = date(2025, 6, 6)  # a Friday; past years kept on their listed days
_CALENDAR = HolidayCalendar(dates={date(2023, 6, 29): "Feast", date(2024, 6, 17): "Feast",
                                   _LISTED_2025: "Feast (estimated)"})


def _series(kept_2025: date, seed: int = 3) -> list[Point]:
    """A daily series from January 2023 to July 2025 with the feast kept on its listed days in 2023 and 2024 and
    on `kept_2025` in 2025."""
    rng = random.Random(seed)
    kept = [date(2023, 6, 29), date(2024, 6, 17), kept_2025]
    out = []
    day = date(2023, 1, 2)
    while day < date(2025, 7, 15):
        f = _WEEK[day.weekday()]
        for k in kept:
            f *= _SHAPE.get((day - k).days, 1.0)
        out.append(Point(datetime(day.year, day.month, day.day), _BASE * f * math.exp(rng.gauss(0, _NOISE))))
        day += timedelta(days=1)
    return out


def _read(points: list[Point], day: date, factor: float = 1.0) -> tuple[bool, str]:
    at = datetime(day.year, day.month, day.day)
    value = next(q.value for q in points if q.at == at) * factor
    # (the whole history, two past feasts: one alone earns its neighbourhood's days no group of their own)
    fc = forecast([q for q in points if q.at < at], at, grain="day", calendar_=_CALENDAR)
    return judge(fc, value).passed, fc.group


def test_a_feast_kept_a_day_late_is_moved_to_the_day_its_days_show() -> None:
    points = _series(_LISTED_2025 + timedelta(days=1))
    history = [q for q in points if q.at < datetime(2025, 6, 9)]
    cal = _as_kept(history, datetime(2025, 6, 9), _CALENDAR)
    assert cal.name(_LISTED_2025) == ""
    assert cal.name(_LISTED_2025 + timedelta(days=1)) == "Feast"  # named as the years it was announced


def test_the_kept_day_and_the_returns_after_it_read_as_the_past_years() -> None:
    points = _series(_LISTED_2025 + timedelta(days=1))
    passed, group = _read(points, _LISTED_2025 + timedelta(days=1))
    assert passed and "holiday:Feast" in group and "estimated" not in group
    for k in (1, 2):
        passed, group = _read(points, _LISTED_2025 + timedelta(days=1 + k))
        assert passed and f"Feast +{k}d" in group and "estimated" not in group


def test_a_drop_on_a_moved_feast_neighbour_still_fails() -> None:
    points = _series(_LISTED_2025 + timedelta(days=1))
    passed, _ = _read(points, _LISTED_2025 + timedelta(days=3), factor=0.65)
    assert not passed


def test_a_feast_kept_on_its_listed_day_is_not_moved() -> None:
    points = _series(_LISTED_2025)
    history = [q for q in points if q.at < datetime(2025, 6, 9)]
    cal = _as_kept(history, datetime(2025, 6, 9), _CALENDAR)
    assert cal.name(_LISTED_2025) == "Feast"
    assert cal.name(_LISTED_2025 + timedelta(days=1)) == ""
    passed, group = _read(points, _LISTED_2025 + timedelta(days=1))
    assert passed and "Feast +1d" in group


def test_a_feast_not_seen_moved_keeps_its_estimate_on_the_days_it_may_yet_fall_on() -> None:
    points = _series(_LISTED_2025)
    for k, name in ((-3, "Feast"), (-1, "Feast (estimated)"), (0, "Feast (estimated)"), (1, "Feast")):
        target = datetime(2025, 6, 6) + timedelta(days=k)
        cal = _as_kept([q for q in points if q.at < target], target, _CALENDAR)
        assert cal.name(_LISTED_2025) == name


def test_the_journeys_out_of_a_feast_ahead_read_as_the_past_years_whichever_day_it_is_kept() -> None:
    for kept in (_LISTED_2025, _LISTED_2025 + timedelta(days=1)):
        points = _series(kept)
        passed, group = _read(points, _LISTED_2025 - timedelta(days=2))
        assert passed and "near:Feast -" in group
        passed, _ = _read(points, _LISTED_2025 - timedelta(days=2), factor=0.65)
        assert not passed

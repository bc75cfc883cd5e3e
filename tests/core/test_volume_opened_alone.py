"""An hourly series that opened hours it kept closed reads an hour that runs alike every day (its nights) by its same
hour alone, where that read the hour closer on the run's own days than at the level its latest hours ran (an evening
moved by its day's kind says nothing of the night after it): _hour_reads_alone in _opened_hours_read."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.volume_model import (
    Point,
    _hour_reads_alone,
    _same_hour_reading,
    forecast,
    judge,
)

_START = datetime(2025, 3, 3)  # a Monday
_OPENED = _START + timedelta(days=28, hours=22)  # open around the clock from this evening's 22:00 on
_DAY = 600.0  # a busy day's hours, 08:00 to 21:00
_QUIET = 0.75  # every other day after the opening (a day of another kind), its evening too
_NIGHT = 120.0  # every night's hours alike (22:00 to 07:00), whatever the evening before them ran


def _quiet(day: datetime) -> bool:
    return (day.date() - _OPENED.date()).days % 2 == 1


def _clean(at: datetime) -> float:
    if 8 <= at.hour <= 21:
        return _DAY * (_QUIET if at >= _OPENED and _quiet(at) else 1.0)
    return _NIGHT if at >= _OPENED else 0.0  # (its nights closed before the opening: no rows, no partition)


def _series(until: datetime, surge_from: datetime | None = None, seed: int = 3) -> list[Point]:
    rng = random.Random(seed)
    out, at = [], _START
    while at < until:
        value = _clean(at) * (1.6 if surge_from is not None and at >= surge_from else 1.0)
        if value:
            out.append(Point(at, round(value * math.exp(rng.gauss(0, 0.03)))))
        at += timedelta(hours=1)
    return out


def test_a_night_after_a_quiet_evening_reads_at_its_own_nights_level() -> None:
    # the sixth night's 22:00 after a quieter evening: read at the evening's level (x0.75), too low
    target = (_OPENED + timedelta(days=5)).replace(hour=22)
    assert _quiet(target)
    fc = forecast(_series(target), target, grain="hour")
    assert any(n.startswith("hours it kept closed opened") for n in fc.notes)
    assert abs(fc.baseline / _NIGHT - 1) < 0.1
    assert judge(fc, _NIGHT).passed
    assert not judge(fc, 0.0).passed
    assert not judge(fc, 2 * _NIGHT).passed


def test_only_the_hours_that_run_alike_read_alone() -> None:
    at = (_OPENED + timedelta(days=6)).replace(hour=22)
    values = {q.at: q.value for q in _series(at)}
    read = _same_hour_reading(values, _OPENED)
    assert _hour_reads_alone(values, read, at, _OPENED)
    # a day hour that moves with its day's kind is read better at its latest hours' level
    noon = at.replace(hour=12)
    values = {q.at: q.value for q in _series(noon)}
    assert not _hour_reads_alone(values, _same_hour_reading(values, _OPENED), noon, _OPENED)


def test_too_few_days_since_the_opening_keep_the_level() -> None:
    at = (_OPENED + timedelta(days=2)).replace(hour=22)
    values = {q.at: q.value for q in _series(at)}
    assert not _hour_reads_alone(values, _same_hour_reading(values, _OPENED), at, _OPENED)


def test_a_surge_that_holds_through_the_night_still_passes() -> None:
    # a surge in no calendar from the evening on (x1.6, beyond the widest band): read at its latest hours' level
    target = (_OPENED + timedelta(days=6)).replace(hour=23)
    surge = target - timedelta(hours=4)
    fc = forecast(_series(target, surge_from=surge), target, grain="hour")
    assert judge(fc, 1.6 * _NIGHT).passed
    assert not judge(fc, 0.2 * 1.6 * _NIGHT).passed

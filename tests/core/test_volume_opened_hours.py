"""An hourly series that opens hours it kept closed: once a quarter of the day before the target held rows in
weekly slots closed as usual, the history's closed hours say nothing of the target's, and an empty partition
there is an outage. A series whose closed hours stay closed still passes its empties."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.volume_model import Point, forecast, judge

_START = datetime(2025, 3, 3)  # a Monday
_WEEKS = 6
_OPEN_ALL_DAY_FROM = _START + timedelta(days=7 * _WEEKS)  # the Monday after: open around the clock from 00:00


def _open_hour(at: datetime, all_day_from: datetime | None) -> bool:
    if all_day_from is not None and at >= all_day_from:
        return True
    if at.weekday() == 6:
        return False  # closed on Sundays
    return 8 <= at.hour <= 21 if at.weekday() < 5 else 10 <= at.hour <= 17


def _gates(until: datetime, all_day_from: datetime | None = _OPEN_ALL_DAY_FROM, late_evening: datetime | None = None,
           late_hours: int = 4, seed: int = 3) -> list[Point]:
    """A reading room's gate entries per hour (about 300 an hour by day, 60 at night), only its open hours
    present (a closed hour has no rows, so no partition); open around the clock from `all_day_from`, and on
    `late_evening`'s day for `late_hours` more hours (until 01:59 the next morning)."""
    rng = random.Random(seed)
    out, at = [], _START
    while at < until:
        late = late_evening is not None and late_evening <= at < late_evening + timedelta(hours=late_hours)
        if _open_hour(at, all_day_from) or late:
            base = 300.0 if 8 <= at.hour <= 21 else 60.0
            out.append(Point(at, round(base * math.exp(rng.gauss(0, 0.05)))))
        at += timedelta(hours=1)
    return out


def test_an_empty_night_hour_fails_once_the_nights_opened() -> None:
    # the second night open around the clock: the day before held rows at night, in slots closed as usual
    target = _OPEN_ALL_DAY_FROM + timedelta(days=1, hours=3)
    fc = forecast(_gates(target), target, grain="hour")
    verdict = judge(fc, 0.0)
    assert not verdict.passed and verdict.reason == "empty"
    assert not any(n.startswith("closed as usual") for n in fc.notes)


def test_an_empty_sunday_hour_fails_once_the_series_opened_through_the_night() -> None:
    # Sunday noon after a night and a Saturday evening open: the weekday's own closure is no longer usual
    target = _OPEN_ALL_DAY_FROM + timedelta(days=6, hours=12)
    assert target.weekday() == 6
    verdict = judge(forecast(_gates(target), target, grain="hour"), 0.0)
    assert not verdict.passed


def test_an_empty_night_hour_still_passes_where_the_nights_stay_closed() -> None:
    target = _OPEN_ALL_DAY_FROM + timedelta(days=1, hours=3)
    fc = forecast(_gates(target, all_day_from=None), target, grain="hour")
    verdict = judge(fc, 0.0)
    assert verdict.passed and verdict.reason == "empty_as_usual"


def test_one_late_evening_does_not_open_the_night() -> None:
    # open until 01:59 one night (22:00-01:59, four hours in closed slots): fewer than a quarter of a day, so
    # 03:00 that night is closed as usual
    evening = _OPEN_ALL_DAY_FROM + timedelta(days=1, hours=22)
    target = evening + timedelta(hours=5)
    verdict = judge(forecast(_gates(target, all_day_from=None, late_evening=evening), target, grain="hour"), 0.0)
    assert verdict.passed and verdict.reason == "empty_as_usual"


def test_a_night_open_once_and_closed_after_does_not_open_the_next_evening() -> None:
    # open through one night (22:00-05:59, eight hours in closed slots), then closed until 08:00 as usual: the
    # next evening's 22:00 is closed as usual again (the run of open hours reaching it broke in the morning)
    evening = _OPEN_ALL_DAY_FROM + timedelta(days=1, hours=22)
    target = evening + timedelta(days=1)
    history = _gates(target, all_day_from=None, late_evening=evening, late_hours=8)
    verdict = judge(forecast(history, target, grain="hour"), 0.0)
    assert verdict.passed and verdict.reason == "empty_as_usual"


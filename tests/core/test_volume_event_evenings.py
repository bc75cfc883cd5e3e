"""An evening event in no calendar (a festival's crowds going home, night after night): an hour whose same hour ran
above the band yesterday, the hour before it up yesterday and today, is read at yesterday's move with its band as wide
as before, so the evening passes and a drop from the evening's level still fails; an evening's first hour, a move down
and an evening whose earlier hour ran as usual are read as before: _event_evening_read in volume_model."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.volume_model import Point, forecast, judge

_START = datetime(2025, 5, 5)  # a Monday: four weeks of history before the festival
_FESTIVAL = datetime(2025, 6, 2)  # its first evening
_EVENING = {18: 1.6, 19: 1.9, 20: 2.1, 21: 1.8}  # the festival's crowds going home
_LOST = {19: 0.5, 20: 0.5, 21: 0.5}  # a nightly load that loses half its evening, day after day


def _clean(at: datetime, evening: dict[int, float] | None = None, days: int = 7) -> float:
    base = (300.0 + 40.0 * at.hour) * (1.0 if at.weekday() < 5 else 0.8)
    on = _FESTIVAL.date() <= at.date() < _FESTIVAL.date() + timedelta(days=days)
    return base * ((evening if evening is not None else _EVENING).get(at.hour, 1.0) if on else 1.0)


def _series(until: datetime, evening: dict[int, float] | None = None, days: int = 7, seed: int = 11) -> list[Point]:
    rng = random.Random(seed)
    out, at = [], _START
    while at < until:
        if 6 <= at.hour <= 21:
            out.append(Point(at, round(_clean(at, evening, days) * math.exp(rng.gauss(0, 0.03)))))
        at += timedelta(hours=1)
    return out


def _moved(notes: list[str]) -> bool:
    return any("an event's evenings in no calendar" in n for n in notes)


def test_an_events_second_evening_reads_at_its_first_evenings_move() -> None:
    target = _FESTIVAL + timedelta(days=1, hours=20)  # yesterday's 20h at x2.1, today's 19h already up
    fc = forecast(_series(target), target, grain="hour")
    assert _moved(fc.notes)
    clean = _clean(target)
    assert judge(fc, clean).passed
    assert abs(fc.baseline / clean - 1) < 0.15


def test_a_drop_from_the_evenings_level_still_fails() -> None:
    target = _FESTIVAL + timedelta(days=2, hours=19)
    fc = forecast(_series(target), target, grain="hour")
    assert _moved(fc.notes)
    clean = _clean(target)
    assert judge(fc, clean).passed
    assert not judge(fc, clean * 0.65).passed  # the band moved, no wider: a 35% drop of the evening fails
    assert not judge(fc, clean * 2).passed  # and so does a duplicate of it
    assert not judge(fc, 0.0).passed


def test_an_evenings_first_hour_is_read_as_before() -> None:
    target = _FESTIVAL + timedelta(days=2, hours=18)  # nothing before it today tells it from a spike
    fc = forecast(_series(target), target, grain="hour")
    assert not _moved(fc.notes)


def test_a_load_losing_its_evening_day_after_day_still_fails() -> None:
    target = _FESTIVAL + timedelta(days=2, hours=20)  # half the evening lost on each of the latest days and at 19h
    fc = forecast(_series(target, _LOST), target, grain="hour")
    assert not _moved(fc.notes)
    assert not judge(fc, _clean(target, _LOST)).passed


def test_an_evening_whose_earlier_hour_ran_as_usual_is_read_as_usual() -> None:
    # three evenings, then an ordinary one: its 19h ran as usual, so its 20h is no festival's
    target = _FESTIVAL + timedelta(days=3, hours=20)
    fc = forecast(_series(target, days=3), target, grain="hour")
    assert not _moved(fc.notes)
    assert judge(fc, _clean(target, days=3)).passed

"""A surge in no calendar that climbed over days and fell back to the level before it is no new level: the hours
back at that level read against it, not against the surge (_surge_returned, before the shift rule)."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.volume_model import Point, forecast, judge

_START = datetime(2025, 6, 2)  # a Monday
_SURGE = _START + timedelta(days=28)  # a pilgrimage's (a festival's) days, in no calendar
# the surge's size by day from its first: a climb over ten days to x7, then the fall back over three
_CLIMB = [1.3, 1.5, 1.8, 2.2, 2.7, 3.3, 4.0, 4.8, 5.6, 6.5, 7.0, 3.5, 1.8, 1.2]
_LEVEL = 400.0  # the busiest hour of an ordinary day
_SHAPE = [0.5, 0.4, 0.3, 0.25, 0.25, 0.3, 0.4, 0.55, 0.7, 0.8, 0.85, 0.9, 0.9, 0.9, 0.85, 0.85, 0.9, 0.95, 1.0,
          1.0, 0.95, 0.9, 0.8, 0.65]


# a surge that climbed and then held its height for days (still at it on the target's day)
_HELD = [1.4, 1.8, 2.3, 2.9, 3.6, 3.6, 3.6, 3.6, 3.6]


def _surge(at: datetime, climb: list[float] = _CLIMB) -> float:
    day = (at.date() - _SURGE.date()).days
    return climb[day] if 0 <= day < len(climb) else 1.0


def _clean(at: datetime, step: float = 1.0, climb: list[float] = _CLIMB) -> float:
    return _LEVEL * _SHAPE[at.hour] * _surge(at, climb) * step


def _series(until: datetime, seed: int = 5, step_at: datetime | None = None, accepted: bool = False,
            climb: list[float] = _CLIMB) -> list[Point]:
    rng = random.Random(seed)
    out, at = [], _START
    while at < until:
        step = 1.5 if step_at is not None and at >= step_at else 1.0
        out.append(Point(at, round(_clean(at, step, climb) * math.exp(rng.gauss(0, 0.04))),
                         shift=accepted and at == step_at))
        at += timedelta(hours=1)
    return out


def _returned_note(fc: object) -> bool:
    return any("surge in no calendar" in n for n in getattr(fc, "notes", []))


def test_an_hour_back_at_the_level_after_a_surge_passes() -> None:
    # the surge's last day (x1.2), back near the level: read against the level before it, not the surge's (the shift
    # rule took the fall for a new level against the climb's, and the hour read 0.68x)
    target = (_SURGE + timedelta(days=len(_CLIMB) - 1)).replace(hour=14)
    fc = forecast(_series(target), target, grain="hour")
    assert judge(fc, _clean(target)).passed
    assert _returned_note(fc)


def test_faults_after_the_return_still_fail() -> None:
    # two days after it, the baseline is the level's (without the rule 0.8x too high, its band at the ceiling)
    target = (_SURGE + timedelta(days=len(_CLIMB) + 1)).replace(hour=20)
    fc = forecast(_series(target), target, grain="hour")
    assert abs(fc.baseline / _clean(target) - 1) < 0.1
    assert _returned_note(fc)
    assert not judge(fc, 0.65 * _clean(target)).passed
    assert not judge(fc, 2 * _clean(target)).passed


def test_a_drop_at_the_surge_height_still_fails() -> None:
    # still at its height (held four days): nothing has returned, the rule does not read it, and a 35% drop
    # there fails as before
    target = (_SURGE + timedelta(days=8)).replace(hour=15)
    fc = forecast(_series(target, climb=_HELD), target, grain="hour")
    assert not _returned_note(fc)
    assert judge(fc, _clean(target, climb=_HELD)).passed
    assert not judge(fc, 0.65 * _clean(target, climb=_HELD)).passed


def test_a_step_that_holds_is_no_surge() -> None:
    # a step up that holds (not accepted) and its hours at the new level: no return, no surge read
    step_at = _START + timedelta(days=30, hours=10)
    target = step_at + timedelta(days=3, hours=4)
    history = [Point(q.at, q.value / _surge(q.at)) for q in _series(target, step_at=step_at)]
    fc = forecast(history, target, grain="hour")
    assert not _returned_note(fc)
    assert judge(fc, _LEVEL * _SHAPE[target.hour] * 1.5).passed


def test_an_accepted_step_inside_a_run_is_no_surge() -> None:
    # the owner accepted a step up on the surge's third day that then fell back with the surge: the owner's
    # word holds, the run is not read as a surge that returned
    step_at = (_SURGE + timedelta(days=2)).replace(hour=10)
    target = (_SURGE + timedelta(days=len(_CLIMB) + 1)).replace(hour=14)
    history = [Point(q.at, q.value, shift=q.at == step_at) for q in _series(target)]
    fc = forecast(history, target, grain="hour")
    assert not _returned_note(fc)

"""A short dark run of an hourly series that ended on past days (a rotating blackout block, a nightly maintenance
window) is an episode, not a new level: after the shift rule took its hours for one, the next hour may read at the
level before it (_dark_run_ended_before). A run never seen to end, or longer than every past one, stays a level."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.volume_model import Point, forecast, judge

_START = datetime(2025, 6, 2)  # a Monday
_LEVEL = 400.0  # the busiest hour of an ordinary day
_SHAPE = [0.2, 0.15, 0.1, 0.1, 0.1, 0.15, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0, 0.95, 0.9, 0.85, 0.9, 0.95, 1.0,
          0.95, 0.8, 0.6, 0.4, 0.3]
_DARK = 0.15  # a block's hours: a few shops' card readers on generators
_TARGET_DAY = _START + timedelta(days=28)


def _blocks(days: list[int], first: int = 14, hours: int = 4) -> dict[int, range]:
    """The dark block (its local hours) of each day (days counted from _START)."""
    return {d: range(first, first + hours) for d in days}


_EVERY_THIRD = _blocks(list(range(1, 28, 3)))  # nine past blocks, 14:00-17:59
_ONCE = _blocks([10])  # one past block: no habit yet


def _clean(at: datetime, blocks: dict[int, range], level: float = _LEVEL) -> float:
    day = (at.date() - _START.date()).days
    dark = _DARK if at.hour in blocks.get(day, ()) else 1.0
    return level * _SHAPE[at.hour] * dark


def _series(until: datetime, blocks: dict[int, range], seed: int = 3, level: float = _LEVEL) -> list[Point]:
    rng = random.Random(seed)
    out, at = [], _START
    while at < until:
        out.append(Point(at, round(_clean(at, blocks, level) * math.exp(rng.gauss(0, 0.05)))))
        at += timedelta(hours=1)
    return out


def _dark_note(fc: object) -> bool:
    return any("may read at the level before it" in n and "within a day" in n for n in getattr(fc, "notes", []))


def _today(blocks: dict[int, range], first: int = 14, hours: int = 4) -> dict[int, range]:
    return {**blocks, 28: range(first, first + hours)}


def test_the_first_lit_hour_after_a_block_like_past_ones_passes() -> None:
    # four dark hours 14:00-17:59 today, as on nine past days: 18:00 is back at its level (the shift rule read the
    # block as a new level and the hour at x6.7 failed its hard ratio)
    blocks = _today(_EVERY_THIRD)
    target = _TARGET_DAY.replace(hour=18)
    fc = forecast(_series(target, blocks), target, grain="hour")
    assert fc.shift is not None and not fc.shift["accepted"]
    assert _dark_note(fc)
    assert judge(fc, _clean(target, blocks)).passed


def test_a_dark_hour_and_faults_after_the_block_still_fail_or_pass_as_before() -> None:
    blocks = _today(_EVERY_THIRD)
    target = _TARGET_DAY.replace(hour=18)
    fc = forecast(_series(target, blocks), target, grain="hour")
    assert _dark_note(fc)
    lit = _clean(target.replace(hour=12), blocks) * _SHAPE[18] / _SHAPE[12]
    # the near side as before: a fifth dark hour reads at the run's level
    assert judge(fc, lit * _DARK).passed
    # the far side reaches the level before it, no further: a duplicated lit hour and an empty one fail
    assert not judge(fc, 2 * lit).passed
    assert not judge(fc, 0).passed


def test_a_run_longer_than_every_past_block_stays_a_level() -> None:
    # eight dark hours today where the past blocks held four: no precedent ended it, so it is the shift rule's level
    blocks = _today(_EVERY_THIRD, hours=8)
    target = _TARGET_DAY.replace(hour=22)
    fc = forecast(_series(target, blocks), target, grain="hour")
    assert fc.shift is not None
    assert not _dark_note(fc)
    assert not judge(fc, _clean(target, {})).passed


def test_one_past_block_earns_nothing() -> None:
    # a single past block (an incident) cannot tell a habit: the hour after today's block reads against the run
    blocks = _today(_ONCE)
    target = _TARGET_DAY.replace(hour=18)
    fc = forecast(_series(target, blocks), target, grain="hour")
    assert not _dark_note(fc)
    assert not judge(fc, _clean(target, blocks)).passed


def test_a_feed_that_drops_for_the_first_time_stays_a_level() -> None:
    # no dark run in the history at all: a new low is a new level, and its hours back up read as before (fail)
    blocks = _today({})
    target = _TARGET_DAY.replace(hour=18)
    fc = forecast(_series(target, blocks), target, grain="hour")
    assert fc.shift is not None
    assert not _dark_note(fc)
    assert not judge(fc, _clean(target, blocks)).passed


def test_a_few_rows_an_hour_cannot_tell_a_dark_run() -> None:
    # the same blocks on a group of eight rows at its busiest hour: a block's hours expect fewer than ten rows at the
    # level, where three hours that low come by counting noise alone (a small group's nights): no habit is earned
    blocks = _today(_EVERY_THIRD)
    target = _TARGET_DAY.replace(hour=18)
    fc = forecast(_series(target, blocks, level=8.0), target, grain="hour")
    assert fc.shift is not None
    assert not _dark_note(fc)

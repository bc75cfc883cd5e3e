"""A block of hours off the level inside one day that the two days before held too, ended before the target's hour
(_run_repeats_yesterdays_block): a heat wave's afternoons fall day after day while the hour after them reads as
usual; the shift rule's run over the afternoon is the days' shape, not their level, and the hour after it is read
at the level. A run the day before did not hold (an outage, a step) stays the shift rule's new level."""
from __future__ import annotations

import math
import random
from datetime import datetime, timedelta
from unittest import mock

from dw_assets.core import volume_model
from dw_assets.core.volume_model import Point, forecast, judge

# an ordinary day: a quiet night, the afternoon's rides, the evening strolls
SHAPE = (0.3, 0.15, 0.07, 0.04, 0.04, 0.05, 0.1, 0.3, 0.6, 0.6, 0.6, 0.7, 0.8, 0.8, 0.8, 0.8, 0.85, 0.9, 1.0,
         1.0, 0.9, 0.8, 0.6, 0.45)
LEVEL = 2000.0
START = datetime(2026, 7, 1)
DAYS = 28
BLOCK = range(12, 18)  # the afternoon's hours that fall (in no calendar)
FALL = 0.55  # (within the hard ratio: a fall beyond it the dark-run rule reads as an episode ending)


def _series(block_days: int, seed: int = 3, fall: float = FALL) -> list[Point]:
    """DAYS days of hours and the next day's, the afternoon's BLOCK x`fall` on the latest `block_days` days
    (the next day's included), 5% noise."""
    rng = random.Random(seed)
    points = []
    for k in range(24 * (DAYS + 1)):
        at = START + timedelta(hours=k)
        day = k // 24
        factor = fall if at.hour in BLOCK and day > DAYS - block_days else 1.0
        points.append(Point(at, round(LEVEL * SHAPE[at.hour] * factor * math.exp(rng.gauss(0, 0.05)))))
    return points


def _target(series: list[Point], hour: int) -> tuple[list[Point], Point]:
    k = 24 * DAYS + hour
    return series[:k], series[k]


def _without_rule() -> mock._patch:
    return mock.patch.object(volume_model, "_run_repeats_yesterdays_block", lambda *args: False)


def test_the_hour_after_a_block_the_days_before_held_reads_at_the_level() -> None:
    """The wave's third day: the 18h after the afternoon's fall, as the two days before's 18h were, reads at the
    ordinary day's share and passes; without the rule the afternoon's fall is the level and the 18h fails at
    about 2x."""
    history, target = _target(_series(block_days=3), 18)
    fc = forecast(history, target.at, grain="hour")
    assert fc.shift is None
    assert 0.8 < fc.baseline / (LEVEL * SHAPE[18]) < 1.25, fc.baseline
    assert judge(fc, target.value).passed, (target.value, fc.lower, fc.upper)
    assert any("repeats the days before's block of hours" in n for n in fc.notes)
    with _without_rule():
        plain = forecast(history, target.at, grain="hour")
    assert plain.shift is not None and not plain.shift["accepted"]
    assert not judge(plain, target.value).passed, (target.value, plain.lower, plain.upper)


def test_a_drop_after_the_block_still_fails() -> None:
    """A 35% drop at the 18h after the block fails against the level."""
    history, target = _target(_series(block_days=3), 18)
    fc = forecast(history, target.at, grain="hour")
    assert not judge(fc, 0.65 * target.value).passed


def test_a_block_the_days_before_did_not_hold_stays_the_level() -> None:
    """The wave's first day (or an outage from noon), and its second (one day's block is no shape yet): the run is
    the shift rule's new level as before."""
    for block_days in (1, 2):
        history, target = _target(_series(block_days=block_days), 18)
        fc = forecast(history, target.at, grain="hour")
        assert fc.shift is not None and not fc.shift["accepted"], block_days
        assert not any("repeats the days before's block of hours" in n for n in fc.notes), block_days


def test_an_hour_the_block_held_the_day_before_stays_in_it() -> None:
    """Inside the block (15h after 12h-14h), the day before's 15h fell too: the run stays the level, the hour
    reads low and passes."""
    history, target = _target(_series(block_days=3), 15)
    fc = forecast(history, target.at, grain="hour")
    assert not any("repeats the days before's block of hours" in n for n in fc.notes)
    assert judge(fc, target.value).passed, (target.value, fc.lower, fc.upper)


def test_a_run_that_holds_the_target_hour_is_untouched() -> None:
    """A step on every hour for over a day: the run holds the target's hour, the rule does not open."""
    rng = random.Random(9)
    series = [Point(START + timedelta(hours=k), round(LEVEL * SHAPE[k % 24] * (0.5 if k >= 24 * DAYS - 30 else 1.0)
                                                       * math.exp(rng.gauss(0, 0.05))))
              for k in range(24 * (DAYS + 1))]
    history, target = _target(series, 18)
    fc = forecast(history, target.at, grain="hour")
    assert not any("repeats the days before's block of hours" in n for n in fc.notes)

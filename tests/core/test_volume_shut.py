"""A series its owner accepted as shut for good: an empty partition accepted as a shift, empty since. Its later
empty partitions are its new level, not failed loads; a series never accepted as shut still fails empty."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.volume_model import (
    ModelParams,
    Point,
    _shut_by_accepted_shift,
    forecast,
    judge,
    total_of_groups,
)

_START = datetime(2025, 1, 6)  # a Monday
_WEEK = [1.0, 1.05, 1.0, 1.1, 1.2, 0.9, 0.5]  # a region's agents, busier on Fridays, quiet on Sundays
_DAYS = 200
_CLOSED_FROM = 170  # the region's network sold: no rows from this day


def _region(closed_from: int | None = _CLOSED_FROM, accepted_at: int | None = _CLOSED_FROM,
            rows_back_at: int | None = None, seed: int = 5) -> list[Point]:
    """A region's transactions per day, ~4,000 an ordinary Monday with 3% noise, empty from `closed_from` (rows
    again from `rows_back_at`), the owner accepting `accepted_at` as a new level."""
    rng = random.Random(seed)
    out = []
    for i in range(_DAYS):
        at = _START + timedelta(days=i)
        value = 4_000.0 * _WEEK[at.weekday()] * math.exp(rng.gauss(0, 0.03))
        if closed_from is not None and i >= closed_from and (rows_back_at is None or i < rows_back_at):
            value = 0.0
        out.append(Point(at, round(value), accepted=i == accepted_at, shift=i == accepted_at))
    return out


def _target() -> datetime:
    return _START + timedelta(days=_DAYS)


def test_empty_after_an_accepted_empty_shift_is_expected() -> None:
    # the owner accepted the first empty day as a new level: every later empty day is that level
    fc = forecast(_region(), _target(), grain="day")
    verdict = judge(fc, 0.0)
    assert verdict.passed and verdict.reason == "empty_as_usual"
    assert fc.closed and fc.lower == 0.0
    assert any("shut for good" in n for n in fc.notes)


def test_empty_on_the_day_after_the_accepted_one_is_expected() -> None:
    # only the accepted partition itself since the closure: the owner's word is enough
    history = _region()[:_CLOSED_FROM + 1]
    verdict = judge(forecast(history, _START + timedelta(days=_CLOSED_FROM + 1), grain="day"), 0.0)
    assert verdict.passed


def test_empty_days_never_accepted_still_fail() -> None:
    # the same month of empty days without the owner's word is a failed load, every day
    fc = forecast(_region(accepted_at=None), _target(), grain="day")
    assert _shut_by_accepted_shift(_region(accepted_at=None)) is None
    assert judge(fc, 0.0).reason == "empty"


def test_an_accepted_step_down_with_rows_is_no_closure() -> None:
    # a shift accepted on a partition with rows (a smaller network, not none): an empty day still fails
    history = _region(closed_from=None)
    fc = forecast(history, _target(), grain="day")
    assert _shut_by_accepted_shift(history) is None
    assert judge(fc, 0.0).reason == "empty"


def test_rows_back_after_the_closure_end_it() -> None:
    # rows again after the accepted closure (unaccepted): the series is read as usual and an empty day fails
    history = _region(rows_back_at=_CLOSED_FROM + 10)
    assert _shut_by_accepted_shift(history) is None
    assert judge(forecast(history, _target(), grain="day"), 0.0).reason == "empty"


def test_rows_back_on_a_shut_series_fail() -> None:
    # the old level's rows on a series shut for good: a reopening (or rows loaded under the wrong group)
    fc = forecast(_region(), _target(), grain="day")
    assert not judge(fc, 4_000.0).passed
    assert judge(fc, 1.0).passed


def test_a_series_empty_from_its_start_is_not_shut() -> None:
    # an accepted shift on a series that never had rows says nothing of a closure
    history = [Point(_START + timedelta(days=i), 0.0, accepted=i == 5, shift=i == 5) for i in range(30)]
    assert _shut_by_accepted_shift(history) is None


def test_a_total_read_as_its_groups_sum_counts_a_shut_group_as_no_rows() -> None:
    open_group = forecast(_region(closed_from=None, accepted_at=None, seed=7), _target(), grain="day")
    shut = forecast(_region(), _target(), grain="day")
    total = forecast(_region(closed_from=None, accepted_at=None, seed=9), _target(), grain="day")
    summed = total_of_groups(total, [open_group, shut], ModelParams())
    assert math.isclose(summed.baseline, open_group.baseline)


def test_a_shift_accepted_on_a_usual_empty_partition_is_no_closure() -> None:
    # a group closed on Sundays, the shift accepted on a Sunday (the other groups' new level): Monday's rows are
    # its usual ones, not a reopening
    rng = random.Random(11)
    history, days = [], 203  # the last of them a Sunday
    for i in range(days):
        at = _START + timedelta(days=i)
        value = 0.0 if at.weekday() == 6 else round(2_000.0 * _WEEK[at.weekday()] * math.exp(rng.gauss(0, 0.03)))
        history.append(Point(at, value, accepted=i == days - 1, shift=i == days - 1))
    assert history[-1].at.weekday() == 6 and history[-1].shift
    target = _START + timedelta(days=days)
    assert _shut_by_accepted_shift(history) is None
    assert judge(forecast(history, target, grain="day"), 2_000.0).passed

"""A series of a few rows a partition that reaches zero: its fit reads the log of its positive counts only (1s, 2s
and 3s), whose spread cannot see a small count's noise, so its band is the expected count's own Poisson tails
(`_sparse_count`): four rows against about one expected are a count; a count far beyond the Poisson tails still
fails, an empty partition is judged as before, and so is a series of a few dozen rows."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

import pytest

from dw_assets.core.volume_model import Point, _sparse_count, forecast, judge

_START = datetime(2025, 3, 3)  # a Monday


def _poisson(rng: random.Random, mean: float) -> int:
    """Knuth's product of uniforms: a Poisson count of `mean` (small means only)."""
    limit, k, product = math.exp(-mean), 0, rng.random()
    while product > limit:
        k += 1
        product *= rng.random()
    return k


def _daily(mean: float, days: int = 84, seed: int = 7, weekend: float = 1.0) -> list[Point]:
    """A daily count of `mean` rows on weekdays (Poisson), `weekend` times that on Saturdays and Sundays, zeros kept
    as partitions."""
    rng = random.Random(seed)
    out = []
    for i in range(days):
        at = _START + timedelta(days=i)
        out.append(Point(at, float(_poisson(rng, mean * (weekend if at.weekday() >= 5 else 1.0)))))
    return out


def _target(history: list[Point]) -> datetime:
    return history[-1].at + timedelta(days=1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_count_of_a_few_rows_reaching_zero_is_judged_by_its_poisson_tails(seed: int):
    # half a row a day: its positive counts are 1s and a few 2s, a log spread of about 0.3, whose band (2.5x-3.6x)
    # failed four rows, which a count of about one reaches once in a few hundred days
    history = _daily(0.5, seed=seed)
    assert any(q.value == 0 for q in history)
    fc = forecast(history, _target(history))
    assert judge(fc, 4).passed, (fc.baseline, fc.lower, fc.upper, fc.hard_ratio)
    assert judge(fc, 0).passed and judge(fc, 1).passed
    # twenty is beyond anything counting gives (about once in 10^17): still a fault
    assert not judge(fc, 20).passed


def test_an_empty_weekday_where_about_five_rows_are_expected_still_fails():
    # five rows a weekday, one at weekends (empty at weekends now and then, never on a weekday): the band is the
    # count's tails, but an empty weekday stays a fault (a small group's rows missing), as before
    history = _daily(5.0, seed=4, weekend=0.2)
    assert any(q.value == 0 for q in history) and not any(q.value == 0 for q in history if q.at.weekday() < 5)
    target = _target(history)
    while target.weekday() >= 5:
        target += timedelta(days=1)
    fc = forecast(history, target)
    assert judge(fc, 0).reason == "empty" and judge(fc, 1).passed


def test_a_series_of_a_few_dozen_rows_is_judged_as_before():
    history = _daily(40.0, seed=5)
    history[30] = Point(history[30].at, 0.0)  # an outage's empty day: no sparse series
    fc = forecast(history, _target(history))
    assert not _sparse_count(fc.baseline, [history[30]])
    assert judge(fc, 0).reason == "empty"
    assert not judge(fc, 80).passed


@pytest.mark.parametrize("expected, zeros, sparse", [(1.0, 1, True), (9.0, 1, True), (9.5, 1, False), (1.0, 0, False)])
def test_a_sparse_count_is_a_few_rows_on_a_series_that_reached_zero(expected: float, zeros: int, sparse: bool):
    empties = [Point(_START, 0.0)] * zeros
    assert _sparse_count(expected, empties) is sparse

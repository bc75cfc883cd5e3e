"""A many-day series whose own year parts from the sun's (lunar months: twelve make 354 days) has its own year's smooth
season fitted beside the sun's (`_own_year_apart`, `_year_harmonics`' `year_days`); a cadence whose year of partitions
misses the sun's by a few days a year (thirty-day cycles) keeps the sun's alone."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

import numpy as np

from dw_assets.core.volume_model import ModelParams, _own_year_apart, _year_harmonics, _yearly_season


def _lunar_keys(count: int) -> list[datetime]:
    """First days of an arithmetic lunar calendar's months, 30 and 29 days alternately (354 days a year)."""
    out, at = [], datetime(2019, 9, 1)
    for k in range(count):
        out.append(at)
        at += timedelta(days=30 if k % 2 == 0 else 29)
    return out


def _cadence_keys(count: int, days: int) -> list[datetime]:
    return [datetime(2021, 1, 4) + timedelta(days=days * k) for k in range(count)]


def test_three_years_of_lunar_months_part_from_the_suns_year() -> None:
    """36 lunar months and the target: their places drift 33 days through the sun's year, more than a month."""
    year = _own_year_apart(_lunar_keys(37))
    assert year is not None and abs(year - 354) <= 1


def test_thirty_day_cycles_and_four_weekly_periods_keep_the_suns_year() -> None:
    """Three years of thirty-day cycles (twelve make 360 days) drift 16 days through the sun's year, half a cycle:
    the same partitions in both years; four-weekly periods (364 days) a day a year."""
    assert _own_year_apart(_cadence_keys(37, 30)) is None
    assert _own_year_apart(_cadence_keys(40, 28)) is None


def test_a_short_lunar_history_keeps_the_suns_year() -> None:
    """Two years of lunar months drift 22 days, less than a month: the two years' harmonics cannot be told apart."""
    assert _own_year_apart(_lunar_keys(25)) is None


def test_the_own_years_harmonics_are_fitted_beside_the_suns() -> None:
    """The sun's columns are unchanged, the own year's follow them, their angle zero at the last middle."""
    keys = _lunar_keys(37)
    sun = _year_harmonics(keys)
    both = _year_harmonics(keys, 354.0)
    assert both.shape == (37, 1 + 4 * 2)
    assert np.allclose(both[:, :5], sun)
    assert np.isclose(both[-1, 5], 1.0) and np.isclose(both[-1, 6], 0.0)  # cos 0, sin 0 at the target
    # a year of 354 days back the own year's angle is whole again, the sun's is not
    back = next(i for i, k in enumerate(keys) if (keys[-1] - k).days == 354)
    assert np.isclose(both[back, 5], 1.0)
    assert not np.isclose(sun[back, 1], sun[-1, 1], atol=0.01)


def _season_error(seed: int, own_year: bool) -> float:
    """How far the smooth season fitted to three years of lunar months misreads the target's (up to the level): a
    lunar season (0.2, a cycle of 354 days) on a solar one (0.15), 2% noise."""
    rng = random.Random(seed)
    keys = _lunar_keys(38)
    history, target = keys[:-1], keys[-1]

    def season(at: datetime) -> float:
        return 0.2 * math.cos(2 * math.pi * (at - keys[0]).days / 354) \
            + 0.15 * math.cos(2 * math.pi * (at.timetuple().tm_yday - 200) / 365.25)

    x = [math.log(1000) + season(at) + rng.gauss(0, 0.02) for at in history]
    read = _yearly_season([float(i) for i in range(len(x))], x, [{} for _ in x], history, target, 12, 6, ModelParams(),
                          12, _own_year_apart(keys) if own_year else None)
    assert read is not None
    values, now, _ = read
    level = float(np.mean([v - season(at) for v, at in zip(values, history)]))
    return abs(now - level - season(target))


def test_a_lunar_season_is_read_in_its_own_year_beside_the_suns() -> None:
    """The target's season misread by 0.06 on average with the own year's harmonics, by 0.10 in the sun's year alone
    (the lunar cycle read as the sun's, misplaced by the eleven days a year it drifts). Fails without the own year's
    columns (`year_days` None: both errors the same; water29's code had no such parameter)."""
    own = [_season_error(seed, True) for seed in range(1, 6)]
    sun = [_season_error(seed, False) for seed in range(1, 6)]
    assert float(np.mean(own)) < 0.7 * float(np.mean(sun)), (own, sun)

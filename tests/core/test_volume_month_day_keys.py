"""Partitions keyed on the same few days of every month (half-months on the 1st and the 16th, dekads): unequal
spans read per day, a season by the year's position, a band judged for the days a partition holds."""

from __future__ import annotations

import itertools
import math
import random
import re
from datetime import date, datetime, timedelta

import pytest

from dw_assets.core.volume_model import Forecast, ModelParams, Point, _month_day_keys, forecast, judge

# a dairy's milk per day over the year (a spring flush in October, a low in April), 2% noise per partition
_PER_DAY = 1_000.0
_SEASON = 0.2
_NOISE = 0.02


def _keyed(days: tuple[int, ...], first: date, count: int) -> list[tuple[datetime, int]]:
    """`count` keys on `days` of every month from `first` (one of them), each with its span in days."""
    keys, d = [], first
    while len(keys) < count + 1:
        if d.day in days:
            keys.append(datetime(d.year, d.month, d.day))
        d += timedelta(days=1)
    return [(a, (b - a).days) for a, b in itertools.pairwise(keys)]


def _milk(days: tuple[int, ...] = (1, 16), years: int = 4, seed: int = 3, drought: float = 1.0) -> list[Point]:
    """Milk per partition: `drought` x from November 2022 to mid-April 2023 (pastures burnt, in no calendar)."""
    rng = random.Random(seed)
    out = []
    for at, span in _keyed(days, date(2022, 1, 1), 12 * len(days) * years):
        middle = at + timedelta(days=span / 2)
        season = math.exp(_SEASON * math.cos(2 * math.pi * (middle.timetuple().tm_yday - 288) / 365.25))
        dry = drought if date(2022, 11, 1) <= middle.date() <= date(2023, 4, 15) else 1.0
        out.append(Point(at, _PER_DAY * span * season * dry * math.exp(rng.gauss(0, _NOISE))))
    return out


def _forecasts(series: list[Point], year: int = 2025) -> list[tuple[Point, Forecast]]:
    """Each partition of `year` and its forecast (its three past years as history)."""
    return [(q, forecast(series[i - 72:i], q.at, grain="day")) for i, q in enumerate(series) if q.at.year == year]


def _judged(forecasts: list[tuple[Point, Forecast]], factor: float) -> list[tuple[datetime, bool]]:
    """Each forecast partition judged at `factor` x its value. `judge` reads its forecast and changes nothing, so
    one forecast per partition serves every factor (the model run once, not once per factor)."""
    return [(q.at, judge(fc, q.value * factor).passed) for q, fc in forecasts]


def test_month_day_keys_found_on_half_months_and_dekads_only() -> None:
    half = [at for at, _ in _keyed((1, 16), date(2024, 1, 1), 24)]
    dekads = [at for at, _ in _keyed((1, 11, 21), date(2025, 1, 1), 12)]
    days = [datetime(2025, 3, 1) + timedelta(days=k) for k in range(20)]  # a daily series' first weeks: no keys
    weeks = [datetime(2024, 1, 1) + timedelta(weeks=k) for k in range(60)]
    months = [datetime(2024, m, 1) for m in range(1, 13)]
    assert _month_day_keys(half, datetime(2026, 1, 1)) == (1, 16)
    assert _month_day_keys(dekads, datetime(2025, 5, 1)) == (1, 11, 21)
    assert _month_day_keys(days, datetime(2025, 3, 21)) is None
    assert _month_day_keys(weeks, weeks[-1] + timedelta(weeks=1)) is None
    assert _month_day_keys(months, datetime(2025, 1, 1)) is None
    assert _month_day_keys(half, datetime(2026, 1, 5)) is None  # a target off the keys: read as dated


def test_half_months_read_per_day_of_their_span_with_their_season() -> None:
    # February's second half holds 13 or 14 days of a 15-day cadence, a 31-day month's 16: read per partition
    # (no season, no length) it looked 0.63-0.70x and failed, while a 35% drop on a spring-flush half passed
    forecasts = _forecasts(_milk())
    clean = _judged(forecasts, 1.0)
    assert all(ok for _, ok in clean), [at for at, ok in clean if not ok]
    assert not any(ok for _, ok in _judged(forecasts, 0.65))
    assert not any(ok for _, ok in _judged(forecasts, 1.35))


@pytest.mark.parametrize("days", [(1, 16), (1, 11, 21)])
def test_month_day_keys_answer_in_the_targets_own_days(days: tuple[int, ...]) -> None:
    # the baseline is the target's own span's: a 16-day half or an 11-day dekad (a 31-day month's third), not
    # the average partition's
    series = _milk(days, seed=5)
    i = next(i for i, q in enumerate(series) if q.at >= datetime(2025, 8, days[-1]))
    fc = forecast(series[i - 12 * len(days) * 3:i], series[i].at, grain="day")
    assert abs(math.log(series[i].value / fc.baseline)) < 3 * _NOISE
    assert f"holds {(datetime(2025, 9, 1) - series[i].at).days} days" in " ".join(fc.notes)


def test_half_month_judged_for_the_days_it_holds() -> None:
    # a half-month is judged once for its fifteen days, as a week is for its seven (the same false alarms per
    # day): its band's k is under a day's 4 spreads (where its group's errors are enough to say, _band_k: an
    # ordinary half's), and a 20% drop on 2% noise is caught
    series = _milk(seed=7)
    forecasts = _forecasts(series)
    assert [q for q, _ in forecasts] == series[-24:], "the last 24 half-months (2025's), forecast once"
    ordinary = 0
    for _, fc in forecasts:
        if fc.group == "all":
            ordinary += 1
            note = next(n for n in fc.notes if n.startswith("a partition of 15 days is judged"))
            assert float(re.search(r"([0-9.]+) spreads", note).group(1)) < ModelParams().k  # type: ignore[union-attr]
    assert ordinary >= 20
    assert not any(ok for _, ok in _judged(forecasts, 0.8))


def test_half_months_level_follows_a_third_of_a_year() -> None:
    # a drought in the history (x0.82 over five months, in no calendar) leaves the smooth season's fit off by a few
    # percent for months: a level over half a year (12 half-months) lagged it and its errors widened every band, a
    # third of a year (8) follows it, and more of the next year's 20% drops are caught (39 of 72 -> 47)
    forecasts = [_forecasts(_milk(seed=seed, drought=0.82)) for seed in (1, 2, 3)]
    caught = sum(not ok for seed_forecasts in forecasts for _, ok in _judged(seed_forecasts, 0.8))
    clean = sum(not ok for seed_forecasts in forecasts for _, ok in _judged(seed_forecasts, 1.0))
    assert caught >= 44
    assert clean == 0

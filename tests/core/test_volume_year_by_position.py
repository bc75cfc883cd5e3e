"""A series keyed on the first day of periods that are no calendar months (thirteen a year: twelve of thirty days
and a thirteenth of five or six) read by each partition's place in its year and by the days its span holds
(`_year_by_position`), not by the Gregorian month its key falls in."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.volume_model import Point, _year_by_position, forecast, judge

_PER_DAY = 4_000.0
_NOISE = 0.03
# the short thirteenth period's days, year after year (a leap year's sixth day every fourth)
_SHORT_DAYS = (5, 5, 6, 5)
# each period's own season (its place in the year, the first at 1.0), the short one a run-up to the new year
_SEASON = (1.0, 1.1, 1.05, 0.95, 1.0, 0.9, 0.85, 0.9, 1.0, 0.95, 0.9, 0.85, 1.4)


def _periods(years: int = 4, seed: int = 3) -> list[Point]:
    """Deliveries per period from 11 September 2020: each the sum of its days (the period's season per day),
    3% noise."""
    rng = random.Random(seed)
    out, at = [], datetime(2020, 9, 11)
    for year in range(years):
        for place, season in enumerate(_SEASON):
            days = _SHORT_DAYS[year % len(_SHORT_DAYS)] if place == len(_SEASON) - 1 else 30
            out.append(Point(at, days * _PER_DAY * season * rng.lognormvariate(0, _NOISE)))
            at += timedelta(days=days)
    return out


def test_the_short_period_and_the_new_years_are_read_by_their_place() -> None:
    """Every clean short period (a sixth of a long one's days, in the same Gregorian month as the new year's period
    after it) and every new year's period passes; a doubled short period and a halved new year's period fail. Fails
    without `_year_by_position`: both are read as September (month of the year), the short one about 0.4x and the
    new year's after it about 3x."""
    series = _periods(years=7)
    # (from the fourth year: the first six-day period, after two of five, is a first leap day never seen)
    shorts = [i for i in range(3 * 13, len(series)) if i % 13 in (12, 0)]
    for i in shorts:
        fc = forecast(series[:i], series[i].at, grain="day")
        assert judge(fc, series[i].value).passed, (series[i].at, series[i].value / fc.baseline, fc.notes)
        assert not judge(fc, series[i].value * (2 if i % 13 == 12 else 0.5)).passed, (series[i].at, fc.notes)


def test_a_twenty_percent_drop_of_a_long_period_is_caught() -> None:
    series = _periods()
    caught = [not judge(forecast(series[:i], series[i].at, grain="day"), series[i].value * 0.65).passed
              for i in range(3 * 13, len(series))]
    assert all(caught)


def test_year_by_position_counts_places_and_days() -> None:
    series = _periods(years=4)
    found = _year_by_position(series[:-1], series[-1].at)
    assert found is not None
    n, position, length, length_var = found
    assert n == 13
    assert position[series[-1].at] == 0 and position[series[-14].at] == 0 and position[series[-2].at] == 1
    # the short period's days (not yet ended) are its past places' (5, 5 and 6, in logs) mean of the median gap's thirty
    assert abs(length[series[-1].at] - (2 * math.log(5 / 30) + math.log(6 / 30)) / 3) < 1e-9 and length_var > 0
    assert length[series[-2].at] == 0.0


def test_calendar_months_and_quarters_are_not_read_by_place() -> None:
    """A series keyed on the 1st of every month (or of every quarter) keeps its months: no year by position."""
    months = [Point(datetime(2020 + m // 12, m % 12 + 1, 1), 100.0) for m in range(48)]
    assert _year_by_position(months[:-1], months[-1].at) is None
    quarters = [Point(datetime(2020 + q // 4, 3 * (q % 4) + 1, 1), 100.0) for q in range(16)]
    assert _year_by_position(quarters[:-1], quarters[-1].at) is None


def test_a_missing_partition_leaves_a_gap_not_a_misplaced_year() -> None:
    """A partition excluded from the history (a past incident the owner excluded, or one never loaded) is a gap:
    every older key keeps its place (counted by its day of the year, not by how many keys lie between), and the
    span before the gap, two partitions' days, is read as its place's usual days. Counted by keys, every key older
    than the gap moved one place and a long period compared with the short one."""
    series = _periods(years=5)
    gone = 13 + 5
    history = series[:gone] + series[gone + 1:-1]
    found = _year_by_position(history, series[-1].at)
    assert found is not None
    n, position, length, _ = found
    assert n == 13
    assert all(position[q.at] == 0 for q in history[:-1] if q.at.month == 9 and q.at.day <= 8)
    assert [position[q.at] for q in series[:13]] == [(len(series) - 1 - i) % 13 for i in range(13)]
    assert length[series[gone - 1].at] == 0.0
    fc = forecast(history, series[-1].at, grain="day")
    assert judge(fc, series[-1].value).passed and not judge(fc, series[-1].value * 2).passed

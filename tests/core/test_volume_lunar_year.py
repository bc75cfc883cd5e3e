"""A series keyed on the first day of lunar months (29 or 30 days, twelve a year of 354 or 355 days, moving eleven
days earlier each Gregorian year) read by each month's place in its own year of twelve (`_own_year_length`,
`_year_by_position`), not by the Gregorian month its key falls in."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from dw_assets.core.volume_model import Point, _own_year_length, _year_by_position, forecast, judge

_PER_DAY = 10_000.0
_NOISE = 0.03
# each month's own season by its place in the lunar year: a month of stocking up, a fasting month, the slack after
_SEASON = (1.0, 1.0, 1.05, 1.0, 0.95, 1.0, 1.0, 1.25, 1.3, 0.7, 1.0, 1.1)
_FEAST = 9  # the place of the slack month after the fasting one


def _lunar_months(years: int, seed: int = 5) -> list[Point]:
    """Receipts per lunar month from 1 September 2019: months of 30 and 29 days alternating (a 30-day last month in
    some years: a 355-day year), each the sum of its days at its place's season, 3% noise."""
    rng = random.Random(seed)
    out, at = [], datetime(2019, 9, 1)
    for year in range(years):
        for place, season in enumerate(_SEASON):
            days = 30 if place % 2 == 0 or (place == len(_SEASON) - 1 and year % 3 == 1) else 29
            out.append(Point(at, days * _PER_DAY * season * rng.lognormvariate(0, _NOISE)))
            at += timedelta(days=days)
    return out


def test_the_month_after_the_fast_is_read_against_its_own_place() -> None:
    """Every clean slack month (x0.7, in a different Gregorian month each year, the fasting month at x1.3 before it
    sometimes in the same one) passes from the fourth year on, and the same month at 0.75x of its value fails.
    Fails without the lunar year: read by the Gregorian month its key falls in, a slack month reads about 0.75x
    against a month of the year that last held a fasting month, or against an ordinary month's level."""
    series = _lunar_months(years=7)
    slack = [i for i in range(3 * 12, len(series)) if i % 12 == _FEAST]
    for i in slack:
        history = series[max(0, i - 36):i]  # three lunar years, as a monthly check reads 36 months
        fc = forecast(history, series[i].at, grain="day")
        assert judge(fc, series[i].value).passed, (series[i].at, series[i].value / fc.baseline, fc.group, fc.notes)
        assert not judge(fc, series[i].value * 0.75).passed, (series[i].at, fc.lower / fc.baseline, fc.group)


def test_a_lunar_year_is_its_own_length_and_places() -> None:
    series = _lunar_months(years=4)
    year = _own_year_length([q.at for q in series], 12)
    assert 354 <= year <= 355
    found = _year_by_position(series[:-1], series[-1].at)
    assert found is not None
    n, position, _, _ = found
    assert n == 12
    # the twin of the target (place 0) is the month twelve back, whatever Gregorian month it started in
    assert position[series[-13].at] == 0 and position[series[-25].at] == 0
    assert position[series[-2].at] == 1


def test_calendar_months_and_quarters_are_still_read_by_their_months() -> None:
    """Gregorian months (a year of 365 or 366 days) and quarters keep the calendar's reading."""
    months = [Point(datetime(2020 + k // 12, k % 12 + 1, 1), 1000.0) for k in range(48)]
    assert 365 <= _own_year_length([q.at for q in months], 12) <= 366
    assert _year_by_position(months[:-1], months[-1].at) is None
    quarters = [Point(datetime(2016 + k // 4, 3 * (k % 4) + 1, 1), 1000.0) for k in range(32)]
    assert _year_by_position(quarters[:-1], quarters[-1].at) is None


def test_a_missed_month_is_no_span_of_a_year() -> None:
    """A month never loaded leaves a gap of two months: the spans across it are not read as a year's."""
    series = _lunar_months(years=4)
    at = [q.at for q in series]
    del at[20]
    assert 354 <= _own_year_length(at, 12) <= 355
    assert at[-1] - at[0] > timedelta(days=3 * 354)

"""A monthly series (invoice lines, dated on each month's last day) whose building season spans three months in no
calendar: September to November x1.25-1.3 every year, the rains June and July x0.8, a year-end close x1.2 in August,
on a trend of +1.5% a month and 3% noise. Three past years of each month are in the history, yet with a level fitted
on the seven months around each point the season was the level, each month's effect came out at a third of its size,
the errors held the rest, and no month stood out of them: the dry season's months read 1.4-1.6x against a band at its
ceiling. `months_level_half` fits the level of such a series over a whole year (half a year either side), so the
months of the year are learned at their size and earned. A month that moved in one past year only (a one-year
promotion) still does not earn its place, and a dry-season month with a third of its lines missing fails. A flat
series whose history holds a year backfilled at x0.6 keeps the level window that follows the step
(`_months_level_fit`)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime

from dw_assets.core import volume_fit
from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Forecast, ModelParams, Point, _months_level_fit, forecast, judge

# the season by month (no estate's figures): a dry season's three high months, two rainy ones, a festive December
_SEASON = {1: 0.9, 2: 1.05, 3: 1.1, 4: 1.0, 5: 0.9, 6: 0.8, 7: 0.8, 8: 1.2, 9: 1.25, 10: 1.3, 11: 1.25, 12: 1.1}
_TREND = 1.015  # a month
_NOISE = 0.03
_HISTORY = 36  # three years of month-ends, as the check reads a monthly series


def _month_ends(first: date, count: int) -> list[date]:
    out = []
    year, month = first.year, first.month
    for _ in range(count):
        nxt = date(year + (month == 12), month % 12 + 1, 1)
        out.append(date.fromordinal(nxt.toordinal() - 1))
        year, month = nxt.year, nxt.month
    return out


def _lines(seed: int = 4, season: dict[int, float] | None = None, once: tuple[int, int] | None = None) -> list[Point]:
    """Invoice lines per month from January 2020 (48 months): 8,000 at the start, the month's season, the trend and
    3% noise; `once` (year, month) x1.3 in that one month only."""
    rng = random.Random(seed)
    shape = _SEASON if season is None else season
    out = []
    for i, end in enumerate(_month_ends(date(2020, 1, 1), 48)):
        value = 8_000.0 * _TREND ** i * shape[end.month] * (1.3 if once == (end.year, end.month) else 1.0)
        out.append(Point(datetime(end.year, end.month, end.day), round(value * math.exp(rng.gauss(0, _NOISE)))))
    return out


def _judged(pts: list[Point], day: date, scale: float = 1.0) -> tuple[bool, float, Forecast]:
    at = datetime(day.year, day.month, day.day)
    i = next(j for j, q in enumerate(pts) if q.at == at)
    fc = forecast(pts[max(0, i - _HISTORY):i], at, grain="day", calendar_=HolidayCalendar())
    value = pts[i].value * scale
    return judge(fc, value).passed, value / fc.baseline, fc


def test_dry_season_months_earned_from_three_years() -> None:
    # (without the rule: the level follows the season, no month is earned, September-November read 1.3-1.5x)
    pts = _lines()
    for month in (9, 10, 11):
        day = _month_ends(date(2023, month, 1), 1)[0]
        passed, ratio, fc = _judged(pts, day)
        assert f"month:{['', 'Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][month]}" \
            in fc.group, (month, fc.group)
        assert passed, (month, ratio, fc.lower / fc.baseline, fc.upper / fc.baseline)
        assert 0.9 < ratio < 1.1, (month, ratio)


def test_dry_season_month_with_a_third_missing_fails() -> None:
    pts = _lines()
    for month in (9, 10):
        passed, ratio, _ = _judged(pts, _month_ends(date(2023, month, 1), 1)[0], scale=0.65)
        assert not passed, (month, ratio)


def test_rains_months_read_low() -> None:
    # the rains' months as three past years showed them, not as the level before them
    pts = _lines()
    for month in (6, 7):
        passed, ratio, fc = _judged(pts, _month_ends(date(2023, month, 1), 1)[0])
        assert passed and 0.9 < ratio < 1.1, (month, ratio, fc.group)


def test_month_moved_in_one_year_only_is_not_earned() -> None:
    # a flat series but one October at x1.3 (a promotion): the next October is no month of its own
    flat = {m: 1.0 for m in range(1, 13)}
    pts = _lines(season=flat, once=(2021, 10))
    passed, ratio, fc = _judged(pts, date(2023, 10, 31))
    assert "month:Oct" not in fc.group, fc.group
    assert passed and 0.93 < ratio < 1.07, (ratio, fc.group)


def test_only_calendar_months_read_over_a_year() -> None:
    # four-weekly periods (13 a year), billing cycles read on a weekday, lunar months: their months of the year are
    # not their own seasons, and the level window stays
    pts = _lines()[:36]
    x = [math.log(q.value) for q in pts]
    feats: list[dict[str, object]] = [{"month_of_year": q.at.month, "year": q.at.year} for q in pts]
    t = [float(i) for i in range(36)]
    _months_level_fit(t, x, feats, ["month_of_year"], 12, 6, ModelParams(), False)
    assert not any(fv.get(volume_fit.MONTHS_LEVEL) for fv in feats)
    _months_level_fit(t, x, feats, ["month_of_year"], 12, 6, ModelParams(), True)
    assert all(fv.get(volume_fit.MONTHS_LEVEL) for fv in feats)


def test_only_a_year_of_twelve_partitions_with_months_of_the_year() -> None:
    assert volume_fit.months_level_half(12, ["period_end", "month_of_year"]) == volume_fit.MONTHS_LEVEL_HALF
    assert volume_fit.months_level_half(12, ["period_end"]) == 0
    assert volume_fit.months_level_half(52, ["month_of_year", "week_of_year"]) == 0
    assert volume_fit.months_level_half(7, ["weekday", "month_of_year"]) == 0


def _fit_keeps_year_level(season: dict[int, float], backfill: bool, seed: int) -> bool:
    """Whether `_months_level_fit` reads the level over a whole year: 36 months from July, the season, 3% noise,
    and (`backfill`) fourteen months from the ninth backfilled at x0.6."""
    rng = random.Random(seed)
    x, feats = [], []
    for i in range(36):
        month, year = (i + 6) % 12 + 1, 2021 + (i + 6) // 12
        value = 30_000 * 1.005 ** i * season[month] * (0.6 if backfill and 8 <= i < 22 else 1.0)
        x.append(math.log(value * math.exp(rng.gauss(0, _NOISE))))
        feats.append({"month_of_year": month, "year": year})
    _months_level_fit([float(i) for i in range(36)], x, feats, ["month_of_year"], 12, 6, ModelParams(), True)
    return all(fv.get(volume_fit.MONTHS_LEVEL) for fv in feats)


def test_year_level_kept_where_it_cuts_the_noise() -> None:
    # the season of several months: read over a year; a flat series stepped out and back in by a backfilled year:
    # the level window follows the step, and the year's would read across it
    flat = {m: 1.0 for m in range(1, 13)}
    for seed in (1, 2, 3):
        assert _fit_keeps_year_level(_SEASON, False, seed), seed
        assert not _fit_keeps_year_level(flat, True, seed), seed

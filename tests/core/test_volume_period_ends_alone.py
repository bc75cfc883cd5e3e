"""A period end's effect learned on the occasions that show it alone (_period_ends_alone): a quarter's end whose past
occasions were Easter's eve, a long weekend's Sunday and a national day takes the holidays' dips when fitted first
(period ends are, see SPARSE), and an ordinary quarter's end then reads them as its own. Its days shared with a
holiday, a holiday's neighbourhood or the day after a closure are kept out of its groups (a group left with fewer
than two occasions alone reads as the next, shorter period's), unless one holiday lies beside every past occasion
(a year's end and New Year's Day: the pair is all the history shows, and it keeps its reading)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core import volume_fit
from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

MONTH_END = 0.2  # every month's last day (quarters' too): x1.22
HOLIDAY = -0.4   # a holiday or its eve: x0.67
N = 400
EVE = 0.75  # the day before or after a holiday


def _fit(x: list[float], feats: list[dict[str, object]]) -> volume_fit.SeriesFit:
    return volume_fit.SeriesFit([float(i) for i in range(len(x))], x, feats,
                                ["period_end", "holiday", "near_holiday"], lag=7, level_points=28)


def _month_ends() -> list[int]:
    return list(range(29, N, 30))


def _feats(quarters: dict[int, str], years: dict[int, str], holidays: dict[int, str],
           near: dict[int, str]) -> list[dict[str, object]]:
    ends = set(_month_ends())
    return [{"day": i, "period_end": "quarter" if i in quarters else "year" if i in years else
             "month" if i in ends else "", "holiday": holidays.get(i, ""), "near_holiday": near.get(i, "")}
            for i in range(N)]


def test_a_quarter_end_seen_only_on_holidays_reads_the_month_end() -> None:
    """Three past quarter ends, each on a different holiday or eve (x0.67 on top of the month's end x1.22): fitted
    on all three, the quarter's end reads x0.82 and each holiday, seen once, none; read alone (none left: the
    month's end), the quarter's end reads x1.22 and the holidays their own dips."""
    rng = random.Random(11)
    x = [rng.gauss(0, 0.03) for _ in range(N)]
    quarters = {89: "", 179: "", 269: ""}
    holidays = {89: "Easter Sunday", 269: "Independence Day"}
    near = {179: "Long Weekend -1d"}
    for i in _month_ends():
        x[i] += MONTH_END
    for i in quarters:
        x[i] += HOLIDAY
    fit = _fit(x, _feats(quarters, {}, holidays, near))
    total, _, _, _ = fit.effect_for({"period_end": "quarter", "holiday": "", "near_holiday": ""})
    assert abs(total - MONTH_END) < 0.08
    assert abs(fit.effects["holiday"]["Easter Sunday"] - HOLIDAY) < 0.1
    assert abs(fit.effects["near_holiday"]["Long Weekend -1d"] - HOLIDAY) < 0.1


def test_a_quarter_end_seen_alone_twice_reads_those_occasions() -> None:
    """Two of four past quarter ends alone at x1.5, two on holidays: the quarter's end is the median of the two
    alone (x1.5), not of all four (pulled to the holidays' dips)."""
    rng = random.Random(13)
    x = [rng.gauss(0, 0.03) for _ in range(N)]
    quarters = {59: "", 149: "", 239: "", 329: ""}
    holidays = {149: "Labour Day", 329: "Christmas Day"}
    for i in _month_ends():
        x[i] += MONTH_END
    for i in quarters:
        x[i] += 0.4 - MONTH_END
    for i in holidays:
        x[i] += HOLIDAY - 0.3
    fit = _fit(x, _feats(quarters, {}, holidays, {}))
    assert abs(fit.effects["period_end"]["quarter"] - 0.4) < 0.08


def test_a_year_end_paired_with_new_years_day_keeps_its_reading() -> None:
    """Every past year's end is New Year's Day's eve (x0.67, not the month's end's x1.22): one holiday lies beside
    every occasion, so the pair is all the history shows and the year's end keeps it, not the quarter's end's x1.22
    (two quarter ends alone at the month's end)."""
    rng = random.Random(17)
    x = [rng.gauss(0, 0.03) for _ in range(N)]
    quarters = {29: "", 209: ""}
    years = {119: "", 299: ""}
    near = {119: "New Year's Day -1d", 299: "New Year's Day -1d"}
    holidays = {120: "New Year's Day", 300: "New Year's Day"}
    for i in _month_ends():
        x[i] += MONTH_END
    for i in years:
        x[i] += HOLIDAY - MONTH_END
    for i in holidays:
        x[i] += -1.0
    fit = _fit(x, _feats(quarters, years, holidays, near))
    # (the year's end itself, as a target whose neighbourhood is not read sees it: a store's last open day two days
    # before New Year's Day, a neighbourhood dropped as not distinct)
    total, _, _, _ = fit.effect_for({"period_end": "year", "holiday": "", "near_holiday": ""})
    assert abs(total - HOLIDAY) < 0.08


def _receipts(end: date) -> tuple[list[Point], HolidayCalendar]:
    """Daily receipts on Botswana's calendar: every month's last day x1.25, holidays x0.6, 3% noise. The past
    quarter ends in two years of history were Easter Sunday (2024), 30 June and Botswana Day (30 September)."""
    rng = random.Random(5)
    cal = HolidayCalendar(country="BW")
    pts, day = [], end - timedelta(days=730)
    while day < end:
        last = (day + timedelta(days=1)).month != day.month
        eve = not cal.name(day) and any(cal.name(day + timedelta(days=k)) for k in (-1, 1))
        value = 4000.0 * (1.25 if last else 1.0) * (0.6 if cal.name(day) else EVE if eve else 1.0)
        pts.append(Point(datetime(day.year, day.month, day.day), value * math.exp(rng.gauss(0, 0.03))))
        day += timedelta(days=1)
    return pts, cal


def test_an_ordinary_quarter_end_after_holiday_quarter_ends_passes() -> None:
    """31 March 2025, an ordinary Monday quarter's end at the month's end's x1.25, passes and reads near x1."""
    pts, cal = _receipts(date(2025, 3, 31))
    fc = forecast(pts, datetime(2025, 3, 31), grain="day", calendar_=cal)
    value = 4000.0 * 1.25
    assert judge(fc, value).passed
    assert 0.9 < value / fc.baseline < 1.1

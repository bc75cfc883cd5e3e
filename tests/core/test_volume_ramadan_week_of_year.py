"""A weekly series lifted through Ramadan (named by the calendar's Eid al-Fitr): Ramadan moves eleven days a year, so
the ordinary weeks just after this year's were Ramadan's weeks a year or two ago, and their week of the year, read
across those years, carried the season's lift into them (a dairy's first week after Eid read at 0.7x). Such a week
reads the history with the season taken out (`_season_in_week_of_year`); a week of the year that never held the
season keeps the history as it was, and a drop on the weeks after Ramadan still fails."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import (
    Point,
    _season_in_week_of_year,
    _season_weeks,
    declared_season,
)
from tests.support.weekly_series import judged_week, week_holding

_START = datetime(2021, 1, 2)  # a Saturday: weeks keyed on their first day (Saturday to Friday)
_CAL = HolidayCalendar(country="DZ")
_LIFT = 1.4  # Ramadan's days
_SUMMER = 1.3  # the summer's days


def _crates(weeks: int, seed: int = 5) -> list[Point]:
    """Crates per week: 100 a day, x1.4 on Ramadan's days, x0.5 on a holiday, x1.3 from 15 July to 31 August (a
    fixed-date summer: the series' week of the year earns its place); +3% a year, 3.5% noise."""
    rng = random.Random(seed)
    out = []
    for i in range(weeks):
        at = _START + timedelta(weeks=i)
        total = 0.0
        for k in range(7):
            day = at.date() + timedelta(days=k)
            season = declared_season(day, _CAL)
            summer = _SUMMER if (7, 15) <= (day.month, day.day) <= (8, 31) else 1.0
            total += 100.0 * (_LIFT if season and season[0] == "Ramadan" else 1.0) * (0.5 if _CAL.name(day) else 1.0) \
                * summer
        growth = 1.03 ** ((at - _START).days / 365.25)
        out.append(Point(at, round(total * growth * math.exp(rng.gauss(0, 0.035)))))
    return out


def _judged(pts: list[Point], i: int, value: float | None = None) -> tuple[bool, object]:
    return judged_week(pts, i, _CAL, value)


def _week_of_year(at: datetime) -> int:
    return (at.date() + timedelta(days=3)).isocalendar().week


# the ordinary weeks after Eid al-Fitr 2025 (30 March) that were Ramadan's weeks in 2022-2024 (Ramadan 2024 from 11
# March to 9 April, 2023 from 23 March to 20 April, 2022 from 2 April to 1 May)
_AFTER_RAMADAN = (date(2025, 4, 5), date(2025, 4, 12), date(2025, 4, 19))


def test_weeks_after_ramadan_pass_at_their_level() -> None:
    # (read against their week of the year with the past years' Ramadan lift in it, they came out at 0.76x and
    # 0.86x, in a band widened to the floor's by the misread)
    pts = _crates(4 * 52 + 20)
    for day in _AFTER_RAMADAN:
        i = week_holding(pts, day)
        passed, fc = _judged(pts, i)
        assert passed, (day, fc)
        assert 0.9 < pts[i].value / fc.baseline < 1.1, (day, fc)


def test_drop_after_ramadan_still_fails() -> None:
    pts = _crates(4 * 52 + 20)
    for day in _AFTER_RAMADAN:
        i = week_holding(pts, day)
        passed, _ = _judged(pts, i, value=pts[i].value * 0.75)
        assert not passed, day


def test_season_out_only_for_weeks_of_the_year_it_held() -> None:
    pts = _crates(4 * 52)
    x = [math.log(q.value) for q in pts]
    feats = [{"week_of_year": _week_of_year(q.at)} for q in pts]
    after = datetime(2025, 4, 12)  # no Ramadan day, no holiday: its week of the year held Ramadan in 2022 and 2023
    out, now, _ = _season_weeks(pts, x, feats, after, _CAL)
    assert out != x and now == 0.0
    autumn = datetime(2025, 10, 11)  # a week of the year that never held Ramadan
    out, now, _ = _season_weeks(pts, x, feats, autumn, _CAL)
    assert out == x and now == 0.0
    offsets = [0.3 if q.at.date().month == 4 and q.at.year < 2025 else 0.0 for q in pts]
    assert _season_in_week_of_year(feats, after, offsets)
    assert not _season_in_week_of_year(feats, autumn, offsets)

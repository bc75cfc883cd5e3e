"""A weekly series whose days fall in Ramadan (named by the calendar's Eid al-Fitr) at a level of their own: Ramadan
moves eleven days a year, so no week of the year holds it, and its weeks read against their week of the year. Each week
is read by the share of its working days in Ramadan where the history's weeks wholly inside it stand out of their
nearest ordinary weeks (`_season_weeks`); a series with no move in them keeps its reading as it was."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, _season_weeks, declared_season
from tests.support.weekly_series import judged_week, week_holding

_START = datetime(2021, 1, 3)  # a Sunday: weeks keyed on their first day
_CAL = HolidayCalendar(country="OM")


def _nights(weeks: int, ramadan: float, seed: int = 3) -> list[Point]:
    """Room-nights per week: 100 a day, x`ramadan` on Ramadan's days, x1.3 on a holiday; +4% a year, 4% noise."""
    rng = random.Random(seed)
    out = []
    for i in range(weeks):
        at = _START + timedelta(weeks=i)
        total = 0.0
        for k in range(7):
            day = at.date() + timedelta(days=k)
            season = declared_season(day, _CAL)
            total += 100.0 * (ramadan if season and season[0] == "Ramadan" else 1.0) * (1.3 if _CAL.name(day) else 1.0)
        growth = 1.04 ** ((at - _START).days / 365.25)
        out.append(Point(at, round(total * growth * math.exp(rng.gauss(0, 0.04)))))
    return out


def _judged(pts: list[Point], i: int, value: float | None = None) -> tuple[bool, object]:
    return judged_week(pts, i, _CAL, value)


# Ramadan 2025's weeks wholly inside it (Eid al-Fitr on 30 March 2025)
_RAMADAN_WEEKS = (date(2025, 3, 4), date(2025, 3, 11), date(2025, 3, 18))


def test_ramadan_weeks_pass_at_their_level() -> None:
    pts = _nights(4 * 52 + 30, ramadan=0.6)
    for day in _RAMADAN_WEEKS:
        passed, fc = _judged(pts, week_holding(pts, day))
        assert passed, (day, fc)


def test_ramadan_week_drop_still_fails() -> None:
    pts = _nights(4 * 52 + 30, ramadan=0.6)
    for day in _RAMADAN_WEEKS:
        i = week_holding(pts, day)
        passed, _ = _judged(pts, i, value=pts[i].value * 0.5)
        assert not passed, day


def test_season_days_earned_only_where_the_history_moves() -> None:
    target = datetime(2025, 3, 9)  # a week wholly inside Ramadan 2025
    for ramadan, earned in ((0.6, True), (1.0, False)):
        pts = _nights(4 * 52, ramadan=ramadan)
        x = [math.log(q.value) for q in pts]
        out, now, _ = _season_weeks(pts, x, [{} for _ in pts], target, _CAL)
        assert (out != x) == earned, ramadan
        if earned:
            # (x0.6 a day: a week wholly inside it at about 0.6, the history's Ramadan weeks taken out the same)
            assert 0.5 < math.exp(now) < 0.7, math.exp(now)
            i = week_holding(pts, date(2024, 3, 20))
            assert 0.5 < math.exp(x[i] - out[i]) < 0.7, math.exp(x[i] - out[i])
        else:
            assert now == 0.0


def test_other_weeks_keep_the_history() -> None:
    # a week holding no Ramadan day and no holiday whose past weeks held some keeps the history as it was; Eid
    # al-Fitr's week, whose past weeks held Ramadan's last days, reads the history without them
    pts = _nights(4 * 52, ramadan=0.6)
    x = [math.log(q.value) for q in pts]
    out, now, _ = _season_weeks(pts, x, [{} for _ in pts], datetime(2025, 1, 12), _CAL)
    assert out == x and now == 0.0
    out, now, _ = _season_weeks(pts, x, [{} for _ in pts], datetime(2025, 3, 30), _CAL)
    assert out != x and now == 0.0

"""A weekly series of a business open every day whose moving holiday (a lunar Eid) lowers each of its days: the feast
moves eleven days a year, so its days fall on the week's weekend one year (one Friday of seven) and on three working
days the next, and its weeks read against their median (one label) missed both. A target week holding such a holiday
is read by the share of its days it holds, against the history's weeks holding it alone (`_moving_holiday_days`),
where that reads those weeks as well as their median; a drop on such a week still fails."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, _per_day_effect, declared_season
from tests.support.weekly_series import judged_week

_START = datetime(2021, 1, 2)  # a Saturday: weeks keyed on their first day (Saturday to Friday)
_CAL = HolidayCalendar(country="DZ")
_FEAST = 0.5  # an Eid day's deliveries
_OTHER = 0.8  # another holiday's
_LIFT = 1.4  # a Ramadan day's
_WEEK = (1.0, 1.0, 1.0, 1.0, 0.55, 1.1, 1.0)  # Monday first: Friday's prayer, Saturday's restock


def _crates(weeks: int, seed: int = 7) -> list[Point]:
    """Crates per week: 100 a day by its weekday, x0.5 on an Eid day (weekend or not), x0.8 on another holiday, x1.4
    in Ramadan, x1.3 from 15 July to 31 August; +3% a year, 3% noise."""
    rng = random.Random(seed)
    out = []
    for i in range(weeks):
        at = _START + timedelta(weeks=i)
        total = 0.0
        for k in range(7):
            day = at.date() + timedelta(days=k)
            name = _CAL.name(day) or ""
            season = declared_season(day, _CAL)
            total += 100.0 * _WEEK[day.weekday()] * (_FEAST if name.startswith("Eid") else _OTHER if name else 1.0) \
                * (1.3 if (7, 15) <= (day.month, day.day) <= (8, 31) else 1.0) \
                * (_LIFT if season and season[0] == "Ramadan" and not name else 1.0)
        growth = 1.03 ** ((at - _START).days / 365.25)
        out.append(Point(at, round(total * growth * math.exp(rng.gauss(0, 0.03)))))
    return out


def _index(pts: list[Point], day: date) -> int:
    return next(i for i, q in enumerate(pts) if q.at.date() == day)


def _judged(pts: list[Point], i: int, value: float | None = None) -> tuple[bool, object]:
    return judged_week(pts, i, _CAL, value)


# Eid al-Adha 2025 on Friday 6 June (the week's weekend: 0.96 of an ordinary week) and on Saturday and Sunday after it;
# in 2022-2024 on two or three days of a week each year
_EID_WEEKS = (date(2025, 5, 31), date(2025, 6, 7))


def test_eid_weeks_read_by_their_days() -> None:
    # (read against their past Eid weeks' median, the Friday's week came out at 1.2x)
    pts = _crates(4 * 52 + 30)
    for day in _EID_WEEKS:
        i = _index(pts, day)
        passed, fc = _judged(pts, i)
        assert passed, (day, fc)
        assert 0.92 < pts[i].value / fc.baseline < 1.08, (day, pts[i].value / fc.baseline)


def test_drop_on_eid_week_still_fails() -> None:
    pts = _crates(4 * 52 + 30)
    for day in _EID_WEEKS:
        i = _index(pts, day)
        passed, _ = _judged(pts, i, value=pts[i].value * 0.7)
        assert not passed, day


def test_per_day_effect_by_least_squares() -> None:
    # weeks holding two, three and seven of a holiday's days at -0.5 a day: -0.5, whatever their shares
    share = [2 / 7, 3 / 7, 1.0, 0.0]
    ratio = {0: -0.5 * 2 / 7, 1: -0.5 * 3 / 7, 2: -0.5, 3: 0.0}
    assert abs(_per_day_effect(ratio, share, [0, 1, 2]) + 0.5) < 1e-9
    assert _per_day_effect(ratio, share, [3]) == math.inf  # no day held: nothing to read

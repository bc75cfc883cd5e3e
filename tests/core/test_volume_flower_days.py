"""A daily series' holiday neighbourhood counted from the holiday's own day where the series was open on it, not
from its observed day off."""
from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import ALL_WEEK, HolidayCalendar, near_holiday
from dw_assets.core.volume_model import Point, forecast, judge

_WEEK = [1.0, 1.0, 1.0, 1.05, 1.2, 0.9, 0.8]  # Monday first: a shop open every day


def _open_every_day(cal: HolidayCalendar, first: date, last: date, lifts: dict[str, float], seed: int,
                    weekend_open: bool = True) -> list[Point]:
    """Orders per day, 3% noise: each holiday named in `lifts` (by its calendar name) at that lift on its own
    day, other holidays at x0.7; a shop shut at the weekend (`weekend_open` False) has no partitions then."""
    rng = random.Random(seed)
    out = []
    d = first
    while d <= last:
        if weekend_open or d.weekday() < 5:
            name = cal.name(d) or ""
            lift = lifts.get(name, 0.7 if name else 1.0)
            out.append(Point(datetime(d.year, d.month, d.day), round(5000 * _WEEK[d.weekday()] * lift
                                                                        * math.exp(rng.gauss(0, 0.03)))))
        d += timedelta(days=1)
    return out


def _with_dated_event(history: list[Point], month: int, day: int, lift: float) -> list[Point]:
    """The history with a yearly event in no calendar on a fixed date (a feast of the shop's own) at `lift`."""
    return [Point(q.at, round(q.value * lift)) if (q.at.month, q.at.day) == (month, day) else q for q in history]


def test_a_neighbourhood_counts_from_a_sunday_holiday_the_series_met_not_from_its_observed_monday():
    # Waitangi Day 2022 fell on a Sunday (observed Monday 7 February), 2023's on a Monday; the shop, open every
    # day, sells x2.2 on 10 February every year (in no calendar). Counted from the observed Monday, 2022's
    # "Waitangi Day +3d" was 10 February, so Thursday 9 February 2023, "+3d" from the Monday holiday, expected
    # the event (main: read 0.45x and flagged); counted from the Sunday the shop met, 2022's "+3d" is the 9th
    cal = HolidayCalendar(country="NZ")
    assert cal.name(date(2022, 2, 7)) == "Waitangi Day (observed)" and cal.name(date(2023, 2, 6)) == "Waitangi Day"
    target = date(2023, 2, 9)
    for seed in (1, 2, 3):
        history = _with_dated_event(_open_every_day(cal, target - timedelta(days=400), target - timedelta(days=1),
                                                    {}, seed), 2, 10, 2.2)
        fc = forecast(history, datetime(2023, 2, 9), calendar_=cal)
        assert judge(fc, 5000 * _WEEK[3]).passed, (fc.group, fc.baseline, fc.lower, fc.upper)


def test_a_neighbourhood_label_counts_from_the_holidays_own_day_where_the_series_is_open_on_it():
    # Waitangi Day 2022 on a Sunday, observed on Monday 7 February: open every day, the days after count from
    # the Sunday (main: from the Monday, "+1d" on the 8th, "+3d" on the 10th); open on weekdays only, the shop
    # met the holiday on the Monday, and they count from there
    cal = HolidayCalendar(country="NZ")
    assert [near_holiday(date(2022, 2, d), cal, ALL_WEEK) for d in (8, 9, 10)] == \
        ["Waitangi Day +2d", "Waitangi Day +3d", ""]
    assert [near_holiday(date(2022, 2, d), cal, frozenset(range(5))) for d in (8, 9, 10)] == \
        ["Waitangi Day +1d", "Waitangi Day +2d", "Waitangi Day +3d"]

"""A season in no calendar that recurs on lunar dates (the seventh lunar month's lull, when few move house): the level
after its end is read by the same lunar dates a year back, not by the Gregorian ones (eleven or nineteen days off)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, _lunar_year_back, forecast, judge

# the seventh lunar month of 2024 and of 2025 (2025 held a leap sixth month: nineteen days later in the year)
_LULLS = [(date(2024, 8, 4), date(2024, 9, 2)), (date(2025, 8, 23), date(2025, 9, 21))]
_WEEK = [0.8, 0.75, 0.75, 0.8, 0.95, 1.5, 1.1]


def _moves(seed: int = 5) -> list[Point]:
    """A daily count of about 1,000 on a busy-weekend week, x0.55 in each lull (in no calendar), 3% noise."""
    rng = random.Random(seed)
    out = []
    for i in range((date(2025, 11, 1) - date(2024, 1, 1)).days):
        d = date(2024, 1, 1) + timedelta(days=i)
        lull = 0.55 if any(a <= d <= b for a, b in _LULLS) else 1.0
        out.append(Point(datetime(d.year, d.month, d.day), 1_000.0 * _WEEK[d.weekday()] * lull * math.exp(rng.gauss(0, 0.03))))
    return out


def test_a_day_after_a_lunar_season_is_read_at_the_level_the_same_lunar_dates_came_back_to():
    series, cal = _moves(), HolidayCalendar(country="TW")
    for day in (date(2025, 9, 23), date(2025, 9, 24)):
        i = next(k for k, q in enumerate(series) if q.at.date() == day)
        fc = forecast(series[i - 400:i], series[i].at, grain="day", calendar_=cal)
        # the lull's level (x0.55) carried into its end read the clean day at 1.7-1.9x
        assert judge(fc, series[i].value).passed, (day, series[i].value / fc.baseline)
        assert not judge(fc, series[i].value * 0.5).passed, day
        assert any("as it did a year earlier" in n for n in fc.notes), fc.notes


def test_the_lunar_year_back_is_anchored_on_a_holiday_that_moved_a_lunar_year():
    taiwan = HolidayCalendar(country="TW")
    # two weeks before Mid-Autumn (6 October 2025; 17 September 2024): lunar 8/2 both years
    assert _lunar_year_back(date(2025, 9, 23), taiwan) == date(2024, 9, 4)
    # Easter moves by whole weeks (385 days from 2024's to 2025's): no lunar anchor in a Western calendar
    assert _lunar_year_back(date(2025, 4, 10), HolidayCalendar(country="DE")) is None
    assert _lunar_year_back(date(2025, 12, 1), HolidayCalendar(country="US")) is None

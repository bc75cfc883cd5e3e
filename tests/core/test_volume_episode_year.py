"""A weekly series' year-long episode that may end on its anniversary (see _episode_year_ends).

A series with a smooth yearly season, whose latest year (from the week a year before the target on) ran x1.3 on
its year back, unlabelled (a drought's crop year: the households' own harvest failed, so they bought): the first
weeks after its anniversary may be back at the years before it, where the latest weeks' level reads them as a drop.
"""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, _episode_year_ends, forecast, judge

FIRST = datetime(2022, 1, 3)  # a Monday: weeks keyed on it
EPISODE_FROM = 104  # the third year's first week
EPISODE_SIZE = 1.3


def _level(i: int) -> float:
    """An ordinary week's value: +5% a year and a yearly season (x1.2 in the year's first months, x0.85 mid-year)."""
    return 1000.0 * 1.05 ** (i / 52) * math.exp(0.18 * math.cos(2 * math.pi * i / 52))


def _series(seed: int, weeks: int, episode: tuple[int, int] | None = (EPISODE_FROM, EPISODE_FROM + 52)) -> list[Point]:
    rng = random.Random(seed)
    out = []
    for i in range(weeks):
        value = _level(i) * (EPISODE_SIZE if episode and episode[0] <= i < episode[1] else 1.0)
        out.append(Point(FIRST + timedelta(weeks=i), value * math.exp(rng.gauss(0, 0.04))))
    return out


def test_the_first_week_after_a_year_long_episode_passes_back_at_the_years_before_it() -> None:
    cal = HolidayCalendar()
    for seed in range(3):
        points = _series(seed, EPISODE_FROM + 53)
        target = points[-1].at  # the episode's anniversary: the first week after it
        history = points[:-1]
        fc = forecast(history, target, calendar_=cal)
        verdict = judge(fc, points[-1].value)
        assert verdict.passed, (seed, verdict, fc.lower / fc.baseline, fc.notes)
        assert any("year-long episode" in n for n in fc.notes)


def test_a_week_below_the_years_before_it_still_fails() -> None:
    cal = HolidayCalendar()
    points = _series(1, EPISODE_FROM + 53)
    target, history = points[-1].at, points[:-1]
    fc = forecast(history, target, calendar_=cal)
    assert not judge(fc, points[-1].value * 0.6).passed  # a 40% drop from the level before the episode


def test_the_episode_is_found_only_around_its_anniversary() -> None:
    cal = HolidayCalendar()
    points = _series(2, EPISODE_FROM + 60)
    found = _episode_year_ends(points[:EPISODE_FROM + 52], cal)
    assert found is not None and math.log(EPISODE_SIZE) * 0.7 < found[1] < math.log(EPISODE_SIZE) * 1.3
    moved = found[0]
    # its weeks read as their year back on the growth: back near the years before it
    assert abs(math.log(moved[EPISODE_FROM + 20].value / _level(EPISODE_FROM + 20))) < 0.15
    assert _episode_year_ends(points[:EPISODE_FROM + 40], cal) is None  # mid-episode: not its anniversary
    assert _episode_year_ends(points[:EPISODE_FROM + 52 + 5], cal) is not None  # five weeks back: the level holds it
    assert _episode_year_ends(points[:EPISODE_FROM + 52 + 9], cal) is None  # past the level's weeks: read as they are


def test_an_episode_still_going_after_its_anniversary_is_a_new_level() -> None:
    cal = HolidayCalendar()
    points = _series(2, EPISODE_FROM + 60, episode=(EPISODE_FROM, EPISODE_FROM + 100))
    assert _episode_year_ends(points[:EPISODE_FROM + 52], cal) is not None  # its anniversary: either may come
    assert _episode_year_ends(points[:EPISODE_FROM + 52 + 4], cal) is None  # the weeks since still off: a level


def test_no_episode_in_a_plain_series_or_in_half_a_year() -> None:
    cal = HolidayCalendar()
    assert _episode_year_ends(_series(3, EPISODE_FROM + 52, episode=None), cal) is None
    # an episode of half a year ends at no anniversary of its start
    assert _episode_year_ends(_series(3, EPISODE_FROM + 52, episode=(EPISODE_FROM, EPISODE_FROM + 26)), cal) is None

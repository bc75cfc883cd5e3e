"""A weekly series' season read past an episode left in its history unlabelled (see _season_episodes).

A sharp season (five weeks at x2.5 around the turn of the year) seen on three years, the latest of which an
unrest's fourteen weeks (x0.5, no label) overlaid: the season is read from the years that look like one.
"""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, _season_episodes, forecast, judge

FIRST = datetime(2022, 5, 7)  # a Saturday: weeks keyed on it
SEASON_WEEKS = {50, 51, 52, 1, 2}
EPISODE = (datetime(2024, 10, 19), datetime(2025, 1, 18))


def _week(at: datetime) -> int:
    return (at + timedelta(days=3)).isocalendar().week


def _series(seed: int, weeks: int, episode: tuple[datetime, datetime] | None = EPISODE) -> list[Point]:
    rng = random.Random(seed)
    out = []
    for i in range(weeks):
        at = FIRST + timedelta(weeks=i)
        value = 1000.0 * 1.04 ** (i / 52) * (2.5 if _week(at) in SEASON_WEEKS else 1.0)
        if episode and episode[0] <= at <= episode[1]:
            value *= 0.5
        out.append(Point(at, value * math.exp(rng.gauss(0, 0.04))))
    return out


def _history(points: list[Point], target: datetime, weeks: int = 156) -> list[Point]:
    return [q for q in points if q.at < target][-weeks:]  # three years of weeks, as a weekly check reads them


def test_season_after_an_unlabelled_episode_year_is_read_from_the_other_years() -> None:
    """The same weeks a year back are the episode's, and the history (some two years of weeks) holds one year
    more: the season weeks of this year pass where they run as the year before the episode ran, and their band
    is the noise's, not the episode's (read with it, the one-step errors carry its fourteen weeks and the band
    reaches x0.70-0.76): a 20% drop in them fails."""
    for seed in (1, 2, 3):
        points = _series(seed, 200)
        for target in (datetime(2025, 12, 20), datetime(2026, 1, 3)):
            at = next(q for q in points if q.at == target)
            fc = forecast(_history(points, target, 110), target, grain="day", calendar_=HolidayCalendar())
            assert judge(fc, at.value).passed, (seed, target, at.value / fc.baseline, fc.lower / fc.baseline, fc.notes)
            assert not judge(fc, 0.8 * at.value).passed, (seed, target, at.value / fc.baseline, fc.lower / fc.baseline)


def test_episode_run_is_found_and_read_as_its_other_years() -> None:
    points = _history(_series(1, 200), datetime(2025, 12, 20))
    x = [math.log(q.value) for q in points]
    feats = [{"week_of_year": _week(q.at)} for q in points]
    found = _season_episodes(x, feats, [0] * len(x))
    assert found is not None
    moved, weeks = found
    inside = [i for i, q in enumerate(points) if EPISODE[0] <= q.at <= EPISODE[1]]
    # the episode's weeks, and no others (its first and last may read within the noise of their years)
    assert set(weeks) <= set(inside) and len(weeks) >= len(inside) - 2
    for i in weeks:
        assert abs(moved[i] - x[i] - math.log(2)) < 0.2  # back to its other years' level (x0.5 undone)


def test_no_episode_on_a_clean_history_nor_on_a_run_still_going() -> None:
    clean = _history(_series(2, 200, episode=None), datetime(2025, 12, 20))
    x = [math.log(q.value) for q in clean]
    feats = [{"week_of_year": _week(q.at)} for q in clean]
    assert _season_episodes(x, feats, [0] * len(x)) is None
    # a run reaching the latest weeks is a new level for the shift rule, not an episode
    going = _history(_series(2, 200, episode=(datetime(2025, 10, 4), datetime(2026, 1, 1))), datetime(2025, 12, 20))
    x = [math.log(q.value) for q in going]
    assert _season_episodes(x, feats, [0] * len(x)) is None

"""A weekly series' season whose edges move a week between years (see _season_edge_moves).

Two school breaks a year (six weeks at x2.0, three at x1.6), in no calendar of the series, each starting a week
later in some years than in others: the week of the year, a median of the history's years, reads the break's first
week as begun where this year it has not (or the other way), and the history shows the edges moving.
"""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

FIRST = datetime(2022, 5, 7)  # a Saturday: weeks keyed on it
# each year's first week of each break (ISO week of the week's middle day), by the year the break starts in
MOVING = {2022: (26, 38), 2023: (27, 39), 2024: (26, 38), 2025: (27, 39)}
FIXED = {2022: (26, 38), 2023: (26, 38), 2024: (26, 38), 2025: (26, 38)}
LONG, SHORT = (6, 2.0), (3, 1.6)  # (weeks, lift) of the two breaks


def _week(at: datetime) -> int:
    return (at + timedelta(days=3)).isocalendar().week


def _series(seed: int, starts: dict[int, tuple[int, int]], weeks: int = 190) -> list[Point]:
    rng = random.Random(seed)
    out = []
    for i in range(weeks):
        at = FIRST + timedelta(weeks=i)
        week, year = _week(at), (at + timedelta(days=3)).year
        lift = 1.0
        for start, (length, factor) in zip(starts[year], (LONG, SHORT)):
            if start <= week < start + length:
                lift = factor
        out.append(Point(at, 1000.0 * 1.03 ** (i / 52) * lift * math.exp(rng.gauss(0, 0.04))))
    return out


def _history(points: list[Point], target: datetime) -> list[Point]:
    return [q for q in points if q.at < target][-156:]  # three years of weeks, as a weekly check reads them


def _in_2025(points: list[Point], week: int) -> Point:
    return next(q for q in points if (q.at + timedelta(days=3)).year == 2025 and _week(q.at) == week)


def test_a_break_starting_a_week_later_than_the_median_year_passes_at_its_edge() -> None:
    """2025's long break starts in week 27, two of the three years before it in week 26: week 26 of the year reads
    x2.0, and this year's ordinary week 26 read 0.5x of it (a false alarm). The history's 2023 started a week later
    too, its first and last weeks reading as their neighbours': the edge week may read as either neighbour. A
    doubled break week and an empty one still fail (a doubled ordinary week at the edge reads as the break's: a
    week that may be either cannot tell them apart)."""
    for seed in (1, 2, 3):
        points = _series(seed, MOVING)
        edge = _in_2025(points, 26)
        fc = forecast(_history(points, edge.at), edge.at, grain="day", calendar_=HolidayCalendar())
        assert judge(fc, edge.value).passed, (seed, edge.value / fc.baseline, fc.lower / fc.baseline, fc.notes)
        assert not judge(fc, 2 * LONG[1] * edge.value).passed, (seed, fc.upper / fc.baseline)
        assert not judge(fc, 0.0).passed
        # the short break's first week, a week late too (38 in two years of three, 39 this year)
        short = _in_2025(points, 38)
        fc = forecast(_history(points, short.at), short.at, grain="day", calendar_=HolidayCalendar())
        assert judge(fc, short.value).passed, (seed, short.value / fc.baseline, fc.lower / fc.baseline, fc.notes)


def test_a_week_off_the_edges_keeps_its_band() -> None:
    """Inside the season, away from its edges, the band is the week of the year's: a 35% drop fails."""
    for seed in (1, 2, 3):
        points = _series(seed, MOVING)
        inside = _in_2025(points, 29)
        fc = forecast(_history(points, inside.at), inside.at, grain="day", calendar_=HolidayCalendar())
        assert judge(fc, inside.value).passed, (seed, inside.value / fc.baseline, fc.notes)
        assert not judge(fc, 0.65 * inside.value).passed, (seed, fc.lower / fc.baseline, fc.notes)


def test_edges_that_never_moved_keep_the_edge_weeks_band() -> None:
    """The same breaks on the same weeks every year: nothing says an edge moves, so the break's first week keeps
    the week of the year's band, and the week read at the ordinary level (a break that did not come) fails."""
    for seed in (1, 2, 3):
        points = _series(seed, FIXED)
        edge = _in_2025(points, 26)
        fc = forecast(_history(points, edge.at), edge.at, grain="day", calendar_=HolidayCalendar())
        assert judge(fc, edge.value).passed, (seed, edge.value / fc.baseline, fc.notes)
        assert not judge(fc, edge.value / LONG[1]).passed, (seed, fc.lower / fc.baseline, fc.notes)
        assert not any("edges moved" in note for note in fc.notes), fc.notes

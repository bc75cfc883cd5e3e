"""A weekly group shut for the same season every year and back after it (a desert camp closed through the summer's
heat, a ski lift in summer): its empty weeks in that season, seen empty at the same time in each past year, are
closed as usual (`_closed_in_season`), its open weeks read as its past years' same weeks on its growth
(`_season_year_back`); an empty week out of its season, in its first season or after it stopped for good still
fails. And a weekly series whose season steps up and down at the same weeks every year (a monsoon's visitors x2.6)
reads it by its week of the year (`_season_steps_recur`), not by a level that lags each step."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point, forecast, judge

_START = datetime(2021, 1, 3)  # a Sunday: weeks keyed on their first day
_OPEN = {10: 0.6, 11: 1.0, 12: 1.25, 1: 1.25, 2: 1.1, 3: 0.9, 4: 0.6}  # open October to April, shut May to September


def _middle(at: datetime) -> datetime:
    return at + timedelta(days=3)


def _camp(weeks: int, seed: int = 5, start: datetime = _START, stop: datetime | None = None) -> list[Point]:
    """Guests per week, ~300 at the season's height on +4% a year with 4% noise, zero from May to September every
    year (a week read by its middle day); zero for good from `stop` if given."""
    rng = random.Random(seed)
    out = []
    for i in range(weeks):
        at = start + timedelta(weeks=i)
        factor = _OPEN.get(_middle(at).month, 0.0)
        if stop is not None and at >= stop:
            factor = 0.0
        growth = 1.04 ** ((at - _START).days / 365.25)
        out.append(Point(at, round(300.0 * factor * growth * math.exp(rng.gauss(0, 0.04))) if factor else 0.0))
    return out


def _judged(pts: list[Point], target: int, value: float | None = None, years: int = 4) -> tuple[bool, object]:
    """Judged on the `years` of weeks before the target (a check's lookback)."""
    fc = forecast(pts[max(0, target - years * 52):target], pts[target].at, grain="day", calendar_=HolidayCalendar(), params=ModelParams())
    return judge(fc, pts[target].value if value is None else value).passed, fc


def _index(pts: list[Point], year: int, month: int, day: int) -> int:
    """The index of the week holding that day."""
    return next(i for i, q in enumerate(pts) if q.at <= datetime(year, month, day) < q.at + timedelta(days=7))


def test_closed_season_week_is_empty_as_usual() -> None:
    pts = _camp(4 * 52 + 30)
    for day in ((2024, 6, 12), (2024, 8, 7), (2024, 9, 4)):
        i = _index(pts, *day)
        assert pts[i].value == 0
        passed, fc = _judged(pts, i)
        assert passed and fc.empty_is_normal, (day, fc.notes)
        assert any("closed for its season as usual" in n for n in fc.notes)


def test_empty_out_of_season_still_fails() -> None:
    pts = _camp(4 * 52 + 30)
    for day in ((2024, 11, 20), (2025, 1, 15), (2025, 3, 12)):
        i = _index(pts, *day)
        passed, fc = _judged(pts, i, value=0.0)
        assert not passed and not fc.empty_is_normal, day


def test_first_seasons_empty_fails() -> None:
    # opened in October 2021: its first summer has no past year to show the closure; its second has one (an empty
    # week a year back may be that year's outage: two years needed)
    pts = _camp(3 * 52, start=datetime(2021, 10, 3))
    for day in ((2022, 7, 13), (2023, 7, 12)):
        i = _index(pts, *day)
        assert pts[i].value == 0
        passed, fc = _judged(pts, i)
        assert not passed and not fc.empty_is_normal, day


def test_stopped_for_good_is_not_a_season() -> None:
    # shut in May 2023 and never back: its summer of 2024 is empty a year back too, but it never came back after it
    pts = _camp(4 * 52, stop=datetime(2023, 4, 30))
    i = _index(pts, 2024, 7, 10)
    passed, fc = _judged(pts, i)
    assert not passed and not fc.empty_is_normal


def test_weeks_back_read_as_past_years() -> None:
    # November's weeks run x1.7 October's, its first weeks back: its past years' same weeks read them, a level of
    # its latest weeks (October's) does not (three years read: too few open weeks for a week of the year's effects)
    pts = _camp(4 * 52 + 30)
    for day in ((2024, 11, 6), (2024, 11, 13), (2024, 11, 20)):
        i = _index(pts, *day)
        passed, fc = _judged(pts, i, years=3)
        assert passed, (day, pts[i].value, fc.baseline, fc.lower, fc.upper)
        assert abs(math.log(pts[i].value / fc.baseline)) < 0.15, (day, pts[i].value, fc.baseline)
        assert any("closed for a season every year" in n for n in fc.notes)
        assert not _judged(pts, i, value=pts[i].value * 0.5, years=3)[0], day  # a halved week still fails
        assert not _judged(pts, i, value=pts[i].value * 2.0, years=3)[0], day  # and a doubled one


def _monsoon(weeks: int, seed: int = 7) -> list[Point]:
    """Room-nights per week, ~2,400 with 4% noise and +4% a year, x2.6 from 21 June to 21 September every year (by
    the week's middle day), flat otherwise."""
    rng = random.Random(seed)
    out = []
    for i in range(weeks):
        at = _START + timedelta(weeks=i)
        mid = _middle(at)
        factor = 2.6 if (6, 21) <= (mid.month, mid.day) <= (9, 21) else 1.0
        growth = 1.04 ** ((at - _START).days / 365.25)
        out.append(Point(at, round(2400.0 * factor * growth * math.exp(rng.gauss(0, 0.04)))))
    return out


def test_season_steps_read_by_week_of_year() -> None:
    pts = _monsoon(4 * 52 + 40)
    # in the season after its first week (its edges move a day a year: they are read wider, see _season_edge_moves),
    # and out of it
    for day in ((2024, 7, 3), (2024, 7, 17), (2024, 8, 14), (2024, 10, 2)):
        i = _index(pts, *day)
        passed, fc = _judged(pts, i)
        assert "week" in fc.group, (day, fc.group)
        assert passed, (day, pts[i].value, fc.baseline, fc.lower, fc.upper)
    i = _index(pts, 2024, 7, 10)  # inside the season: a halved week fails
    assert not _judged(pts, i, value=pts[i].value * 0.5)[0]


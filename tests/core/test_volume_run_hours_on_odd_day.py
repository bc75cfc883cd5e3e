"""An hour of the week whose only ordinary week is the run's odd day (_earned_runs).

A run of hours is read on its weeks other than the one odd day (an event that evening); where an hour's
ordinary weeks were that day alone and its other weeks were calendar days (a holiday's hours counted as weeks),
nothing of the hour is left to test: the run is read on the hours that keep a week, and a forecast no longer
fails with a division by zero (a real estate's check crashed on such a day: a daylight-saving change left an
hour of the week with one ordinary point)."""

from __future__ import annotations

import numpy as np

from dw_assets.core.volume_model import _earned_runs

RUN = (18, 19, 20)  # Monday evening's hours (cells are hours of the week: Monday is day 0)
ODD_DAY = 7  # the one past day that ran the other way at every hour of the run


def _cells(hours_with_ordinary_weeks: tuple[int, ...]) -> tuple[dict[object, list[int]], np.ndarray, list[int],
                                                                  dict[object, list[int]]]:
    """Monday's other hours flat over six weeks; each run hour's calendar days above the day's centre, its odd
    day far below; the hours in `hours_with_ordinary_weeks` also hold four ordinary weeks above the centre."""
    cells: dict[object, list[int]] = {}
    calendar_hours: dict[object, list[int]] = {}
    resid: list[float] = []
    days: list[int] = []

    def point(value: float, day: int) -> int:
        resid.append(value)
        days.append(day)
        return len(resid) - 1

    for hour in range(24):
        if hour not in RUN:
            cells[hour] = [point(0.0, 7 * w) for w in range(6)]
    for hour in RUN:
        cells[hour] = [point(-2.0, ODD_DAY)]
        if hour in hours_with_ordinary_weeks:
            cells[hour] += [point(0.5 + 0.01 * w, 7 * w + 14) for w in range(4)]
        else:
            calendar_hours[hour] = [point(0.5 + 0.01 * w, 7 * w + 14) for w in range(4)]
    return cells, np.asarray(resid), days, calendar_hours


def test_a_run_whose_hours_keep_no_week_but_the_odd_day_is_read_without_failing() -> None:
    cells, resid, days, calendar_hours = _cells(hours_with_ordinary_weeks=())
    # every run hour's only ordinary point is the odd day's: nothing is left to test, nothing is earned
    assert _earned_runs(cells, resid, 0.05, len(RUN), days, calendar_hours) == set()


def test_a_run_is_read_on_the_hours_that_keep_weeks_beside_one_that_keeps_none() -> None:
    cells, resid, days, calendar_hours = _cells(hours_with_ordinary_weeks=(18, 19))
    earned = _earned_runs(cells, resid, 0.05, len(RUN), days, calendar_hours)
    # the two hours with ordinary weeks stand out together: the run is earned, the empty hour adds no evidence
    assert earned == set(RUN)


def test_a_run_that_keeps_its_weeks_is_earned_as_before() -> None:
    cells, resid, days, calendar_hours = _cells(hours_with_ordinary_weeks=RUN)
    assert _earned_runs(cells, resid, 0.05, len(RUN), days, calendar_hours) == set(RUN)

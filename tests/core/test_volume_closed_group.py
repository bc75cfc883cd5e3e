"""A group closed for good with nothing taking its place (a region's agents gone from the network, a branch shut):
once its empty run, reaching the history's end, is weeks long (and several partitions), four times the longest
empty run any group came back from, and the group was open over the same span a year before, it is read as closed
since its first empty partition: its empty partitions pass, rows back fail as a reopening. Its first empty weeks
still fail, as does a lone empty partition after an open run, a group that came back from a closure as long before,
and a group whose season's closure the history saw (even where the history begins inside last season)."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.checks_logic import decide_volume
from dw_assets.core.volume_model import (
    Point,
    closed_groups,
    forecast,
    judge,
)
from tests.support.grouped_series import read_groups

_START = datetime(2024, 1, 1)  # a Monday
_WEEK = [1.1, 1.0, 1.0, 1.0, 0.9, 1.0, 0.4]  # payouts per day, quiet on Sundays
_LEVELS = {"capital": 9_000.0, "south": 6_000.0, "valley": 1_500.0}
_DAYS = 400
_CLOSED = 310  # the valley's agents gone from this day on: zero every day since


def _estate(days: int = _DAYS, closed: int | None = _CLOSED, start: datetime = _START, seed: int = 5,
            empty: set[int] | None = None, off_season: tuple[int, int] | None = None) -> dict[str, list[Point]]:
    """Payouts per day by region, 3% noise: "valley" at zero from day `closed` on (None: never), and on the days
    `empty` (an outage); `off_season` (first, last): the valley at zero on those days of each year instead."""
    rng = random.Random(seed)
    out: dict[str, list[Point]] = {k: [] for k in _LEVELS}
    for i in range(days):
        at = start + timedelta(days=i)
        for key, series in out.items():
            size = _LEVELS[key]
            if key == "valley" and ((closed is not None and i >= closed) or i in (empty or set())):
                size = 0.0
            if key == "valley" and off_season and off_season[0] <= at.timetuple().tm_yday <= off_season[1]:
                size = 0.0
            series.append(Point(at, float(round(size * _WEEK[at.weekday()] * math.exp(rng.gauss(0, 0.03))))))
    return out


def _target(days: int = _DAYS, start: datetime = _START) -> datetime:
    return start + timedelta(days=days)


def test_a_group_at_zero_for_months_is_closed_since_its_first_empty_day() -> None:
    estate = _estate()
    since = _START + timedelta(days=_CLOSED)
    assert closed_groups(list(estate.values()), _target()) == {2: since}
    fc = read_groups(estate, _target())["valley"]
    verdict = judge(fc, 0.0)
    assert verdict.passed and verdict.reason == "empty_as_usual"
    assert fc.closed and f"closed since {since:%Y-%m-%d}" in fc.group
    assert "closed for good" in fc.notes[0]


def test_without_the_rule_the_closed_group_is_empty_every_day() -> None:
    # the case the rule is for: the group's own forecast still expects its old level ninety days on
    fc = forecast(_estate()["valley"], _target(), grain="day")
    assert judge(fc, 0.0).reason == "empty"


def test_the_other_groups_keep_their_forecasts_and_their_missing_day_fails() -> None:
    fcs = read_groups(_estate(), _target())
    for key in ("capital", "south"):
        assert "closed" not in fcs[key].group
        assert judge(fcs[key], 0.0).reason == "empty"


def test_the_first_weeks_at_zero_still_fail() -> None:
    # three weeks at zero: too short to tell a closure from an outage the owner is fixing
    days = _CLOSED + 21
    estate = _estate(days=days)
    assert closed_groups(list(estate.values()), _target(days)) == {}
    assert judge(read_groups(estate, _target(days))["valley"], 0.0).reason == "empty"


def test_a_first_empty_partition_after_an_open_run_fails() -> None:
    fcs = read_groups(_estate(closed=None), _target())
    assert judge(fcs["valley"], 0.0).reason == "empty"


def test_rows_back_after_the_closure_fail_as_a_reopening() -> None:
    fc = read_groups(_estate(), _target())["valley"]
    assert not judge(fc, _LEVELS["valley"] * _WEEK[_target().weekday()]).passed


def test_the_day_after_a_reopening_is_read_from_its_own_history() -> None:
    # the valley back on the target's eve: its empty run no longer reaches the history's end, so it is no longer
    # read as closed (its own forecast, no crash)
    estate = _estate(days=_DAYS + 1)
    estate["valley"][-1] = Point(estate["valley"][-1].at, 1_500.0)
    assert closed_groups(list(estate.values()), _target(_DAYS + 1)) == {}
    fc = read_groups(estate, _target(_DAYS + 1))["valley"]
    assert not fc.closed


def test_a_group_that_came_back_from_as_long_a_closure_is_not_closed() -> None:
    # a thirty-day closure for works in the history, then open again: ninety days now is three times it, not four
    estate = _estate(empty=set(range(150, 180)))
    assert closed_groups(list(estate.values()), _target()) == {}
    assert judge(read_groups(estate, _target())["valley"], 0.0).reason == "empty"


def test_another_groups_outage_it_came_back_from_counts_too() -> None:
    estate = _estate()
    estate["south"] = [Point(q.at, 0.0 if 150 <= i < 180 else q.value) for i, q in enumerate(estate["south"])]
    assert closed_groups(list(estate.values()), _target()) == {}


def test_a_season_seen_in_the_history_is_not_a_closure() -> None:
    # the valley at zero from mid-May to mid-August every year: inside its second off-season, weeks in
    estate = _estate(days=540, closed=None, off_season=(135, 228))
    assert closed_groups(list(estate.values()), _target(540)) == {}


def test_a_season_whose_history_begins_inside_last_season_is_not_a_closure() -> None:
    # the history begins inside last year's off-season (no rows yet), so no empty run it came back from is seen:
    # the same span a year before was empty, a season, not a closure
    start = datetime(2024, 7, 1)
    days = 405  # 2025-08-10, some eighty days into the second off-season
    estate = _estate(days=days, closed=None, start=start, off_season=(135, 228))
    assert estate["valley"][0].value == 0 and estate["valley"][-1].value == 0
    assert closed_groups(list(estate.values()), _target(days, start)) == {}
    assert judge(read_groups(estate, _target(days, start))["valley"], 0.0).reason == "empty"


def test_a_monthly_group_needs_several_empty_periods() -> None:
    # month-ends: three empty months are an outage still, the fourth reads as closed
    rng = random.Random(2)
    months = [datetime(2021 + m // 12, m % 12 + 1, 1) for m in range(48)]

    def estate(empty: int) -> list[list[Point]]:
        return [[Point(at, float(round(level * math.exp(rng.gauss(0, 0.03)))) if key != "valley"
                       or i < len(months) - empty else 0.0) for i, at in enumerate(months)]
                for key, level in _LEVELS.items()]

    target = datetime(2025, 1, 1)
    assert closed_groups(estate(3), target) == {}
    assert closed_groups(estate(4), target) == {2: months[-4]}


def test_the_grouped_check_reads_a_closed_group_as_closed() -> None:
    estate = _estate()
    label = {q.at: f"{q.at:%Y-%m-%d}" for q in estate["capital"]}
    target = _target()
    day = _WEEK[target.weekday()]
    observed = {"capital": 9_000.0 * day, "south": 6_000.0 * day, "valley": 0.0}
    groups = {k: (observed[k], [(label[q.at], q.value) for q in estate[k]]) for k in estate}
    total = [(label[at], sum(estate[k][i].value for k in estate)) for i, at in enumerate(label)]
    outcome = decide_volume("payouts.regions", f"{target:%Y-%m-%d}", sum(observed.values()), total, groups=groups)
    assert outcome.passed, outcome.summary
    assert not outcome.metadata["failed_groups"]
    assert "empty_as_usual" in outcome.markdown["groups"]

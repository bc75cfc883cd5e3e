"""A group re-keyed inside the history, nobody's acceptance recorded: a zone split into two new keys (or two merged
into one, a product renamed). The old key's rows stop on the partition the new keys' rows begin, their sum its
level: the old key is shut since (its empty partitions no missing group), the new keys read from their own short
history. A key missing in the target alone, or for a partition or two, a key that stopped with nothing taking its
place, and a group at zero for a season it was at zero a year before are not re-keyed."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from dw_assets.core.checks_logic import decide_volume
from dw_assets.core.volume_model import (
    Point,
    forecast,
    judge,
    retired_groups,
)
from tests.support.grouped_series import read_groups

_START = datetime(2024, 1, 1)  # a Monday
_WEEK = [1.0, 1.05, 1.0, 1.1, 1.2, 1.15, 0.7]  # agents' cash-outs, busier at the week's end, quiet on Sundays
_DAYS = 400  # the target a Tuesday
_SPLIT = 310  # the zone re-keyed: the old key empty from this day, the two new keys from it
_LEVELS = {"capital": 9_000.0, "lake": 3_600.0, "hills": 2_400.0}
_SHARES = {"north": 0.68, "south": 0.32}  # the lake zone's agents, split between the two new keys


def _estate(days: int = _DAYS, split: int | None = _SPLIT, carried: float = 1.0, seed: int = 3,
            off_season: tuple[int, int] | None = None) -> dict[str, list[Point]]:
    """Cash-outs per day by zone, 3% noise: "lake" stops at `split`, "north" and "south" begin there carrying
    `carried` of its level (None: no split). `off_season` (first, last): the hills zone empty on those days of
    each year (a market's closed months)."""
    rng = random.Random(seed)
    out: dict[str, list[Point]] = {k: [] for k in [*_LEVELS, *_SHARES]}
    for i in range(days):
        at = _START + timedelta(days=i)
        rekeyed = split is not None and i >= split
        for key, series in out.items():
            if key in _SHARES:
                size = _LEVELS["lake"] * _SHARES[key] * carried if rekeyed else 0.0
            else:
                size = 0.0 if key == "lake" and rekeyed else _LEVELS[key]
            if off_season and key == "hills" and off_season[0] <= at.timetuple().tm_yday <= off_season[1]:
                size = 0.0
            series.append(Point(at, float(round(size * _WEEK[at.weekday()] * math.exp(rng.gauss(0, 0.03))))))
    return out


def _target(days: int = _DAYS) -> datetime:
    return _START + timedelta(days=days)


def test_a_key_stopped_as_new_keys_began_carrying_its_level_is_retired() -> None:
    estate = _estate()
    assert retired_groups(list(estate.values()), _target()) == {1: _START + timedelta(days=_SPLIT)}
    fcs = read_groups(estate, _target())
    verdict = judge(fcs["lake"], 0.0)
    assert verdict.passed and verdict.reason == "empty_as_usual"
    assert "re-keyed" in fcs["lake"].group and fcs["lake"].closed


def test_without_the_rule_the_retired_key_is_a_missing_group_every_day() -> None:
    # the case the rule is for: the old key's own forecast still expects its level a hundred days on
    fc = forecast(_estate()["lake"], _target(), grain="day")
    assert judge(fc, 0.0).reason == "empty"


def test_rows_back_under_the_retired_key_fail() -> None:
    # the old code's rows again beside the new keys: rows loaded under the retired key, or the split undone
    fcs = read_groups(_estate(), _target())
    assert not judge(fcs["lake"], 3_600.0).passed


def test_the_new_keys_keep_their_own_forecasts_and_their_missing_day_fails() -> None:
    fcs = read_groups(_estate(), _target())
    for key in _SHARES:
        assert "re-keyed" not in fcs[key].group
        assert judge(fcs[key], 0.0).reason == "empty"
    # the target a Tuesday: north's usual Tuesday passes
    assert _target().weekday() == 1
    assert judge(fcs["north"], _LEVELS["lake"] * _SHARES["north"] * _WEEK[1]).passed


def test_two_keys_merged_into_one_are_both_retired() -> None:
    # the split read backwards: north and south stop as lake begins again, their sum its level
    estate = _estate()
    flipped = {"capital": estate["capital"], "hills": estate["hills"],
               "lake": [Point(q.at, n.value + s.value) for q, n, s in zip(estate["lake"], estate["north"], estate["south"])],
               "north": [Point(q.at, q.value if q.at < _START + timedelta(days=_SPLIT) else 0.0) for q in estate["lake"]],
               "south": [Point(q.at, 0.0) for q in estate["lake"]]}
    # north held all of the old rows, south none: a merge of north (the old) into lake (the new)
    flipped["lake"] = [Point(q.at, 0.0 if q.at < _START + timedelta(days=_SPLIT) else q.value) for q in flipped["lake"]]
    assert set(retired_groups(list(flipped.values()), _target())) == {3}


def test_a_key_missing_in_the_target_alone_still_fails() -> None:
    # no split: the lake zone missing in the target partition is a missing group
    fcs = read_groups(_estate(split=None), _target())
    assert judge(fcs["lake"], 0.0).reason == "empty"


def test_a_key_stopped_a_day_before_new_keys_began_fails_until_its_run_is_long() -> None:
    # two partitions into the split: too short a run to tell a re-key from an outage beside a launch
    estate = _estate(days=_SPLIT + 2)
    assert retired_groups(list(estate.values()), _target(_SPLIT + 2)) == {}
    assert retired_groups(list(_estate(days=_SPLIT + 3).values()), _target(_SPLIT + 3)) == {
        1: _START + timedelta(days=_SPLIT)}


def test_a_key_that_stopped_with_nothing_carrying_its_level_is_no_rekey() -> None:
    # the new keys began but hold a third of the old level: the zone's agents lost, the total fell (twenty days
    # on: a loss read as closed for good only after weeks of it, test_volume_closed_group)
    estate = _estate(days=_SPLIT + 20, carried=0.35)
    assert retired_groups(list(estate.values()), _target(_SPLIT + 20)) == {}
    assert judge(read_groups(estate, _target(_SPLIT + 20))["lake"], 0.0).reason == "empty"


def test_a_key_that_stopped_alone_is_no_rekey() -> None:
    estate = _estate()
    del estate["north"], estate["south"]
    assert retired_groups(list(estate.values()), _target()) == {}


def test_an_off_season_seen_a_year_back_is_no_rekey() -> None:
    # the hills zone empty from mid-May to mid-August every year, a new key launched the day its season closed:
    # its empty run now is no longer than last year's, a season it comes back from
    estate = _estate(days=520, split=None, off_season=(135, 228))
    target = _target(520)  # 2025-06-04, inside the second off-season
    start = next(i for i, q in enumerate(estate["hills"]) if q.at.year == 2025 and q.value == 0)
    estate["north"] = [Point(q.at, 0.0 if i < start else 2_400.0) for i, q in enumerate(estate["hills"])]
    assert retired_groups(list(estate.values()), target) == {}


def test_the_grouped_check_reads_a_retired_key_as_shut() -> None:
    estate = _estate()
    label = {q.at: f"{q.at:%Y-%m-%d}" for q in estate["capital"]}
    target = _target()
    day = _WEEK[target.weekday()]
    observed = {"capital": 9_000.0 * day, "lake": 0.0, "hills": 2_400.0 * day,
                "north": 3_600.0 * 0.68 * day, "south": 3_600.0 * 0.32 * day}
    groups = {k: (observed[k], [(label[q.at], q.value) for q in estate[k]]) for k in estate}
    total = [(label[at], sum(estate[k][i].value for k in estate)) for i, at in enumerate(label)]
    outcome = decide_volume("lake.cashouts", f"{target:%Y-%m-%d}", sum(observed.values()), total, groups=groups)
    assert outcome.passed, outcome.summary
    assert outcome.metadata["groups_checked"] == len(estate) and not outcome.metadata["failed_groups"]
    assert "empty_as_usual" in outcome.markdown["groups"]

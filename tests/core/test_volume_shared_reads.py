"""Readings two rules share, read once: a moving holiday's first days over a span (`_moving_starts`, kept by its
arguments, as a grouped check's groups and its total ask it of the same days), and the groups' stopped runs that the
re-keyed and the closed group rules both read (`with_retired_groups` reads as `retired_groups` and `closed_groups`
do on their own)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import (
    Point,
    _moving_starts,
    _read_moving_starts,
    closed_groups,
    forecast,
    retired_groups,
    with_retired_groups,
)

_START = datetime(2024, 1, 1)


def test_moving_starts_read_once_are_those_read_afresh() -> None:
    cal = HolidayCalendar(country="ID")  # the Eids and others move by weeks between years
    first, last = date(2023, 11, 1), date(2026, 3, 1)
    starts = _moving_starts(first, last, cal)
    assert starts == _read_moving_starts(first, last, cal)
    assert starts, "a span of two years holds the Eids' first days"
    assert _moving_starts(first, last, cal) is starts  # (asked again, not read again)
    # a calendar of the same content is the same key; another span is its own reading
    assert _moving_starts(first, last, HolidayCalendar(country="ID")) is starts
    assert _moving_starts(first, last - timedelta(days=200), cal) == _read_moving_starts(
        first, last - timedelta(days=200), cal)


def _estate(days: int) -> dict[str, list[Point]]:
    """Three groups by day, 3% noise: "lake" stops at day 300 and "north" begins there at its level (re-keyed),
    "valley" stops at day 280 with nothing in its place (closed)."""
    rng = random.Random(7)
    out: dict[str, list[Point]] = {k: [] for k in ("capital", "lake", "north", "valley")}
    for i in range(days):
        at = _START + timedelta(days=i)
        for key, series in out.items():
            size = {"capital": 9_000.0, "lake": 3_000.0 if i < 300 else 0.0, "north": 0.0 if i < 300 else 3_000.0,
                    "valley": 1_500.0 if i < 280 else 0.0}[key]
            series.append(Point(at, float(round(size * math.exp(rng.gauss(0, 0.03))))))
    return out


def test_with_retired_groups_reads_as_the_two_rules_on_their_own() -> None:
    estate = _estate(400)
    target = _START + timedelta(days=400)
    histories = list(estate.values())
    retired, closed = retired_groups(histories, target), closed_groups(histories, target)
    assert set(retired) == {1} and set(closed) == {1, 3}  # (the re-keyed key read as such, not as closed)
    fcs = with_retired_groups([forecast(h, target, grain="day") for h in histories], histories, target)
    assert [bool(fc.closed) for fc in fcs] == [False, True, False, True]
    assert fcs[1].group == f"shut since {retired[1]:%Y-%m-%d} (re-keyed)"
    assert fcs[3].group == f"closed since {closed[3]:%Y-%m-%d} (closed)"

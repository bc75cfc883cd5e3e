"""An hourly series in a zone whose clock moves inside the evaluated hours (forward or back, north or south of the
equator, a zone with a 30- or 45-minute offset, a change of half an hour): each local hour reads against the same local
hour of its history, which lies all before the change, and the change day's own hours (23 or 25 of them) pass too."""
from __future__ import annotations

import math
import random
from datetime import datetime, timedelta
from unittest import mock
from zoneinfo import ZoneInfo

import pytest

from dw_assets.core import volume_model
from dw_assets.core.volume_calendar import local_hours
from dw_assets.core.volume_model import Point, forecast, judge

# a sharp day: a lunch and a dinner peak, little at dawn (a neighbour hour is 1.3-2x off most hours: a forecast read
# one hour away fails)
SHAPE = (0.3, 0.15, 0.07, 0.03, 0.02, 0.02, 0.04, 0.1, 0.2, 0.25, 0.3, 0.45, 0.8, 0.85, 0.6, 0.4, 0.4, 0.5, 0.7,
         0.95, 1.0, 0.9, 0.7, 0.5)
LEVEL = 4000.0
HISTORY_DAYS = 28

# (zone, the local day its clock moves, which way): each change lies after 28 days of history
CHANGES = [
    ("Asia/Beirut", datetime(2026, 3, 29), "forward"),  # north, at midnight: a day without 00:00
    ("Europe/Berlin", datetime(2026, 10, 25), "back"),  # north, 03:00 back to 02:00: two 02:00s
    ("Australia/Adelaide", datetime(2026, 10, 4), "forward"),  # south, a 30-minute offset (+09:30 -> +10:30)
    ("America/Santiago", datetime(2026, 4, 5), "back"),  # south, at midnight back: two 23:00s of the day before
    ("Pacific/Chatham", datetime(2026, 9, 27), "forward"),  # a 45-minute offset (+12:45 -> +13:45)
    ("Australia/Lord_Howe", datetime(2026, 4, 5), "back"),  # a change of half an hour (+11:00 -> +10:30)
]


def _series(zone: str, change: datetime, days_after: int, seed: int = 3) -> list[Point]:
    """UTC hours from HISTORY_DAYS local days before `change` to `days_after` days after it, each the local hour's
    share of the day (its wall-clock hour in `zone`), 4% noise."""
    rng = random.Random(seed)
    tz, utc = ZoneInfo(zone), ZoneInfo("UTC")
    at = (change - timedelta(days=HISTORY_DAYS)).replace(tzinfo=tz).astimezone(utc).replace(tzinfo=None)
    end = (change + timedelta(days=days_after)).replace(tzinfo=tz).astimezone(utc).replace(tzinfo=None)
    points = []
    while at < end:
        hour = local_hours([at], zone)[0].hour
        points.append(Point(at, round(LEVEL * SHAPE[hour] * math.exp(rng.gauss(0, 0.04)))))
        at += timedelta(hours=1)
    return points


def _evaluated(zone: str, change: datetime) -> list[tuple[int, list[Point], Point]]:
    """Every second hour of the change day and the two days after it, each with its history (all earlier hours)."""
    series = _series(zone, change, 3)
    first = next(k for k, q in enumerate(series) if local_hours([q.at], zone)[0] >= change)
    return [(local_hours([series[k].at], zone)[0].hour, series[:k], series[k]) for k in range(first, len(series), 2)]


@pytest.mark.parametrize(("zone", "change", "way"), CHANGES, ids=[f"{z}-{w}" for z, _, w in CHANGES])
def test_each_local_hour_reads_as_its_history_after_the_clock_moves(zone: str, change: datetime, way: str) -> None:
    """The clock moved after 28 days of history: every hour of the change day and the two after it reads as its own
    local hour (its baseline within 15% of the hour's level, its group the local hour) and passes."""
    tz = ZoneInfo(zone)
    before, after = change - timedelta(days=1), change + timedelta(days=1)
    moved = tz.utcoffset(after) - tz.utcoffset(before)
    assert (moved > timedelta(0)) == (way == "forward") and moved != timedelta(0)
    for hour, history, target in _evaluated(zone, change):
        fc = forecast(history, target.at, grain="hour", timezone=zone)
        assert f"{hour:02d}h" in fc.group, (target.at, hour, fc.group)
        assert 0.85 < fc.baseline / (LEVEL * SHAPE[hour]) < 1.18, (target.at, hour, fc.baseline)
        assert judge(fc, target.value).passed, (target.at, hour, target.value, fc.baseline, fc.lower, fc.upper)
        assert fc.shift is None, (target.at, fc.shift)


def test_read_in_utc_the_hours_after_the_change_fail() -> None:
    """The same series read with its hours left in UTC (the zone ignored in the model): the hours after Beirut's
    clock moved forward read one hour away from their own (the night's 01h as the 00h, twice its level) and fail:
    the test above holds because each hour is read as its local hour."""
    zone, change, _ = CHANGES[0]
    with mock.patch.object(volume_model, "local_hours", lambda points, timezone: list(points)):
        failed = sum(not judge(forecast(history, target.at, grain="hour", timezone=zone), target.value).passed
                     for _, history, target in _evaluated(zone, change))
    assert failed >= 5, failed

"""An hour whose share of the day turned inside an hourly history and held (_hour_share_turned): a season in no
calendar ended (Ramadan's suhoor hours back to a night's, its iftar back to a dinner's) and the latest days' same
hour reads as they do, not as the history's weeks before."""
from __future__ import annotations

import math
import random
from datetime import datetime, timedelta
from unittest import mock

from dw_assets.core import volume_model
from dw_assets.core.volume_model import Point, forecast, judge

# an ordinary day: lunch and dinner peaks, a quiet dawn
SHAPE = (0.3, 0.15, 0.07, 0.03, 0.02, 0.02, 0.04, 0.1, 0.2, 0.25, 0.3, 0.45, 0.8, 0.85, 0.6, 0.4, 0.4, 0.5, 0.7,
         0.95, 1.0, 0.9, 0.7, 0.5)
LEVEL = 3000.0
SEASON = {1: 2.5, 2: 2.5, 3: 2.5, 16: 1.6, 17: 1.6, 18: 0.4, 19: 0.4}  # the season's hours (in no calendar)
START = datetime(2026, 2, 2)
SEASON_DAYS, AFTER_DAYS = 20, 8


def _series(step: float = 1.0, seed: int = 11) -> list[Point]:
    """SEASON_DAYS days of the season's shape, then AFTER_DAYS ordinary days and the next day's hours (x`step` from
    the season's end on every hour), 5% noise."""
    rng = random.Random(seed)
    points = []
    for k in range(24 * (SEASON_DAYS + AFTER_DAYS + 1)):
        at = START + timedelta(hours=k)
        in_season = k < 24 * SEASON_DAYS
        factor = SEASON.get(at.hour, 1.0) if in_season else step
        points.append(Point(at, round(LEVEL * SHAPE[at.hour] * factor * math.exp(rng.gauss(0, 0.05)))))
    return points


def _target(series: list[Point], hour: int) -> tuple[list[Point], Point]:
    k = 24 * (SEASON_DAYS + AFTER_DAYS) + hour
    return series[:k], series[k]


def test_the_hours_after_a_season_read_as_the_latest_days() -> None:
    """The suhoor's 01h and the iftar's 19h, a week after the season ended, read at the ordinary day's share and
    pass; the model without the rule reads them at the season's (0.4x and 2.5x) and fails them."""
    series = _series()
    for hour in (1, 19):
        history, target = _target(series, hour)
        fc = forecast(history, target.at, grain="hour")
        assert 0.8 < fc.baseline / (LEVEL * SHAPE[hour]) < 1.25, (hour, fc.baseline)
        assert judge(fc, target.value).passed, (hour, target.value, fc.lower, fc.upper)
        assert any("share of the day turned" in n for n in fc.notes)
        with mock.patch.object(volume_model, "_hour_share_turned", lambda shares, rows: None):
            plain = forecast(history, target.at, grain="hour")
        assert not judge(plain, target.value).passed, (hour, target.value, plain.lower, plain.upper)


def test_a_drop_at_the_turned_hour_still_fails() -> None:
    """A 50% drop at the turned 01h fails against the latest days' share."""
    history, target = _target(_series(), 1)
    fc = forecast(history, target.at, grain="hour")
    assert not judge(fc, 0.5 * target.value).passed


def test_an_hour_the_season_left_alone_is_not_moved() -> None:
    """An hour the season never moved (13h) keeps its share: the rule does not open."""
    history, target = _target(_series(), 13)
    fc = forecast(history, target.at, grain="hour")
    assert not any("share of the day turned" in n for n in fc.notes)
    assert judge(fc, target.value).passed


def test_a_step_on_every_hour_alike_is_no_turn() -> None:
    """A series with no season whose every hour stepped x1.3 at once: each hour's share of its day stays, the rule
    does not open (the level is the other rules')."""
    rng = random.Random(5)
    series = [Point(START + timedelta(hours=k), round(LEVEL * SHAPE[k % 24] * (1.3 if k >= 24 * SEASON_DAYS else 1.0)
                                                       * math.exp(rng.gauss(0, 0.05))))
              for k in range(24 * (SEASON_DAYS + AFTER_DAYS + 1))]
    for hour in (1, 19):
        history, target = _target(series, hour)
        fc = forecast(history, target.at, grain="hour")
        assert not any("share of the day turned" in n for n in fc.notes)

"""A series keyed on a few days of every month (dekads) read by the days each partition holds: a weekday's and a
holiday's weight and the partition's place in the month, learned from the partitions' totals (`_day_weights`)."""

from __future__ import annotations

import itertools
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, _day_weights, forecast, judge

_DEKADS = (1, 11, 21)
_PER_DAY = 5_000.0
_SUNDAY = 0.4
_HOLIDAY = 0.2
_NOISE = 0.03
# three days off every spring and one each autumn (on dates of the series' own configured calendar)
_CALENDAR = HolidayCalendar(dates={
    **{date(y, 3, d): "Spring festival" for y in range(2021, 2026) for d in (21, 22, 23)},
    **{date(y, 10, 25): "Republic Day" for y in range(2021, 2026)},
    **{date(y, 1, d): "New Year" for y in range(2021, 2026) for d in (1, 2)},
})


def _keys(first: date, count: int) -> list[tuple[datetime, list[date]]]:
    """`count` dekads from `first` (a 1st), each keyed on its first day with the days it holds (8 to 11)."""
    starts, d = [], first
    while len(starts) < count + 1:
        if d.day in _DEKADS:
            starts.append(d)
        d += timedelta(days=1)
    return [(datetime(a.year, a.month, a.day), [a + timedelta(days=k) for k in range((b - a).days)])
            for a, b in itertools.pairwise(starts)]


def _day(d: date, holidays: bool) -> float:
    f = _SUNDAY if d.weekday() == 6 else 1.0
    return f * (_HOLIDAY if holidays and _CALENDAR.name(d) else 1.0)


def _dekads(count: int = 150, seed: int = 5, holidays: bool = True, sundays: bool = True) -> list[Point]:
    """Tonnes per dekad from 1 January 2021: the sum of its days (a Sunday x0.4 and a holiday x0.2 where asked),
    3% noise per dekad."""
    rng = random.Random(seed)
    out = []
    for at, days in _keys(date(2021, 1, 1), count):
        total = sum(_PER_DAY * (_day(d, holidays) if sundays else (_HOLIDAY if holidays and _CALENDAR.name(d) else 1))
                    for d in days)
        out.append(Point(at, total * rng.lognormvariate(0, _NOISE)))
    return out


def test_a_dekad_holding_holidays_is_expected_from_its_days() -> None:
    """The spring festival's dekad (21-31 March: three holidays at x0.2) is expected about a fifth lower than its
    eleven days read as ordinary, and passes; a 20% drop of an ordinary dekad fails (the band, free of the
    holidays' and the Sundays' noise, is no longer at its ceiling). Fails without `_day_weights`: the festival's
    dekad was expected at eleven ordinary days and the band sat at 0.70-1.43."""
    series = _dekads()
    by_key = {q.at: i for i, q in enumerate(series)}
    festival = by_key[datetime(2024, 3, 21)]
    fc = forecast(series[:festival], series[festival].at, grain="day", calendar_=_CALENDAR)
    truth = sum(_PER_DAY * _day(d, True) for d in _keys(date(2024, 3, 21), 1)[0][1])
    assert abs(fc.baseline / truth - 1) < 0.06, fc.notes
    assert judge(fc, series[festival].value).passed
    caught = 0
    ordinary = [i for i in range(by_key[datetime(2024, 5, 1)], by_key[datetime(2024, 9, 1)])]
    for i in ordinary:
        fc = forecast(series[:i], series[i].at, grain="day", calendar_=_CALENDAR)
        assert judge(fc, series[i].value).passed, (series[i].at, fc.notes)
        caught += not judge(fc, series[i].value * 0.8).passed
    assert caught >= 0.9 * len(ordinary)


def test_day_weights_learn_the_sunday_and_the_holiday_from_totals() -> None:
    weigh = _day_weights(_dekads(count=108), _DEKADS, _CALENDAR)
    assert weigh is not None
    # the festival's eleven days count as about 7.2 + 0.6 ordinary days against an ordinary eleven's 9.8
    festival, ordinary = weigh(datetime(2023, 3, 21)), weigh(datetime(2023, 5, 21))
    assert 0.70 < festival / ordinary < 0.86


def test_day_weights_not_kept_where_every_day_is_alike() -> None:
    """Dekads whose days are all alike (no Sunday, no holiday effect) are read per calendar day as before."""
    assert _day_weights(_dekads(count=108, holidays=False, sundays=False), _DEKADS, _CALENDAR) is None


def test_day_weights_learn_the_months_closing_dekad() -> None:
    """A month's last three days at x1.35 (a sales plan's close, in no calendar): the closing dekad, 8 to 11 days,
    counts as more days than it holds, the middle one as its ten."""
    rng = random.Random(11)
    series = []
    for at, days in _keys(date(2021, 1, 1), 108):
        last = days[-1] if at.day == 21 else None
        total = sum(_PER_DAY * (1.35 if last and (last - d).days < 3 else 1.0) for d in days)
        series.append(Point(at, total * rng.lognormvariate(0, _NOISE)))
    weigh = _day_weights(series, _DEKADS, HolidayCalendar())
    assert weigh is not None
    closing, middle = weigh(datetime(2023, 5, 21)), weigh(datetime(2023, 5, 11))
    assert closing / 11 > 1.05 * middle / 10

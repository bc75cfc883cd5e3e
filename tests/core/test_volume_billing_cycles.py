"""Billing cycles keyed once a month on one weekday (each month's last Tuesday: four or five weeks, keyed on their
first day, the 22nd to the 31st): no calendar months, no month-ends. Read by the days each cycle holds a year back
(`_year_back_by_days`), their next key known from the rule their keys follow (`_next_weekday_key`)."""

from __future__ import annotations

import calendar
import itertools
import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_model import Point, _next_weekday_key, forecast, judge

_PER_DAY = 5_000.0  # an ordinary summer day
_NOISE = 0.02
_GROWTH = 1.02  # a year


def _last_tuesday(year: int, month: int) -> date:
    last = date(year, month, calendar.monthrange(year, month)[1])
    return last - timedelta(days=(last.weekday() - 1) % 7)


def _cycle_keys(first_year: int, first_month: int, count: int) -> list[date]:
    """`count` + 1 reading days: each month's last Tuesday from the given month (the last one closes the last cycle)."""
    months = [(first_year + (first_month - 1 + k) // 12, (first_month - 1 + k) % 12 + 1) for k in range(count + 1)]
    return [_last_tuesday(y, m) for y, m in months]


def _day_use(d: date, origin: date) -> float:
    """A day's use: heating by the cold (a smooth yearly season, winter four times summer), +2% a year."""
    cold = (1 + math.cos(2 * math.pi * (d.timetuple().tm_yday - 15) / 365.25)) / 2
    return _PER_DAY * (1 + 3 * cold ** 2) * _GROWTH ** ((d - origin).days / 365.25)


def _cycles(count: int = 48, seed: int = 5, step_at: int | None = None, step: float = 1.6,
            odd: dict[int, float] | None = None) -> list[Point]:
    """Gas billed per cycle from November 2020: each cycle the sum of its days, 2% noise; from cycle `step_at` the
    level moved by `step` (accepted by the owner on its first cycle); `odd`: cycles moved once (a cold snap, a load
    half done) by their factor."""
    rng = random.Random(seed)
    keys = _cycle_keys(2020, 11, count)
    out = []
    for i, (a, b) in enumerate(itertools.pairwise(keys)):
        used = sum(_day_use(a + timedelta(days=k), keys[0]) for k in range((b - a).days))
        level = (step if step_at is not None and i >= step_at else 1.0) * (odd or {}).get(i, 1.0)
        out.append(Point(datetime(a.year, a.month, a.day), used * level * rng.lognormvariate(0, _NOISE),
                         accepted=i == step_at, shift=i == step_at))
    return out


def test_next_key_of_last_tuesdays_is_the_next_months_last_tuesday() -> None:
    keys = _cycle_keys(2023, 1, 14)
    assert _next_weekday_key(keys[:-1]) == keys[-1]
    # a month of five Tuesdays and one of four: counted from the month's end, one place
    assert _next_weekday_key(_cycle_keys(2024, 1, 8)) == _last_tuesday(2024, 10)


def test_next_key_of_first_mondays_counts_from_the_months_start() -> None:
    firsts = [next(date(2024, m, d) for d in range(1, 8) if date(2024, m, d).weekday() == 0) for m in range(1, 13)]
    assert _next_weekday_key(firsts) == date(2025, 1, 6)


def test_calendar_months_and_month_ends_have_no_weekday_rule() -> None:
    starts = [date(2023 + (m - 1) // 12, (m - 1) % 12 + 1, 1) for m in range(1, 25)]
    ends = [date(d.year, d.month, calendar.monthrange(d.year, d.month)[1]) for d in starts]
    assert _next_weekday_key(starts) is None
    assert _next_weekday_key(ends) is None
    # nor weekly keys (four a month) on one weekday
    weeks = [date(2024, 1, 2) + timedelta(days=7 * k) for k in range(30)]
    assert _next_weekday_key(weeks) is None


def test_billing_cycles_read_by_their_days_a_year_back() -> None:
    """Each cycle of the last year, read against the 36 before it: its season is the days it holds a year back, not
    the last few cycles (spring's cycles half the winter's, five weeks a quarter more than four)."""
    cycles = _cycles()
    alarms, widths = 0, []
    for i in range(36, len(cycles)):
        fc = forecast(cycles[i - 36:i], cycles[i].at, grain="day")
        alarms += not judge(fc, cycles[i].value).passed
        widths.append(fc.upper / fc.lower)
        # a fifth less than billed is caught on every cycle
        assert not judge(fc, cycles[i].value * 0.8).passed, cycles[i].at
    assert alarms == 0
    assert max(widths) < 1.5  # (the ceiling's 0.70-1.43 is 2.04)


def test_an_accepted_step_is_carried_into_the_days_a_year_back() -> None:
    """A region merged in (x1.6, accepted on its first cycle): the cycles after it read their days a year back,
    before the step, lifted by the step the pairs across it show."""
    cycles = _cycles(step_at=40)
    for i in range(41, len(cycles)):
        history = cycles[i - 36:i]
        fc = forecast(history, cycles[i].at, grain="day")
        assert judge(fc, cycles[i].value).passed, (cycles[i].at, cycles[i].value / fc.baseline)
        assert fc.upper / fc.lower < 1.6  # (the ceiling's 2.04; one pair across the step at first)
        assert any("accepted shift" in note for note in fc.notes)


def test_a_cold_snap_a_year_back_is_read_two_years_back() -> None:
    """A cycle a quarter above its season (a cold snap in no calendar, outside the band it had) is no base for the
    next year's: that cycle reads its days two years back."""
    cycles = _cycles(odd={32: 1.25})
    target = 44  # (its days a year back are the cold snap's cycle)
    fc = forecast(cycles[target - 40:target], cycles[target].at, grain="day")
    assert judge(fc, cycles[target].value).passed, cycles[target].value / fc.baseline
    assert any("two years back" in note for note in fc.notes)
    assert not judge(fc, cycles[target].value * 0.8).passed
    # two cycles on, clear of it (its next cycle reads part of its days a year back, between their middles), a year
    later = forecast(cycles[target - 38:target + 2], cycles[target + 2].at, grain="day")
    assert any("read by their days a year back" in note for note in later.notes)


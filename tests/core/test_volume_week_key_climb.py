"""A weekly series' key reading (`_week_ends_on_key`) on a season's steep climb: the holiday weeks of spring cluster
in the weeks the series climbs fastest, and the ordinary weeks they are read against must not name the reading."""
import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core import volume_model
from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast

# a resort's season by mid-month (January first): shut to a kiosk or two in winter, x50 by early summer
_SEASON = (0.03, 0.03, 0.12, 0.6, 1.2, 2.2, 3.0, 3.0, 1.4, 0.3, 0.03, 0.03)


def _season(day: date) -> float:
    """The day's season, interpolated in logs between the months' middles."""
    at = (day.month - 1) + (day.day - 15) / 30
    low = math.floor(at)
    share = at - low
    a, b = _SEASON[low % 12], _SEASON[(low + 1) % 12]
    return math.exp((1 - share) * math.log(a) + share * math.log(b))


def _spring_calendar() -> HolidayCalendar:
    """Three spring holidays on fixed dates (each on another weekday every year) and one moving a few weeks a year."""
    dates: dict[date, str] = {}
    for year in range(2021, 2027):
        dates[date(year, 3, 14)] = "Spring Day"
        dates[date(year, 3, 22)] = "New Day"
        dates[date(year, 5, 1)] = "Labour Day"
    for moving in (date(2022, 4, 2), date(2023, 3, 28), date(2024, 4, 9), date(2025, 3, 30), date(2026, 3, 20)):
        dates[moving] = "Feast"
    return HolidayCalendar(dates=dates)


def _resort_weeks(cal: HolidayCalendar, seed: int = 3, weeks: int = 190) -> list[Point]:
    """A resort route's cases per week, Sunday to Saturday, keyed on its Sunday (a Dagster weekly key): each day
    at its season, x1.2 on a holiday (the evening walks), 4% noise a week."""
    rng = random.Random(seed)
    out = []
    for i in range(weeks):
        sunday = date(2022, 1, 2) + timedelta(weeks=i)
        days = [sunday + timedelta(days=k) for k in range(7)]
        mean = sum(200 * _season(d) * (1.2 if cal.name(d) else 1.0) for d in days)
        out.append(Point(datetime(sunday.year, sunday.month, sunday.day), mean * math.exp(rng.gauss(0, 0.04))))
    return out


def test_a_steep_seasons_climb_does_not_name_the_weeks_last_day():
    """Keyed on their first day, the spring holiday weeks fall where the route climbs x0.12 to x1.2 in two
    months: read against the median of their ordinary neighbours (more of them on one side: the holiday weeks
    cluster) the weeks a reading a week earlier labels stood x2-x4 above it by the climb alone, and the series read
    as weeks dated on their last day (every holiday a week off, the holiday weeks failing). Read against the
    line between the two sides' medians, the first day stays."""
    cal = _spring_calendar()
    history = _resort_weeks(cal)
    for seed in (3, 5, 8):
        assert not volume_model._week_ends_on_key(_resort_weeks(cal, seed), cal), seed
    target = history[-1].at
    fc = forecast(history[:-1], target, calendar_=cal)
    assert not any("last day" in note for note in fc.notes), fc.notes


def test_the_same_weeks_dated_on_their_last_day_still_read_so():
    """The reading still finds weeks dated on their last day where the holidays show it: the same season with
    a holiday closing its day (a fifth of a five-day week), dated on each week's Saturday."""
    cal = _spring_calendar()
    rng = random.Random(4)
    history = []
    for i in range(190):
        saturday = date(2022, 1, 8) + timedelta(weeks=i)
        days = [saturday - timedelta(days=k) for k in range(7)]
        mean = sum(200 * (0.0 if cal.name(d) else 1.0) for d in days if d.weekday() < 5)
        history.append(Point(datetime(saturday.year, saturday.month, saturday.day), mean * math.exp(rng.gauss(0, 0.02))))
    assert volume_model._week_ends_on_key(history, cal)


def test_a_local_base_follows_the_climb_between_its_sides():
    """Three ordinary weeks before and one after on a climb of 0.5 a week: the line reads the week's own level,
    the median of all four a week and a half behind it."""
    x = [0.5 * i for i in range(10)]
    assert abs(volume_model._local_base(x, [2, 3, 4], [6], 5) - 2.5) < 1e-9
    assert volume_model._local_base(x, [3], [], 5) is None
    assert abs(volume_model._local_base(x, [2, 3], [], 5) - 1.25) < 1e-9

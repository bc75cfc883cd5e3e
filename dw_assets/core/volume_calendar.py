"""The calendar of a partition: what kind of day (or hour) it is, for the volume model.

Holidays (the `holidays` package and dates from config), period ends of the fiscal year, business
days of the month, a holiday's neighbourhood, seasons (Ramadan from Eid al-Fitr, configured ones),
closures, a fixed day of the month rolled to a business day (a payroll on the 27th), and an hourly
series' local hours. Pure Python: no history here, only dates;
`volume_model.forecast` decides which of these groups a series uses.
"""

from __future__ import annotations

import calendar
import itertools
import math
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import cached_property, lru_cache
from typing import Literal, TypeVar
from zoneinfo import ZoneInfo

import holidays as holidays_lib

Grain = Literal["day", "hour"]
# which day of its seven a weekly partition's key names: Dagster's weekly partitions key a week on its first day,
# many teams on its last (the week ending Saturday, a draw date)
WeekDatedOn = Literal["first_day", "last_day"]
T = TypeVar("T")
FEATURES = ("period_end", "near_period_end", "weekday", "hour_of_day", "business_day", "business_day_from_end",
            "business_day_edge", "holiday", "near_holiday", "after_gap", "hour_of_week", "month_of_year",
            "week_of_year", "season", "rolled_day")
# (in the order their effects are fitted: the day after a long weekend is first a day after a
# closure, and only what is left is its holiday's neighbourhood's)
SPARSE = ("period_end", "near_period_end", "rolled_day", "month_of_year", "season", "holiday", "after_gap",
          "near_holiday")
# calendar days that must earn their group: kept only when their past effect stands out from the noise
EARNED = ("holiday", "after_gap", "near_holiday", "near_period_end", "month_of_year", "season", "rolled_day")
# the seasons of a weekly or monthly series: every partition belongs to one, so they are no calendar
# day for the shift rule and the level
SEASONS = ("month_of_year", "week_of_year")
NONE = ("", -1, 0)  # a sparse group's "not this kind of day"
ALL_WEEK = frozenset(range(7))
NEIGHBOURHOOD_DAYS = 3  # the working days before and after a holiday that may carry its effect (travel, backlog)
# ... and how far it may reach where the history shows it does (the festive weeks before Diwali):
# a side is widened only when its outermost day is a group of its own, and only as far as its days stay so
NEIGHBOURHOOD_MAX_DAYS = 10
HOLIDAY_JOIN = re.compile(r"; | \+ ")  # how two holidays on one day (one week) are named together
OBSERVED = " (observed)"  # the `holidays` package's day off for a holiday on a weekend: "Anzac Day (observed)"
BRIDGE_REACH = 6  # closed days a bridge day may lie from the holiday it belongs to (a weekend and more)
# closed days (holidays, weekend days) an observed day off may lie after its own holiday's day, across another
# holiday's run (Eid al-Fitr on Novruz's Saturday, observed after Novruz's five days and its own days off)
OBSERVED_RUN_REACH = 14
PERIOD_CLOSE_DAYS = 3  # the open days before a quarter's or year's last one that may carry its close
# Ramadan: the days before Eid al-Fitr's first day (29 or 30; no holiday calendar lists them), its
# last ten apart (Eid shopping, the nights of prayer) where the history shows they differ
EID_AL_FITR = re.compile(r"eid al-fitr", re.IGNORECASE)
RAMADAN, RAMADAN_LATE = "Ramadan", "Ramadan (last ten days)"
RAMADAN_DAYS, RAMADAN_LATE_DAYS = 30, 10
# Lunar New Year (China's Spring Festival, Vietnam's Tet, Korea's Seollal): factories wind down and
# shoppers rush in the weeks before its first holiday day, work returns slowly in the weeks after
# its last; each week a season part of its own ("Lunar New Year -1w", "+2w"), earned by its own effect
# (not "Spring Festival" alone: Egypt's Sham el-Nessim is one; China's is "Chinese New Year (Spring Festival)")
LUNAR_NEW_YEAR = re.compile(r"(chinese|lunar|korean) new year", re.IGNORECASE)
LUNAR_WEEKS_BEFORE, LUNAR_WEEKS_AFTER = 2, 3
LUNAR_NEW_YEAR_SEASON = "Lunar New Year"
# the world's moving festivals a diaspora keeps where its country's calendar lacks them (a Toronto grocer's
# Lunar New Year, a London sweet shop's Diwali, a Paris butcher's Eid): (name, a calendar of the `holidays`
# package that dates it, its first day's name there, what finds it in an estate's own calendar). Each is
# tried on a daily series whose calendar lacks it and earned only where the history shows it (see
# volume_model._earned_festivals); an earned one's days are a season, each day by its offset to the festival
FESTIVALS: tuple[tuple[str, str, str, re.Pattern[str]], ...] = (
    ("Lunar New Year", "SG", "Chinese New Year", LUNAR_NEW_YEAR),
    ("Mid-Autumn Festival", "CN", "Mid-Autumn Festival", re.compile(r"mid-autumn", re.IGNORECASE)),
    ("Diwali", "IN", "Diwali", re.compile(r"diwali|deepavali", re.IGNORECASE)),
    ("Eid al-Fitr", "TR", "Eid al-Fitr", EID_AL_FITR),
    ("Eid al-Adha", "TR", "Eid al-Adha", re.compile(r"eid al-adha", re.IGNORECASE)),
    ("Easter", "DE", "Good Friday", re.compile(r"easter|good friday", re.IGNORECASE)),
)
# a festival's reach: the two weeks of preparation before it (as Lunar New Year's weeks before), and
# the days after it a neighbourhood reaches (the return, the sales)
FESTIVAL_DAYS_BEFORE, FESTIVAL_DAYS_AFTER = 14, NEIGHBOURHOOD_DAYS
FESTIVAL_SAME = 30  # days within which a festival's listed days are one festival (a lunar year apart)
# the weeks around a fiscal period's close a daily series may hold as a season of its own (a sales team's
# push over a quarter's last weeks, a quiet week after the close): (its name, the period its month-ends
# close, as `period_of_month` names it). Each is tried on every daily series and earned only where the
# history shows it (volume_model._earned_closes); an earned one's days are a season by their week to or
# from the close (a working day by its offset, a weekend day by its week: a push's weekends move far more
# than its weekdays)
PERIOD_CLOSES: tuple[tuple[str, str], ...] = (("Quarter close", "quarter"), ("Year close", "year"))
# its reach: the last two weeks of the period (a festival's weeks of preparation) and the week after
CLOSE_DAYS_BEFORE, CLOSE_DAYS_AFTER = FESTIVAL_DAYS_BEFORE, 7
CLOSE_WEEKEND = " (weekend)"  # a close's day on the calendar's weekend: a part of its own
# a span of weeks between two moving holidays of the calendar (a fast between two feasts of one moving anchor):
# tried where the two holidays lie the same number of days apart in every year (one anchor moves both) within
# these bounds, and the first of them moves by a week or more between years (a date or a weekday's holiday moves
# less: a fixed season already reads as the time of year); the days strictly between them are a season of its own
# where the series' history earns it (volume_model._earned_spans)
SPAN_MIN_DAYS, SPAN_MAX_DAYS = 21, 63
SPAN_MOVES_DAYS = 7
SPAN_JOIN = " to "  # a span's season name: "Green Monday to Good Friday"
# a fixed day of the month (a payroll on the 27th) moved to a business day when it falls on a closed
# day: "preceding" (the last business day on or before it) or "following" (the first on or after it)
ROLLS = ("preceding", "following")
Roll = Literal["preceding", "following"]
# a declared break's weeks (a school region's holidays, which move from year to year) are named by
# their position in it, so each compares with the same position of its past breaks, not with the same
# week of the year: its first week (a partial start), the weeks inside it, and the weeks back
BREAK_FIRST, BREAK_BACK = " (first week)", " (first week back)"
# a daily series' first business days after a declared break, each its own value (`break_day_back`): a week of
# them, the weekly series' first week back; within a reach of calendar days that a week of them and a long
# weekend's holidays fit in
BREAK_DAY_BACK, BREAK_BACK_DAYS, BREAK_BACK_REACH = " (day {} back)", 5, 14
# the weeks after a break named by their distance from it: a restart recurs with the break (a clinic's
# postponed check-ups, a school's slow start), and a backlog booked after a restart fills its first
# fortnight, so the first two weeks back are each their own value; each keeps its label only where its
# past effect stands out of the noise (`_indistinct`), as a holiday's does
BREAK_BACKS = (BREAK_BACK, " (second week back)")


@dataclass(frozen=True)
class HolidayCalendar:
    """Holidays from the `holidays` package (country, optional subdivision) plus dates from config,
    and the month the fiscal year closes in (its last day is the year end; every third month-end
    back from it a quarter end): a June year (Australia) or a January one (retail) closes elsewhere
    than December."""
    country: str | None = None
    subdiv: str | None = None
    dates: Mapping[date, str] = field(default_factory=dict)
    fiscal_year_end: int = 12
    # seasons of several weeks named in config: {"Back to school": [(first day, last day), ...]}
    seasons: Mapping[str, Sequence[tuple[date, date]]] = field(default_factory=dict)
    # fixed days of the month the owner declared (a payroll on the 27th, rolled to the preceding
    # business day): ((27, "preceding"), ...), each a `rolled_day` group from the start (its effect
    # must still stand out of the noise, as a holiday's must; the model finds others itself)
    rolled_days: Sequence[tuple[int, str]] = ()
    # breaks the owner declared (school holidays, a plant's shutdown), named, each a list of
    # (first day, last day) per year: {"Summer break": [(2025-07-12, 2025-08-24), ...]}; a weekly
    # series' break weeks compare with the same position in its past breaks (`break_part`), a daily
    # series' break days are a season of their own
    breaks: Mapping[str, Sequence[tuple[date, date]]] = field(default_factory=dict)
    # moving festivals of other calendars (FESTIVALS' names) a series' history earned: their days are
    # a season each, by offset ("Lunar New Year -1d"), compared with the same offset in past years
    festivals: tuple[str, ...] = ()
    # the period closes (PERIOD_CLOSES' names) a series' history earned: the weeks around each close are
    # a season, a working day by its offset ("Quarter close -3d"), a weekend day by its week ("Quarter close
    # -1w (weekend)"), compared with past closes
    closes: tuple[str, ...] = ()
    # the spans between two of the calendar's moving holidays (`moving_spans`' keys) a series' history earned:
    # the days strictly between the two are a season, compared with the same span in past years
    spans: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not 1 <= self.fiscal_year_end <= 12:
            raise ValueError(f"fiscal_year_end must be a month number 1-12, not {self.fiscal_year_end!r}")
        for day, roll in self.rolled_days:
            if not 1 <= day <= 31 or roll not in ROLLS:
                raise ValueError(f"calendar day {day!r} {roll!r}: give a day of the month 1-31 and a roll, "
                                 f"{' or '.join(ROLLS)}")

    @cached_property
    def cache_key(self) -> int:
        """What the calendar says, as a key for the feature caches (not `id()` of its mappings: a
        long-running process builds calendars per check, and a collected one's id is reused). A
        small number per distinct content, so a lookup per partition hashes an int, not every date."""
        content = (self.country, self.subdiv, self.fiscal_year_end, tuple(sorted(self.dates.items())),
                   tuple(sorted((name, tuple(map(tuple, spans))) for name, spans in self.seasons.items())),
                   tuple(self.rolled_days),
                   tuple(sorted((name, tuple(map(tuple, spans))) for name, spans in self.breaks.items())),
                   self.festivals, self.closes, self.spans)
        return _CALENDAR_KEYS.setdefault(content, len(_CALENDAR_KEYS))

    def period_of_month(self, month: int) -> str:
        """The period a month's end closes: the fiscal year's, a fiscal quarter's or the month's."""
        offset = (month - self.fiscal_year_end) % 12
        return "year" if offset == 0 else "quarter" if offset % 3 == 0 else "month"

    def season(self, day: date) -> tuple[str, int]:
        """The season a day belongs to and its occasion (the ordinal of the season's first day, so a
        season's days of one year count as one occasion): a configured one, else Ramadan where the
        country's calendar holds Eid al-Fitr; ("", 0) for none."""
        for name, spans in (*self.seasons.items(), *self.breaks.items()):
            for first, last in spans:
                if first <= day <= last:
                    return name, first.toordinal()
        if self.country:
            for eid in (*_eid_firsts(self.country, self.subdiv, day.year), *_eid_firsts(self.country, self.subdiv, day.year + 1)):
                before = (eid - day).days
                if 0 < before <= RAMADAN_DAYS:
                    return (RAMADAN_LATE if before <= RAMADAN_LATE_DAYS else RAMADAN,
                            (eid - timedelta(days=RAMADAN_DAYS)).toordinal())
            for first, last in self.lunar_new_years(day.year):
                occasion = (first - timedelta(days=7 * LUNAR_WEEKS_BEFORE)).toordinal()
                if 0 < (first - day).days <= 7 * LUNAR_WEEKS_BEFORE:
                    return f"{LUNAR_NEW_YEAR_SEASON} -{((first - day).days - 1) // 7 + 1}w", occasion
                if 0 < (day - last).days <= 7 * LUNAR_WEEKS_AFTER:
                    return f"{LUNAR_NEW_YEAR_SEASON} +{((day - last).days - 1) // 7 + 1}w", occasion
        for name in self.festivals:
            for first in (*festival_days(name, day.year), *festival_days(name, day.year + 1)):
                before = (first - day).days
                if -FESTIVAL_DAYS_AFTER <= before <= FESTIVAL_DAYS_BEFORE:
                    return f"{name} {-before:+d}d", (first - timedelta(days=FESTIVAL_DAYS_BEFORE)).toordinal()
        if self.spans:
            moving = self.moving_spans(day, day)
            for pair in self.spans:
                for first, last in moving.get(pair, ()):
                    if first < day < last:
                        return SPAN_JOIN.join(pair), (first + timedelta(days=1)).toordinal()
        for name in self.closes:
            # (a year's close not earned on its own is a quarter's close like the others)
            for end in self.period_ends(name, day - timedelta(days=CLOSE_DAYS_AFTER),
                                        day + timedelta(days=CLOSE_DAYS_BEFORE),
                                        with_year=name == PERIOD_CLOSES[0][0] and PERIOD_CLOSES[1][0] not in self.closes):
                before = (end - day).days
                if -CLOSE_DAYS_AFTER <= before < CLOSE_DAYS_BEFORE:
                    # a working day by its offset (a push need not start on a week's edge); a weekend day,
                    # two a week, by its week (an offset's weekend is seen once in a year of closes)
                    week = f"-{before // 7 + 1}w" if before >= 0 else f"+{(-before - 1) // 7 + 1}w"
                    part = f"{week}{CLOSE_WEEKEND}" if self.is_weekend(day) else f"{-before:+d}d"
                    return f"{name} {part}", (end - timedelta(days=CLOSE_DAYS_BEFORE - 1)).toordinal()
        return "", 0

    def period_ends(self, name: str, first: date, last: date, with_year: bool = False) -> list[date]:
        """The last days of the periods a close of PERIOD_CLOSES closes (its fiscal quarters' ends but the
        year's, or the year's; `with_year`: the quarters' and the year's), from `first` to `last`."""
        kinds = {dict(PERIOD_CLOSES)[name], "year"} if with_year else {dict(PERIOD_CLOSES)[name]}
        out = []
        year, month = first.year, first.month
        while (year, month) <= (last.year, last.month):
            end = date(year, month, calendar.monthrange(year, month)[1])
            if first <= end <= last and self.period_of_month(month) in kinds:
                out.append(end)
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        return out

    def festivals_tried(self, first: date, last: date) -> dict[str, list[date]]:
        """The FESTIVALS the calendar lacks (none of its holidays in the years from `first` to `last`
        is one, nor falls on its day most years) and their first days in those years (and the next: its
        weeks before may start inside)."""
        years = range(first.year, last.year + 2)
        own = [name for y in years for name in _country_holidays(self.country, self.subdiv, y).values()] \
            if self.country else []
        own += [name for d, name in self.dates.items() if first.year <= d.year <= last.year + 1]
        own += [*self.seasons, *self.breaks]
        tried = {name: [d for y in years for d in festival_days(name, y)]
                 for name, _, _, pattern in FESTIVALS if not any(pattern.search(o) for o in own)}
        # (a festival whose day is the calendar's holiday most years is in it under a name of its own:
        # "festival" in config, Hari Raya Puasa)
        return {name: days for name, days in tried.items() if 2 * sum(bool(self.name(d)) for d in days) <= len(days)}

    def moving_spans(self, first: date, last: date) -> dict[tuple[str, str], list[tuple[date, date]]]:
        """The spans between two moving holidays of the country's calendar, each with its (first, last) holiday
        days in the years from `first` to `last` (and the next: a span may start the year before its end): a pair
        of holidays next to each other among the moving ones, the same number of days apart (SPAN_MIN_DAYS to
        SPAN_MAX_DAYS) in every year of the calendar from three years before `first` to the year after `last` that
        holds either (so both in every one), the first moving SPAN_MOVES_DAYS or more between two of them."""
        if not self.country:
            return {}
        return {pair: [d for d in days if first.year <= d[1].year <= last.year + 1]
                for pair, days in _moving_spans(self.country, self.subdiv, first.year - 3, last.year + 1).items()}

    def break_part(self, day: date, span: int) -> str:
        """The declared break a partition of `span` days starting on `day` belongs to, by position:
        "Summer break (first week)", "Summer break" (the weeks after it), "Summer break (first week
        back)", "Summer break (second week back)"; "" for none. A partition is in a break when most of
        its days are (a week whose weekend starts the break is the week before it)."""
        def inside(start: date, first: date, last: date) -> bool:
            end = start + timedelta(days=span - 1)
            overlap = (min(end, last) - max(start, first)).days + 1
            return 2 * overlap > span

        parts = []
        for name, spans in self.breaks.items():
            for first, last in spans:
                # the nearest of the partitions before this one (up to the weeks back named) inside the break
                back = next((k for k in range(1, len(BREAK_BACKS) + 1)
                             if inside(day - timedelta(days=k * span), first, last)), 0)
                if inside(day, first, last):
                    parts.append(name if back == 1 else name + BREAK_FIRST)
                elif back:
                    parts.append(name + BREAK_BACKS[back - 1])
        # a restart's later week inside another break's own weeks is that break's week (its closure
        # decides the week, as a public holiday inside a break closes nothing more)
        own = [part for part in parts if not part.endswith(BREAK_BACKS[1:])]
        return " + ".join(sorted(own or parts))

    def break_day_back(self, day: date) -> tuple[str, int]:
        """A daily series' business day among the first BREAK_BACK_DAYS after a declared break: ("Summer break
        (day 2 back)", the day's ordinal), each its own value, compared with the same day back after the past
        breaks of that name (a school's first days of term climb back as cards are registered and menus
        learned: the weekly series' "first week back", a day at a time); ("", 0) elsewhere, and on a day
        inside another break (its own season). Counted in business days: a weekend or holiday between is no
        school day."""
        if not self.is_business_day(day):
            return "", 0
        for name, spans in self.breaks.items():
            for _, last in spans:
                if not last < day <= last + timedelta(days=BREAK_BACK_REACH):
                    continue
                k = sum(self.is_business_day(last + timedelta(days=n)) for n in range(1, (day - last).days + 1))
                if k <= BREAK_BACK_DAYS:
                    return f"{name}{BREAK_DAY_BACK.format(k)}", day.toordinal()
        return "", 0

    def lunar_new_years(self, year: int) -> tuple[tuple[date, date], ...]:
        """The year's Lunar New Year holidays as (first day, last day) of their closure: the days
        the country's calendar names for it, widened across the closed days next to them that end
        in another holiday (China's bridge days off, Korea's temporary holiday) so the weeks after
        count from the first day back. A one-day holiday (Indonesia's Imlek) is a holiday with a
        neighbourhood, not a season: the weeks of winding down and returning follow a closure of days."""
        if not self.country:
            return ()
        return _memo(_LUNAR_CACHE, (self.cache_key, year), lambda: self._lunar_new_years(year))

    def _lunar_new_years(self, year: int) -> tuple[tuple[date, date], ...]:
        named = sorted(d for d, name in _country_holidays(self.country or "", self.subdiv, year).items()
                       if LUNAR_NEW_YEAR.search(name))
        spans: list[list[date]] = []
        for d in named:
            if spans and (d - spans[-1][1]).days <= BRIDGE_REACH:
                spans[-1][1] = d
            else:
                spans.append([d, d])
        out = []
        for first, last in spans:
            for direction in (-1, 1):
                edge, d = (first, last)[direction > 0], (first, last)[direction > 0]
                for _ in range(BRIDGE_REACH):
                    d += timedelta(days=direction)
                    if self.name(d):
                        edge = d
                    elif not self.is_weekend(d):
                        break
                first, last = (edge, last) if direction < 0 else (first, edge)
            if last > first:
                out.append((first, last))
        return tuple(out)

    def is_weekend(self, day: date) -> bool:
        """Whether the day is a weekend day of the calendar's country (Friday and Saturday in Saudi
        Arabia or Israel, and as it was that year: the UAE moved to Saturday and Sunday in 2022),
        unless it is worked in exchange for a day off (China's Saturdays around Spring Festival);
        Saturday and Sunday without a country."""
        if not self.country:
            return day.weekday() >= 5
        weekend, worked = _weekends(self.country, self.subdiv, day.year)
        return day in weekend and day not in worked

    def is_worked_weekend(self, day: date) -> bool:
        """A weekend day worked in exchange for a bridge day off (China's Saturdays around Spring Festival)."""
        return bool(self.country) and day in _weekends(self.country or "", self.subdiv, day.year)[1]

    def is_business_day(self, day: date) -> bool:
        """Neither a weekend day nor a holiday of the calendar."""
        return not self.is_weekend(day) and not self.name(day)

    def name(self, day: date) -> str:
        if day in self.dates:
            return self.dates[day]
        if self.country:
            return _country_holidays(self.country, self.subdiv, day.year).get(day, "") or ""
        return ""

    def identity(self, day: date) -> str:
        """The holiday's name as it recurs from year to year: a one-off closure next to a holiday (a
        bridge day, "Day off (substituted from 02/28/2026)", whose name changes every year; an
        "(observed)" day some years only) takes the name of the recurring holiday it adjoins across
        closed days, so it compares with that holiday's past. Dates from config keep their names."""
        name = self.name(day)
        if not name or day in self.dates or not self.country or _recurs(self.country, self.subdiv, name, day.year):
            return name
        parts = holiday_parts(name)
        if len(parts) > 1 and all(_recurs(self.country, self.subdiv, part, day.year) for part in parts):
            return name  # two recurring holidays on one day this year: each part compares with its own past
        adjoining = self._adjoining_holiday(day)
        if self._observed_for_own_base(day, adjoining):
            return name  # another holiday's day off, next to a third: compared with its own holiday's past
        return adjoining or name

    def _adjoining_holiday(self, day: date) -> str:
        """The nearest recurring holiday `day` adjoins across closed days (holidays, the calendar's weekend), the
        days before it first, within BRIDGE_REACH; "" where an open day comes first either way."""
        for direction in (-1, 1):
            d = day + timedelta(days=direction)
            for _ in range(BRIDGE_REACH):
                other = self.name(d)
                if other and d not in self.dates and _recurs(self.country or "", self.subdiv, other, d.year):
                    return other
                if not other and not self.is_weekend(d):
                    break  # an open day: the closure ended without a recurring holiday
                d += timedelta(days=direction)
        return ""

    def _observed_for_own_base(self, day: date, adjoining: str) -> bool:
        """Whether `day` is only days off observed for holidays ("X (observed)") whose own day lies in the run of
        closed days (holidays, the calendar's weekend) just before it, at most OBSERVED_RUN_REACH days back, while
        the nearest recurring holiday it adjoins across closed days (`adjoining`, `_adjoining_holiday`) is another one (Eid al-Fitr on Novruz's
        Saturday, observed on the Wednesday after Novruz's last day, or after Novruz's own days off): the day off
        is its base's, and a bridge to the adjoining holiday would read Novruz's x0.6 on Eid's day off. Where the
        adjoining holiday is of its base's family (its name holds the base's: "Eid al-Fitr Holiday"), the bridge
        stands as before."""
        parts = holiday_parts(self.name(day))
        if not parts or not all(part.endswith(OBSERVED) for part in parts):
            return False
        bases = {part.removesuffix(OBSERVED) for part in parts}
        back, found = day - timedelta(days=1), False
        for _ in range(OBSERVED_RUN_REACH):
            named = set(holiday_parts(self.name(back)))
            if bases & named:
                found = True
                break
            if not named and not self.is_weekend(back):
                break  # an open day: the run ended without the base's own day
            back -= timedelta(days=1)
        # (its family: "Eid al-Fitr Holiday", "Eid al-Fitr (Second Day)" are Eid al-Fitr's)
        return found and bool(adjoining) and not any(
            base.lower() in part.lower() for base in bases for part in holiday_parts(adjoining))

    def closure_name(self, day: date, open_days: frozenset[int] = ALL_WEEK) -> str:
        """The name of the closure a holiday falls in (its run of days a series open on `open_days`
        is closed: holidays and the weekdays it is shut between them; a day it is open splits two
        closures), as the days around it know it: the holiday family with the most yearly days inside
        (a family: the yearly names holding the shortest of them, "The second day of Korean New Year"
        is "Korean New Year"'s), the earlier at a tie. The first day's name changes from year to year
        (an alternative or temporary holiday before or after it, "The day preceding ..."), so the
        neighbourhood's past would be split between names; the closure's is not. Without a yearly
        name inside (dates from config, a one-off closure) the day's own `identity`."""
        if not self.name(day) or day in self.dates or not self.country:
            return self.identity(day)
        return _memo(_CLOSURE_CACHE, (self.cache_key, day, open_days), lambda: self._closure_name(day, open_days))

    def _closure_name(self, day: date, open_days: frozenset[int]) -> str:
        def closed(d: date) -> bool:
            return bool(self.name(d)) or (d.weekday() not in open_days and not self.is_worked_weekend(d))

        first = last = day
        while closed(first - timedelta(days=1)):
            first -= timedelta(days=1)
        while closed(last + timedelta(days=1)):
            last += timedelta(days=1)
        country = self.country or ""
        yearly = [(d, part) for d in (first + timedelta(days=n) for n in range((last - first).days + 1))
                  for part in holiday_parts(self.name(d)) if _annual(country, self.subdiv, part, d.year)]
        if not yearly:
            return self.identity(day)
        names = {part for _, part in yearly}

        def family(part: str) -> str:
            return min((n for n in names if n.lower() in part.lower()), key=len)

        days: dict[str, set[date]] = defaultdict(set)
        for d, part in yearly:
            days[family(part)].add(d)
        return max(days, key=lambda f: (len(days[f]), -min(days[f]).toordinal()))


def rolled_date(year: int, month: int, day: int, roll: str, is_open: Callable[[date], bool]) -> date:
    """The date day `day` of the month lands on, rolled to an open day: the month's last day where
    it has fewer days (the 31st of April is the 30th), then back ("preceding") or forward
    ("following") to the nearest day `is_open` says is a business day (at most a month away)."""
    d = date(year, month, min(day, calendar.monthrange(year, month)[1]))
    step = timedelta(days=-1 if roll == "preceding" else 1)
    for _ in range(31):
        if is_open(d):
            return d
        d += step
    return d  # (a month of closed days: no business day to roll to, the day itself)


def rolled_anchors(day: int, roll: str, first: date, last: date, is_open: Callable[[date], bool]) -> dict[date, int]:
    """Every month's rolled date of day `day` (`rolled_date`) from `first`'s month to `last`'s, that
    falls within first..last: {date: the month's ordinal (year * 12 + month), its occasion}."""
    out: dict[date, int] = {}
    year, month = first.year, first.month
    while (year, month) <= (last.year, last.month):
        d = rolled_date(year, month, day, roll, is_open)
        if first <= d <= last:
            out[d] = year * 12 + month
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


def fortnight_anchors(phase: int, roll: str, first: date, last: date, is_open: Callable[[date], bool]) -> list[date]:
    """Every day of a 14-day cycle (the days whose ordinal is `phase` modulo 14: a pay run every
    second Friday) from `first` to `last`, each rolled back ("preceding") or forward ("following") to
    the nearest day `is_open` says is a business day, no further than the next cycle day."""
    out = []
    # (from a cycle day before `first` and to one after `last`: their rolled days may fall inside)
    d = first + timedelta(days=(phase - first.toordinal()) % 14 - 14)
    while d <= last + timedelta(days=14):
        step, rolled = timedelta(days=-1 if roll == "preceding" else 1), d
        for _ in range(13):
            if is_open(rolled):
                break
            rolled += step
        if is_open(rolled) and first <= rolled <= last:
            out.append(rolled)
        d += timedelta(days=14)
    return out


@lru_cache(maxsize=1024)
def festival_days(name: str, year: int) -> tuple[date, ...]:
    """The first day of each of the year's occurrences of a festival of FESTIVALS, as the calendar
    that dates it lists it (a festival of several listed days is one, counted from its first)."""
    source = next((country, listed) for n, country, listed, _ in FESTIVALS if n == name)
    days = sorted({d for y in (year - 1, year) for d, n in _country_holidays(source[0], None, y).items()
                   if n == source[1]})
    return tuple(d for i, d in enumerate(days)
                 if d.year == year and (i == 0 or (d - days[i - 1]).days > FESTIVAL_SAME))


def holiday_parts(name: str) -> list[str]:
    """The holidays a name holds: the `holidays` package joins two on one day with "; " ("Dussehra;
    Mahatma Gandhi's Birthday"), a weekly partition the days of its week with " + "."""
    return [part for part in HOLIDAY_JOIN.split(name) if part]


def past_a_break(name: str) -> bool:
    """Whether a week's label names only weeks back past the first after declared breaks: none of a
    break's days is inside (a first week back may hold a break's last days, a break ending midweek),
    so the week is a restart's, no closure."""
    parts = holiday_parts(name)
    return bool(parts) and all(part.endswith(BREAK_BACKS[1:]) for part in parts)


@lru_cache(maxsize=256)
def _country_holidays(country: str, subdiv: str | None, year: int) -> Mapping[date, str]:
    try:
        return dict(holidays_lib.country_holidays(country, subdiv=subdiv, years=year))
    except NotImplementedError as exc:
        raise ValueError(f"holiday calendar: country {country!r} (subdivision {subdiv!r}) is not known to "
                         f"the holidays package; use an ISO 3166 code such as US, DE or GB") from exc


@lru_cache(maxsize=256)
def _moving_spans(country: str, subdiv: str | None, first_year: int,
                  last_year: int) -> dict[tuple[str, str], list[tuple[date, date]]]:
    """HolidayCalendar.moving_spans over whole years (cached: every day's season asks)."""
    years = range(first_year, last_year + 1)
    # each holiday's one day a year (a name listed twice in a year, or an observed day, is no span's edge)
    by_name: dict[str, dict[int, date]] = defaultdict(dict)
    twice: set[str] = set()
    for y in years:
        for d, name in _country_holidays(country, subdiv, y).items():
            if name in by_name and y in by_name[name]:
                twice.add(name)
            by_name[name][y] = d
    yearly = {name: days for name, days in by_name.items() if name not in twice and OBSERVED not in name
              and len(days) == len(years)}
    moving = {name: days for name, days in yearly.items()
              if max(d.timetuple().tm_yday for d in days.values()) - min(d.timetuple().tm_yday for d in days.values())
              >= SPAN_MOVES_DAYS}
    out: dict[tuple[str, str], list[tuple[date, date]]] = {}
    for a, days_a in moving.items():
        # the next moving holiday after it each year (days apart, name), which must be the same one as far every year
        nexts = {min((((ds[y] - days_a[y]).days, n) for n, ds in moving.items() if ds[y] > days_a[y]),
                     default=None) for y in years}
        if len(nexts) != 1 or (found := nexts.pop()) is None:
            continue
        gap, b = found
        if SPAN_MIN_DAYS <= gap <= SPAN_MAX_DAYS:
            out[(a, b)] = [(days_a[y], moving[b][y]) for y in years]
    return out


@lru_cache(maxsize=256)
def _eid_firsts(country: str, subdiv: str | None, year: int) -> tuple[date, ...]:
    """The first day of each Eid al-Fitr in the year's calendar ("Eid al-Fitr", "Eid al-Fitr
    Holiday", "Eid al-Fitr (Second Day)" are one Eid: its first listed day). An Eid's days may be
    listed with gaps (Saudi Arabia's 2024 Eid: 9-12 April, then "(observed)" on the 14th, after a
    weekend day): any Eid day within a month after another is the same Eid (one comes a lunar year
    after the last), so Ramadan is never counted back from its observed day."""
    days = sorted({d for y in (year - 1, year) for d, name in _country_holidays(country, subdiv, y).items()
                   if EID_AL_FITR.search(name)})
    return tuple(d for i, d in enumerate(days)
                 if d.year == year and (i == 0 or (d - days[i - 1]).days > RAMADAN_DAYS))


@lru_cache(maxsize=4096)
def _recurs(country: str, subdiv: str | None, name: str, year: int) -> bool:
    """Whether a holiday of this name is also in the calendar the year before or after."""
    return any(name in _country_holidays(country, subdiv, y).values() for y in (year - 1, year + 1))


@lru_cache(maxsize=4096)
def _annual(country: str, subdiv: str | None, name: str, year: int) -> bool:
    """Whether a holiday of this name is in the calendar three years running, this one among them:
    a yearly holiday, not an alternative day two years share by chance."""
    present = [name in _country_holidays(country, subdiv, y).values() for y in range(year - 2, year + 3)]
    return any(all(present[k:k + 3]) for k in range(3))


@lru_cache(maxsize=256)
def _weekends(country: str, subdiv: str | None, year: int) -> tuple[frozenset[date], frozenset[date]]:
    """The year's weekend days in the country, by the `holidays` package's dated weekend (a country
    that moved its weekend did so on a date), and the weekend days worked in exchange for a day off
    next to a holiday (China, Vietnam); Saturday and Sunday for a country the package does not know."""
    days = [date(year, 1, 1) + timedelta(days=n) for n in range(366 if calendar.isleap(year) else 365)]
    try:
        cal = holidays_lib.country_holidays(country, subdiv=subdiv, years=year)
    except NotImplementedError:
        return frozenset(d for d in days if d.weekday() >= 5), frozenset()
    return frozenset(d for d in days if cal.is_weekend(d)), frozenset(cal.weekend_workdays)


@lru_cache(maxsize=64)
def weekend_days(country: str, subdiv: str | None) -> frozenset[int]:
    try:
        return frozenset(holidays_lib.country_holidays(country, subdiv=subdiv).weekend)
    except NotImplementedError:
        return frozenset((5, 6))


def _period_end(day: date, cal: HolidayCalendar) -> str:
    last = calendar.monthrange(day.year, day.month)[1]
    if day.day != last:
        return ""
    return cal.period_of_month(day.month)


def month_period(day: date, cal: HolidayCalendar) -> str:
    """The period a monthly partition closes: its month's, its (fiscal) quarter's or its year's."""
    return cal.period_of_month(day.month)


def _business_day(day: date, cal: HolidayCalendar) -> int:
    """1 for the month's first business day (the calendar's weekend and holidays closed), 2 for
    the next...; -1 on a non-business day."""
    if not cal.is_business_day(day):
        return -1
    return sum(1 for d in range(1, day.day + 1) if cal.is_business_day(day.replace(day=d)))


def business_day_edge(from_start: int, from_end: int) -> int:
    """The business day counted from the nearer end of the month (from the day's two counts): 1,
    2... from its start, -1, -2... from its end; 0 on a non-business day. A ledger posts accruals on
    the first business day and closes on the last three: neither count alone holds both (counted
    from the end, the first business day is -20 to -23 by month, four groups mixed with mid-month days)."""
    if from_start < 0:
        return 0
    return from_start if from_start <= -from_end else from_end


def _business_day_from_end(day: date, cal: HolidayCalendar) -> int:
    """-1 for the month's last business day, -2 for the one before...; 0 on a non-business day.
    A close on the last three business days falls on business day 18 to 22 counted from the
    start, depending on the month: counted from the end it is always -3..-1."""
    if not cal.is_business_day(day):
        return 0
    last = calendar.monthrange(day.year, day.month)[1]
    after = sum(1 for d in range(day.day + 1, last + 1) if cal.is_business_day(day.replace(day=d)))
    return -(after + 1)


_FEATURE_CACHE: dict[tuple, dict[str, object]] = {}
_LUNAR_CACHE: dict[tuple, tuple[tuple[date, date], ...]] = {}
_CLOSURE_CACHE: dict[tuple, str] = {}
_CALENDAR_KEYS: dict[tuple, int] = {}  # a calendar's content -> its cache key
CACHE_LIMIT = 200_000  # entries a memo holds before it starts again (a bound on memory, not a tuning)


def _memo(cache: dict[tuple, T], key: tuple, make: Callable[[], T]) -> T:
    """`cache[key]`, made once; the cache starts again past CACHE_LIMIT entries."""
    hit = cache.get(key)
    if hit is None:
        if len(cache) > CACHE_LIMIT:
            cache.clear()
        hit = cache[key] = make()
    return hit


def features_of(at: datetime, grain: Grain, cal: HolidayCalendar, span: int = 1) -> dict[str, object]:
    """The calendar groups of a partition starting at `at` and covering `span` days (a week's
    partition holds the holidays of its seven days)."""
    return _memo(_FEATURE_CACHE, (at, grain, cal.cache_key, span), lambda: _features(at, grain, cal, span))


def _features(at: datetime, grain: Grain, cal: HolidayCalendar, span: int) -> dict[str, object]:
    day = at.date()
    holiday = cal.identity(day)
    if span > 1:
        names = dict.fromkeys(n for n in (cal.identity(day + timedelta(days=k)) for k in range(span)) if n)
        holiday = " + ".join(names)
        part = cal.break_part(day, span) if cal.breaks else ""
        if part and not (holiday and part.endswith(BREAK_BACKS)):
            # a break's weeks are its own (a public holiday inside it closes nothing more); a week
            # back holding a holiday is the holiday's week, as in the years it fell elsewhere
            holiday = part
    # "day" is no comparison group: it counts a holiday's occasions (24 hours of one New Year's Day
    # are one occasion, not 24)
    out: dict[str, object] = {"weekday": day.weekday(), "holiday": holiday, "day": day.toordinal(),
                              "near_holiday": "" if holiday or span > 1 else near_holiday(day, cal),
                              # the series' open days say which days close a quarter: forecast sets it
                              "near_period_end": "",
                              # ... and which days are a fixed day of the month rolled to a business day
                              "rolled_day": ""}
    if grain == "hour":
        # a holiday's hours are not one effect (business hours closed, a nightly batch unchanged):
        # each hour of a holiday compares with the same hour of its past occurrences, never with
        # the same day's earlier hours
        if holiday:
            out["holiday"] = f"{holiday} {at.hour:02d}h"
        # no neighbourhood on an hourly series: the days around a holiday are learned from past
        # years, which an hourly history (four weeks) never holds, and a group of one hour explains
        # itself: a level shift starting the day after a holiday read as 48 neighbourhood hours
        out["near_holiday"] = ""
        out["hour_of_day"] = at.hour
        # the hour of the week: a shape where weekday and hour interact (business hours quiet at
        # weekends while a nightly batch runs every day) is no product of a weekday and an hour effect
        out["hour_of_week"] = day.weekday() * 24 + at.hour
    else:
        out["period_end"] = _period_end(day, cal)
        if span == 1:
            # (a season of an hourly series is never learned: its history is four weeks; a weekly
            # or monthly series has its weeks and months of the year)
            out["season"], out["season_at"] = cal.season(day)
            if not out["season"] and cal.breaks:
                out["season"], out["season_at"] = cal.break_day_back(day)
        from_start, from_end = _business_day(day, cal), _business_day_from_end(day, cal)
        out["business_day"], out["business_day_from_end"] = from_start, from_end
        out["business_day_edge"] = business_day_edge(from_start, from_end)
    return out


_NEAR_CACHE: dict[tuple, str] = {}


def lunar_new_year_part(day: date, cal: HolidayCalendar, open_days: frozenset[int]) -> tuple[str, int]:
    """The day's week around Lunar New Year (`HolidayCalendar.season`'s parts) counted in the days a
    series closed on some weekdays is open (`open_days`, the weekend days worked in exchange too,
    holidays closed), a week being as many of them as it has a week: a factory's slow return over its
    first five working days after the festival is its "+1w", whatever weekends and worked Saturdays
    fall between (counted in calendar days, the next Monday fell in it too). ("", 0) outside them."""
    def is_open(d: date) -> bool:
        return (d.weekday() in open_days or cal.is_worked_weekend(d)) and not cal.name(d)

    per_week = len(open_days)
    for first, last in cal.lunar_new_years(day.year) + cal.lunar_new_years(day.year + 1):
        occasion = (first - timedelta(days=7 * LUNAR_WEEKS_BEFORE)).toordinal()
        # (a week or so of closed days further than the calendar's weeks at most)
        if first > day >= first - timedelta(days=7 * (LUNAR_WEEKS_BEFORE + 1)):
            k = sum(1 for n in range((first - day).days) if is_open(day + timedelta(days=n)))
            if 0 < k <= per_week * LUNAR_WEEKS_BEFORE:
                return f"{LUNAR_NEW_YEAR_SEASON} -{(k - 1) // per_week + 1}w", occasion
        elif last < day <= last + timedelta(days=7 * (LUNAR_WEEKS_AFTER + 1)):
            k = sum(1 for n in range(1, (day - last).days + 1) if is_open(last + timedelta(days=n)))
            if 0 < k <= per_week * LUNAR_WEEKS_AFTER:
                return f"{LUNAR_NEW_YEAR_SEASON} +{(k - 1) // per_week + 1}w", occasion
    return "", 0


def near_holiday(day: date, cal: HolidayCalendar, open_days: frozenset[int] = ALL_WEEK,
                  reach: int = NEIGHBOURHOOD_DAYS) -> str:
    """The nearest holiday within NEIGHBOURHOOD_DAYS working days and the offset to it ("Eid
    al-Fitr -2d"): the days around a holiday (homecoming, the rush before it, the backlog after it)
    form a group of their own, compared with the same offset around the same holiday in past years.
    Offsets count the days the series is open (`open_days`, its weekdays with partitions; holidays
    are closed): for a business-day series the Friday before a Monday holiday is "-1d", and three
    working days before a festival stay three whatever weekends fall between."""
    if cal.country is None and not cal.dates:
        return ""
    return _memo(_NEAR_CACHE, (day, cal.cache_key, open_days, reach),
                 lambda: _nearest_holiday(day, cal, open_days, reach))


def _nearest_holiday(day: date, cal: HolidayCalendar, open_days: frozenset[int], reach: int) -> str:
    found: dict[int, tuple[int, str]] = {}  # direction -> (working-day offset, holiday)
    for direction in (1, -1):  # +1: a holiday later (the day is "-k" before it)
        d, worked = day, 0
        for _ in range(reach * 7):
            d += timedelta(days=direction)
            # (named after its closure: the first day met has a name of its own some years)
            name = cal.closure_name(d, open_days)
            if name and not _observed_after_open_day(d, cal, open_days):
                found[direction] = (worked + 1, name)
                break
            # (a weekend day worked in exchange for a bridge day off is a working day)
            if d.weekday() in open_days or cal.is_worked_weekend(d):
                worked += 1
                if worked >= reach:
                    break
    if not found:
        return ""
    # the nearer one; at equal distance the holiday ahead (the day before a holiday is "-1d")
    direction = min(found, key=lambda k: (found[k][0], -k))
    k, name = found[direction]
    return f"{name} {-direction * k:+d}d"


def _observed_after_open_day(day: date, cal: HolidayCalendar, open_days: frozenset[int]) -> bool:
    """Whether `day` is only days off observed for holidays ("... (observed)") whose own days, within
    BRIDGE_REACH before it, fell on days the series is open (`open_days`): a series open on a Sunday
    holiday met the holiday on the Sunday, and the days around it count from there; the observed
    Monday is one of its working days (counted from it, "+3d" a year the holiday fell on a Sunday is
    a day later than "+3d" a year it fell on a Monday: another day of the year, whatever event it held)."""
    parts = holiday_parts(cal.name(day))
    if not parts or not all(part.endswith(OBSERVED) for part in parts):
        return False
    bases = {part.removesuffix(OBSERVED) for part in parts}
    own = [d for d in (day - timedelta(days=k) for k in range(1, BRIDGE_REACH + 1))
           if bases & set(holiday_parts(cal.name(d)))]
    return bool(own) and all(d.weekday() in open_days for d in own)


def _usual_gaps(days: Sequence[date]) -> tuple[list[int], Callable[[int], int]]:
    """Each partition's closed days before it, and the usual (most common, the shorter on a tie) gap
    before a weekday."""
    gaps = [0] + [(b - a).days - 1 for a, b in itertools.pairwise(days)]
    by_weekday: dict[int, list[int]] = defaultdict(list)
    for d, g in zip(days[1:], gaps[1:]):
        by_weekday[d.weekday()].append(g)

    def usual(weekday: int) -> int:
        seen = by_weekday.get(weekday)
        if not seen:
            return 0
        counts: dict[int, int] = defaultdict(int)
        for g in seen:
            counts[g] += 1
        return max(counts, key=lambda g: (counts[g], -g))

    return gaps, usual


def closures(days: Sequence[date], target: date, backlog: bool = False) -> tuple[list[int], int]:
    """Days closed before each partition and before the target, counted only beyond the usual closure
    before that weekday (a business-day series is always closed two days before a Monday): the first
    partition after a closure (a long weekend, Golden Week, an outage) carries its backlog. Marked with
    the whole closure (a first day back whose bump depends on the closure, not on the weekday it lands
    on), or, on a `backlog` series (each load carries every day since the last: Monday the weekend),
    with the days closed beyond the weekday's usual ones: Monday's own effect already holds the weekend,
    and a Thursday-Friday closure adds two days to a Monday as a Wednesday-Thursday one does to a Friday."""
    gaps, usual = _usual_gaps(days)
    target_gap = (target - days[-1]).days - 1 if days else 0

    def mark(weekday: int, gap: int) -> int:
        u = usual(weekday)
        return 0 if gap <= u else gap - u if backlog else gap

    return [mark(d.weekday(), g) for d, g in zip(days, gaps)], mark(target.weekday(), target_gap)


def carries_closed_days(days: Sequence[date], logs: Sequence[float]) -> bool:
    """Whether each partition carries the activity of the closed days before it (settlement files:
    Monday's load is ~2.5x a midweek one): the partitions after their weekday's usual closure
    (Mondays after the weekend) weigh, against the open-day partitions within a week of them, more
    than half of the way (in log) to the (1 + closed days) times a load holding every closed day would
    be. A Monday merely heavier (x1.2, Japan's shipments) does not."""
    gaps, usual = _usual_gaps(days)
    plain = [(d, x) for d, g, x in zip(days, gaps, logs) if g == 0]
    shares = []
    for d, g, x in zip(days, gaps, logs):
        u = usual(d.weekday())
        if u <= 0 or g != u:
            continue
        near = sorted(v for e, v in plain if abs((e - d).days) <= 7)
        if len(near) >= 3:
            shares.append((x - near[len(near) // 2]) / math.log(1 + u))
    return len(shares) >= 8 and sorted(shares)[len(shares) // 2] > 0.5


def hour_closures(moments: Sequence[datetime], hours: Sequence[int], target: datetime,
                   target_hour: int) -> tuple[list[int], int]:
    """`closures` for an hourly series (UTC instants; `hours`: each one's local hour of day): the
    hours closed before each partition, counted only beyond the usual closure before that hour of
    the day (a series open in business hours is closed 15 hours before every 09:00). The first hour
    after a closed day carries a day's backlog, whichever day was closed: after a Sunday, or after a
    holiday on a Tuesday, it is one group (`after_39_closed_hours`), learned from the Mondays; a
    closure of a length never seen leaves a spike to the hard rule. A closure is at least as long as
    the series' shortest usual one (a night) beyond the usual: shorter gaps are missing partitions
    (an outage, a past incident's hours kept out of the history), not closures, and a series open
    every hour has no closure and no group."""
    gaps = [0] + [round((b - a).total_seconds() / 3600) - 1 for a, b in itertools.pairwise(moments)]
    target_gap = round((target - moments[-1]).total_seconds() / 3600) - 1 if moments else 0
    counts: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for hour, g in zip(hours[1:], gaps[1:]):
        counts[hour][g] += 1

    def usual(hour: int) -> int:
        seen = counts.get(hour)
        return max(seen, key=lambda g: (seen[g], -g)) if seen else 0

    nightly = min((u for u in map(usual, counts) if u > 0), default=0)
    if not nightly:
        return [0] * len(gaps), 0

    def closure(hour: int, gap: int) -> int:
        return gap if gap - usual(hour) >= nightly else 0

    return [closure(hour, g) for hour, g in zip(hours, gaps)], closure(target_hour, target_gap)


def local_hours(points: Sequence[datetime], timezone: str | None) -> list[datetime]:
    """Hourly points (naive UTC hours, as the check aggregates instants) as the owner's local
    wall-clock hours in `timezone`: hour of day, weekday and holidays are local. A DST change then
    moves nothing: the 23-hour day has no 02:00, the 25-hour day two 01:00s, both in their local
    hour's group; time itself (the trend, the level) stays in UTC steps, which never jump. Each moment is its
    local hour's start, as its partition key names it (`hour_label`): in a zone whose offset is not whole hours
    (Yangon's +06:30, Chatham's +12:45) a UTC hour starts at :30 or :45 local, and where the offset's minutes change
    with the clock (Lord Howe's +10:30 -> +11:00) the same local hour would start at :00 after the change and at :30
    in the history before it. The rules that look a local moment up in its history (the same hour a week back, a
    day's hours with rows on the hour: _slot_empties, _day_closure) found none of the history's hours there: after
    Lord Howe's change every hour read as one the series had always kept shut, and in a zone of :30 no day's hours
    were ever found with rows."""
    if not timezone or timezone == "UTC":
        return list(points)
    zone, utc = ZoneInfo(timezone), ZoneInfo("UTC")
    return [at.replace(tzinfo=utc).astimezone(zone).replace(tzinfo=None, minute=0, second=0, microsecond=0)
            for at in points]


def hour_label(at: datetime, timezone: str | None) -> str:
    """A UTC hour's partition key: the local wall-clock hour in `timezone` (`2026-11-01T01:00`); the
    second 01:00 of a 25-hour day carries its offset (`2026-11-01T01:00-0500`, as Dagster keys it), so no two hours
    share a key."""
    if not timezone or timezone == "UTC":
        return at.strftime("%Y-%m-%dT%H:00")
    local = at.replace(tzinfo=ZoneInfo("UTC")).astimezone(ZoneInfo(timezone))
    label = local.strftime("%Y-%m-%dT%H:00")
    earlier = (at - timedelta(hours=1)).replace(tzinfo=ZoneInfo("UTC")).astimezone(ZoneInfo(timezone))
    if earlier.replace(tzinfo=None, minute=0) == local.replace(tzinfo=None, minute=0):
        label += local.strftime("%z")  # the repeated hour: its offset tells it apart (as Dagster keys it)
    return label


def hour_start(moment: datetime, timezone: str | None) -> datetime:
    """The start of the local hour (in `timezone`) holding `moment`, as a naive UTC time. `moment`:
    aware (any zone) or naive UTC. A zone half an hour off UTC (India, Adelaide) starts its hours at
    :30 UTC."""
    utc = ZoneInfo("UTC")
    at = moment.astimezone(utc).replace(tzinfo=None) if moment.tzinfo else moment
    if not timezone or timezone == "UTC":
        return at.replace(minute=0, second=0, microsecond=0)
    local = at.replace(tzinfo=utc).astimezone(ZoneInfo(timezone))
    return at - timedelta(minutes=local.minute, seconds=local.second, microseconds=local.microsecond)


def hour_of_key(key: datetime, timezone: str | None) -> datetime:
    """A partition key parsed as a datetime (`parse_partition_key`: naive local wall-clock, or
    aware when the key carries an offset) as the naive UTC start of its hour in `timezone`. A
    wall-clock hour that occurs twice is its first occurrence (the second is keyed with its offset)."""
    if key.tzinfo is None and timezone and timezone != "UTC":
        key = key.replace(tzinfo=ZoneInfo(timezone), fold=0)
    return hour_start(key, timezone)


def split_near(label: str) -> tuple[str, int]:
    """("Diwali", -3) from "Diwali -3d"."""
    name, offset = label.rsplit(" ", 1)
    return name, int(offset[:-1])


def open_weekdays(days: Sequence[date]) -> frozenset[int]:
    """The weekdays a daily series has partitions on (at least half as often as its most usual one)."""
    counts = [0] * 7
    for d in days:
        counts[d.weekday()] += 1
    most = max(counts)
    return frozenset(w for w in range(7) if most and counts[w] * 2 >= most)


def step_of(grain: Grain) -> timedelta:
    return timedelta(hours=1) if grain == "hour" else timedelta(days=1)

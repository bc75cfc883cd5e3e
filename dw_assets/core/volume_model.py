"""The volume model: what a partition's count should be, from the aggregated series before it.

Pure Python over a few hundred (partition, value) points that SQL aggregated in the warehouse; no
table rows ever reach it. Written here rather than with statsmodels/prophet: those bring pandas
(and prophet a Stan toolchain) and fit far more than a robust seasonal baseline needs; at a few
hundred points numpy would not pay for itself either.

Three modules: `volume_calendar` says what kind of day (or hour) a partition is (holidays, period
ends, business days, neighbourhoods, seasons, local hours), `volume_fit` fits level, trend and
group effects to a series (robust statistics), and this one decides: which groups a series uses,
level shifts and changed shares, the band, the hard rules and `judge`.

The model, in log space (so a band is a ratio and never falls below zero):
    log(value) = level(t) + sum of calendar effects(t) + noise
- Calendar effects per comparison group: `period_end` (month / quarter / year end of the
  calendar's fiscal year, each its own effect, falling back to the coarser one when a kind has no past), `weekday`, `hour_of_day`,
  `hour_of_week` (an hourly series whose weekday and hour interact),
  `business_day` (of the month) and `holiday` (a holiday compares with its own past occurrences;
  one never seen before is expected, so only the hard rules judge it). Configured, or inferred:
  the sparse groups (period_end, holiday) are always modelled, a dense one (weekday, hour,
  business day) only when it makes the history's one-step forecast errors at least 20% smaller.
  On a series closed some weekdays, `rolled_day`: a fixed day of the month rolled to a business
  day (a payroll on the 27th, the business day before when it is closed), declared or earned.
- Level: a trend (median of seasonal-lag slopes, robust to a few outliers and to a shift) and
  the median of the last `level_points` deseasonalised points, extrapolated to the target.
- Level shifts: a run of at least `shift_after` latest points all outside the band on one side of
  the level just before them is a sustained shift: the level is re-estimated from the run only,
  so the band follows the new level at once (no blind window). An accepted partition marked as a
  shift starts a run of its own: the model re-baselines on the very next partition.
- Ramps: a level that keeps moving one way for days (a rollout, a migration, up or down) is a
  line, not a shift: the level is extrapolated along it, by at most the band's half-width
  (`_onset_ramp` for one that began inside the level windows, `_local_trend` for an older one).
- Band: baseline x exp(+-h), h = k x the spread of the residuals (the target's own group's spread,
  shrunk towards the whole series' when the group has few points), widened for the uncertainty of
  the level and the group effect, then clipped to [floor, ceiling].
- Hard rules that no band overrides: an empty partition, and one at `hard_ratio` (1.9) times the
  baseline or more, fail unless a person accepted that partition.
"""

from __future__ import annotations

import bisect
import calendar
import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from statistics import median
from typing import NamedTuple, cast

import numpy as np
from scipy.optimize import least_squares
from scipy.stats import betabinom, binom, chi2, norm, poisson
from scipy.stats import t as student_t

from dw_assets.core.volume_calendar import (
    ALL_WEEK,
    BREAK_BACKS,
    BREAK_FIRST,
    CLOSE_DAYS_AFTER,
    CLOSE_DAYS_BEFORE,
    EARNED,
    FEATURES,
    FESTIVAL_DAYS_AFTER,
    FESTIVAL_DAYS_BEFORE,
    HOLIDAY_JOIN,
    LUNAR_NEW_YEAR_SEASON,
    NEIGHBOURHOOD_DAYS,
    NEIGHBOURHOOD_MAX_DAYS,
    NONE,
    OBSERVED,
    PERIOD_CLOSE_DAYS,
    PERIOD_CLOSES,
    RAMADAN,
    RAMADAN_LATE,
    ROLLS,
    SEASONS,
    SPARSE,
    Grain,
    HolidayCalendar,
    WeekDatedOn,
    _memo,
    business_day_edge,
    carries_closed_days,
    closures,
    features_of,
    fortnight_anchors,
    holiday_parts,
    hour_closures,
    local_hours,
    lunar_new_year_part,
    month_period,
    near_holiday,
    open_weekdays,
    past_a_break,
    rolled_anchors,
    split_near,
    weekend_days,
)
from dw_assets.core.volume_fit import (
    CARRIED,
    MAD_SCALE,
    MONTHS_LEVEL,
    SeriesFit,
    mad,
    months_level_half,
    reads_level,
    theil_sen,
    typical_error,
)

# dense groups of a daily series whose share may change for good and be re-baselined (hours are
# the hourly model's: a moved cycle there is a time-zone matter)
SHAPE_GROUPS = ("weekday", "business_day")
SHAPE_SE = 4.0  # standard errors a group's change must stand out by, wherever in its history it split
# occurrences running back on an old share's side: a season's weeks returning (noise crosses one week at a time)
RETURN_RUN = 3
# a slot's open occurrences running since its last empty one, as rare as this under its empty share before,
# opened for good (a shop closed on Sundays that began opening on them)
OPENED_P = 0.001
MONTHLY_STEP_DAYS = 25  # a series whose partitions are this many days apart is monthly
# a series dated every whole number of weeks, at least this many (a 13-period year's four weeks, a
# fortnightly pay run), may read its year by position (see _whole_week_cycle); a weekly one has its weeks
WHOLE_WEEK_MIN_STEP = 14
# ... when this share of its gaps at least is the cadence itself (the rest a 53rd week, a missed point)
WHOLE_WEEK_SHARE = 0.8
# a series of n partitions a year that are no calendar months is read by their place in the year (see
# _year_by_position) where this share of its keys at least lie a year (this many days either side) after the key n back
POSITION_YEAR_SHARE = 0.8
POSITION_YEAR_SLACK = 3
POSITION_PLACE_GAP = 2  # ... and its places are its keys' days of the year, apart by more than this many days
YEAR_LENGTH = 365.25
OWN_YEAR_GAP = 1.5  # a gap this many times the median one misses a key: no span of a year is read across it
# a series keyed on the same days of every month (see _month_day_keys): read from this many keys (two months of
# dekads), and on days up to the 28th, the last one every month has (a key on the 31st would move in short months)
MONTH_DAY_KEYS_MIN_POINTS = 6
MONTH_DAY_KEYS_LAST_DAY = 28
MONTHS = 12
KEYED_LEVEL_SHARE = 3  # ... whose level window is a third of its year (see _forecast)
MONTH_DAYS = 365.25 / MONTHS  # an average month's days: a series keyed n times a month spans this / n days a partition
# ... whose partitions are read by the days they hold (see _day_weights): a day kind counts where this many
# partitions hold one, the weights are kept where they cut the spread of the partitions' per-day values by this
# share (after paying for their degrees of freedom), and each weight stays within these bounds of a Monday's
DAY_KIND_MIN_PARTITIONS = 3
DAY_WEIGHTS_GAIN = 0.1
DAY_WEIGHT_Z = 3.0  # standard errors a kind's weight (or a place's factor) must stand from an ordinary day's
DAY_WEIGHT_BOUNDS = (0.02, 5.0)
WEEK_DAYS = 7
# the pooled neighbourhood of every long weekend (a weekend joined to a holiday on a Monday or a Friday): see
# long_weekend
LONG_WEEKEND = "a long weekend"
# ... in place of a holiday's own neighbourhood day (its name and offset) the history holds fewer times than this:
# held twice, on any weekday, it keeps its name (a festival's homecoming weekend is its own; one occasion, or
# none, says less than every puente pooled)
LONG_WEEKEND_OWN_OCCASIONS = 2
# the pooled neighbourhood of the first working day after a holiday that fell on one (see _days_after_days_off):
# the backlog a day off leaves (parcels, post, claims) is the same whichever holiday closed the day
AFTER_DAY_OFF = "a day off"
# days back a day after a day off looks for the holiday across its closed-like days (a Christmas week, a weekend)
AFTER_DAY_OFF_REACH = 7
# ... pooled only where the history holds this many such days at least (two are a long weekend's own, see
# LONG_WEEKEND_OWN_OCCASIONS; a pool must hold more than a holiday's own neighbourhood could)
AFTER_DAY_OFF_OCCASIONS = 3
# the pooled neighbourhood of the day before a moving feast's first day (see _eves_of_moving_feasts): the Eids'
# eves (pastries, gifts, the trip home) are one rush whichever Eid, two occasions a year where each Eid's own
# eve is seen once in a daily history
MOVING_EVE = "a moving feast"
# ... pooled only where the history holds this many such eves at least, every one on the same side of its weekday
MOVING_EVE_OCCASIONS = 2
# the same weekday this many days either side a day is read against, to tell its excess (`_weekday_excess`)
EXCESS_WEEKS = (-14, -7, 7, 14)
# a weekly series reads each week by the days it holds (see _week_days): a holiday's eve may reach a day to
# a week before it (a festival's shopping rush), the history choosing how far
WEEK_EVE_REACHES = (1, 3, 5, 7)
WEEK_DAYS_Z = 3.0  # standard errors a family's closed-day or eve-day effect must stand from none
WEEK_DAYS_CACHE = 100_000  # weeks read before the memo starts again (a bound on memory, not a tuning)
WEEK_DAYS_BASE = 4  # the nearest weeks without holidays each side a week's ratio is read against
WEEK_DAYS_FLOOR = 0.05  # a week read as almost wholly closed still holds this share of an ordinary one
# a weekly week's holidays read by the days of the week they fall on (see _holiday_on_lighter_days): a weekend day is
# weighed where this many past weeks held a holiday on it (one week is an incident as much as a holiday), the label's
# effect scaled where its past weeks were this many (two occasions), and where those weeks' holidays weighed half a
# working day at least (a label whose past days off fell on days carrying little cannot be scaled up)
HOLIDAY_WEEKDAY_WEEKS = 2
HOLIDAY_WEEKDAY_OCCASIONS = 2
HOLIDAY_WEEKDAY_MIN_WEIGHT = 0.5
HOLIDAY_WEEKDAY_Z = 2.0  # standard errors the target's days' weight must stand from its past weeks' (as a holiday's)
WORKING_DAY = -1  # the kind of a holiday on a working day of the calendar (a weekend day's is its day of the week)
# a weekly series' declared season (Ramadan, named by the calendar's Eid al-Fitr; a configured season) is read by the
# share of each week's working days it holds (see _season_weeks): earned on the history's weeks wholly inside it, seen
# in this many occasions (years) at least
SEASON_WEEK_OCCASIONS = 2
# a weekly series' week holding a moving holiday's days (a lunar Eid, Easter's feasts) the days-by-week reading left
# unread is read by the share of its days that holiday holds, against the history's weeks holding it alone (see
# _moving_holiday_days): seen in this many years at least (each week read from the others' in the earning test)
MOVING_DAYS_OCCASIONS = 2
# a weekly series' week whose last days are the eves of a moving holiday in the next week (Carnival's weekend before
# its Tuesday, a festival's shopping before it: see _weeks_before_moving_holidays): a holiday moves where its date
# lies more than a week apart between years (Easter's feasts, a lunar calendar's; a fixed date, its observed day
# or a fourth Thursday move less), and its eves are the days of the week this close before it, counted from the
# week's last day (a holiday's neighbourhood, NEIGHBOURHOOD_DAYS)
MOVING_HOLIDAY_DAYS = WEEK_DAYS
# a monthly series' month whose moving holidays (held by it, or by the month before: a series billed in arrears
# catches up the next month) are not those its past same months all held (see _moved_holiday_month): read only where
# the target's month of the year held one arrangement in this many past years at least, and the month whose effect
# it may now carry held the target's own arrangement in as many
MOVED_MONTH_YEARS = 2
# (and a monthly partition whose moving holidays on working days are more, or fewer, than every past year's same month
# held: the band reaches as far as those days, lost or gained from the month's working days, move it, see
# _moved_working_days; read where its month was seen MOVED_MONTH_YEARS years at least)
WEEK_BEFORE_REACH = NEIGHBOURHOOD_DAYS
WEEK_BEFORE = "-1w"  # the neighbourhood label's offset: "Carnival Tuesday -1w"
# a daily series' day at a fixed distance from a moving holiday (MOVING_HOLIDAY_DAYS apart between years), beyond its
# widest neighbourhood (NEIGHBOURHOOD_MAX_DAYS) and in no calendar itself (Carnival's Monday, 46 days before Good
# Friday; a feast eleven days before a lunar holiday): read against the past years' days at that distance (see
# _days_at_moving_distance), within two months of the holiday (Easter's cycle reaches from Carnival to Corpus Christi)
MOVING_DISTANCE_REACH = 60
# ... earned only where every past year the history holds showed the day standing out, this many years at least
# (one past occasion cannot tell the day's effect from an incident that fell on it)
MOVING_DISTANCE_OCCASIONS = 2
# a daily series' day in no calendar within this many days before a moving holiday of its calendar (a festival's
# two weeks of shopping, as FESTIVAL_DAYS_BEFORE: Diwali's lights and appliances, the Eids' run-ups; in no calendar)
# whose past occasions, read relative to the holiday's date each year, ran off their weekday's days around them all
# the way from that day to the holiday (see _run_up_reach): the band reaches as far as the least of them
RUN_UP_DAYS = FESTIVAL_DAYS_BEFORE
# ... each run-up day read against its weekday's days up to four weeks each side (FESTIVAL_WEEKS, as a festival's
# days are): two weeks of run-up and the holiday's own days leave EXCESS_WEEKS' nearest weeks out
RUN_UP_WEEKS = tuple(7 * k for k in (*range(-4, 0), *range(1, 5)))
# a daily series' day in no calendar, no holiday's neighbourhood and no period's close whose past occasions a year
# apart (the same date of the year: a double-date sale, the day before New Year's eve; the same weekday 52 weeks
# back: the Tuesdays before a fixed feast) EVERY past year the history holds showed standing out on the same side:
# read against those days (see _days_a_year_apart), this many years at least (a history of 400 days holds one, and
# one past year cannot tell the day's effect from an incident that fell on it)
YEAR_APART_OCCASIONS = 2
YEAR_APART_WEEKS = 52  # "the same weekday a year back": 364 days, the weekday kept
# the features any of which makes a day another rule's (a holiday, its neighbourhood, a closure's first day back, a
# month's or quarter's close, a rolled pay day): no day a year apart reads it, nor is read by it
YEAR_APART_TAKEN = ("holiday", "near_holiday", "after_gap", "period_end", "near_period_end", "rolled_day")
# a partition of this many days or more (a fortnight, a dekad; not a week, read by its days, nor a month) is read by
# the holidays its days after the key hold, where the history shows them (see _span_holidays)
SPAN_HOLIDAYS_MIN_STEP = 10
# a weekly partition is the seven days from its date (Dagster's weekly key) unless its history says the seven days
# to it (a week ending Saturday, a draw date, a payroll week ending Friday; see _week_ends_on_key): its moving
# holidays' weeks, squared in the ordinary weeks' noise, must stand out this many times more read so (a doubling:
# a holiday's run-up or its week after, a New Year next to Christmas, lends the wrong reading up to 1.8x) ...
WEEK_KEY_GAIN = 2.0
# ... and significantly on their own: a chi-square over the holidays seen twice, one-sided 0.1% (on noise alone
# one reading may read well above the other: at 1% a tenth of such series switched)
WEEK_KEY_P = 0.001
# how many standard errors from zero an earned group's past effect must be: a named holiday or a
# closure is one candidate a day, two suffice; a neighbourhood is a guess over six days around
# every holiday (a hundred candidates a year in some calendars), so it needs three; a month of the
# year (a weekly or monthly series' season: March's bonus, the summer weeks) is a guess over twelve
# months every partition belongs to: three too, and two past occurrences at least; so are the
# days before a quarter's or year's last one (a close over several days), a guess over three days
# of every quarter
# a season of a daily series (Ramadan, named by the calendar's Eid al-Fitr; one configured) is one
# candidate the calendar names, like a holiday: two, counted in occasions (one a year)
DISTINCT_Z = {"holiday": 2.0, "after_gap": 2.0, "near_holiday": 3.0, "near_period_end": 3.0, "month_of_year": 3.0,
              "season": 2.0, "rolled_day": 2.0}
# the `holidays` package's mark on a date it computed, not one the country announced (a lunar holiday's in the
# current and coming years: "Eid al-Adha (estimated)"): the name is no past year's, and the country may keep the
# holiday a day off it (the moon sighted a day later or earlier than reckoned) (see _as_kept)
ESTIMATED = " (estimated)"
KEPT_OFF_DAYS = 1  # how far from its listed date an estimated holiday may be kept (a lunar month's first day)
# the days either side of a holiday whose run against their weekday shows where it was kept: its neighbourhood's
KEPT_SHAPE_DAYS = NEIGHBOURHOOD_DAYS
# a day off the listed one is read only where the shape fits it better by this many standard errors of the
# difference (a neighbourhood's bar: a guess over the days around a holiday)
KEPT_OFF_Z = DISTINCT_Z["near_holiday"]
# a day around it this many standard errors from the past run on every day it may be kept on is an event of its
# own, no evidence for either day (the same neighbourhood's bar: beyond it, no day of the run explains it)
KEPT_EVENT_Z = DISTINCT_Z["near_holiday"]
# the weekdays a day around it is read against, where the history holds them: three, so that one of them an event
# in no calendar is outvoted (a median of two is their mean); found a third week out either side where the two
# weeks either side (EXCESS_WEEKS) leave fewer, at the history's edges
KEPT_REFERENCES = 3
KEPT_WIDER_WEEKS = (-21, 21)


# the evening before a holiday on an hourly series (going out, travelling before a day off) with no
# past eve in the history (four weeks of hours seldom hold one): from this local hour on, the band
# also reaches this much higher, never lower (a drop on the eve still fails)
EVE_FROM_HOUR = 16
EVE_PRIOR = math.log(1.25)
# the days around a holiday on an hourly series whose history never held them (four weeks of hours hold no
# past year's travel before a festival or return after it): the day is read from its own hours so far, its
# factor their median, from at least this many hours (as a holiday never seen, see _holiday_so_far) ...
NEAR_SO_FAR_MIN_HOURS = 3
# ... and from its latest hours alone, this many (an evening's exodus after an ordinary working day)
NEAR_SO_FAR_LATEST = 3
# ... each kept only where it stands out of the noise (a neighbourhood's bar, DISTINCT_Z["near_holiday"])
NEAR_SO_FAR_Z = DISTINCT_Z["near_holiday"]
# a holiday's hour on an hourly series seen on fewer past days than this, where an earlier day of the same holiday
# is in the history (the Morazan Weekend's Thursday after its Wednesday), is read from the holiday's hours together,
# as a holiday never seen is read from its hours so far (see _holiday_days_so_far): one or two past hours are no
# effect of the hour's own (a median of three is the fewest that sets one noisy hour aside)
HOLIDAY_HOUR_OWN_DAYS = 3
# ... only where the holiday's hours so far fit an ordinary day times one factor within this many spreads (their
# robust spread; as _holiday_so_far holds its likenesses to 2.5): a festival whose hours keep a shape of their own, the same each of its
# days (Songkran's afternoons x3 and mornings x0.5), keeps each hour's own group
HOLIDAY_DAYS_FIT = 2.5
# a later day of a holiday's run of days the calendar names alike (Orthodox Easter's Sunday and Monday, both "Easter";
# Christmas by the old style's 7 and 8 January) is read with the run's earlier days (_holiday_days_so_far) only once
# its own hours so far, this many at least (as a holiday never seen is read from its hours so far, _holiday_so_far),
# read the earlier days' factor (one or two, each within the widest band of theirs; none, nothing parts it from its
# run): before that it is read as never seen (see _run_day_own_hours) ...
RUN_DAY_OWN_HOURS = 3
# ... and after that from its own hours alone, a day of its own, unless the median of its hours' gaps to their same
# hours, widened by this many of its standard errors (a holiday's own bar, DISTINCT_Z["holiday"]), stays within the
# tolerance a holiday's factor is held to (HOLIDAY_DAYS_FIT times an hour's noise), and never past the widest band
# (the ceiling)
RUN_DAY_ALIKE_Z = DISTINCT_Z["holiday"]
# a holiday hour never seen, read from its hours so far (see _holiday_turned): the latest hours so far that ran
# below the day's factor by HOLIDAY_DAYS_FIT spreads, this many or more in a row up to the target, say the holiday
# turned quieter within its day (an eve's half day, its afternoon off), and the band reaches their level too
HOLIDAY_TURNED_MIN_HOURS = 1
# ... and where they ran above it by as much, this many in a row up to the target (an evening's celebrations after a
# quiet holiday morning), the hour is read at their level (see _holiday_turned_busier): two, as one hour above is
# as likely a burst or a load duplicated, and one such hour must not move the centre its next hour is judged from
HOLIDAY_TURNED_BUSIER_MIN_HOURS = 2
# ... except one hour, where it came back to the likeness itself (an ordinary day's same hour x1.00, within this many
# of its noises: HOLIDAY_DAYS_FIT, the tolerance a factor is held to) after hours so far quieter than that by twice
# as much (the two readings apart by both tolerances: a dawn hour of a few rows, or a day x0.7, cannot tell them
# apart in one hour) (a holiday's late start, then people out: a Good Friday's morning x0.5 and its afternoon as
# usual): the day's prior reading, not a burst's new level (see _holiday_back_to_ordinary)
HOLIDAY_BACK_FIT = HOLIDAY_DAYS_FIT
# a fixed day of the month rolled to a business day (a payroll on the 27th, on the Thursday before
# when it falls on a weekend) is a guess over the 31 days x 2 rolls every month has: its effect must
# stand out at z > 3.78 (a two-sided 1% Bonferroni over the 62), over ROLLED_MIN_OCCASIONS months at
# least, three in four of them on its side, in each half of the history. Each day earned is one more such
# test on what the days before it leave, so a month may earn as many as clear the bar (Japan's gotobi: the
# 5th, 10th, 15th, 20th and 25th); at most ROLLED_MAX 14-day cycles (see _fortnights)
ROLLED_Z, ROLLED_HALF_Z, ROLLED_MIN_OCCASIONS, ROLLED_SAME_SIDE, ROLLED_MAX = 3.78, 2.0, 4, 0.75, 3
# a weekday's place in its month (the first Sunday's free admission, a payday on the last Friday, a monthly market on
# the second Saturday), in no calendar: the first to fourth of the weekday in the month (days 1-7, 8-14, ...) and its
# last (the month's last seven days), 5 x 7 candidates, fewer than the rolled days' 62 and held to their bar (ROLLED_Z,
# ROLLED_SAME_SIDE, ROLLED_HALF_Z, at most ROLLED_MAX); one occasion a month, so at least this many (half a year: each
# half of the history then holds three, the fewest a half's median stands on)
MONTH_WEEKDAY_POSITIONS = (1, 2, 3, 4, -1)
MONTH_WEEKDAY_MIN_OCCASIONS = 6
# the dense groups that count business days of the month (from its start, its end, the nearer end)
BUSINESS_DAY_GROUPS = ("business_day", "business_day_from_end", "business_day_edge")
# the groups of a few days around a holiday or a quarter's end, each learned from one or two occurrences
NEIGHBOURHOOD_GROUPS = ("near_holiday", "near_period_end")
# the business days each side of a rolled day that may earn a group of their own (the eve of a payday)
ROLLED_NEIGHBOURS = 1
# the label of a day's place at the month's turn on a series open every day ("month_end -2d", see _month_turn)
MONTH_TURN = "month_end"
# a run of calendar days over the month's turn that shares one effect (salaries from the 25th to the 2nd, renewals from
# payday to the month's end: see _month_day_run): it starts on one of these days of the month (the turn's half) ...
MONTH_RUN_FIRST_DAYS = range(15, 32)
# ... and ends on the month's last day or up to a week into the next month (its day, 0 for none)
MONTH_RUN_AFTER_DAYS = range(8)
# one occasion a month: at least half a year of them (each half of the history's median stands on three)
MONTH_RUN_MIN_OCCASIONS = 6
# a payday and the calendar days after it that its cash is spent on (civil servants paid on the 24th, the Friday
# before when it is a Saturday: the Friday, Saturday and Sunday lift, not the Monday the 26th is then), read as one
# run from the rolled day (see _payday_run): its days of the month (those every month holds) ...
PAYDAY_RUN_DAYS = range(1, 29)
# ... and its lengths in calendar days: two to a long weekend's four (one day alone is a rolled day's, _rolled_days)
PAYDAY_RUN_LENGTHS = range(2, 5)
# the calendars a day of the month may roll on: not at all, the series' own open days (`_roll_test`), the calendar's
# business days (weekends and holidays: a payroll kept on employers' days by a series open on Saturdays)
PAYDAY_ROLL_CALENDARS = ("unrolled", "own", "business")
# a roll (or a calendar) other than the plainer one is learned only where the history holds this many months at
# least on which the two part: one month where they part is chance, not which way the day moves
PAYDAY_PARTED_MIN = 2
# a day of the week this many times below the median day is closed-like (a hard ratio squared: loaded twice it is
# still a hard ratio below): a series with one keeps a working week (see _works_every_day)
LIGHT_DAY = 1.9 ** 2
# the business-day groups that count from the month's end: a close read by them falls on business days
FROM_END_GROUPS = ("business_day_from_end", "business_day_edge")
# a partition of fewer rows than this moves by 10% or more by counting alone: an earned group's past
# occurrences of so few rows are judged with that noise (see _indistinct)
FEW_ROWS = 100
# a dense shape (the weekday) of a series of a few rows is earned by significance, not by the 20% cut
# in errors: counting noise, which no effect explains, keeps the cut small (see _shape_beyond_counting)
COUNT_SHAPE_Z = 4.0
# (a daily series' weekday only: seven effects; an hourly series' few-row hours were not measured)
COUNT_SHAPES = ("weekday",)
# a daily series whose level moves fast (a mountain town's seasons, x0.5 to x2 in two months) reads a level lag in
# every one-step error, which no weekday explains: its weekday is also earned where it cuts the errors within each
# week (each day against its own full week's mean) by the same 20% (see _weekday_within_weeks), on at least this
# many full ordinary weeks of each weekday (eight: a median of fewer fits the in-sample noise it is judged on)
WITHIN_WEEK_MIN_WEEKS = 8
# a 14-day cycle (a pay run every second Friday) is a guess over 14 phases x 2 rolls: a phase's days
# must stand out of the same weekday a week either side (the weekday's other phase) by ROLLED_Z
# standard errors of that weekday's spread, over FORTNIGHT_MIN_OCCASIONS occasions each at least,
# ROLLED_SAME_SIDE of them on its side, in each half of the history (ROLLED_HALF_Z)
FORTNIGHT_MIN_OCCASIONS = 6
# a 14-day cycle's day that a label of the month took (a fortnightly payday on the month's rolled payday) reads the
# cycle's effect on top where the cycle's group holds this many days of its own, as many as the cycle needs to be
# earned (see _cycles_under_month_days); its label's start ("fortnightly Fri preceding", see _label_rolled_days)
CYCLE_MET_MIN_DAYS = FORTNIGHT_MIN_OCCASIONS
CYCLE_LABEL = "fortnightly "
# the calendar days the shift rule reads by their groups' earlier occasions (`_calendar_levels`): a holiday and its
# neighbourhood recur by name; a declared season's or break's days keep their fitted level (their own rules read them)
OCCASION_FEATURES = ("holiday", "near_holiday")
# a zero that a Poisson count of the expected size shows once in twenty partitions or more is a count, not a
# failed load, where the series has been empty before (`_zero_by_counting`: about three rows expected or fewer)
ZERO_BY_COUNTING = 0.05
COUNT_TAIL = 1e-4  # a count a clean partition reaches less often than this (each side) is outside the band
MIN_OCCURRENCES = {"month_of_year": 2}
# a target's place in the month counted from its nearer end is read as deep as this many of the history's months
# reach, no deeper (one month's 14th open day is one past point: no group to read a target by)
MIN_POSITION_MONTHS = 3
# a run of this many one-step errors in a row (ModelParams.shift_after's three), each this many robust sds
# out on one side, is a level step the rolling level was catching up on, not noise (`_clipped_noise_sd`)
STEP_RUN = 3
STEP_RUN_Z = 2.0
# a daily series' episode (such a run, see _episode_errors) leaves the target's spread only once it ended this many
# days before the target: the daily level window's 14 days (ModelParams.level_points' default), which still hold it
EPISODE_SETTLE_DAYS = 14
# a weekly series' spread reads each week's error with its week of the year learned on its other years (see
# _years_out): the kind so read, and the fewest such errors (a year of weeks) it needs to stand
YEAR_OUT = "week_of_year"
YEAR_OUT_MIN_ERRORS = 52
# a weekly series' episode in its history (an unrest's months, unlabelled): a run of at least this many weeks off
# their own weeks of the other years on one side, each by EPISODE_EDGE_Z of the year-over-year spread and their
# median by EPISODE_Z, and over at least as many weeks before the target (a run still going may be a new level,
# the shift rule's). Six weeks: a school break moved a fortnight, Easter a month, a jackpot's month-long chain move
# a few weeks, and a week of the year's median of three years carries them
EPISODE_RUN_WEEKS = 6
EPISODE_EDGE_Z = 1.5
EPISODE_Z = 2.5
# a weekly series' episode of a whole year (a drought's crop year, a contract's or a subsidy's year), unlabelled,
# whose first week's anniversary the target is one of the first weeks after: the target may be back at the
# years before it (see _episode_year_ends). Its weeks' share off their year back on its side (a moving holiday's
# week may break a run), and the fewest year-over-year pairs its spread is read from, and its own weeks (half a year)
EPISODE_YEAR_SHARE = 0.8
EPISODE_YEAR_MIN_PAIRS = 26
# ... and the weeks after its anniversary the target may be: the weekly level window's eight (ModelParams.level_points),
# which still hold the episode's weeks; from the second week after it on, the weeks since must be back
EPISODE_YEAR_AFTER_WEEKS = 8
# a series of partitions this many days apart or more reads its yearly season as a weekly series does (see
# _many_day_partitions): four weeks, the shortest month
MANY_DAY_MIN_STEP = 28
# a weekly series' season whose edges move between years (another country's school holidays, a week earlier or
# later): a week of the year this many band spreads off a neighbouring week's effect sits at an edge, and the
# history's edges moved where at least EDGE_MOVED_SHARE of its edge weeks (EDGE_MOVED_MIN at least) read nearer a
# neighbouring week's effect than their own, by EDGE_MOVED_Z spreads off their own (see _season_edge_moves): noise
# alone puts some 2.3% of weeks 2 spreads off on one side, the share asks three times as many
EDGE_Z = 3.0
EDGE_MOVED_Z = 2.0
EDGE_MOVED_SHARE = 0.07
EDGE_MOVED_MIN = 2
YEARLY_HARMONICS = 2  # a weekly series' smooth yearly season: a cycle and its first overtone (see _yearly_season)
MONTH_REACH_DAYS = 75  # a daily series' month of the year is compared with the ordinary days this far either side
# a month compared with one side only (the other too short, or standing out itself): this many standard errors
ONE_SIDE_Z = 6.0
# a month's days after its last holiday (Christmas's, in a December lifted by a year-end bonus spent before it) read
# outside the month's effect where every past year's showed none (see _month_tail_days): those past days must hold
# this many ordinary days at least (two are a weekend's, which a weekday's effect alone may set off)
MONTH_TAIL_MIN_DAYS = 3
# a ramp that began inside the level windows (see _onset_ramp): this many points after its knot, its
# slope this many standard errors from flat, this share of their one-step errors on its side
RAMP_POINTS, RAMP_Z, RAMP_SAME_SIDE = 6, 4.0, 0.8
# a ramp is not extrapolated over the latest days when this share of a level window holds no ordinary day
RAMP_STALE_SHARE = 0.25
RAMP_KNOTS = 60  # knots tried in a first pass over a long window (see _onset_ramp)
# a weekly slot (a weekday; a weekday's hour) empty on this share of its past occurrences, and on at least
# CLOSED_MIN_OCCASIONS of them, is closed as usual (see _closed_as_usual)
CLOSED_SHARE = 0.8
CLOSED_MIN_OCCASIONS = 3
# a weekly or monthly group empty at the target's place in the year in every past year its history holds since its
# first rows, in this many years at least (one empty week a year back may be that year's outage), each time with rows
# after it (the season ended and it came back), is closed for its season as usual (see _closed_in_season)
SEASON_CLOSED_MIN_YEARS = 2
# a daily group's closures beyond its weekly ones (see _closed_as_last_year): a run of days without rows holding this
# many of its usual open weekdays in no calendar at least (a school's half-term week holds five; a long weekend none)
TERM_CLOSURE_OPEN_DAYS = 3
# ... this many such closures that ended in the history at least (lesson 1: two occasions show a pattern of closing
# and coming back, one may be an outage)
TERM_CLOSURE_MIN_OCCASIONS = 2
# ... and one of them began within this many days of the same place a year back: a week, as a term's dates follow its
# weekday ("the Friday on or before 18 December") and move up to six days from year to year
TERM_CLOSURE_REACH_DAYS = WEEK_DAYS
# a first day back after such a closure is read against its next this many days with rows (two school weeks)
REOPENING_LEVEL_DAYS = 10
# ... and a year back read as 52 weeks back (the same weekday), the same date, or a holiday the run holds at its
# past occasion this far back at most (Easter's school holidays move with it, a month from one year to the next)
TERM_CLOSURE_YEAR_DAYS = (300, 430)
# ... and read, open, as the same place in its past years on its year-over-year growth (see _season_year_back),
# from this many year-over-year pairs at least (a season's weeks of a year)
SEASON_BACK_MIN_PAIRS = 12
# a weekly series' week of the year is also earned on its one-step errors read from before where it cuts them by this
# share (see _season_steps_recur): half, a season whose steps at the same weeks every year are most of those errors
# (a monsoon's x2.6 read from the weeks before it), not a few odd weeks a year (a film's opening, in no calendar)
SEASON_STEPS_GAIN = 0.5
# ... unless, on an hourly series, this many of the day before the target's hours held rows, in a run reaching it, in
# slots closed as usual before them (a quarter of a day: the series now opens hours it kept closed, see
# _closed_hours_opened; a late evening or two, New Year's Eve's, is fewer)
OPENED_CLOSED_HOURS = 6
# a holiday the history never held, on an hourly series, whose usual open hours so far were all empty, this many at
# least (as a holiday never seen is read from its hours so far, NEAR_SO_FAR_MIN_HOURS): shut for the day (see
# _holiday_shut_so_far)
HOLIDAY_SHUT_HOURS = NEAR_SO_FAR_MIN_HOURS
# once it has, its regime changed: each hour is read against its same hour on the latest days since the opening (a
# week of them: each kind of day once), not the history's term-day bands (see _opened_hours_read) ...
OPENED_SAME_HOUR_DAYS = 7
# ... at the level its latest hours ran against their own same hours (the day's kind, a surge in no calendar) ...
OPENED_RECENT_HOURS = 3
# ... with the noise of the run's own hours read that way, from this many of them at least (fewer: the ceiling)
OPENED_MIN_ERRORS = 12
# ... or by its same hour alone, where that read this hour of the day closer on this many of the run's days at least
# (a night's hours that run alike every day, whatever the evening before them ran)
OPENED_ALONE_MIN_DAYS = 3
MEDIAN_VARIANCE = 1.57  # a median's variance, in its mean's (about pi / 2): the same-hour readings are medians
# a day whose usual service hours are shut mid-day in no calendar (a monthly community-work morning, a marathon's road
# closure; see _closure_hours_read): a run of at least this many of its weekday's usual hours without rows between
# hours with rows that day (one alone is a missing partition, or a clock change's lost hour) ...
CLOSURE_MIN_HOURS = 2
# ... a weekday's usual hour has rows on more than this share of that weekday's days (a closure once a month is not
# its weekday's usual state: _closed_as_usual reads that) ...
CLOSURE_USUAL_SHARE = 0.5
# ... and it moves this many hours either side of it (few go out before the roads shut, everyone once they open)
CLOSURE_NEAR_HOURS = 2
# the target's ordinary same hour: the median of its weekday's same hour on at most this many latest weeks
CLOSURE_RECENT_WEEKS = 4
# an hour whose same hour ran above its reading on each of this many latest days on no calendar day, the hour before
# it above too on those days and above today (an event's evenings in no calendar: a festival's crowds going home on
# one corridor, night after night, today's evening already up): read at that move, its band as wide as before (see
# _event_evening_read); upward only, as an evening event adds riders and a load that loses its evening is a fault
EVENT_EVENING_DAYS = 1
# ... those days looked for among this many latest days (a holiday's evening between reads its own effect, neither
# breaking nor confirming the run)
EVENT_EVENING_LOOKBACK = 3
# ... "above": by this share of the band's half-width at least (about two of the hour's spreads: the total of a
# network whose one corridor doubles runs up by a fifth, at its band's edge)
EVENT_EVENING_SHARE = 0.5
# a series its owner accepted as shut for good (an empty partition accepted as a shift, empty since): expected at
# one row, so a ratio reads, and its rows back from two on (the hard ratio) tell that it reopened
SHUT_BASELINE_ROWS = 1.0
# ... where it was empty on at most this share of its partitions from its first rows to the accepted one (a slot
# closed as usual, a weekday or a night hour, is at least a seventh or so of them)
SHUT_EMPTY_SHARE = 0.02
# a key re-keyed inside the history, nobody's acceptance recorded (a region split into new keys, a product renamed,
# a carrier's code changed, two merged into one; see retired_groups): its latest run of empty partitions is this
# many partitions long at least (the run a new level needs, `ModelParams.shift_after`'s default: a key missing in
# one or two partitions is a missing group whatever began beside it) ...
RETIRED_MIN_RUN = 3
# ... and this many times the longest empty run it had before since its first rows (a market's off-season seen a
# year back, a shop's closed weekends or nights: runs it comes back from) ...
RETIRED_RUN_RATIO = 4.0
# ... while one or more keys began (their first rows, after at least `RETIRED_MIN_RUN` empty partitions) within
# this many partitions of it stopping ("on or about": a split booked a day apart) ...
RETIRED_ONSET_REACH = 3
# ... carrying its level on: the new keys' sum over their first partitions, up to this many days of them, within
# the model's widest band (`ModelParams.ceiling`) of the stopped keys' sum over as many partitions before they
# stopped (a key that stopped with nothing taking its place is a loss, still failed empty)
RETIRED_LEVEL_DAYS = 28
# a group that stopped with nothing taking its place (a region's agents gone from the network for good, a store
# shut) is closed, not a missing group, once its latest run of empty partitions, reaching the history's end, spans
# this many days at least (four weeks: a closure for repairs or works that comes back, a ferry berth's three weeks,
# is over inside it; each empty day until then still fails, the owner told of it every day) ...
CLOSED_MIN_DAYS = 28
# ... and this many partitions (a weekly or monthly series' several periods: an empty month or two is an outage) ...
CLOSED_MIN_RUN = 4
# ... and `RETIRED_RUN_RATIO` times the longest empty run any of the check's groups came back from, while, where the
# history holds the same span of the year before, the group held rows on this share of its partitions there at
# least (a season's closure seen begin a year back, even where its history starts inside it, is not read as closed:
# half, as a closed season holds almost none and an open one almost all)
CLOSED_YEAR_OPEN_SHARE = 0.5
# a daily series whose rows land on a few weekdays only (a weekly file, a batch posted on Mondays and Thursdays, a
# branch open two days a week; see _off_its_row_days): its rows lie this many days apart or more (their median gap)
# while its partitions, empty ones too, lie a day apart. Below it its rows alone read as a daily series, and
# _forecast's own reading of closed weekdays (_closed_as_usual) serves; from it on they read as a weekly or
# every-other-day series, whose step no weekday is closed on
FEW_WEEKDAYS_STEP = 1.5
# a weekday the business keeps closed but for a small always-open part (a store chain's online orders on Sundays
# under a trading ban) that its history shows open like a working day on a few occasions (the trading Sundays, a
# venue's bank-holiday Mondays) holds two states (see _open_occasions): an occasion is open where it stands within
# the hard ratio of its week's other days (a working day's level), this many of them at least (fewer say nothing
# of the open level's noise) ...
OPEN_MIN_OCCASIONS = 3
# ... and at most this share of the weekday's occurrences (more, and open is its usual state, read by the model)
OPEN_MAX_SHARE = 0.5
# ... and the open band starts above this many times the closed band's top: a closed day loaded twice never reads
# as open (a payday twice a weekday's level is a calendar effect of one state, not a second state)
OPEN_APART = 2.0
# ... each read against its previous six days (the week's other weekdays), this many of them at least loaded and
# no holiday (a short week's median would be its weekend's)
OPEN_WEEK_DAYS = 4
# a row day of a few-weekday series that a holiday's file moved onto holds its own file and the moved one (see
# _carried_file_rows): learned from this many past days a file moved onto at least (one says nothing of whether
# the series' moved files land whole) ...
CARRIED_MIN_OCCASIONS = 2
# ... each holding at least this share of a file beyond its own (less, and a holiday's file was lost or split, not
# moved whole: the day reads as its own file) ...
CARRIED_MIN_SHARE = 0.5
# ... a file's size read as the median of the row days within four weeks of it (its level then, a month's drift)
CARRIED_LEVEL_DAYS = 28
# an hourly series too noisy for hour_of_week's effects to pay for themselves (a queue of a call
# centre) may still hold a few hours of the week off the hour's and the weekday's effects (Monday
# mornings' backlog): each such hour earns its own effect where its residuals stand out at a two-sided
# 1% Bonferroni over the hours of the week tested, over CELL_MIN_WEEKS past weeks at least, and by
# CELL_HALF_Z in each half of the history on the same side (a few odd weeks piled up are no shape)
CELL_FAMILY_P = 0.01
# a moving festival of another calendar (FESTIVALS) is earned by a series where more of its days stand
# out of their weekday's weeks around them (by FESTIVAL_Z noise sds) than ordinary days do, at
# FESTIVAL_FAMILY_P over the festivals tried (a tail against windows of ordinary days, see _earned_festivals;
# a tenth of the cells' bar: a festival earned on noise relabels weeks of every year of the history)
FESTIVAL_FAMILY_P = 0.001
FESTIVAL_Z = 3.0
FESTIVAL_WEEKS = 4  # the same weekdays each side a day is compared with
FESTIVAL_MIN_WEEKS = 2  # ... of which at least this many each side in the history
# ... and on a share of its reach: a festival's weeks move several of its days, where a series with light
# tails may hold two or three days beyond FESTIVAL_Z in any window of its days (a quarter's turn)
FESTIVAL_MIN_SHARE = 0.2
# a period's close (volume_calendar.PERIOD_CLOSES) is earned as a festival is, and on this many of its
# occasions at least, each with a FESTIVAL_MIN_SHARE of its days standing out (see _earned_closes)
CLOSE_MIN_OCCASIONS = 2
FESTIVAL_MAX_TOGETHER = 0.99  # (below one: a beta-binomial's shares must leave each day some chance of its own)
# an earned festival's day moves the forecast's centre only where its past occasions show it this many times:
# one occasion in the history (a yearly festival in 400 days) cannot tell the festival from whatever else fell
# in its three weeks that year (a new tax year, a holiday's long run-up, a season's end), so it widens the band
# in the direction that day moved then (see _festival_seen_once)
FESTIVAL_CENTRE_OCCASIONS = 2
# a span between two of the calendar's moving holidays (volume_calendar.moving_spans: a fast between two feasts of
# one moving anchor) is earned by a series (see _earned_spans) where, on each of SPAN_MIN_OCCASIONS past spans at
# least, its days' median stood off the same weekdays of the SPAN_AROUND_WEEKS weeks before it AND of those after it,
# on one side, by SPAN_Z robust sds of the same reading on windows as long of the history's other weeks: a level
# that moved in and moved back at the same holidays each year (two occasions: one cannot tell it from an incident)
SPAN_MIN_OCCASIONS = 2
SPAN_AROUND_WEEKS = 4
SPAN_Z = 4.0
SPAN_MIN_DAYS = 14  # a span's days a reading needs, where the history holds fewer than half of them (its start, so far)
# the same Gregorian dates a year back (an event in no calendar tied to a date: a fill before a fee rises on 1
# January, a fiscal year's last days) read on a daily series, its upper side only, see _same_dates_a_year_back: this many days of the
# target's kind (working or not) nearest its anniversary (three: a median that one odd day cannot carry) ...
YEAR_BACK_DAYS = 3
# ... within this many days of it (a week either side: the same dates, not the same season)
YEAR_BACK_REACH = 7
# ... each read against the level window before it, their median beyond this many standard errors of a median
# (a neighbourhood's bar: one occasion, read on every day of the year a target may fall on)
YEAR_BACK_Z = 3.0
# a lunar season in no calendar (the seventh lunar month's lull, Ramadan's weeks where no calendar names them) recurs on
# the same lunar dates, eleven days earlier or nineteen later than the Gregorian ones: a year back is read by the nearest
# holiday that moved between years as a lunar one does (a lunar year is 354-355 days, a year of thirteen lunar months
# 383-385) within this many days of the target (`_lunar_year_back`) ...
LUNAR_ANCHOR_REACH = 60
# ... its previous occasion this many days before (not 385 days, which is also 55 weeks: Easter's occasions are whole
# weeks apart, 357 to 392 days, and so are a Monday holiday's; a lunar year of 385 days is left to the Gregorian reading)
LUNAR_YEAR_DAYS = ((354, 355), (383, 384))
# a day a year back at the target's place in the month (the same weekday at the same place in the same month: the
# Summer Museum Night on June's third Saturday, a marathon's second Sunday of October) read on a daily series, see
# _same_place_a_year_back: one day, so it must stand this many noise sds above the level and above its own weekday
# the weeks either side (a one-day burst's bar, TAIL_Z: a day that high comes by chance less than once in 30,000)
PLACE_BACK_Z = 4.0
# a series of a few partitions a year (quarters, half-years: at most this many) is read a year back, the same quarter
# times the year-over-year growth, where its history's year-over-year errors make that band narrower (see
# _year_back_band) ...
YEAR_BACK_FEW_PER_YEAR = 6
# ... from at least this many year-over-year pairs clean of episodes and shifts (two years of quarters) ...
YEAR_BACK_MIN_PAIRS = 8
# ... on a partition a year back that is no odd one among its own years back, this many at most
YEAR_BACK_YEARS = 3
# ... a partition's gap to the next within this share of the series' step (a regular series: its index is its season)
YEAR_BACK_GAP_SHARE = 0.1
# a series keyed once a month on one weekday at one place among its month's days of that weekday (a meter read on
# each month's last Tuesday: cycles of four or five weeks) is read by the days each partition holds, a year (52 weeks)
# back (see _year_back_by_days), where this share of its keys at least follow the rule (a reading moved off a holiday)
WEEKDAY_KEY_SHARE = 0.8
# a holiday that moves by fewer days than this between years is kept on a weekday (a Monday holiday, an observed
# day off): a moving feast moves eight days or more (Easter by 8-20, the lunar and Islamic feasts by 10-19)
WEEKDAY_RULE_DAYS = WEEK_DAYS - 1
CELL_MIN_WEEKS = 6
CELL_HALF_Z = 2.0
# ... and with fewer past weeks than that (a history of four weeks of hours), a run of adjacent hours of one day of
# the week is earned together where every past week put every one of its hours on the same side (commuter
# motorways' weekend mornings at x0.5): at least this many weeks (each hour's four on one side come by chance one
# time in eight, three adjacent hours' twelve one time in 2,000) ...
CELL_RUN_MIN_WEEKS = 4
# ... of which one past day may run the other way at every hour of a run where it stands this many noise sds beyond
# its hours' other weeks: an event that evening (a festival's night), which noise alone does not reach (at three
# sds one hour in 700, and every hour of the run on the one day)
CELL_ODD_Z = 3.0
CELL_PASSES = 2  # a second look once the first hours earned no longer pull their weekday's and hour's effects
# the first business day after a holiday that closed one (a backlog the next morning) is earned on an
# hourly series, hour by hour, from at least this many past such days in its history (four weeks of
# hours seldom hold two: then nothing is labelled)
AFTER_HOLIDAY_MIN_DAYS = 2
# a closure of an hourly series holding at least this many of its usual open days is a long one (a
# festival's week: people leave before it), and this many open days before it are its eves
LONG_CLOSURE_DAYS = 2
# an hourly series' usual opening hour is read from at least this many past days (two weeks of working days)
OPENED_LATE_MIN_DAYS = 10
# a run off the level over this many local days at most may be an event's surge that ends with its days (a
# payday's afternoon and the day after, a two-day sale), not yet a new level (see _surge_may_have_ended)
EVENT_RUN_DAYS = 2
# a short dark run of an hourly series (a run the shift rule took for a new level, beyond the hard ratio below the
# level before it, within a day: a rotating blackout block, a nightly maintenance window, a siesta closure) is an
# episode that may end at the next hour where the history holds runs like it that ended on at least this many local
# days (one past occasion cannot tell a habit from an incident; see _dark_run_ended_before) ...
DARK_RUN_MIN_OCCASIONS = 2
# ... each of them, and the run itself, spanning less than this (a longer run is a closure or a level, other rules')
DARK_RUN_MAX_SPAN = timedelta(days=1)
# ... and each of their hours expecting this many rows at the level before the run at least: three hours beyond the
# hard ratio below come by counting noise alone at a few rows an hour (a small group's nights), at ten each about once
# in 3,000 (Poisson: five rows or fewer of ten expected, 7%, three times in a row)
DARK_RUN_MIN_ROWS = 10.0
# a surge that returned to the level before it moves each of its points back by its deviation smoothed over this
# share of a level window either side (half a day of an hourly series' week: the climb's shape from day to day, not
# its hours' counting noise, which the spread keeps; see _surge_returned)
SURGE_SMOOTH_SHARE = 14
# a surge still running (a run off the level before it, on one side, to the latest point) reads the target's hour by
# the surge's own shape once the run holds this many of its same hours (a pilgrimage's walkers arrive day and night:
# the day's shape flattens, its nights x2-3 their usual share; see _surge_hour_shape) ...
SURGE_SHAPE_MIN_DAYS = 2
# ... from at most this many of the latest (the shape moves as the surge climbs) ...
SURGE_SHAPE_DAYS = 3
# ... where each of them sits off the hour's share before the run, on one side, by this many robust sds of the hours
# about their smoothed level before it (a step that scales every hour alike leaves its hours' shares as they were)
SURGE_SHAPE_Z = 2.0
# a surge still running reads its level from its latest half day where the model's level parts from that by more than
# this share of the band's half-width (a surge's day-to-day climb and fall, not a step's noise; see _surge_latest_level)
SURGE_LEVEL_APART = 0.5
# a working day between a holiday and the weekend, named after the holiday (see _bridge_days): a day most take off
BRIDGE_LABEL = " (bridge day)"
# ... read as one only from this many of its hours so far (as a holiday never seen is, see _holiday_so_far)
BRIDGE_SO_FAR_HOURS = 3
# days between two holidays of the calendar at most this many days apart, a working day among them, are a bridge run
# (Armenia's 3-5 January between New Year and Christmas, Christmas to New Year, Golden Week's bridge; see
# _bridge_run_days); a week: a run longer than the working week between two holidays is no bridge any worker takes
BRIDGE_RUN_MAX_DAYS = 6
# ... in its first hours (fewer than the NEAR_SO_FAR_MIN_HOURS a day's own reading needs), a bridge run's day whose
# every hour so far ran below its ordinary reading by this many spreads (a factor's fit, HOLIDAY_DAYS_FIT) reaches
# their level on the lower side (see _bridge_run_first_hours)
BRIDGE_RUN_FIRST_Z = HOLIDAY_DAYS_FIT
# a business whose day opens at or after this local hour and runs past midnight keeps a night's hours (a bar,
# a night shift): its hours after midnight are the evening's day (see _night_hours). Noon: a day that opens in
# the morning and keeps a late hour past midnight is a day's business whose late hour is too small to decide
NIGHT_OPENS_FROM = 12
# ... read only from a history holding each open hour this many times on average (a week of nights)
NIGHT_MIN_NIGHTS = 7
# an hourly series' eves of a holiday are read as another day of the week (see _eve_as_day) where their hours fit
# that day's same hours within this many of the series' standard deviations (root mean square; the 2.5 a
# holiday's hours so far are held to, _holiday_so_far) and fit their own weekday's worse than that
EVE_DAY_FIT = 2.5
LONG_CLOSURE_EVES = 2
LONG_CLOSURE_LABEL = "the open days before a long closure"  # its eves' neighbourhood ("... -2d": the two)
# a partition covering several days (a week) is judged at the configured k's tail probability per
# day (see _band_k), where the target's spread rests on at least this many one-step errors
BAND_K_MIN_ERRORS = 30
# a weekly shape of a part of the year (a holiday let's summer weekends, a ski resort's winter ones, a
# school term's weekdays), see _seasonal_shape: a day's stretch is the same weekday's ordinary days
# this many days either side, compared with the year's weekday shape ...
SEASON_SHAPE_REACH = 21
# ... and its shape, where earned, is read from the same weekday this many weeks either side (the
# median of five: a season's edge within a fortnight still gives the day's own side)
SEASON_SHAPE_WEEKS = 2
# ... a stretch's weekday medians must stand out of the year's shape at this tail probability
# (chi-square): a two-sided 1% over the 52 weeks of a year a stretch may be asked of
SEASON_SHAPE_P = 0.01 / 52
YEAR_DAYS = 364  # 52 weeks: the same weekday a year before
# a daily series' run of days far below the level before it, in no calendar (a region's road cut, a depot's weeks
# shut), that the target may end (see _dip_before_return): a week of days at least, as a season's run (a payday's
# few days and a long weekend are the calendar's); its depth is the hard ratio's (a run the model would fail
# reading by reading, not a season's or a promotion's sway)
DIP_MIN_DAYS = 7
# ... and it may have begun up to this many level windows back: a road cut of three weeks and the level window after
# it, whose rolling level still holds the run's days (the run's own start is its sudden edge, read from its first day)
DIP_REACH_WINDOWS = 3
# a run off the level read as a season a year back (_season_run_over) spans a week of days at least: a month's turn
# (a pay day's few days above the level, every month) is the calendar's, not a season's
SEASON_RUN_MIN_DAYS = 7
# a daily series' run of days off the level before it, in no calendar, that came back (see _episode_returned): its days
# sit off that level by this share of the band's half-width at least, each (half: an episode of a week or two at
# x0.8 sits about one half-width off, so its days stray inside the band as often as out, and a run of days beyond
# it all breaks on the first; the series' own noise keeps three days in a row off by half a band rare)
EPISODE_RUN_SHARE = 0.5
# ... and moves some weekday by this much at least: a smaller shape sits inside the band of a series at 4-5%
# noise (4 spreads), where a rule would only move the fit
SEASON_SHAPE_MIN = math.log(1.15)
# last year's shape is judged on the latest fortnight where it moves at least this many of its days (half:
# a season's first days, a day or two of last year's calendar drift, are no verdict) by SEASON_SHAPE_MOVED
# noise sds or more
SEASON_SHAPE_AGREE = 7
SEASON_SHAPE_MOVED = 3.0
# a heavy upper tail (real one-day bursts: a customer's backfill) is an error this many noise sds above the
# level, the next partition back inside it (a step up stays up; a late load repaid the next day is a pair)
TAIL_Z = 4.0
# ... earned from at least this many such bursts (five with none downward is the fewest TAIL_P admits), at
# least TAIL_HALF_MIN in each half of the errors, and upward bursts outnumbering the downward ones at
# TAIL_P one-sided (a misfit errs both ways)
TAIL_MIN = 5
TAIL_HALF_MIN = 1
TAIL_P = 0.05
# a duplicated partition (or group) reads x2: the upper side never reaches beyond x2 less the band's
# half-width, so a doubled series stays below its band's upper edge no more often than a clean one
# falls below its lower edge
DUPLICATE = 2.0
# a weekly or monthly series whose departures are bursts upward (a lottery's jackpot rollovers, a retailer's
# promotions, weeks long, in no calendar): a burst is a run of partitions each this many noise sds above the
# level of the ordinary partitions before it (3: a clean partition's one-sided 0.1%, a few in three years of
# weeks), the run ending back inside ...
BURST_Z = 3.0
# ... earned from at least TAIL_MIN such runs, outnumbering the runs as far below at TAIL_P one-sided (a
# misfit errs both ways), the errors read again against the ordinary partitions' level this many times (a
# burst read as the level hides the next one)
BURST_ROUNDS = 2
# a business that closes on its holidays: a holiday's level replaces the weekday's shape (a holiday on a
# Saturday is a day at the holiday's level, not the holiday's ratio times a Saturday's). Earned where the
# history's holidays, each read against its own weekday, fall with their weekday's effect: the slope of
# their ratios on their weekdays' effects stands HOLIDAY_CLOSE_Z standard errors from zero (a ratio on top: 0) ...
HOLIDAY_CLOSE_Z = 3.0
# ... and is nearer a level's -1 than a ratio's 0
HOLIDAY_CLOSE_SLOPE = -0.5
# ... from at least this many holidays on a light weekday (HOLIDAY_CLOSE_Z noise sds below the heaviest holiday's)
HOLIDAY_CLOSE_MIN_LIGHT = 2
# a holiday whose ratio stands this many robust sds off the line the others draw (ratio on their day's reading)
# carries an event of its own (a feast's exodus, a New Year's taboo on washing): it keeps its own effect, but
# says nothing of how a day off meets the weekday, and is left out of the slope (3: a clean holiday's 0.3%)
HOLIDAY_OWN_EVENT_Z = 3.0
# rounds of leaving such holidays out and drawing the line again (a line drawn through them tilts towards them)
HOLIDAY_OWN_EVENT_ROUNDS = 3
# a line drawn with holidays left out must still read a level (slope -1): steeper than twice a level's, it is a
# line through feasts of unlike sizes on a few days (Saudi Arabia's Eids), and the ratios are kept
HOLIDAY_LEVEL_SLOPE_MIN = -2.0
# a declared break's days on a light weekday (its ordinary median a hard ratio below the heaviest weekday's) are a
# part of the break of their own (`_break_light_days`), named with this
BREAK_LIGHT = " (light days)"
# a configured season the history holds once (a deadline's run-up, a launch campaign): its days are read by
# their offset in it against the one occurrence (see _season_seen_once), its reach the days after its last
# one too (a deadline's late filers, the quiet month after a sale): a month of them
SEASON_ONCE_REACH = 28
# ... where it stands from the ordinary days before this year's season by this many standard errors (and a band)
SEASON_ONCE_REACH_Z = 4.0
# ... the change since that occurrence is read from the latest days before the target, each against its own
# offset's day (two weeks of days, the level window's)
SEASON_ONCE_SO_FAR = 14
# ... of which at least this many in both occurrences: fewer say nothing of the change nor of its noise
SEASON_ONCE_MIN_DAYS = 10
# ... and the season's own weekly shape from its days, each against its centred week, this many each weekday
SEASON_ONCE_MIN_WEEKS = 3
# ... a centred week read without its holidays from this many days (five: a week's two weekend days stay
# below its median)
SEASON_ONCE_WEEK_DAYS = 5
# ... and it stands where its errors on those days are no larger than the model's noise allows at this bar
SEASON_ONCE_P = 0.01
HOLIDAY_RUN_DAYS = 9  # the longest run of days one holiday's name holds (a bayram's four, a Golden Week's nine)
# where the ordinary level around a holiday is read (_same_offset_error): the latest level window of ordinary
# days from this many windows before its first day back, so the weeks before it that the calendar does not
# name (a run-up) are not in it
HOLIDAY_BASE_WINDOWS = 2
# a declared season that began inside an hourly history (see _season_own_hours): the days before it its hours read
# against (two weeks at least, the four weeks before it), and the deviations its own spread needs (a day's hours)
SEASON_OWN_MIN_DAYS_BEFORE = 14
SEASON_OWN_REF_WEEKS = 4
SEASON_OWN_MIN_DEVIATIONS = 24
# an hour of the day whose share of its day turned inside an hourly history and held (a season in no calendar ended:
# Ramadan's suhoor hours back to a night's, its iftar back to a dinner's; see _hour_share_turned): its latest ordinary
# days, this many at least (two occasions and more: the turn read on its own days, not on one odd day) ...
HOUR_TURN_MIN_DAYS = 4
# ... each off the hour's share before them on one side by this many robust sds of that share from day to day (each sd
# at least the hour's counting noise; as a surge's hour shape, SURGE_SHAPE_Z: four days each beyond it on one side come
# by chance about once in ten million), where the share before them rests on a week of days at least (every weekday)
HOUR_TURN_Z = 2.0
HOUR_TURN_BEFORE_DAYS = 7
# ... read on days with rows in this many of their hours at least (a day's shape around the clock: a 23-hour day's,
# a small district's dawn without rows; a shop shut at night keeps its hours' shares to the other rules)
HOUR_TURN_DAY_HOURS = 20
# ... where the turned days' own levels (each day's median hour) held: each within this share of the band's half-width
# of their median (a weekday's sway, a Saturday's x1.1 or a 23-hour day's, stays inside it; half of it cut a Sunday of
# x1.2); a surge climbing by the day or a step inside them moves the level, which the surge's and the shift's rules
# read (a climb's latest days' same hour lags it)
HOUR_TURN_LEVEL_SHARE = 1.0
# a block of hours off the level inside one day that the shift rule took for a new level is the days' shape where
# this many days before held it too at the same hours and had it end before the target's hour (two occasions: one
# day's block is a fault or a first day as much as a shape; see _run_repeats_yesterdays_block)
BLOCK_PAST_DAYS = 2


@dataclass(frozen=True)
class ModelParams:
    k: float = 4.0                 # band half-width in robust standard deviations
    floor: float = math.log(1.06)  # never tighter than +-6%
    ceiling: float = math.log(1 / 0.7)  # never wider than 0.70x .. 1.43x
    hard_ratio: float = 1.9        # at or above this times the baseline always fails
    shift_after: int = 3           # a run of this many points off the level is a new level
    level_points: int | None = None  # default: 14 days, 168 hours, 8 weeks, 6 month-ends
    dense_gain: float = 0.2        # a dense group is used when it cuts the residual spread by 20%
    shape_after: int = 2           # a weekday's share off its effect this many times running is a new share
    shape_z: float = 3.0           # ... when their median is this many sd off
    lower_ratio: float | None = None  # the owner's tolerance: the band is never tighter than this
    upper_ratio: float | None = None

    def half_width(self, spread: float) -> float:
        """The band's log half-width for a spread: k robust sds, within the floor and the ceiling."""
        return min(max(self.k * spread, self.floor), self.ceiling)


@dataclass(frozen=True)
class Point:
    at: datetime
    value: float
    accepted: bool = False  # a person said this partition is legitimate
    shift: bool = False     # ... and that it starts a new normal level
    shape: bool = False     # ... and that the weekly pattern changed from it (every weekday's share is new)


@dataclass
class Forecast:
    baseline: float          # expected value
    lower: float
    upper: float
    group: str               # the target's comparison group, readable
    features: list[str]      # the groups the model used
    history_points: int
    spread: float            # robust sd of log residuals used for the band
    half_width: float        # log half-width after floor/ceiling
    trend_per_step: float    # multiplicative change per point of the series (e.g. 1.02 = +2%)
    shift: dict | None = None  # {"at", "ratio", "points", "accepted"} when the level was re-baselined
    unseen_holiday: str | None = None
    empty_is_normal: bool = False
    hard_ratio: float = 1.9
    notes: list[str] = field(default_factory=list)
    # expected empty: its own calendar's holiday closes it (`forecast`'s `own_calendar`); a total read as
    # its groups' sum counts it as no rows (total_of_groups)
    closed: bool = False
    # (baseline, lower, upper) of the weekday's open state, where its history holds it closed but open on a few
    # occasions (see _open_occasions): a partition inside it is one of those occasions, judged there
    open_state: tuple[float, float, float] | None = None


# a day around an estimated holiday this far (log) from its past run on every day it may be kept on, as well as
# KEPT_EVENT_Z standard errors, is an event of its own: the hard rule's ratio, which fails a day on any band (a
# season's or a new level's drift, a few tenths, stays evidence)
KEPT_EVENT_LOG = math.log(ModelParams.hard_ratio)


@dataclass
class Judgement:
    passed: bool
    reason: str  # "inside", "empty", "hard_ratio", "below_band", "above_band", "accepted"
    ratio: float | None


def _whole_week_cycle(points: Sequence[Point], step_days: float) -> int | None:
    """Steps in a year of 52 weeks for a series dated every whole number of weeks, two or more (26 of a
    fortnight, 13 of four weeks), whose gaps are whole weeks and mostly the cadence itself; else None."""
    if step_days < WHOLE_WEEK_MIN_STEP or step_days % WEEK_DAYS or YEAR_DAYS % step_days:
        return None
    gaps = [b.at - a.at for a, b in itertools.pairwise(points)]
    if any(g.seconds or g.days % WEEK_DAYS for g in gaps):
        return None
    if sum(1 for g in gaps if g.days == step_days) < WHOLE_WEEK_SHARE * len(gaps):
        return None
    return YEAR_DAYS // int(step_days)


def _own_year_length(at: Sequence[datetime], n: int) -> float:
    """Days a year of `n` partitions spans in this series (`at`: its keys in time order): the mean of its spans
    n keys long that miss no key (no gap over OWN_YEAR_GAP median gaps), else a calendar year. Twelve Hijri months
    span 354 or 355 days (a mean, not a median: over seven years a median's 355 drifts by five days), thirteen
    Ethiopian months 365 or 366, twelve calendar months 365 or 366: the series' own cycle, read from its
    partitions, not from its name."""
    gaps = [(b - a).days for a, b in itertools.pairwise(at)]
    if len(gaps) < n:
        return YEAR_LENGTH
    typical = median(gaps)
    whole = [g <= OWN_YEAR_GAP * typical for g in gaps]
    spans = [(at[i + n] - at[i]).days for i in range(len(at) - n) if all(whole[i:i + n])]
    return float(np.mean(spans)) if spans else YEAR_LENGTH


def _year_by_position(points: Sequence[Point], target: datetime
                      ) -> tuple[int, dict[datetime, int], dict[datetime, float], float] | None:
    """A year of partitions that are no calendar months (the thirteen Ethiopian months, a fiscal calendar's
    periods not dated every whole week): (n, position, length, variance), where the series (`points`, every partition in
    time order, empty ones too, then `target`) has n partitions a year (n places of the year, see below), each key
    `POSITION_YEAR_SHARE` of the time a year (`POSITION_YEAR_SLACK` days either side) after another, and n is no divisor of
    twelve (months, quarters, half-years are read by their months as before) unless its own year is no calendar
    year (`_own_year_length`: twelve lunar months make 354 days, a Hijri month's twin is twelve back, not the
    Gregorian month it starts in). `position`: each key's place in its
    year counted back from the target's (0), its day of the year's (`POSITION_PLACE_GAP`); `length`: the log of the days its span holds (to the next key) over the
    series' median gap, the target's the mean of its past places' (a Pagume of five days or six, not yet ended), and
    the variance of those past places' (the target's days are uncertain by as much). Read by the calendar's months,
    Pagume and the Meskerem after it are both September's; else None."""
    at = [q.at for q in points] + [target]
    if len(at) < 3 or any(m.hour or m.minute or m.second for m in at):
        return None
    n = round(YEAR_LENGTH / ((at[-1] - at[0]).days / (len(at) - 1)))
    if n < 2 or len(at) <= 2 * n:
        return None
    year = _own_year_length(at, n)
    if MONTHS % n == 0 and abs(year - YEAR_LENGTH) <= POSITION_YEAR_SLACK:
        return None
    # (each key a year after another, whatever lies between: a missing key misses one year back, not n)
    later = [m for m in at if (m - at[0]).days > year + POSITION_YEAR_SLACK]
    year_back = [any(abs((m - k).days - year) <= POSITION_YEAR_SLACK for k in at) for m in later]
    if not later or sum(year_back) < POSITION_YEAR_SHARE * len(year_back):
        return None
    # (a place is its keys' day of the year, counted from the target's: a partition excluded or never loaded
    # leaves a gap, not a misplaced year)
    phase = {m: (m - target).days % year for m in at}
    phase = {m: v - year if v > year - POSITION_YEAR_SLACK else v for m, v in phase.items()}
    ranks, rank, last = {}, -1, -math.inf
    for v in sorted(set(phase.values())):
        rank, last = rank + (v - last > POSITION_PLACE_GAP), v
        ranks[v] = rank
    if rank + 1 != n:
        return None
    position = {m: (ranks[phase[target]] - ranks[v]) % n for m, v in phase.items()}
    gaps = [(b - a).days for a, b in itertools.pairwise(at)]
    typical = median(gaps)
    # (a span reaching past a missing key holds two partitions' days: its own place's are read from the others)
    spans = {a: math.log(g / typical) for a, b, g in zip(at, at[1:], gaps) if position[b] == (position[a] - 1) % n}
    places: dict[int, list[float]] = defaultdict(list)
    for m, v in spans.items():
        places[position[m]].append(v)
    if len(places) != n:
        return None
    length = {m: spans.get(m, float(np.mean(places[position[m]]))) for m in at}
    return n, position, length, float(np.var(places[0]))


def _span_days(step_days: float, grain: Grain) -> int:
    """Days a partition covers: one, or a week for a weekly series (month-end series stay one day:
    their partition is the closing day)."""
    return 7 if grain == "day" and 6 <= step_days <= 8 else 1


def _step_days(points: Sequence[Point]) -> float:
    if len(points) < 2:
        return 1.0
    gaps = [(b.at - a.at).total_seconds() / 86400 for a, b in itertools.pairwise(points)]
    return max(median(gaps), 1 / 24)


def _cycle(step_days: float, grain: Grain) -> int:
    """Points per seasonal cycle: a week of days or hours, a year of month-ends, a year of weeks."""
    if grain == "hour" or step_days < 0.5:
        return 168
    if step_days < 1.5:
        return 7
    if step_days < 10:
        return 52
    return 12


def forecast(history: Sequence[Point], target: datetime, *, grain: Grain = "day",
             calendar_: HolidayCalendar | None = None, compare_by: Sequence[str] | None = None,
             params: ModelParams | None = None, timezone: str | None = None,
             own_calendar: bool = False, week_dated_on: WeekDatedOn | None = None) -> Forecast:
    """Expected value and band for `target` from the points before it (any order, zeros allowed).
    `timezone`: an hourly series' points and target are UTC hours, grouped by the hour, weekday and
    holiday of that zone (a daily series' days are already the zone's days: no conversion).
    `own_calendar`: `calendar_` was configured for this series as its market's own (a grouped check's
    `group_holidays`: a market in another country), so the series closes on its holidays unless its
    history shows one of them open.
    A weekly series dated on each week's last day (`week_dated_on` "last_day", as its owner declares it; unset,
    as its holiday weeks show it, see _week_ends_on_key) is read as the seven days to each date: every point
    moves to its week's first day, and back in the answer. A declaration is read on weekly series only."""
    cal = calendar_ or HolidayCalendar()
    past = sorted((q for q in history if q.at < target), key=lambda q: q.at)
    shut = _shut_by_accepted_shift(past)
    if shut is not None:
        return _shut_forecast(shut, len(past), params or ModelParams())
    unlaunched = _not_launched(past)
    if unlaunched is not None:
        return _shut_forecast(unlaunched, len(past), params or ModelParams(), why="not launched")
    off = _off_its_row_days(past, target, grain, cal)
    if off is not None:
        return _off_days_forecast(off, target, len(past), params or ModelParams())
    keys = _month_day_keys([q.at for q in past], target) if grain == "day" else None
    if keys is not None:
        return _forecast_per_day(history, target, keys, calendar_=calendar_, compare_by=compare_by, params=params,
                                 timezone=timezone, own_calendar=own_calendar)
    back = timedelta(days=WEEK_DAYS - 1)
    if grain == "day" and _dated_on_last_day(past, cal, week_dated_on):
        fc = _forecast([replace(q, at=q.at - back) for q in history], target - back, grain=grain, calendar_=calendar_,
                       compare_by=compare_by, params=params, timezone=timezone, own_calendar=own_calendar)
        if fc.shift and fc.shift.get("at"):
            fc.shift = {**fc.shift, "at": (datetime.fromisoformat(fc.shift["at"]) + back).isoformat()}
        fc.notes.append("a week dated on its last day (the check's week_dated_on): read as the seven days to each date"
                        if week_dated_on else
                        "a week dated on its last day: its holiday weeks show the seven days to each date, read so")
        return _with_season_phase(fc, past, target, params or ModelParams(), cal)
    fc = _forecast(history, target, grain=grain, calendar_=calendar_, compare_by=compare_by, params=params,
                   timezone=timezone, own_calendar=own_calendar)
    if grain == "hour" and compare_by is None:
        own = _season_own_hours(past, target, cal, timezone, fc, params or ModelParams())
        if own is not None:
            return own
        fc = _with_hour_share_turned(fc, past, target, cal, timezone, params or ModelParams())
    if grain != "day" or compare_by is not None:
        return fc
    fc = _with_carried_file(fc, past, target, cal)
    fc = _with_year_back_band(fc, past, target, params or ModelParams(), cal)
    fc = _with_episode_year_ended(fc, past, target, calendar_=calendar_, params=params, own_calendar=own_calendar)
    return _with_season_phase(fc, past, target, params or ModelParams(), cal)


def _episode_points(x: Sequence[float], per_year: int, far: float) -> list[bool]:
    """Points of a regular series of `per_year` points a year (logs) this far or further from their season's level
    (each position of the year's median, on the median year-over-year growth): a closure's quarters at x0.05, a
    cyclone's x0.4, read as episodes, not as the series' noise. The medians hold while fewer than half of each
    position's years are in one (two years' closure in eight)."""
    n = len(x)
    growth = float(np.median([x[i] - x[i - per_year] for i in range(per_year, n)])) / per_year
    flat = [v - growth * i for i, v in enumerate(x)]
    season = {k: float(np.median(flat[k::per_year])) for k in range(per_year)}
    return [abs(v - season[i % per_year]) >= far for i, v in enumerate(flat)]


def _year_back_band(pts: Sequence[Point], target: datetime, p: ModelParams
                    ) -> tuple[float, float, float, str] | None:
    """A series of a few partitions a year (YEAR_BACK_FEW_PER_YEAR at most: quarters) read as its partition a year
    back times the year-over-year growth of its latest two years: (log baseline, spread, half-width, note), or None.
    With one point a quarter the level window and one-step errors cross the seasons and any episode in the history
    (a closure's two years), and the band sits at the ceiling; the same quarter a year back carries its season, and
    its year-over-year errors say how steady the growth is. The spread is the MAD of those errors about the growth,
    from pairs clean of episodes (`_episode_points`, at the hard ratio) and of accepted shifts (an accepted shift's
    size is read on the pairs across it). None: too few clean pairs (YEAR_BACK_MIN_PAIRS), an irregular series, a
    level moved within the year (a step not accepted), or a partition a year back that is itself odd among its own
    years back (a storm's quarter: no base for the next year's)."""
    if not pts or any(q.value <= 0 for q in pts):
        return None
    step = _step_days(pts)
    per_year = round(YEAR_LENGTH / step)
    if not 1 <= per_year <= YEAR_BACK_FEW_PER_YEAR or len(pts) < 3 * per_year:
        return None
    gaps = [(b.at - a.at).days for a, b in itertools.pairwise([*pts, Point(target, 1.0)])]
    if any(abs(g - step) > YEAR_BACK_GAP_SHARE * step for g in gaps):
        return None
    x = [math.log(q.value) for q in pts]
    episode = _episode_points(x, per_year, math.log(p.hard_ratio))
    segment = list(itertools.accumulate(1 if q.accepted and q.shift else 0 for q in pts))
    back = len(x) - per_year  # the target's partition a year back
    if episode[back]:
        return None
    clean = [i for i in range(per_year, len(x)) if not episode[i] and not episode[i - per_year]]
    same = [i for i in clean if segment[i] == segment[i - per_year]]
    if len(same) < YEAR_BACK_MIN_PAIRS:
        return None
    growth = float(np.median([x[i] - x[i - per_year] for i in same[-2 * per_year:]]))
    errors = [x[i] - x[i - per_year] - growth for i in same]
    shift, across = 0.0, []
    if segment[back] != segment[-1]:
        across = [x[i] - x[i - per_year] - growth for i in clean
                  if segment[i] == segment[-1] and segment[i - per_year] != segment[-1]]
        if not across:
            return None
        shift = float(np.median(across))
    # (the growth's and the shift's own uncertainty: a median of their errors each)
    spread = _year_back_spread(errors, len(across))
    # the latest STEP_RUN - 1 partitions off their year back on one side, each STEP_RUN_Z spreads (a step not
    # accepted, a new trend): the target may be the run's next, and a year back does not hold the new level yet
    latest = range(len(x) - (STEP_RUN - 1), len(x))
    if any(episode[i] or episode[i - per_year] for i in latest):
        return None
    moved = [x[i] - x[i - per_year] - growth - (shift if segment[i] != segment[i - per_year] else 0.0) for i in latest]
    if all(abs(m) > STEP_RUN_Z * spread for m in moved) and len({m > 0 for m in moved}) == 1:
        return None
    # nor on a partition a year back that was itself that far off its own years back, two at least (a storm's
    # quarter at x0.85, within the hard ratio): it is no base for the next year's (one year back may be the odd one)
    own = [x[back - k * per_year] + k * growth for k in range(1, YEAR_BACK_YEARS + 1)
           if back - k * per_year >= 0 and not episode[back - k * per_year]
           and segment[back - k * per_year] == segment[back]]
    if len(own) >= 2 and abs(x[back] - float(np.median(own))) > YEAR_BACK_Z * spread:
        return None
    h = p.half_width(spread)
    note = (f"a series of {per_year} partitions a year read a year back: x{math.exp(growth):.3f} a year"
            + (f", x{math.exp(shift):.3f} for the accepted shift since" if shift else "")
            + f", spread {spread:.3f} from {len(errors)} year-over-year errors"
            + (f" (the {sum(episode)} partition(s) of episodes left out)" if any(episode) else ""))
    return x[back] + growth + shift, spread, h, note


def _weekday_place(day: date, from_end: bool) -> int:
    """The place of `day` among its month's days of its weekday: 0 for the first (or, `from_end`, the last), 1 for
    the next..."""
    return (calendar.monthrange(day.year, day.month)[1] - day.day if from_end else day.day - 1) // WEEK_DAYS


def _next_weekday_key(keys: Sequence[date]) -> date | None:
    """The key after the last of `keys` (in time order) for a series keyed once a month on one weekday at one place
    among its month's days of that weekday (each month's last Tuesday, its first Monday): its partitions hold four or
    five weeks, and the next one's start is known before it comes. None where WEEKDAY_KEY_SHARE of the keys at least
    do not follow one such rule (a calendar month's first or last day falls on any weekday; month-ends too)."""
    if len(keys) < 3:
        return None
    months = [k.year * MONTHS + k.month for k in keys]
    if sum(b - a == 1 for a, b in itertools.pairwise(months)) < WEEKDAY_KEY_SHARE * (len(keys) - 1):
        return None
    weekday, on_it = Counter(k.weekday() for k in keys).most_common(1)[0]
    if on_it < WEEKDAY_KEY_SHARE * len(keys):
        return None
    # (the last Tuesday is the fifth in some months, the fourth in others: counted from the month's end it is one place)
    from_end = max((True, False), key=lambda e: Counter(_weekday_place(k, e) for k in keys).most_common(1)[0][1])
    place, held = Counter(_weekday_place(k, from_end) for k in keys).most_common(1)[0]
    if held < WEEKDAY_KEY_SHARE * len(keys):
        return None
    year, month = divmod(months[-1], MONTHS)
    year, month = (year, month + 1) if month < MONTHS else (year + 1, 1)
    same = [d for d in _days_of_month(year, month) if d.weekday() == weekday]
    return (same[::-1] if from_end else same)[min(place, len(same) - 1)]


def _year_back_spread(errors: Sequence[float], across: int = 0) -> float:
    """A year-back reading's spread: the robust sd of its year-over-year errors about the growth, widened for the
    growth's own uncertainty (a median of those errors) and, with `across` pairs across an accepted shift, the
    shift's (a median of those)."""
    return MAD_SCALE * float(np.median(np.abs(errors))) * math.sqrt(1 + 1 / len(errors) + (1 / across if across else 0.0))


def _year_back_by_days(pts: Sequence[Point], target: datetime, p: ModelParams
                       ) -> tuple[float, float, float, str] | None:
    """A series of partitions of unequal lengths keyed once a month on one weekday (`_next_weekday_key`: billing cycles
    from each month's last Tuesday, 28 or 35 days) read by the days it holds a year back: each day of a partition at
    the daily rate of its day 52 weeks before (the rate of the partitions then, interpolated between their middles: a
    heating season's ramp inside a cycle), times the year-over-year growth of the latest two years: (log baseline,
    spread, half-width, note), or None. Its keys are no calendar months (a cycle on the 24th is no month's end) and
    five weeks hold a quarter more than four, so neither a month of the year nor the last few cycles read its season.
    The spread is read as `_year_back_band` reads it, from pairs clean of episodes (at the hard ratio) and of accepted
    shifts; an accepted shift's size from the pairs across it, the days a year back before it lifted by as much. A
    target whose days a year back were an odd partition's (`_odd_year_back`: a cold snap in no calendar) reads its
    days two years back. None with too few clean pairs, a level moved within the year (a step not accepted), or a
    target whose days a year back are not all held by clean partitions."""
    if len(pts) < 3 or any(q.value <= 0 or q.at.hour or q.at.minute or q.at.second for q in pts) or target.hour:
        return None
    keys = [q.at.date() for q in pts] + [target.date()]
    end = _next_weekday_key(keys)
    if end is None:
        return None
    starts, ends = keys, [*keys[1:], end]
    if any(b <= a for a, b in zip(starts, ends)):
        return None
    rate = np.array([q.value / (b - a).days for q, a, b in zip(pts, starts, ends)])
    middles = np.array([a.toordinal() + (b - a).days / 2 for _, a, b in zip(pts, starts, ends)])
    segment = list(itertools.accumulate(1 if q.accepted and q.shift else 0 for q in pts))

    def base(i: int, rates: np.ndarray, years: int = 1) -> tuple[float, set[int]] | None:
        """Partition i's days read `years` years back: their sum, and the partitions whose rates it read."""
        days = np.arange(starts[i].toordinal(), ends[i].toordinal()) - years * YEAR_DAYS + 0.5
        if days[0] < starts[0].toordinal():
            return None
        after = np.searchsorted(middles, days)
        held = {int(k) for k in np.clip(np.concatenate([after - 1, after]), 0, len(pts) - 1)}
        return float(np.sum(np.interp(days, middles, rates))), held

    x = [math.log(q.value) for q in pts]
    bases = {i: b for i in range(len(pts)) if (b := base(i, rate)) is not None}
    target_base = base(len(pts), rate)
    if target_base is None:
        return None
    ratio = {i: x[i] - math.log(b) for i, (b, _) in bases.items()}
    same = [i for i, (_, held) in bases.items() if {segment[j] for j in held} == {segment[i]}]
    if len(same) < YEAR_BACK_MIN_PAIRS:
        return None
    centre = float(np.median([ratio[i] for i in same]))
    episode = {i for i in same if abs(ratio[i] - centre) >= math.log(p.hard_ratio)}
    # (a partition read against an episode a year back is as far off: its pair is no clean one either)
    odd = {j for i in episode for j in [i, *bases[i][1]]}
    clean = [i for i in same if i not in episode]
    if len(clean) < YEAR_BACK_MIN_PAIRS or target_base[1] & odd:
        return None
    growth = float(np.median([ratio[i] for i in clean[-2 * MONTHS:]]))
    errors = [ratio[i] - growth for i in clean]
    # (pairs of the latest level read against days a year back wholly before it: an accepted shift's size)
    across_at = [i for i, (_, held) in bases.items()
                 if segment[i] == segment[-1] and all(segment[j] != segment[-1] for j in held)]
    shift = float(np.median([ratio[i] - growth for i in across_at])) if across_at else 0.0
    lifted = rate * np.array([math.exp(shift) if g != segment[-1] else 1.0 for g in segment])
    target_base = base(len(pts), lifted)
    if target_base is None:
        return None
    spread = _year_back_spread(errors)
    # (each partition's year-over-year error, those of the latest level against days before it less the shift)
    deviation = {i: ratio[i] - growth for i in same} | {i: ratio[i] - growth - shift for i in across_at}
    years = 1

    def two_years(j: int) -> tuple[float, set[int]] | None:
        if segment[j] == segment[-1]:
            return base(j, lifted, 2)
        two = base(j, rate, 2)
        return two if two is not None and {segment[k] for k in two[1]} == {segment[j]} else None

    h = p.half_width(spread)
    # (a pair across the shift is read against the shift's median too: as uncertain as the band across it)
    h_across = min(max(p.k * spread * math.sqrt(1 + 1 / len(across_at) / (1 + 1 / len(errors))), p.floor),
                   p.ceiling) if across_at else h
    far = {i: h_across if i in across_at else h for i in deviation}

    def odd_base(held: set[int]) -> bool:
        return _odd_year_back(held, deviation, two_years, x, growth, far)

    if odd_base(target_base[1]):
        # (a cold snap's cycle a year back, in no calendar, outside the band it had: the target reads its days two
        # years back, where those are no odd ones themselves)
        two = base(len(pts), lifted, 2)
        if two is None or any(abs(deviation[j]) > far[j] for j in two[1] if j in deviation):
            return None
        target_base, years = two, 2
    crossing = any(segment[j] != segment[-1] for j in target_base[1])
    if crossing and not across_at:
        return None
    if crossing:
        # (the shift's own uncertainty: a median of its pairs)
        spread *= math.sqrt((1 + 1 / len(errors) + 1 / len(across_at)) / (1 + 1 / len(errors)))
        h = p.half_width(spread)
    # the latest STEP_RUN - 1 partitions off their year back on one side (a step not accepted, a new trend; not
    # those whose year back was an odd one)
    latest = [i for i in range(len(pts) - (STEP_RUN - 1), len(pts)) if i in same and not odd_base(bases[i][1])]
    if any(i in episode for i in latest):
        return None
    moved = [ratio[i] - growth for i in latest]
    if len(moved) == STEP_RUN - 1 and all(abs(m) > STEP_RUN_Z * spread for m in moved) and len({m > 0 for m in moved}) == 1:
        return None
    note = (f"partitions keyed on one weekday a month read by their days {'two years' if years == 2 else 'a year'} "
            f"back ({(end - target.date()).days} "
            f"days to {end}): x{math.exp(growth):.3f} a year"
            + (f", x{math.exp(shift):.3f} for the accepted shift since" if crossing else "")
            + f", spread {spread:.3f} from {len(errors)} year-over-year errors")
    return math.log(target_base[0]) + years * growth, spread, h, note


def _odd_year_back(held: set[int], deviation: Mapping[int, float], two_years: Callable[[int], tuple[float, set[int]] | None],
                   x: Sequence[float], growth: float, far: Mapping[int, float]) -> bool:
    """Whether a partition the target reads a year back (`held`) was itself an odd one (a cold snap's cycle in no
    calendar): off its own year back by more than `far` (its band's half-width: it would have failed; `deviation`:
    each partition's log ratio to its days a year back less the growth) and off its days two years back
    (`two_years`) as much, so the odd one is it, not the year before it."""
    for j in held:
        if j not in deviation or abs(deviation[j]) <= far[j]:
            continue
        two = two_years(j)
        if two is not None and abs(x[j] - math.log(two[0]) - 2 * growth) > far[j]:
            return True
    return False


def _with_year_back_band(fc: Forecast, past: Sequence[Point], target: datetime, p: ModelParams,
                         cal: HolidayCalendar | None = None) -> Forecast:
    """`fc`, or its year-back reading (`_year_back_band`, on `past`: the points before the target in time order; else,
    for partitions keyed on one weekday a month, `_year_back_by_days`) where that band is narrower by `dense_gain` (as
    a dense group earns its place: a reading barely narrower, or at the ceiling too, only trades one baseline for
    another)."""
    if fc.closed or fc.empty_is_normal or fc.open_state is not None or fc.unseen_holiday:
        return fc
    read = _year_back_band(past, target, p) or _year_back_by_days(past, target, p)
    if read is None or read[2] > (1 - p.dense_gain) * min(fc.half_width, p.ceiling):
        # (a group closed for a season every year, where its past years read it closer than its level: both may sit
        # at the ceiling, so their spreads are compared)
        read = _season_year_back(past, target, p, cal or HolidayCalendar())
        if read is None or read[1] > (1 - p.dense_gain) * fc.spread:
            return fc
    log_baseline, spread, h, note = read
    return _recentred(fc, log_baseline, spread, h, note, p)


def _recentred(fc: Forecast, log_baseline: float, spread: float, h: float, note: str, p: ModelParams) -> Forecast:
    """`fc` read at another centre (`log_baseline`) with that reading's spread and half-width: the band around it,
    under the hard rule, never inside the configured ratios."""
    baseline = math.exp(log_baseline)
    lower, upper = baseline * math.exp(-h), min(baseline * math.exp(h), baseline * fc.hard_ratio)
    if p.lower_ratio is not None:
        lower = min(lower, baseline * p.lower_ratio)
    if p.upper_ratio is not None:
        upper = max(upper, baseline * p.upper_ratio)
    return replace(fc, baseline=baseline, lower=lower, upper=upper, spread=spread, half_width=h,
                   notes=[*fc.notes, note])


def _with_episode_year_ended(fc: Forecast, past: Sequence[Point], target: datetime, *,
                             calendar_: HolidayCalendar | None, params: ModelParams | None,
                             own_calendar: bool) -> Forecast:
    """`fc`, its band reaching on the episode's far side the band of the history read without a year-long episode
    that the target may end (see _episode_year_ends): a drought's crop year over, the first weeks back at the years
    before it pass, where the latest weeks' level alone reads them as a drop of the drought's size. The band moves
    no further than the episode's size; the baseline stays the latest level's, and a week at neither level fails."""
    if fc.closed or fc.empty_is_normal or fc.open_state is not None or round(_step_days(past)) != WEEK_DAYS:
        return fc
    ended = _episode_year_ends(past, calendar_ or HolidayCalendar())
    if ended is None:
        return fc
    moved, size = ended
    alt = _forecast(moved, target, calendar_=calendar_, params=params, own_calendar=own_calendar)
    # (no further than the episode's size: the reading without it is read once, on a year's evidence)
    reach = math.exp(abs(size))
    lower, upper = (min(fc.lower, max(alt.lower, fc.lower / reach)), fc.upper) if size > 0 \
        else (fc.lower, max(fc.upper, min(alt.upper, fc.upper * reach)))
    note = (f"a year-long episode (x{math.exp(size):.2f} on its year back) may end at its anniversary: the band"
            f" reaches the years before it's [{alt.lower:.1f}, {alt.upper:.1f}]")
    return replace(fc, lower=lower, upper=upper, notes=[*fc.notes, note])


# a weekly season whose timing moves between years (a harvest after the rains, a tourist season with the snow): see
# _season_phase
SEASON_PHASE_MAX_LAG = 8  # weeks a season's timing may move between years (a harvest's start with the rains' end)
SEASON_PHASE_WINDOW = 26  # the latest weeks aligned with each past year's: half a year, so the edge of a season of
#                           up to half a year stays in view through it
SEASON_PHASE_MARGIN = 3.0  # the aligned weeks' mismatch (the sd of the log differences) at most a third of the
#                            calendar's (lag 0) and of the lags' median: nine times the variance, which noise over 26
#                            weeks gives by chance far less than once in a thousand; a lag barely better is no phase
SEASON_PHASE_TRIM = 1  # the largest differences left out of a lag's mismatch: a week's incident in either year (a
#                        scale unrecorded) neither sets nor hides a phase, while a misaligned edge moves several weeks
SEASON_PHASE_YEARS = 2  # past years that must each align (the season seen twice): one year's lag is one occasion
SEASON_PHASE_LEVEL_WEEKS = 4  # the latest weeks this year's level against the aligned past year is read from
YEAR_WEEKS = 52
# a holiday's week in a season read at this year's phase (see _phase_holiday_effect): the past weeks holding the same
# holidays its effect is read from (one past week is an incident as much as a holiday), and how far from each the
# plain weeks it is read against may lie (a holiday week next to another one: Christmas's, then New Year's)
SEASON_PHASE_HOLIDAY_WEEKS = 2
SEASON_PHASE_HOLIDAY_REACH = 2
# a past holiday week whose weeks either side differ by more than the hard rule's ratio sits on the season's edge (the
# harvest's last week before it, the off-season after it): their mean is no reading of the week without its holidays
SEASON_PHASE_HOLIDAY_EDGE = math.log(ModelParams.hard_ratio)
# past years' readings of the target further apart than the hard rule's ratio: one year's aligned week is an incident
# (a scale unrecorded) or a holiday misread, and two years cannot say which: the phase reads nothing
SEASON_PHASE_DISAGREE = math.log(ModelParams.hard_ratio)


def _holiday_week(at: datetime, cal: HolidayCalendar) -> bool:
    """Whether the seven days from `at` hold a holiday of the calendar or a declared season's day (Ramadan: read by
    its own rules, never a phase of its own)."""
    days = [at.date() + timedelta(days=i) for i in range(WEEK_DAYS)]
    return any(cal.name(d) or declared_season(d, cal) for d in days)


def _trimmed_sd(values: Sequence[float]) -> float:
    """The sd of `values` without the SEASON_PHASE_TRIM furthest from their median."""
    v = np.asarray(values, dtype=float)
    keep = np.argsort(np.abs(v - np.median(v)))[:max(len(v) - SEASON_PHASE_TRIM, 2)]
    return float(np.std(v[keep]))


def _week_holiday_names(at: datetime, cal: HolidayCalendar) -> tuple[str, ...] | None:
    """The names of the calendar's holidays on the seven days from `at`, sorted (one key for every week holding the
    same holidays, whatever their weekday), or None where a day falls in a declared season (Ramadan: its own rules)."""
    days = [at.date() + timedelta(days=i) for i in range(WEEK_DAYS)]
    if any(declared_season(d, cal) for d in days):
        return None
    return tuple(sorted({n for d in days if (n := cal.name(d))}))


def _phase_holiday_effect(logs: Mapping[datetime, float], at: datetime,
                          names_of: Callable[[datetime], tuple[str, ...] | None],
                          held: Callable[[datetime], bool]) -> tuple[float, float] | None:
    """A holiday week's own effect on a weekly series whose season moves between years (`_season_phase`): (log
    effect, its sd), 0 for a week holding no holiday, or None. Where the season moves, neither the week of the year
    nor the level just before reads a holiday week (Christmas fell before the harvest one year, in its swing the
    next), so the effect is read where the season's phase cancels: each past week holding the same holidays (and no
    declared season's day) against the mean of the nearest weeks either side holding none (within
    SEASON_PHASE_HOLIDAY_REACH weeks, in the history), the median over SEASON_PHASE_HOLIDAY_WEEKS such weeks or
    more (one past week is an incident as much as a holiday); None where fewer, or where the week holds a declared
    season's day. `names_of` reads a week's holidays (_week_holiday_names on the calendar), `held` whether it holds
    any (_holiday_week)."""
    names = names_of(at)
    if names is None:
        return None
    if not names:
        return 0.0, 0.0
    week = timedelta(weeks=1)
    effects = []
    for past_at in sorted(logs):
        if past_at.weekday() != at.weekday() or not held(past_at) or names_of(past_at) != names:
            continue
        sides = [next((past_at + week * (sign * k) for k in range(1, SEASON_PHASE_HOLIDAY_REACH + 1)
                       if past_at + week * (sign * k) in logs and not held(past_at + week * (sign * k))), None)
                 for sign in (-1, 1)]
        if sides[0] is not None and sides[1] is not None \
                and abs(logs[sides[0]] - logs[sides[1]]) <= SEASON_PHASE_HOLIDAY_EDGE:
            effects.append(logs[past_at] - (logs[sides[0]] + logs[sides[1]]) / 2)
    if len(effects) < SEASON_PHASE_HOLIDAY_WEEKS:
        return None
    # (its sd: the past weeks' spread, and its whole size, as the weekdays its days fall on move it: Independence
    # Day on a weekend takes less of a week than on two working days)
    effect = float(median(effects))
    return effect, math.sqrt(float(np.var(effects)) + effect ** 2)


def _season_phase(past: Sequence[Point], target: datetime, cal: HolidayCalendar) -> tuple[float, float, str] | None:
    """A weekly series' season read at this year's phase, not at its week of the year: (log baseline, spread, note),
    or None. A season whose timing moves between years with the weather (a harvest that starts weeks apart with the
    rains' end, many times the off-season) is read by its week of the year a season late or early: its first weeks
    at the off-season's level, the weeks after its end at the season's. For each past year (52 weeks back, 104...,
    as far as the history holds this year's window at every lag), the lag within SEASON_PHASE_MAX_LAG weeks that
    best aligns the latest SEASON_PHASE_WINDOW weeks with that year's is the one whose log differences spread least
    (a level between the years cancels; SEASON_PHASE_TRIM trimmed: a week's incident; a week holding a holiday read
    without its holidays' effect, _phase_holiday_effect, and left out where the history does not read it or it holds
    a declared season's day, so neither Easter nor Ramadan sets the phase). A year's phase is earned where every
    lag two weeks or more from the best spreads SEASON_PHASE_MARGIN times more (an edge in the window fixes it; a
    flat window reads every lag alike). The reading is made only where every year is earned, SEASON_PHASE_YEARS or
    more, one at least two weeks off the calendar (a season that keeps its dates, school terms and holidays, aligns
    at lag 0 and is left to the week of the year; an edge moved by one week is _season_edge_moves's). The target is
    then each year's aligned week plus this year's level against it over the latest SEASON_PHASE_LEVEL_WEEKS weeks,
    averaged over the years, the holidays' effects out of the aligned weeks and the target's in (a holiday's week in
    a moving season: neither its week of the year nor the level before it reads it); the spread the aligned weeks'
    (pooled) with the years' disagreement and the holidays' effects' own; years further apart than
    SEASON_PHASE_DISAGREE (one year's incident on the aligned week) read nothing. A week whose holidays the history
    does not read (_phase_holiday_effect: None), the target or an aligned one, is left to the calendar's reading."""
    week = timedelta(weeks=1)
    logs = {q.at: math.log(q.value) for q in past if q.value > 0}
    holiday_weeks: dict[datetime, bool] = {}

    def held(at: datetime) -> bool:
        # (every lag of every year asks of the same weeks: each week's calendar is read once)
        if at not in holiday_weeks:
            holiday_weeks[at] = _holiday_week(at, cal)
        return holiday_weeks[at]

    effects: dict[datetime, tuple[float, float] | None] = {}
    week_names: dict[datetime, tuple[str, ...] | None] = {}

    def names_of(at: datetime) -> tuple[str, ...] | None:
        if at not in week_names:
            week_names[at] = _week_holiday_names(at, cal)
        return week_names[at]

    def effect(at: datetime) -> tuple[float, float] | None:
        # (a holiday's week, the target, a year's aligned one or one the years are aligned on, reads its holidays'
        # own effect, each week's once: _phase_holiday_effect)
        if at not in effects:
            effects[at] = _phase_holiday_effect(logs, at, names_of, held) if held(at) else (0.0, 0.0)
        return effects[at]

    def net(at: datetime) -> float | None:
        # (a week's log without its holidays' effect: None where the history does not read them)
        read = effect(at) if at in logs else None
        return None if read is None else logs[at] - read[0]

    recent = [target - week * i for i in range(SEASON_PHASE_WINDOW, 0, -1)]
    own = effect(target)
    if own is None or any(a not in logs for a in recent):
        return None
    plain = {a: v for a in recent if (v := net(a)) is not None}
    lags, centres, spreads, holiday_vars = [], [], [], [own[1] ** 2]
    for years in itertools.count(1):
        back = week * (YEAR_WEEKS * years)
        mismatch: dict[int, float] = {}
        for lag in range(-SEASON_PHASE_MAX_LAG, SEASON_PHASE_MAX_LAG + 1):
            pairs = [(a, a - back + week * lag) for a in plain]
            pairs = [(a, b) for a, b in pairs if not held(b) or net(b) is not None]
            if len(pairs) < len(plain) // 2 or any(b not in logs for _, b in pairs):
                continue
            mismatch[lag] = _trimmed_sd([plain[a] - was for a, b in pairs if (was := net(b)) is not None])
        if len(mismatch) < 2 * SEASON_PHASE_MAX_LAG + 1:
            break  # (the history no longer holds this year's window at every lag)
        best = min(mismatch, key=lambda lag: (mismatch[lag], abs(lag)))
        if SEASON_PHASE_MARGIN * mismatch[best] > min(m for lag, m in mismatch.items() if abs(lag - best) > 1):
            return None  # (no edge in the window fixes the phase: lags apart read it alike)
        lags.append(best)
        spreads.append(mismatch[best])
        aligned = target - back + week * best
        level = [v - was for a, v in reversed(plain.items()) if (was := net(a - back + week * best)) is not None]
        fix = effect(aligned) if aligned in logs else None
        if fix is None or not level:
            return None  # (every year reads the target, so one year's incident there shows as their disagreement)
        centres.append(logs[aligned] - fix[0] + median(level[:SEASON_PHASE_LEVEL_WEEKS]))
        holiday_vars.append(fix[1] ** 2)
    if len(lags) < SEASON_PHASE_YEARS or max(map(abs, lags)) <= 1 or max(centres) - min(centres) > SEASON_PHASE_DISAGREE:
        return None
    spread = math.sqrt(float(np.mean(np.square(spreads))) + float(np.var(centres)) + sum(holiday_vars))
    note = (f"a season whose timing moves between years: read at this year's phase, its past years' weeks "
            f"{', '.join(f'{-lag:+d}' for lag in lags)}w off the calendar's"
            + (f", this week's holidays x{math.exp(own[0]):.2f} (their past weeks against the weeks either side)"
               if own[0] else ""))
    return float(np.mean(centres)) + own[0], spread, note


def _with_season_phase(fc: Forecast, past: Sequence[Point], target: datetime, p: ModelParams,
                       cal: HolidayCalendar) -> Forecast:
    """`fc`, or the weekly season read at this year's phase (`_season_phase`) where it is earned."""
    if fc.closed or fc.empty_is_normal or fc.open_state is not None or round(_step_days(past)) != WEEK_DAYS:
        return fc
    read = _season_phase(past, target, cal)
    if read is None:
        return fc
    log_baseline, spread, note = read
    return _recentred(fc, log_baseline, spread, p.half_width(spread), note, p)


def declared_season(day: date, cal: HolidayCalendar) -> tuple[str, date] | None:
    """The declared season of many days `day` falls in and its first day: a configured season or break, or
    Ramadan (its last ten days too, one season) where the calendar holds Eid al-Fitr; None for none (a festival's
    days, a close's, Lunar New Year's weeks are named a day or a week at a time: no daily shape of their own)."""
    name, at = cal.season(day)
    if name in (RAMADAN, RAMADAN_LATE):
        return RAMADAN, date.fromordinal(at)
    if name and (name in cal.seasons or name in cal.breaks):
        return name, date.fromordinal(at)
    return None


def _count_floor(expected_rows: float) -> float:
    """The narrowest half-width (log) a count of `expected_rows` allows: it moves by whole rows, about one Poisson
    sd plus a row."""
    return math.log1p((math.sqrt(expected_rows) + 1) / expected_rows)


def _count_tails(expected_rows: float, raw_h: float, sparse: bool = False) -> tuple[float, float]:
    """The ratios a clean count of `expected_rows` reaches more than once in 1/COUNT_TAIL (Poisson) on each side,
    no further than the spread's own half-width `raw_h` (rows that arrive like clockwork are not Poisson); on a
    `sparse` count (`_sparse_count`) as far as the count's tails reach, the lower no lower than half a row (a band
    is a ratio: every count of a row or more passes where the tail reaches zero, an empty one is the empty rule's)."""
    if sparse:
        return (max(float(poisson.ppf(COUNT_TAIL, expected_rows)), 0.5) / expected_rows,
                float(poisson.isf(COUNT_TAIL, expected_rows)) / expected_rows)
    return (max(float(poisson.ppf(COUNT_TAIL, expected_rows)) / expected_rows, math.exp(-raw_h)),
            min(float(poisson.isf(COUNT_TAIL, expected_rows)) / expected_rows, math.exp(raw_h)))


def _sparse_count(expected_rows: float, zeros: Sequence[Point]) -> bool:
    """A partition of so few rows expected that a clean count of that size is empty more than once in 1/COUNT_TAIL
    (about nine rows or fewer), on a series whose counts have reached zero. Its fit reads the log of its positive
    counts only, which cannot see such a count's noise (an hour of 0-3 arrivals reads as 1s and 2s, a log spread of
    0.2, and a count of 5 against 1 expected read as a spike): its band is the count's own tails (`_count_tails`,
    not capped by that spread). An empty partition stays `_zero_by_counting`'s: read as a count at about seven rows
    expected it let a small group's missing rows pass (topups_tonga_hourly: nine of them, at 3-7 expected)."""
    return bool(zeros) and math.exp(-expected_rows) >= COUNT_TAIL


def _pooled_spread(cells: Mapping[tuple[int, int], Sequence[float]] | Mapping[int, Sequence[float]]) -> float | None:
    """A robust sd of one log count about its cell's mean beyond counting noise (a small hour's Poisson noise is
    its own, added back for the target's expected rows), pooled over the cells of two values or more (each
    deviation scaled for the mean it is taken from); None with fewer than SEASON_OWN_MIN_DEVIATIONS of them."""
    excess = []
    for xs in cells.values():
        if len(xs) >= 2:
            centre = median(xs)  # (a snowed-in day or a derby in a cell moves its mean, not its median)
            excess += [(MAD_SCALE * (x - centre)) ** 2 * len(xs) / (len(xs) - 1) - math.exp(-x) for x in xs]
    if len(excess) < SEASON_OWN_MIN_DEVIATIONS:
        return None
    return math.sqrt(max(float(np.median(excess)), 0.0))


def _season_own_hours(past: Sequence[Point], target: datetime, cal: HolidayCalendar, timezone: str | None,
                      fc: Forecast, p: ModelParams) -> Forecast | None:
    """A declared season that began inside an hourly series' history, none of its earlier occasions in it (four
    weeks of hours never hold last year's Ramadan): each of its hours reads as the same hour of its own earlier days
    of the same kind (working days, weekend days), not as the weeks before it: its nights out, its dead hour at
    sunset are its daily shape, not a new level each day. The band is the spread between its days' same hours, never
    narrower than the weeks before it showed week to week, and as uncertain as so few days make it. A kind of day
    the season has not shown yet (its first weekend) is read both ways, the ordinary reading and its other days'
    (moved by the weeks before it from theirs to this one), the band reaching both: what the owner expects of it is
    unknown. None on its first day (nothing of its own yet) or outside one."""
    here = local_hours([target], timezone)[0]
    season = declared_season(here.date(), cal)
    if season is None:
        return None  # (before the history's hours are converted: every hourly forecast passes here)
    name, first = season
    moments = local_hours([q.at for q in past], timezone)
    days = sorted({m.date() for m in moments})
    before = [d for d in days if d < first]
    if len(before) < SEASON_OWN_MIN_DAYS_BEFORE:
        return None
    if any(s is not None and s[0] == name and s[1] != first for s in (declared_season(d, cal) for d in before)):
        return None  # an earlier occasion in the history: the ordinary model reads it (a longer history's)
    # the season's own days start after an accepted shift inside it (the days before it were the old level)
    shifted = max((m.date() for q, m in zip(past, moments) if q.shift and first <= m.date() < here.date()),
                  default=first)
    ref_from = first - timedelta(days=WEEK_DAYS * SEASON_OWN_REF_WEEKS)
    ref_logs: dict[tuple[int, int], list[float]] = defaultdict(list)
    own: dict[tuple[date, int], float] = {}
    for q, m in zip(past, moments):
        d = m.date()
        if cal.name(d):
            continue
        if ref_from <= d < first:
            ref_logs[d.weekday(), m.hour].append(math.log(max(q.value, 0.5)))
        elif shifted <= d < here.date():
            own[d, m.hour] = math.log(max(q.value, 0.5))
    weekend = cal.is_weekend(here.date())
    own_days = sorted({d for d, _ in own})
    kind = [d for d in own_days if cal.is_weekend(d) == weekend]
    others = [d for d in own_days if cal.is_weekend(d) != weekend]
    base_spread = _pooled_spread(ref_logs) or fc.spread
    if kind:
        at_hour = [own[d, here.hour] for d in kind if (d, here.hour) in own]
        spread = max(_pooled_spread({hour: [own[d, hour] for d in kind if (d, hour) in own] for hour in range(24)})
                     or 0.0, base_spread)
    else:
        # the other days' same hour, moved by the weeks before it from their weekdays to the target's
        cell = (here.weekday(), here.hour)
        if cell not in ref_logs:
            return None
        at_hour = [own[d, here.hour] + median(ref_logs[cell]) - median(ref_logs[d.weekday(), here.hour])
                   for d in others if (d, here.hour) in own and (d.weekday(), here.hour) in ref_logs]
        spread = max(_pooled_spread({hour: [own[d, hour] for d in others if (d, hour) in own]
                                     for hour in range(24)}) or 0.0, base_spread)
    if not at_hour:
        return None
    log_pred = median(at_hour)
    expected_rows = math.exp(log_pred)
    spread = math.sqrt(spread ** 2 + 1 / expected_rows)
    raw_h = p.k * spread * math.sqrt(1 + 1 / len(at_hour))
    h = min(max(raw_h, p.floor, _count_floor(expected_rows)), p.ceiling)
    low, high = math.exp(-h), math.exp(h)
    if raw_h > p.ceiling:
        # (a small count's counting noise, past the ceiling, as far as the spread reaches: as the model's band)
        count_low, count_high = _count_tails(expected_rows, raw_h)
        low, high = min(low, count_low), max(high, count_high)
    hard_ratio = max(p.hard_ratio, high)
    baseline = expected_rows
    lower, upper = baseline * min(low, p.lower_ratio or 1.0), min(baseline * max(high, p.upper_ratio or 1.0),
                                                                  baseline * hard_ratio)
    what = "weekend " if weekend else "working "
    note = (f"{name} from {first.isoformat()}, no earlier occasion in the history: this hour reads as on its "
            f"{len(at_hour)} earlier {what}day(s), spread {spread:.3f}")
    if not kind:
        # its first day of this kind: the ordinary reading or its other days', the owner's expectation unknown
        lower, upper = min(lower, fc.lower), max(upper, fc.upper)
        baseline = math.sqrt(lower * upper)
        hard_ratio = max(hard_ratio, upper / baseline)
        note = (f"{name} from {first.isoformat()}, its first {what}day: read as an ordinary {what}day and as its "
                f"{len(at_hour)} other day(s) moved to this weekday, the band reaching both")
    return replace(fc, baseline=baseline, lower=lower, upper=upper, spread=spread, half_width=math.log(upper / baseline),
                   hard_ratio=hard_ratio, group=f"{name} {here.hour:02d}h", shift=None, notes=[*fc.notes, note])


def _hour_shares(past: Sequence[Point], target: datetime, cal: HolidayCalendar, timezone: str | None
                 ) -> tuple[int, list[float], list[float], list[float]]:
    """(the target's local hour, each earlier ordinary local day's share of that hour in date order: its log less the
    median log of the day's hours, the hour's rows on those days, and those days' levels: that median log). An
    ordinary day is one the calendar does not name, with rows in most of its hours (a day a step or a closure cut is
    no day's shape)."""
    here = local_hours([target], timezone)[0]
    days: dict[date, dict[int, float]] = defaultdict(dict)
    for q, m in zip(past, local_hours([q.at for q in past], timezone)):
        if m.date() < here.date() and not cal.name(m.date()):
            days[m.date()][m.hour] = q.value
    shares, rows, levels = [], [], []
    for d in sorted(days):
        hours = days[d]
        if here.hour not in hours or sum(v > 0 for v in hours.values()) < HOUR_TURN_DAY_HOURS:
            continue
        levels.append(median(math.log(max(v, 0.5)) for v in hours.values()))
        shares.append(math.log(max(hours[here.hour], 0.5)) - levels[-1])
        rows.append(hours[here.hour])
    return here.hour, shares, rows, levels


def _hour_share_turned(shares: Sequence[float], rows: Sequence[float]) -> int | None:
    """The latest days on which an hour's share of its day (`shares`, its `rows`, in date order) turned inside the
    history and held, else None: HOUR_TURN_MIN_DAYS or more (the longest such run), each off the median share of the
    days before them (HOUR_TURN_BEFORE_DAYS or more) on one side by HOUR_TURN_Z robust sds of those days' shares (at
    least the hour's counting noise on either side of the turn)."""
    best = None
    for n in range(HOUR_TURN_MIN_DAYS, len(shares) - HOUR_TURN_BEFORE_DAYS + 1):
        before, run = shares[:-n], shares[-n:]
        centre = median(before)
        noise = max(MAD_SCALE * mad(before), 1 / math.sqrt(max(median(rows[:-n]), 1.0)),
                    1 / math.sqrt(max(median(rows[-n:]), 1.0)))
        if all(s - centre > HOUR_TURN_Z * noise for s in run) or all(s - centre < -HOUR_TURN_Z * noise for s in run):
            best = n
    return best


def _level_held(levels: Sequence[float], reach: float) -> bool:
    """Whether days' levels (logs) each lie within `reach` of their median."""
    centre = median(levels)
    return all(abs(level - centre) <= reach for level in levels)


def _with_hour_share_turned(fc: Forecast, past: Sequence[Point], target: datetime, cal: HolidayCalendar,
                            timezone: str | None, p: ModelParams) -> Forecast:
    """`fc` read at its hour's rows on the latest days, where that hour's share of the day turned inside the history
    and held (see _hour_share_turned): the median of those days' same hour, the band as wide as the model's. A season
    in no calendar may end inside a history of a few weeks and take its hours' shape with it: a delivery app's Ramadan
    lifted its suhoor hours x2.5 and sank its iftar x0.4 on twenty of the history's 28 days; the hour effects, learned
    on every day, read the nights after it (the 01h at 0.35-0.67) and its dinners (18h-19h at 1.5-2.5x) as faults,
    every day. A step that scales every hour alike leaves the shares as they were; the turned days' level must have
    held (HOUR_TURN_LEVEL_SHARE): a surge's climb is its rules'. A fault at the target is no part of its history."""
    if fc.closed or fc.empty_is_normal or fc.open_state is not None:
        return fc
    hour, shares, rows, levels = _hour_shares(past, target, cal, timezone)
    n = _hour_share_turned(shares, rows)
    if n is None or not _level_held(levels[-n:], HOUR_TURN_LEVEL_SHARE * fc.half_width):
        return fc
    log_read = median(math.log(max(r, 0.5)) for r in rows[-n:])
    note = (f"the {hour:02d}h's share of the day turned on its latest {n} ordinary day(s): read as on those days, "
            f"x{math.exp(log_read) / fc.baseline:.2f} the model's reading")
    return _recentred(fc, log_read, fc.spread, fc.half_width, note, p)


def _dated_on_last_day(pts: Sequence[Point], cal: HolidayCalendar, declared: WeekDatedOn | None) -> bool:
    """Whether a series (`pts` in time order) is read as weeks dated on their last day: as its owner declared it,
    where it is weekly (a daily or monthly series has no week to date), else as its holiday weeks show it."""
    if declared is None:
        return _week_ends_on_key(pts, cal)
    return declared == "last_day" and 6 <= _step_days([q for q in pts if q.value > 0]) <= 8


def _month_day_keys(moments: Sequence[datetime], target: datetime) -> tuple[int, ...] | None:
    """The days of the month a series is keyed on, where it is keyed on the same few days of every month, two
    or more (half-months on the 1st and the 16th, "dekads" on the 1st, 11th and 21st: a partition definition on
    a cron such as "0 0 1,16 * *"); else None. Such partitions cover unequal spans (a half-month's second half
    is 13 to 16 days): read per day of the span (see _forecast_per_day). Each key must be a midnight on one of
    those days, no later than the 28th (a day every month has), and the next key after each, mostly
    (`WHOLE_WEEK_SHARE`), the next of those days, each day seen in two months at least and the target on one of
    them: a weekly or a daily series (a few weeks of days, 1st to 20th, would pass the rest) is none."""
    at = sorted(moments)
    if len(at) < MONTH_DAY_KEYS_MIN_POINTS or any(m.hour or m.minute or m.second for m in [*at, target]):
        return None
    seen = Counter(m.day for m in at)
    days = tuple(sorted(seen))
    if not 2 <= len(days) or days[-1] > MONTH_DAY_KEYS_LAST_DAY or target.day not in seen \
            or min(seen.values()) < 2 or _step_days([Point(m, 1.0) for m in at]) < 1.5:
        return None
    nexts = sum(1 for a, b in itertools.pairwise(at) if b == _next_month_day_key(a, days))
    return days if nexts >= WHOLE_WEEK_SHARE * (len(at) - 1) else None


def _next_month_day_key(at: datetime, days: Sequence[int]) -> datetime:
    """The key after `at` on a series keyed on `days` of every month (see _month_day_keys)."""
    later = [d for d in days if d > at.day]
    if later:
        return at.replace(day=later[0])
    return datetime(at.year + at.month // 12, at.month % 12 + 1, days[0])


def _span_middle(at: datetime, days: Sequence[int]) -> datetime:
    """The middle of the span a partition keyed on `days` of every month covers (see _month_day_keys)."""
    return at + (_next_month_day_key(at, days) - at) / 2


def _forecast_per_day(history: Sequence[Point], target: datetime, days: Sequence[int], *,
                      calendar_: HolidayCalendar | None, compare_by: Sequence[str] | None,
                      params: ModelParams | None, timezone: str | None, own_calendar: bool) -> Forecast:
    """`forecast` for a series keyed on the same few days of every month (`days`, see _month_day_keys): a
    partition holds the days up to the next key, 13 to 16 for a half-month, so its volume is read per day of its
    span (scaled to the average span, so the model's sizes stay the series' own) and the answer scaled back by
    the target's days. Read as partitions, February's second half (13 days of a 16-day cadence) looks a fifth
    short and every 31-day month's a fifteenth long, noise that hides both a season and a 35% drop. Where the
    history shows its days unlike (see _day_weights), a partition's days are weighed, not counted: a dekad
    holding three holidays is expected from the days it holds, and its key day is no holiday of its own."""
    average = MONTH_DAYS / len(days)

    def span(at: datetime) -> int:
        return (_next_month_day_key(at, days) - at).days

    weighed = _day_weights([q for q in history if q.at < target], days, calendar_ or HolidayCalendar())
    day_count: Callable[[datetime], float] = weighed or span
    per_day = [replace(q, value=q.value * average / day_count(q.at)) for q in history]
    if weighed is not None and calendar_ is not None:
        # (the holidays a partition holds are in its weighed days: its key day is no holiday of its own)
        calendar_ = replace(calendar_, country=None, dates={})
    fc = _forecast(per_day, target, grain="day", calendar_=calendar_, compare_by=compare_by, params=params,
                   timezone=timezone, own_calendar=own_calendar)
    scale = day_count(target) / average
    fc.baseline, fc.lower, fc.upper = fc.baseline * scale, fc.lower * scale, fc.upper * scale
    if fc.open_state is not None:
        fc.open_state = cast(tuple[float, float, float], tuple(v * scale for v in fc.open_state))
    fc.notes.append(f"partitions keyed on days {', '.join(map(str, days))} of each month, read per day of their "
                    f"span: this one holds {span(target)} days")
    if weighed is not None:
        fc.notes.append(f"... each day weighed by its weekday, its holiday and the partition's place in the month, as "
                        f"the history's partitions show them: this one counts as {day_count(target):.1f} days")
    return fc


def _span_day_kinds(at: datetime, days: Sequence[int], cal: HolidayCalendar) -> np.ndarray:
    """How many days of each kind the partition keyed on `at` holds: Monday to Sunday, then the holidays of
    `cal` (a holiday is its own kind, whatever its weekday)."""
    counts = np.zeros(WEEK_DAYS + 1)
    first = at.date()
    for k in range((_next_month_day_key(at, days) - at).days):
        day = first + timedelta(days=k)
        counts[WEEK_DAYS if cal.name(day) else day.weekday()] += 1
    return counts


def _day_weights(history: Sequence[Point], days: Sequence[int], cal: HolidayCalendar
                 ) -> Callable[[datetime], float] | None:
    """The days a partition of a series keyed on `days` of every month counts as (see _forecast_per_day), where
    its history shows its days are unlike: each weekday and a holiday of its calendar its own weight, and each
    place in the month (the first dekad, the last half-month) a factor, so a dekad holding Nauryz's three days,
    a half-month with three Sundays, a month's closing dekad are expected from the days they hold; else None.
    Read as the partitions' totals only: the weights are those under which the per-day values (a partition's
    value over its weighed days) run smoothest, each against the mean of the partitions either side (a season's
    ramp is a line there), robustly (a lost load, an accepted step). A weekday's weight is against a Monday's, a
    place's factor against the month's first; each stays 1 where fewer than `DAY_KIND_MIN_PARTITIONS` partitions
    hold its kind or it does not stand `DAY_WEIGHT_Z` standard errors from 1 (a weekday's count moves by one day
    in ten: eight free weights fitted a flat series' noise), and the rest are kept only where they cut that
    spread by `DAY_WEIGHTS_GAIN` after paying for their degrees of freedom."""
    pts = sorted((q for q in history if q.value > 0), key=lambda q: q.at)
    if len(pts) < MONTH_DAY_KEYS_MIN_POINTS:
        return None
    kinds = np.array([_span_day_kinds(q.at, days, cal) for q in pts])
    places = np.array([days.index(q.at.day) for q in pts])
    seen = [k for k in range(1, WEEK_DAYS + 1) if np.count_nonzero(kinds[:, k]) >= DAY_KIND_MIN_PARTITIONS]
    triples = [i for i in range(1, len(pts) - 1)
               if _next_month_day_key(pts[i - 1].at, days) == pts[i].at
               and _next_month_day_key(pts[i].at, days) == pts[i + 1].at]
    free = len(seen) + len(days) - 1
    if not np.count_nonzero(kinds[:, 0]) or len(triples) < 4 * free:
        return None
    logs = np.log([q.value for q in pts])
    middle = np.array(triples)

    def unpack(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        weights = np.ones(WEEK_DAYS + 1)
        weights[seen] = np.exp(theta[:len(seen)])
        return weights, np.concatenate([[0.0], theta[len(seen):]])

    def smoothness(theta: np.ndarray) -> np.ndarray:
        weights, place = unpack(theta)
        y = logs - np.log(kinds @ weights) - place[places]
        return y[middle] - (y[middle - 1] + y[middle + 1]) / 2

    plain = np.zeros(free)
    scale = mad(list(smoothness(plain))) * MAD_SCALE or 1e-6
    low, high = np.log(DAY_WEIGHT_BOUNDS)
    lows = np.array([low] * len(seen) + [-np.inf] * (len(days) - 1))
    highs = np.array([high] * len(seen) + [np.inf] * (len(days) - 1))
    active = list(range(free))
    while active:
        # (each weight earns itself: the least distinct one goes, and the rest are fitted again without it)
        def fitted_on(sub: np.ndarray, on: list[int] = active) -> np.ndarray:
            theta = np.zeros(free)
            theta[on] = sub
            return smoothness(theta)
        fit = least_squares(fitted_on, np.zeros(len(active)), bounds=(lows[active], highs[active]), loss="soft_l1",
                            f_scale=scale)
        sd = mad(list(fit.fun)) * MAD_SCALE
        se = sd * np.sqrt(np.diag(np.linalg.pinv(fit.jac.T @ fit.jac)))
        z = np.abs(fit.x) / np.maximum(se, 1e-12)
        if z.min() >= DAY_WEIGHT_Z:
            break
        active.pop(int(z.argmin()))
    if not active:
        return None
    theta = np.zeros(free)
    theta[active] = fit.x
    fitted = sd * math.sqrt(len(triples) / (len(triples) - len(active)))
    if fitted >= (1 - DAY_WEIGHTS_GAIN) * scale:
        return None
    weights, place = unpack(theta)
    # (weighed days on the scale of calendar days: the series' sizes stay its own)
    per_calendar_day = float(np.median(kinds @ weights * np.exp(place[places]) / kinds.sum(axis=1)))

    def weighed(at: datetime) -> float:
        return float(_span_day_kinds(at, days, cal) @ weights * math.exp(place[days.index(at.day)]) / per_calendar_day)
    return weighed


def _week_ends_on_key(pts: Sequence[Point], cal: HolidayCalendar) -> bool:
    """Whether a weekly series (`pts` in time order) is dated on each week's last day. A Dagster weekly key is the
    week's first day, but many teams key a week on its last (the week ending Saturday, a draw date): read from
    the first day, every holiday then lands a week late. Only a holiday that moves through the week tells the
    two apart (one on a fixed weekday, Thanksgiving, a Monday holiday, sits at the same offset from every key,
    so its run-up or its week after explains either reading); each reading labels the weeks holding one (the
    seven days from the date, or to it), and the one whose labelled weeks stand out of their nearest ordinary
    weeks consistently (each holiday's median deviation over its occurrences, squared in the ordinary weeks'
    noise) names the reading, the last day only by `WEEK_KEY_GAIN` and where significant: a series with no
    holiday signal keeps the first day."""
    pos = [q for q in pts if q.value > 0]
    if len(pos) < 2 * 52 or not 6 <= _step_days(pos) <= 8:
        return False
    x = [math.log(q.value) for q in pos]
    back = timedelta(days=WEEK_DAYS - 1)
    firsts = [q.at.date() for q in pos]
    lasts = [d - back for d in firsts]
    weekdays: dict[str, set[int]] = defaultdict(set)
    for d in (lasts[0] + timedelta(days=k) for k in range((firsts[-1] - lasts[0]).days + WEEK_DAYS)):
        if name := cal.identity(d):
            weekdays[name].add(d.weekday())
    moving = {name for name, seen in weekdays.items() if len(seen) >= 2}
    first = _holiday_week_signal(x, [_week_holidays(d, cal, moving) for d in firsts])
    last = _holiday_week_signal(x, [_week_holidays(d, cal, moving) for d in lasts])
    if first is None or last is None:
        return False
    return last[0] > WEEK_KEY_GAIN * first[0] and last[0] > chi2.isf(WEEK_KEY_P, last[1])


def _week_holidays(first_day: date, cal: HolidayCalendar, moving: Collection[str]) -> tuple[str, ...] | None:
    """The holidays of the seven days from `first_day` among `moving`; None for a week holding none at all."""
    names = [n for n in (cal.identity(first_day + timedelta(days=k)) for k in range(WEEK_DAYS)) if n]
    return tuple(sorted({n for n in names if n in moving})) if names else None


def _local_base(x: Sequence[float], before: Sequence[int], after: Sequence[int], i: int) -> float | None:
    """Week i's base from its nearest ordinary weeks `before` and `after` it (indices; logs `x`): the line between
    the two sides' medians, read at i, where both sides hold a week (their median otherwise, two weeks at least).
    On a season's steep climb (resort routes x0.02 to x1 in six spring weeks) holiday weeks cluster and leave more
    ordinary weeks on one side: their median is a week or two behind the climb, and a week read as its holidays'
    stands out of it by the slope alone (the climb named a reading of the keys, not the holidays)."""
    if before and after:
        left, right = float(np.median(before)), float(np.median(after))
        low, high = median(x[j] for j in before), median(x[j] for j in after)
        return low + (high - low) * (i - left) / (right - left)
    near = [*before, *after]
    return median(x[j] for j in near) if len(near) >= 2 else None


def _local_deviations(x: Sequence[float], plain: Sequence[int]) -> list[float | None]:
    """Each week's log deviation (`x`: the weeks' logs) from the nearest `WEEK_DAYS_BASE` plain weeks each side
    (`plain`: their indices, in order; `_local_base`), None where there is no base to read it against."""
    dev: list[float | None] = []
    for i in range(len(x)):
        at, past = bisect.bisect_left(plain, i), bisect.bisect_right(plain, i)
        before = [j for j in plain[max(0, at - WEEK_DAYS_BASE):at] if i - j <= 2 * WEEK_DAYS_BASE]
        after = [j for j in plain[past:past + WEEK_DAYS_BASE] if j - i <= 2 * WEEK_DAYS_BASE]
        base = _local_base(x, before, after, i)
        dev.append(x[i] - base if base is not None else None)
    return dev


def _holiday_week_signal(x: Sequence[float], labels: Sequence[tuple[str, ...] | None]) -> tuple[float, int] | None:
    """How far a weekly series' holiday weeks (`labels`: their holidays; None for an ordinary week, () for one
    holding only holidays left unread) stand out of the nearest `WEEK_DAYS_BASE` ordinary weeks each side: the
    sum over the holidays seen twice at least of their occurrences times their median log deviation squared, in
    the ordinary weeks' robust variance (a chi-square under no effect), and the number of such holidays; None
    where there is nothing to read."""
    n = len(x)
    plain = [i for i in range(n) if labels[i] is None]
    dev = _local_deviations(x, plain)
    ordinary = [d for i, d in enumerate(dev) if d is not None and labels[i] is None]
    # (each holiday on its own: the weeks holding Christmas and Boxing Day together one year, apart the next, are
    # Christmas's weeks both years)
    by_holiday: dict[str, list[float]] = defaultdict(list)
    for label, d in zip(labels, dev):
        if label and d is not None:
            for name in label:
                by_holiday[name].append(d)
    seen = [v for v in by_holiday.values() if len(v) >= 2]
    sd = MAD_SCALE * mad(ordinary) if len(ordinary) >= 26 else 0.0
    if not seen or sd <= 0:
        return None
    # (each deviation also carries its base's noise: the median of 2 x WEEK_DAYS_BASE weeks, pi / 2 of their mean's)
    base_var = 1 + math.pi / (4 * WEEK_DAYS_BASE)
    return sum(len(v) * median(v) ** 2 for v in seen) / (sd ** 2 * base_var), len(seen)


def _forecast(history: Sequence[Point], target: datetime, *, grain: Grain = "day",
              calendar_: HolidayCalendar | None = None, compare_by: Sequence[str] | None = None,
              params: ModelParams | None = None, timezone: str | None = None,
              own_calendar: bool = False) -> Forecast:
    """`forecast` on the series as dated (a week read from its date)."""
    p = params or ModelParams()
    tz = timezone if grain == "hour" else None
    cal = calendar_ or HolidayCalendar()
    pts = sorted((q for q in history if q.at < target), key=lambda q: q.at)
    if not pts:
        raise ValueError("forecast needs at least one history point before the target")
    unknown = [f for f in (compare_by or []) if f not in FEATURES]
    if unknown:
        raise ValueError(f"unknown comparison group(s) {unknown}: use {', '.join(FEATURES)}")
    zeros = [q for q in pts if q.value <= 0]
    pts_pos = [q for q in pts if q.value > 0] or pts
    step = _step_days(pts_pos)
    span = _span_days(step, grain)
    if grain == "day" and step < 1.5:
        festivals, closes = _earned_festivals(pts_pos, cal), _earned_closes(pts_pos, cal)
        if festivals or closes:
            cal = replace(cal, festivals=festivals, closes=closes)
        spans = _earned_spans(pts_pos, cal)
        if spans:
            cal = replace(cal, spans=spans)
        cal = _as_kept(pts_pos, target, cal)
    local = dict(zip([target, *(q.at for q in pts)], local_hours([target, *(q.at for q in pts)], tz)))
    night = _night_hours([local[q.at].hour for q in pts_pos]) if grain == "hour" else 0
    if night:
        # a night business: each hour is read on its night's clock, so the hours after midnight belong to the
        # evening that began them (its weekday, its holiday or eve); hours of the day keep the wall clock's
        local = {at: moment - timedelta(hours=night) for at, moment in local.items()}
    if grain == "hour" and compare_by is None and not own_calendar:
        # a working day between a holiday and the weekend is read as a holiday never seen (see _bridge_days)
        cal = _with_bridge_days(cal, [local[q.at] for q in pts], local[target])
    target_feats = _night_features(local[target], night, grain, cal, span)
    # (a series keyed on a few days of every month, half-months, runs a year of 12 x that many keys)
    keyed = _month_day_keys([q.at for q in pts_pos], target) if grain == "day" and step >= 1.5 else None
    cycle = MONTHS * len(keyed) if keyed else _cycle(step, grain)
    # the level window: two weeks of days, a week of hours, half a year of month-ends (deseasonalised points), a
    # third of a year of a series keyed on days of the month (its smooth season's misfit and a season in no calendar,
    # a drought's months, drift within half a year: eight half-months follow them as a weekly series' eight weeks do)
    level_points = p.level_points or {168: 168, 7: 14, 52: 8, 12: 6}.get(cycle, cycle // KEYED_LEVEL_SHARE)
    origin = pts_pos[0].at
    t = [(q.at - origin).total_seconds() / 86400 / step for q in pts_pos]  # in steps of the series
    x = [math.log(max(q.value, 0.5)) for q in pts_pos]
    feats = [_night_features(local[q.at], night, grain, cal, span) for q in pts_pos]
    # closures are read from the partitions themselves (all of them, empty ones too): a daily series
    # only; a month-end or weekly series has no neighbourhood of days either
    gaps: dict[datetime, int] = {}
    if grain == "day" and step < 1.5:
        carried = carries_closed_days([q.at.date() for q in pts_pos], x)
        marks, target_feats["after_gap"] = closures([q.at.date() for q in pts], target.date(), carried)
        gaps = {q.at: m for q, m in zip(pts, marks)}
        if carried:
            target_feats[CARRIED] = True
            for fv in feats:
                fv[CARRIED] = True
    elif grain == "hour":
        marks, target_feats["after_gap"] = hour_closures([q.at for q in pts], [local[q.at].hour for q in pts],
                                                          target, local[target].hour)
        gaps = {q.at: m for q, m in zip(pts, marks)}
    else:
        target_feats["after_gap"] = 0
    for q, fv in zip(pts_pos, feats):
        fv["after_gap"] = gaps.get(q.at, 0)
        if step >= 1.5:
            fv["near_holiday"] = ""
            fv.pop("season", None)
    if step >= 1.5:
        target_feats["near_holiday"] = ""
        target_feats.pop("season", None)  # a weekly or monthly series' seasons are its weeks and months
    if grain == "day" and step >= MONTHLY_STEP_DAYS:
        # a monthly series: each partition is its month's, whatever day it is dated (the 1st of a
        # date_trunc('month'), a pay day on the last working day): its period is the month's
        # (nor is it a holiday because the day it is dated on is one: an invoice month dated on
        # 1 April is not Easter Monday)
        for q, fv in zip(pts_pos, feats):
            fv["period_end"], fv["holiday"] = month_period(q.at.date(), cal), ""
        target_feats["period_end"], target_feats["holiday"] = month_period(target.date(), cal), ""
    elif grain == "day" and step < 1.5:
        open_days = open_weekdays([q.at.date() for q in pts_pos])
        _own_business_days(pts_pos, feats, target, target_feats, cal, open_days)
        _month_closes(pts_pos, feats, target, target_feats, cal, open_days)
        _working_day_neighbourhoods(pts_pos, feats, target, target_feats, cal, open_days)
        _long_weekends(pts_pos, feats, target, target_feats, cal, open_days)
        _days_after_days_off(pts_pos, feats, target, target_feats, cal, open_days)
        _eves_of_days_off(pts_pos, feats, target, target_feats, cal, open_days)
        _eves_of_moving_feasts(pts_pos, feats, target, target_feats, cal)
        _label_rolled_days(pts_pos, feats, target, target_feats, cal, open_days, list(cal.rolled_days))
        _break_light_days(x, feats, target_feats, cal, p.hard_ratio)
        _days_at_moving_distance(pts_pos, feats, target, target_feats, cal)
        _days_a_year_apart(pts_pos, feats, target, target_feats)
    if grain == "day" and step >= 1.5:
        _months_of_year(pts_pos, feats, target, target_feats, span)
    if grain == "day" and span == WEEK_DAYS and cycle == 52:
        # the week before a moving holiday's holds its eves (Carnival's weekend before its Tuesday)
        _weeks_before_moving_holidays(pts_pos, x, feats, target, target_feats, cal)
    # holidays, their neighbourhoods and closures as the calendar has them: a level shift may not
    # start on one, nor be confirmed by them alone (three homecoming days are not a new level; a
    # month of the year is every partition's, not a calendar day)
    special = _calendar_days(feats)
    t_target = (target - origin).total_seconds() / 86400 / step
    # a daily series' dates, for its spread's episodes (see _episode_errors)
    daily_dates = [q.at.date() for q in pts_pos] if grain == "day" and step < 1.5 else None
    lag = cycle if cycle <= len(x) // 2 else max(1, len(x) // 2)

    # a weekly series' smooth yearly season, taken out of the series before anything else is fitted
    # (the level, the shift rule and the band then see noise, not the trailing level's lag)
    season_now, season_var = 0.0, 0.0
    episode_weeks = 0  # weeks of an episode read as their other years (see _season_episodes)
    yearly = None
    if span == 7 and cycle == 52:
        yearly = _yearly_season(t, x, feats, [q.at + timedelta(days=3) for q in pts_pos], target + timedelta(days=3),
                                lag, level_points, p)
    elif keyed:
        # (a series keyed on days of the month, read per day: each partition's season at its span's middle)
        yearly = _yearly_season(t, x, feats, [_span_middle(q.at, keyed) for q in pts_pos],
                                _span_middle(target, keyed), lag, level_points, p, cycle)
    elif _many_day_partitions(grain, span, step) and compare_by is None \
            and round(YEAR_LENGTH / step) > YEAR_BACK_FEW_PER_YEAR \
            and (_whole_week_cycle(pts_pos, step) or _year_by_position(pts, target)) is not None:
        # (a series of partitions of many days that are no calendar months, read by their place in the year (below),
        # more a year than those read a year back (_year_back_band): its season taken out as a weekly series' is, so
        # its level and errors are read on noise, not on a trailing level's lag behind the season)
        # (and, where its own year parts from the sun's, its own year's season beside the sun's: _own_year_apart)
        yearly = _yearly_season(t, x, feats, [q.at for q in pts_pos], target, lag, level_points, p,
                                round(YEAR_LENGTH / step), _own_year_apart([q.at for q in pts] + [target]))
    if yearly is not None:
        yearly_values, season_now, season_var = yearly
        x = [v - s for v, s in zip(x, yearly_values)]
    # a weekly series read by the days each week holds (a festival's closed days and its eves, each family's
    # effect per working day), where that beats one label per week (see _week_days)
    week_now, week_var = 0.0, 0.0
    if compare_by is None and grain == "day" and span == WEEK_DAYS and cycle == 52:
        # (a declared season's days first, the holidays' days then read on what it leaves: see _season_weeks)
        x, season_days_now, season_days_var = _season_weeks(pts_pos, x, feats, target, cal)
        by_days = _week_days(pts_pos, t, x, feats, target, cal, lag, level_points, p.dense_gain) \
            or _moving_holiday_days(pts_pos, x, feats, target, cal)
        if by_days is not None:
            x, week_now, week_var, target_read = by_days
            if target_read:
                target_feats["holiday"], target_feats["near_holiday"] = "", ""
            special = _calendar_days(feats)
        week_now, week_var = week_now + season_days_now, week_var + season_days_var
        lighter = _holiday_on_lighter_days(pts_pos, x, feats, target, target_feats, cal)
        if lighter is not None:
            week_now, week_var = week_now + lighter[0], week_var + lighter[1]
    elif compare_by is None and grain == "day" and span == 1 and keyed is None \
            and SPAN_HOLIDAYS_MIN_STEP <= step < MONTHLY_STEP_DAYS:
        # a partition of several days holds holidays its key day's label does not name (see _span_holidays)
        by_span = _span_holidays(pts_pos, x, feats, target, cal, round(step))
        if by_span is not None:
            x, week_now, week_var = by_span
    eve_day: int | None = None  # the day of the week an eve is read as (below)
    if grain == "hour" and compare_by is None:
        moments, every_moment = [local[q.at] for q in pts_pos], [local[q.at] for q in pts]
        _after_holiday_hours(feats, target_feats, moments, local[target], cal, every_moment)
        _closure_eve_hours(feats, target_feats, moments, local[target], cal, every_moment)
        _shut_day_eve_hours(feats, target_feats, moments, local[target], cal)
        eve_day = _eve_as_day(feats, x, moments, local[target], cal)
        if eve_day is not None:
            # the eve of a holiday is read as the day of the week its past eves ran like (a bar's Friday night)
            for fv, at in [*zip(feats, moments), (target_feats, local[target])]:
                _read_eve(fv, at, eve_day, cal)
    available = [f for f in FEATURES if f in target_feats]
    fit: SeriesFit | None = None  # the chosen trial below is the fit itself: it is not fitted twice
    fortnights: list[tuple[int, str]] = []  # earned 14-day cycles (below)
    anchors: list[tuple[int, str]] = list(cal.rolled_days)  # the days of the month rolled days are labelled on
    if compare_by is not None:
        used = [f for f in compare_by if f in available]
    else:
        used = [f for f in SPARSE if f in available]
        if grain == "day" and step < 1.5 and "rolled_day" in used:
            # a 14-day cycle first: half of a weekday's days at x2 would otherwise spoil the weekday group
            # (read without holidays' neighbourhoods: one would take a payday rolled next to a holiday as its own)
            search = SeriesFit(t, x, feats, [f for f in used if f != "near_holiday"], lag, level_points)
            fortnights = _fortnights(pts_pos, search, cal, open_days, p)
            if fortnights:
                _label_rolled_days(pts_pos, feats, target, target_feats, cal, open_days, list(cal.rolled_days),
                                   fortnights)
        if step < 1.5:  # only a regular daily/hourly series can show a weekday, hour or business-day shape
            fit = SeriesFit(t, x, feats, used, lag, level_points)
            spread = typical_error(fit)
            few_rows = grain == "day" and float(np.median([q.value for q in pts_pos])) < FEW_ROWS
            # (the hour of the week last: it earns its 168 effects only over what hour and weekday explain)
            # (business days counted from the month's start, from its end or from the nearer of
            # the two, whichever explains most, never two: a payroll on the first business day, a
            # close on the last three, a ledger with both; two sets of 22 effects on a few months
            # of history fit its noise)
            for f in ("hour_of_day", "weekday", "business_day", "hour_of_week"):
                if f not in available or len({fv[f] for fv in feats}) < 2:
                    continue
                # three occurrences of each value at least; a business day of the month occurs once
                # a month, so six months (22 effects learned from three months fit their noise: a
                # table eight weeks old came out with bands of +-7% for 5% noise)
                if len(x) / len({fv[f] for fv in feats}) < (6 if f == "business_day" else 3):
                    continue
                trial = SeriesFit(t, x, feats, used + [f], lag, level_points)
                trial_spread = typical_error(trial)
                for alternative in ("business_day_from_end", "business_day_edge") if f == "business_day" else ():
                    if alternative not in available:
                        continue
                    other = SeriesFit(t, x, feats, used + [alternative], lag, level_points)
                    other_spread = typical_error(other)
                    if other_spread < trial_spread:
                        f, trial, trial_spread = alternative, other, other_spread
                if f == "hour_of_week":
                    # 168 effects of about four points each (four weeks of hours): fitted on the
                    # points whose errors they then shrink, they must win after paying for their
                    # degrees of freedom, or noise alone would earn them (a median of four in-sample
                    # points takes some 13% off the errors)
                    if trial_spread * trial.dof_factor() < (1 - p.dense_gain) * spread * fit.dof_factor():
                        used, fit, spread = used + [f], trial, trial_spread
                    continue
                if trial_spread < (1 - p.dense_gain) * spread or (
                        few_rows and f in COUNT_SHAPES and _shape_beyond_counting(trial, fit, f, spread, trial_spread)) \
                        or (grain == "day" and f == "weekday" and _weekday_within_weeks(fit, p.dense_gain)):
                    used, fit, spread = used + [f], trial, trial_spread
        elif "week_of_year" in available and len(x) >= 2 * 52:
            # a weekly series' yearly season, each week of the year its own effect (a smooth
            # winter-high/summer-low cycle, school summer weeks): 52 effects of two or three past
            # years each, which must win, after paying for their degrees of freedom, over a level
            # that simply follows the season
            # (an episode left in the history unlabelled is read as its weeks' other years: see _season_episodes)
            segment = list(itertools.accumulate(1 if q.accepted and q.shift else 0 for q in pts_pos))
            episodes = _season_episodes(x, feats, segment)
            x_read = episodes[0] if episodes else x
            fit = SeriesFit(t, x_read, feats, used, lag, level_points)
            trial = SeriesFit(t, x_read, feats, used + ["week_of_year"], lag, level_points)
            if typical_error(trial) * trial.dof_factor() < (1 - p.dense_gain) * typical_error(fit) * fit.dof_factor() \
                    or _season_steps_recur(fit, trial, SEASON_STEPS_GAIN):
                used, fit, x = used + ["week_of_year"], trial, x_read
                episode_weeks = len(episodes[1]) if episodes else 0
            else:
                fit = SeriesFit(t, x, feats, used, lag, level_points) if episodes else fit
    if fit is None:
        fit = _months_level_fit(t, x, feats, used, lag, level_points, p, _calendar_months(pts_pos))
    if compare_by is None and grain == "day" and step < 1.5 and open_days == ALL_WEEK \
            and set(used) & set(FROM_END_GROUPS):
        fit = _closes_on_business_days(fit, [q.at.date() for q in pts_pos], feats, target, target_feats, cal, lag)
    # a series dated every four weeks (a 13-period fiscal year) drifts through the calendar's months
    # a day a year and a week after a 53-week year: its period of the year is its position in a year
    # of its steps (compared with the points 13 steps back), earned where it beats the calendar months' reading
    length_now, length_var = 0.0, 0.0
    steps_a_year = _whole_week_cycle(pts_pos, step) if compare_by is None and grain == "day" and span == 1 else None
    # (a year of partitions that are no calendar months and no whole weeks: read by place and by the days each holds)
    by_place = _year_by_position(pts, target) if steps_a_year is None and compare_by is None and grain == "day" \
        and span == 1 and keyed is None and step >= WHOLE_WEEK_MIN_STEP else None
    if by_place is not None:
        steps_a_year = by_place[0]
    if steps_a_year is not None and len(x) >= 2 * steps_a_year:
        # a period a week longer than the cadence (a 53-week year's last) holds a week more of rows
        longer = [0.0] + [math.log(g / step) if g == step + WEEK_DAYS else 0.0
                          for g in ((b.at - a.at).days for a, b in itertools.pairwise(pts_pos))]
        target_gap = (target - pts_pos[-1].at).days
        length_target = math.log(target_gap / step) if target_gap == step + WEEK_DAYS else 0.0
        if by_place is not None:
            longer, length_target = [by_place[2][q.at] for q in pts_pos], by_place[2][target]
        x_len = [v - m for v, m in zip(x, longer)]
        for q, fv in zip(pts_pos, feats):
            fv["period_of_year"] = by_place[1][q.at] if by_place else round((target - q.at).days / step) % steps_a_year
        target_feats["period_of_year"] = 0
        by_position = [f for f in used if f not in ("month_of_year", "period_end")] + ["period_of_year"]
        lag_position = steps_a_year if steps_a_year <= len(x) // 2 else lag
        trial = SeriesFit(t, x_len, feats, by_position, lag_position, level_points)
        # one reading of the year replaces the other (13 effects for 12 months): the periods' are kept
        # where their one-step errors, after paying for their degrees of freedom, are smaller than the
        # months' as they would be read (those whose effect stands out of the noise, `_indistinct`)
        months_drop = {(f, v) for f, v in _indistinct(fit, used) if f == "month_of_year"}
        months_feats = [{**fv, "month_of_year": "" if ("month_of_year", fv.get("month_of_year")) in months_drop
                         else fv.get("month_of_year", "")} for fv in feats]
        by_months = SeriesFit(t, x, months_feats, used, lag, level_points) if months_drop else fit
        if typical_error(trial) * trial.dof_factor() < typical_error(by_months) * by_months.dof_factor():
            used, fit, x, lag = by_position, trial, x_len, lag_position
            length_now, length_var = length_target, by_place[3] if by_place else 0.0
    if compare_by is None and grain == "hour" and "hour_of_week" in available and "hour_of_week" not in used \
            and {"hour_of_day", "weekday"} & set(used):
        own_days = _own_hours_days(pts_pos, local, target, cal)
        cells, base, trial = _earned_cells(fit, own_days, p.shift_after), fit, fit
        for attempt in range(CELL_PASSES if cells else 0):
            for fv in [*feats, target_feats]:
                cell = cast(int, fv["weekday"]) * 24 + cast(int, fv["hour_of_day"])
                fv["hour_of_week"] = cell if cell in cells else ""
            trial = SeriesFit(t, x, feats, used + ["hour_of_week"], lag, level_points)
            more = _earned_cells(trial, own_days, p.shift_after) - cells if attempt + 1 < CELL_PASSES else set()
            if not more:
                break
            cells |= more
        # kept only where the history's one-step errors shrink with them
        if cells and typical_error(trial) < typical_error(base):
            used, fit = used + ["hour_of_week"], trial
        else:
            for fv in [*feats, target_feats]:
                fv["hour_of_week"] = cast(int, fv["weekday"]) * 24 + cast(int, fv["hour_of_day"])
    if compare_by is None and "rolled_day" in used and grain == "day" and step < 1.5:
        def searched(groups: Sequence[str]) -> list[tuple[int, str]]:
            # (read without the neighbourhoods of holidays and of a quarter's end: each is learned from
            # one or two days, and one takes a debit day rolled next to a holiday, or three days before
            # a quarter's end, as its own, so the day of the month falls short on its side)
            plain = [f for f in groups if f not in NEIGHBOURHOOD_GROUPS]
            return _rolled_days(pts_pos, SeriesFit(t, x, feats, plain, lag, level_points), cal, open_days, p,
                                list(cal.rolled_days))
        earned = searched(used)
        # (a series open every day searches once, on what its groups leave: its rolls are the calendar's
        # (`_roll_test`), and a day found only without its business-day counts (the 1st rolled forward, where
        # the first business day already holds a payroll) would read one effect twice)
        every_day = open_days == ALL_WEEK
        if not earned and not every_day and ("business_day" in used or "business_day_edge" in used) \
                and "business_day_from_end" in available:
            # business days counted from the start absorb a payday on the 15th (the 10th business
            # day one month, the 11th the next, half of it each): tried again against business
            # days counted from the end, which keep a month-end close but spread the 15th over more
            # groups
            earned = searched([f for f in used if f not in ("business_day", "business_day_edge")]
                              + ["business_day_from_end"])
        if not earned and not every_day and any(f in BUSINESS_DAY_GROUPS for f in used):
            # a day of the month rolled forward (taxes due on the 10th, the next business day when
            # closed) is the 7th business day one month and the 8th the next: a group of business
            # days counted from either end takes part of it in each and leaves too little to earn.
            # Tried again without them: the days found there replace the business days where these
            # no longer cut the errors by `dense_gain` over them; where they still do, the business
            # days explain what the days took (a close over the month's last three days, which a
            # "29th rolled back" half matches) and no day is earned
            # (nor where the business days alone explain more than the days found in their place: a run over
            # the month's last four open days, which a "28th rolled forward" and its next day half match)
            uncounted = [f for f in used if f not in BUSINESS_DAY_GROUPS]
            counted = typical_error(fit)
            earned = searched(uncounted)
            if earned:
                _label_rolled_days(pts_pos, feats, target, target_feats, cal, open_days,
                                   [*cal.rolled_days, *earned], fortnights)
                base = SeriesFit(t, x, feats, uncounted, lag, level_points)
                base_error = typical_error(base)
                if counted < base_error \
                        or typical_error(SeriesFit(t, x, feats, used, lag, level_points)) < (1 - p.dense_gain) * base_error:
                    earned = []
                    _label_rolled_days(pts_pos, feats, target, target_feats, cal, open_days, list(cal.rolled_days),
                                       fortnights)
                else:
                    used = uncounted
        if earned:
            anchors = [*cal.rolled_days, *earned]
            _label_rolled_days(pts_pos, feats, target, target_feats, cal, open_days, anchors, fortnights)
            fit = SeriesFit(t, x, feats, used, lag, level_points)
            special = _calendar_days(feats)
    if compare_by is None and grain == "day" and step < 1.5 and "rolled_day" in used:
        # a weekday's place in the month (the first Sunday's free admission), read on what the weekdays, the
        # business days and the days of the month leave (a month-end close or a payday rolled to a Friday is theirs)
        month_weekdays = _month_weekdays(pts_pos, fit, p)
        if month_weekdays:
            _label_rolled_days(pts_pos, feats, target, target_feats, cal, open_days, anchors, fortnights, month_weekdays)
            trial = SeriesFit(t, x, feats, used, lag, level_points)
            # kept only where the history's one-step errors shrink with them
            if typical_error(trial) < typical_error(fit):
                fit, special = trial, _calendar_days(feats)
            else:
                _label_rolled_days(pts_pos, feats, target, target_feats, cal, open_days, anchors, fortnights)
    if compare_by is None and grain == "day" and step < 1.5 and "rolled_day" in used:
        turn_fit = fit
        fit, special = _with_month_day_run(pts_pos, t, x, feats, target, target_feats, used, lag, level_points, fit,
                                           special, p)
        # (a day of the month the history earned, read again as a payday's run where no run over the turn took it)
        if fit is turn_fit and len(anchors) > len(cal.rolled_days):
            fit, special = _with_payday_run(pts_pos, t, x, feats, target, target_feats, used, lag, level_points, fit,
                                            special, p, cal, open_days, {d for d, _ in anchors[len(cal.rolled_days):]})
    daily_months = False  # a daily series' months of the year, each earned on its own (below)
    if compare_by is None and grain == "day" and step < 1.5:
        months = _earned_months(fit, pts_pos, feats, target, special)
        # only where they matter: the target's month, or a level window holding one (read through
        # its effect); elsewhere they would only move the fit of days they say nothing of
        if target.month not in months and not any(q.at.month in months for q in pts_pos[-level_points:]):
            months = set()
        # (a month's days after its holiday where its past years read them outside the month's effect)
        after_holiday = _month_tail_days(fit, pts_pos, feats, target, special, cal, months)
        for q, fv in zip(pts_pos, feats):
            fv["month_of_year"] = q.at.month if q.at.month in months and q.at.date() not in after_holiday else ""
            fv["year"] = q.at.year
        target_feats["month_of_year"] = target.month if target.month in months and target.date() not in after_holiday else ""
        target_feats["year"] = target.year
        if months:
            trial = SeriesFit(t, x, feats, used + ["month_of_year"], lag, level_points)
            # kept only where the history's one-step errors shrink with them: a month earned by chance does not
            if typical_error(trial) < typical_error(fit):
                used, fit, daily_months = used + ["month_of_year"], trial, True
        if not daily_months:
            for fv in [*feats, target_feats]:
                fv.pop("month_of_year", None)
                fv.pop("year", None)
    if "season" in used and _one_ramadan(fit, feats, target_feats):
        fit = SeriesFit(t, x, feats, used, lag, level_points)
    season, season_at = target_feats.get("season", ""), target_feats.get("season_at", 0)
    # a season whose every day in the history is of the target's own occasion (its days so far)
    # was never seen: its effect this year is anyone's guess (below)
    unseen_season = bool(season) and not any(fv.get("season") == season and fv.get("season_at") != season_at
                                             for fv in feats)
    drop = _indistinct(fit, used, daily_months)
    # a holiday of the target's whose past effect is within the noise: the ordinary days' baseline,
    # but the band also covers the effect it showed (Thanksgiving week x0.85 under 10% noise is not
    # proven by two past weeks, nor ruled out)
    if grain == "day" and step < 1.5 and "near_holiday" in used:
        wider = _wider_neighbourhoods(pts_pos, feats, target, target_feats, cal, fit, drop)
        if wider:
            fit = SeriesFit(t, x, feats, used, lag, level_points)
            drop = _indistinct(fit, used, daily_months) | _beyond_reach(fit, wider, _indistinct(fit, used, daily_months))
            special = _calendar_days(feats)
    if "holiday" in used:
        target_feats["holiday"] = _combined_holiday(_observed_as_base(str(target_feats["holiday"]), fit), fit, drop,
                                                    list(cal.breaks))
        back = str(target_feats["holiday"])
        if back.endswith(BREAK_BACKS) and len(holiday_parts(back)) == 1 and not fit.members["holiday"].get(back):
            # a week back never seen is a school week like the others until its history shows
            # it is not (a break's own week never seen is expected, below)
            target_feats["holiday"] = ""
    unproven = fit.effects["holiday"].get(target_feats["holiday"], 0.0) if ("holiday", target_feats.get("holiday")) in drop else 0.0
    near = target_feats.get("near_holiday")
    if not unproven and near and ("near_holiday", near) in drop and abs(split_near(str(near))[1]) > NEIGHBOURHOOD_DAYS \
            and fit.members["near_holiday"].get(near) == 1:
        unproven = fit.effects["near_holiday"].get(near, 0.0)  # a widened neighbourhood's day seen once
    # holidays seen before whose effect was within the noise: an ordinary day is one of the
    # calendar's holiday behaviours (for a holiday never seen, below)
    quiet_holidays = any(f == "holiday" and v not in NONE for f, v in drop)
    # (each day's holiday as the calendar named it: a closed business's holiday on a Saturday reads as a
    # Saturday, within the noise, and joins the ordinary days below; it still says the business closed)
    named_holidays = [str(fv.get("holiday", "")) for fv in feats]
    target_named = str(target_feats.get("holiday", ""))
    # a month's turn day is an ordinary day for the shift rule, the level and the weekly shape: its place's effect,
    # where it showed one, is read from a dozen turns a year (a holiday's neighbour, from one or two, is no evidence
    # of a level), and every month has six (as calendar days they would keep a fifth of the days out, and the first
    # Sundays of a new weekly shape that fell on a turn would not count for it)
    turns = [_is_month_turn(fv) for fv in feats]
    if drop:
        # an earned group whose past effect is within the noise joins the ordinary days (one refit)
        blank = {"holiday": "", "near_holiday": "", "near_period_end": "", "after_gap": 0, "month_of_year": "",
                 "season": "", "rolled_day": ""}
        for fv in [*feats, target_feats]:
            for f in EARNED:
                if (f, fv.get(f)) in drop:
                    fv[f] = blank[f]
        fit = SeriesFit(t, x, feats, used, lag, level_points)
    if grain == "hour":
        # on an hourly series a holiday's hour is a calendar hour for the shift rule (and the
        # level) only when it showed an effect: the night hours of a holiday whose business hours
        # close look like every other night, and may confirm a new level
        special = _calendar_days(feats)
    elif any(turns):
        unturned = _calendar_days([{**fv, "near_period_end": ""} for fv in feats])
        special = [s and (now or not turn) for s, now, turn in zip(special, unturned, turns)]
    # the owner said the weekly pattern changed from an accepted partition (`--shape`): every weekday's
    # (business day's) share is its occurrences' since, from the first one (the rule below waits for
    # two, as one occurrence alone is a fault as much as a new shape); a share with none yet is unknown
    # (the mark may sit on an empty day, which is no point of the fit: the first point from it on)
    marked_at = max((q.at for q in pts if q.shape), default=None) if grain == "day" and step < 1.5 else None
    marked = None if marked_at is None else next((i for i, q in enumerate(pts_pos) if q.at >= marked_at), len(pts_pos))
    marked_changes: dict[tuple[str, object], _ShapeChange] = {}
    if marked is not None:
        if "weekday" in available and "weekday" not in used and len(x) >= 14:
            used = used + ["weekday"]  # a new pattern may be weekly where the old one was flat
            fit = SeriesFit(t, x, feats, used, lag, level_points)
        x, fit, marked_changes = _marked_shape(fit, t, x, feats, used, special, marked, lag, level_points, p)
    spread = _spread(fit, feats, target_feats, used, daily_dates, target.date())
    # a spread from a few errors is itself uncertain (six same-weekday points give three): widen it
    # as a t quantile would, by about 2.5/n
    small_sample = 1 + 2.5 / max(len(fit.errors), 1)
    spread *= small_sample

    def refit(moved: list[float]) -> tuple[SeriesFit, float]:
        """The fit on the history's points moved by a rule below, and its spread (widened as the first one);
        `used` is read when called, as the rules may add a group first."""
        refitted = SeriesFit(t, moved, feats, used, lag, level_points)
        return refitted, _spread(refitted, feats, target_feats, used, daily_dates, target.date()) * small_sample

    # an accepted shift older than the level window (which _find_shift no longer sees) but inside
    # the two level windows the trend rules read: the points before it still move to its level, or
    # the rolling level and the effects learned against it span the step (an Easter just after a
    # +25% step learned as +12%, the level read back at the old one). Older than that, the windows
    # hold the new level alone (a re-baseline over the whole history was tried: see docs/volume-rounds.md)
    x, rebased = _older_accepted_shifts(t, x, feats, used, lag, level_points, pts_pos)
    if rebased:
        fit, spread = refit(x)
    # a 14-day cycle's day that a day of the month took (a fortnightly payday on the month's rolled payday): the
    # history's such days read without the cycle's effect (refitted), the target's with it (below)
    cycle_met: tuple[str, float, int] | None = None
    if fortnights:
        met_before, cycle_met = _cycles_under_month_days(fit, pts_pos, feats, target, target_feats, cal, open_days,
                                                         fortnights)
        if met_before:
            x = [v - met_before[i][1] if i in met_before else v for i, v in enumerate(x)]
            fit, spread = refit(x)
    # a weekly shape of the part of the year (summer weekends), where the history earns one
    season_shape, in_season = 0.0, special
    season_tried = (compare_by is None and grain == "day" and step < 1.5 and marked is None and "weekday" in available
                    and len(x) >= 3 * 7)
    seasonal = (_seasonal_shape(t, x, feats, [*used, "weekday"] if "weekday" not in used else used, lag, level_points,
                                target.date().toordinal(), tuple(cal.breaks)) if season_tried else None)
    changed_once: dict[tuple[str, object], _ShapeChange] = {}
    if seasonal is not None:
        changed_once = _changed_once(fit, feats, used, special, p)
        if changed_once:
            # the old share of a weekday that changed once for good is no season to expect a year later:
            # the history moves to the new share, and the season is read again on it
            x = _moved_to_latest_shape(x, feats, changed_once)
            fit, spread = refit(x)
            seasonal = _seasonal_shape(t, x, feats, [*used, "weekday"] if "weekday" not in used else used, lag,
                                       level_points, target.date().toordinal(), tuple(cal.breaks))
    if seasonal is not None:
        offsets, season_shape = seasonal
        moved = [v - o for v, o in zip(x, offsets)]
        seasonal_fit = SeriesFit(t, moved, feats, used, lag, level_points)
        if "weekday" not in used:
            # two shapes a year can cost the weekday group its place (the year's shape then explains too
            # little): with the season's days moved to the year's shape, it must win as any dense group does
            trial = SeriesFit(t, moved, feats, used + ["weekday"], lag, level_points)
            if typical_error(trial) < (1 - p.dense_gain) * typical_error(seasonal_fit):
                used, seasonal_fit = used + ["weekday"], trial
            else:
                seasonal = None
    if seasonal is not None:
        # (a season's days, moved to the year's shape, are no evidence of a share changed for good)
        in_season = [c or bool(o) for c, o in zip(special, offsets)]
        x, fit = moved, seasonal_fit
        spread = _spread(fit, feats, target_feats, used, daily_dates, target.date()) * small_sample
    else:
        season_shape = 0.0
    band_h = p.half_width(spread)

    # the level at the target: the latest points (after a shift, only those), extrapolated
    n = len(x)
    start = max(0, n - level_points)
    # (a calendar day the fit reads as an ordinary one, its group within the noise or past the holiday's reach,
    # confirms a run like any ordinary day)
    daily = grain == "day" and step < 1.5
    earned_days = [s and now for s, now in zip(special, _calendar_days(feats))] if daily else special
    # a run off the level the same dates a year back held and were over by the target's date: a season, its points
    # moved back to the level before it (see _season_run_over)
    season_over = _season_run_over(fit, pts_pos, earned_days, target, level_points, band_h, p.shift_after,
                                   math.log(p.hard_ratio)) if daily else None
    if season_over is not None:
        for first, last, move in season_over:
            x = [v + move if first <= i <= last else v for i, v in enumerate(x)]
        fit, spread = refit(x)
        band_h = p.half_width(spread)
    # a surge in no calendar that came back to the level before it: no new level, its points moved back to that
    # level so the hours back at it read against it (see _surge_returned)
    shape_notes: list[str] = []
    surge = (_surge_returned(fit, pts_pos, earned_days, band_h, level_points, p.shift_after)
             if grain == "hour" else None)
    if surge is not None:
        first, last, moves = surge
        height = math.exp(-min(moves)) if max(moves) <= 0 else math.exp(-max(moves))
        shape_notes.append(f"a surge in no calendar from {pts_pos[first].at:%Y-%m-%d %H:00} to "
                           f"{pts_pos[last].at:%Y-%m-%d %H:00} (up to x{height:.2f} the level before it) returned to"
                           " that level: no new level, read at the level before it")
        x = [v + moves[i - first] if first <= i <= last else v for i, v in enumerate(x)]
        fit, spread = refit(x)
        band_h = p.half_width(spread)
    # a run of days off the level in no calendar whose latest days came back to the level before it: an episode, not
    # a new level, its days moved back to that level so the days back read against it (see _episode_returned)
    episode = (_episode_returned(fit, pts_pos, earned_days, band_h, level_points, p.shift_after, math.log(p.hard_ratio))
               if daily and compare_by is None else None)
    if episode is not None and _episode_explained(pts_pos, feats, earned_days, episode[0], episode[1], cal, level_points):
        episode = None
    # the year-back rules' reading of the level, kept with the fit it was read on: the level follows it below unless
    # the fit changes in between (it is not read twice)
    level_back: tuple[SeriesFit, YearBackLevel] | None = None
    if episode is not None:
        level_back = fit, _year_back_level(fit, pts_pos, special, target, cal, level_points)
        if _read_a_year_back(level_back[1]):
            episode = None  # (a yearly event's or a lunar season's end: the year-back rules step its level back, below)
    if episode is not None:
        first, last, move = episode
        shape_notes.append(f"a run of days in no calendar from {pts_pos[first].at:%Y-%m-%d} to {pts_pos[last].at:%Y-%m-%d}"
                           f" (x{math.exp(-move):.2f} the level before it) came back to that level: an episode, not a"
                           " new level, read at the level before it")
        x = [v + move if first <= i <= last else v for i, v in enumerate(x)]
        fit, spread = refit(x)
        band_h = p.half_width(spread)
    # a run of days far below the level before it, in no calendar, that the target may end: the band reaches the
    # reading with the run set aside (below, see _dip_before_return)
    dip = (_dip_before_return(fit, pts_pos, earned_days, band_h, level_points, p.shift_after, math.log(p.hard_ratio))
           if daily and compare_by is None else None)
    shift = _find_shift(fit, pts_pos, band_h, level_points, p.shift_after, earned_days, daily)
    day_block = grain == "hour" and _run_repeats_yesterdays_block(fit, feats, shift, target_feats, level_points)
    if day_block:
        # (a block of hours off the level the day before held too, ended before this hour: the days' shape, not
        # their level, see _run_repeats_yesterdays_block)
        assert shift is not None
        shape_notes.append(f"a run off the level from {shift['at'][:16]} (x{shift['ratio']}, {shift['points']} "
                           "partitions, not accepted) repeats the days before's block of hours, which ended before "
                           "this hour: the days' shape, not read as their level")
        shift = None
    dark_run = (_dark_run_ended_before(fit, pts_pos, earned_days, shift, band_h, level_points, p.shift_after,
                                       math.log(p.hard_ratio), local) if grain == "hour" else None)
    # the hinge assumes one flat level before its knot: not across a shift its owner accepted (nor at a day's block
    # of hours set aside above: its fall is the days' shape, no ramp's knot)
    hinge = not day_block and not any(q.shift for q in pts_pos[max(0, len(x) - 2 * level_points):])
    # a ramp read against the shift rule's run, kept with the fit it was read on: the level follows
    # it below unless the fit changes in between (it is not searched for twice)
    onset: tuple[SeriesFit, tuple[float, float, float, float]] | None = None
    if hinge and shift is not None and not shift["accepted"]:
        ramp_read = _onset_ramp(fit, t, _calendar_days(feats), level_points, spread, not_a_step=True)
        if ramp_read is not None:
            # the run off the level is a ramp's climb, not a new level: the level follows its line (below)
            shift, onset = None, (fit, ramp_read)
    if shift is not None:
        start = shift["index"]
        if start >= 7:
            # re-baseline: move the points before the shift to the new level and refit, so the
            # calendar effects and the spread are learned on one consistent series
            delta = _sized_shift(t, x, feats, used, lag, level_points, start)
            shift["ratio"] = round(math.exp(delta), 4)
            x = [v + delta if i < start else v for i, v in enumerate(x)]
            fit, spread = refit(x)
            if n - start >= level_points // 2:
                start = max(0, n - level_points)
    # a weekday's (or business day's) share that changed for good is re-baselined like a level
    reshaped = _shape_changes(fit, feats, used, in_season, p.shape_after, p.shape_z) if grain == "day" else {}
    # (a share the same weeks of the previous year changed and had undone by this day is a season over)
    reshaped = {key: change for key, change in reshaped.items()
                if not _season_undone(fit, feats, in_season, key, change, target.date().toordinal(), p.shape_after)}
    if reshaped:
        # every earlier regime of the group is moved to the latest one (a share changed twice: only
        # the latest shape is the group's now)
        x = _moved_to_latest_shape(x, feats, reshaped)
        fit, spread = refit(x)
    effect, thinnest, unseen, unseen_gap = fit.effect_for(target_feats)
    if cycle_met is not None:
        effect += cycle_met[1]
        thinnest = min(thinnest, cycle_met[2])
        shape_notes.append(f"the day is {cycle_met[0]} too (a 14-day cycle meeting the month's day): its effect, "
                           f"x{math.exp(cycle_met[1]):.2f}, earned on {cycle_met[2]} days of its own, read on top")
    # a holiday's hour seen on too few past days for an effect of its own, after the holiday's first day: read from
    # the holiday's hours together, as one never seen is read from its hours so far (see _holiday_days_so_far)
    pooled = (_holiday_days_so_far(feats, named_holidays, target_named, cast(int, target_feats["day"]))
              if grain == "hour" and compare_by is None else [])
    # (a later day of a run the calendar names alike: its own day, until its hours read the earlier days' factor;
    # so too where the hour's own effect was earned on the run's earlier days alone, see _run_seen_only_in_run)
    in_run = (_run_seen_only_in_run(feats, named_holidays, target_named, cast(int, target_feats["day"]))
              if grain == "hour" and compare_by is None and not pooled else [])
    own_day = (_run_day_own_hours(fit, pooled or in_run, feats, target_feats, t, t_target, spread, p.ceiling)
               if pooled or in_run else None)
    if in_run and own_day is None:
        own_day = _run_day_turned(fit, in_run, feats, target_feats, t, t_target, spread)
    if in_run and own_day is not None:
        pooled = in_run  # (the day parts from its run: read as a later day whose hour was seen on fewer days is)
    if own_day is None and pooled and not _holiday_fits_a_factor(fit, pooled, feats, t, t_target, spread):
        pooled = []
    so_far_of = f"{unseen} has no past occurrence"
    if pooled:
        so_far_of = f"{target_named} was seen on too few past days for an effect of its own"
        effect, thinnest, unseen, unseen_gap = fit.effect_for({**target_feats, "holiday": ""})
        unproven = 0.0  # (the hour's own effect, set aside as within the noise, is read with the holiday's below)
    if own_day is not None:
        pooled = own_day
        unseen = None if len(own_day) >= RUN_DAY_OWN_HOURS else target_named
        so_far_of = (f"{target_named} follows earlier days of its run under the same name, which are no past "
                     f"occasion of this day" + ("" if unseen else ": its own hours so far do not read theirs"))
        if unseen:
            shape_notes.append(f"{so_far_of}: read as never seen until {RUN_DAY_OWN_HOURS} of its own hours tell")
    # a surge still running whose days hold a shape of their own: the target's hour read by it (see _surge_hour_shape)
    running = _running_surge(fit, pts_pos, earned_days, band_h, level_points) if grain == "hour" else None
    surge_hour = (_surge_hour_shape(running, fit, target_feats.get("hour_of_day"), level_points)
                  if running is not None and not unseen else None)
    if surge_hour is not None:
        effect += surge_hour[0]
        thinnest = min(thinnest, surge_hour[1])
        shape_notes.append(f"a run off the level in no calendar still running, its days' own shape: this hour x"
                           f"{math.exp(surge_hour[0]):.2f} its usual share, read from its latest {surge_hour[1]} days")
    # a festival's day seen on one past occasion: an ordinary day's centre (its band as wide as the
    # festival's day's, a group of one), the band reaching the effect it showed (below)
    festival_once = _festival_seen_once(fit, feats, target_feats, cal) if grain == "day" and step < 1.5 else 0.0
    effect -= festival_once
    level_holiday = _holiday_as_level(fit, target_feats, named_holidays, target_named) if grain == "day" and step < 1.5 else None
    if level_holiday is not None:
        # the business closes on its holidays (earned from their history): the holiday's level, not its
        # ratio on top of the target's weekday
        effect += level_holiday[0]
        shape_notes.append(f"{target_feats['holiday'] or target_named} read as a level, not a ratio on the weekday (the history's "
                           f"holidays fell with their weekday's effect, slope {level_holiday[1]:.2f}): "
                           f"x{math.exp(level_holiday[0]):.2f}")
    elif grain == "day" and step < 1.5 and (closed_once := _closed_once(fit, target_feats, named_holidays)) is not None:
        # the holiday closes the series to its closed level on working days: on a light weekday it is that
        # level, not its ratio on top of the weekday's (a closed day cannot close twice)
        effect += closed_once
        shape_notes.append(f"{target_feats['holiday']} closes the series to its lightest days' level: on a light "
                           f"weekday read at that level, not as its ratio on the weekday's: x{math.exp(closed_once):.2f}")
    if season_shape:
        effect += season_shape
        thinnest = min(thinnest, 2 * SEASON_SHAPE_WEEKS + 1)  # the stretch's shape rests on its five days
        shape_notes.append(f"the same weeks a year earlier held a weekly shape of their own: this "
                           f"{_group_label(target_feats, ['weekday'])} x{math.exp(season_shape):.2f} the year's")
    if daily_months:
        # a month's effect is one occasion a year: its uncertainty is the level window's (below), as a season's
        thinnest = fit.effect_for({**target_feats, "month_of_year": ""})[1]
    unknown_share = None  # the target's weekday (business day) has no occurrence since an accepted shape change
    for (f, value), change in marked_changes.items():
        if target_feats.get(f) != value:
            continue
        if change.count == 0:
            unknown_share = _group_label({f: value}, [f])
            continue
        thinnest = min(thinnest, change.count)
        was = f" x{math.exp(change.delta):.2f} the old one," if change.moves else " new,"
        shape_notes.append(f"the weekly pattern changed from {marked_at:%Y-%m-%d} (accepted): the "
                           f"{_group_label({f: value}, [f])} share is{was} re-baselined on its {change.count} "
                           "occurrence(s) since")
    for (f, value), change in {**changed_once, **reshaped}.items():
        delta, count = change.delta, change.count
        if target_feats.get(f) == value:
            # the new share rests on the occurrences since the change: the band is as wide as that few
            thinnest = min(thinnest, count)
            shape_notes.append(f"the {_group_label({f: value}, [f])} share changed x{math.exp(delta):.2f} over the "
                               f"last {count} occurrences: re-baselined on them")
    window = list(range(start, n))
    plain = [j for j in window if not special[j]]
    if len(plain) * 2 >= len(window) and len(plain) >= 3:
        window = plain  # a level from ordinary days: an unmodelled first homecoming week is not the level
    elif daily:
        # (mostly calendar days: those on their groups' first occasion are no evidence of the level, their
        # effects learned on themselves, see _calendar_levels)
        known = _calendar_levels(fit, earned_days, max(0, n - 2 * level_points))
        seen = [j for j in window if known[j] is not None]
        window = seen if len(seen) >= 3 else window
    level_sample = [fit.e[j] + fit.slope * (t_target - t[j]) for j in window]
    level = median(level_sample)
    m_level = len(level_sample)
    # a weekly or monthly series' upward bursts (jackpot rollovers, promotions): its lower side is read from the
    # level of its latest ordinary partitions since an accepted shift (see _upward_bursts, _burst_floor)
    burst_floor = _burst_floor(fit, pts_pos, special, t, t_target, level, level_points) \
        if grain == "day" and step >= 1.5 and shift is None else None
    # a yearly event whose last year ended here: the level steps back as it did then (read from the
    # history's de-seasoned days, an event not in the calendar is otherwise the level)
    # (and a holiday whose previous occasion the level window misread at this offset: `lagged`, below; see
    # _year_back_level)
    event_move, event_days, lagged, as_a_year_back = (
        (level_back[1] if level_back is not None and level_back[0] is fit
         else _year_back_level(fit, pts_pos, special, target, cal, level_points))
        if grain == "day" and step < 1.5 and shift is None else YearBackLevel(0.0, 0, "", None))
    level += event_move
    # a ramp (a launch's growth, a wind-down): the median of the level window sits half a window
    # behind the target; where the latest points hold a local slope of their own, the level is
    # extrapolated along it, by at most the band's half-width (see _local_trend)
    trend_var, local_slope = 0.0, None
    if shift is None and not event_days:  # (an event's rise is no ramp of the level after it)
        # (ordinary as the final fit has them: a neighbourhood whose effect was within the noise is an ordinary day)
        calendar_days = _calendar_days(feats)
        # (a ramp's own knot first: a line over the whole window, through its flat start, lags it)
        # (a ramp read against a run on this same fit is the same hinge: not_a_step only adds a test)
        ramp = ((onset[1] if onset is not None and onset[0] is fit
                 else _onset_ramp(fit, t, calendar_days, level_points, spread) if hinge else None)
                or _local_trend(fit, t, calendar_days, level_points, spread))
        if ramp is not None and _ramp_unconfirmed(calendar_days, level_points) \
                and not _ramp_own(fit, pts_pos, t, calendar_days, level_points, spread, ramp[0]):
            ramp = None
        if ramp is not None:
            slope, se, intercept, t_mid = ramp
            move = intercept + (slope + fit.slope) * t_target - level
            if move * slope > 0:
                level += max(-band_h, min(band_h, move))
                local_slope = fit.slope + slope
                # the slope's own uncertainty, carried to the target
                trend_var = (se * (t_target - t_mid)) ** 2
    # a surge still running: its level as its latest half day reads it, where the model's parts from it (see
    # _surge_latest_level)
    surge_level = (_surge_latest_level(running, fit, level, band_h, level_points) if running is not None
                   else None)
    if running is not None and surge_level is not None:
        shape_notes.append(f"a run off the level in no calendar still running since "
                           f"{pts_pos[running.first].at:%Y-%m-%d %H:00}: the level its latest half day reads, "
                           f"x{math.exp(surge_level - level):.2f} the level window's")
        level, m_level, trend_var = surge_level, max(1, level_points // SURGE_SMOOTH_SHARE) + 1, 0.0
    # the errors already hold the level's own uncertainty; a level from fewer points (just after a
    # shift) and a group effect from few past points widen the band (and so does a yearly season's fit)
    inflation = math.sqrt(1 + max(0.0, 1.57 / m_level - 1.57 / level_points) + (1.57 / thinnest if used else 0)
                          + _season_uncertainty(fit, feats, target_feats, window) + season_var
                          + (_month_uncertainty(fit, feats, target_feats, window) if daily_months else 0.0)
                          + (1.57 / event_days if event_days else 0.0) + week_var)
    level += week_now  # (and the target week's days: its closed days and eves, see _week_days)
    level += season_now  # (the level was read on the de-seasoned series: this week's season put back)
    level += length_now  # (and a period a week longer than the cadence holds that week's rows)
    weekend = _weekend_prior(fit, target_feats, used, cal) if unseen and grain == "hour" else []
    so_far: list[tuple[str, float, float, float]] = []
    if (unseen or pooled) and grain == "hour":
        today = local[target].date()
        same_day = _hours_with_ordinary_past(fit, feats, pooled or [i for i, q in enumerate(pts_pos)
                                                                    if local[q.at].date() == today])
        so_far = _holiday_so_far(fit, same_day, feats, target_feats, used, cal, level, t, t_target, spread)
        # (one or two hours so far: read as the one likeness, unscaled, they already fit; a holiday that opened at
        # a day's own hours is that day's already, see _kept_hours below)
        if not so_far and not _kept_hours(pts, local, target, cal):
            so_far = _first_hours_so_far(fit, same_day, feats, target_feats, used, cal, level, t, t_target, p.ceiling)
    hypotheses = [e for _, e, _, _ in so_far]
    turned = (_holiday_turned(fit, same_day, feats, target_feats, used, cal, level, t, t_target, spread)
              if so_far else None)
    if turned is not None:
        shape_notes.append(f"the holiday's latest hours ran below its hours so far: the band also reaches their "
                           f"level (x{math.exp(turned - max(hypotheses)):.2f} the day's reading)")
    turned_up = (_holiday_turned_busier(fit, same_day, feats, target_feats, used, cal, level, t, t_target, spread)
                 if so_far else None)
    back_up = (_holiday_back_to_ordinary(fit, same_day, feats, target_feats, used, cal, level, t, t_target, spread)
               if so_far and turned_up is None else None)
    if back_up is not None:
        turned_up = back_up
        shape_notes.append(f"the holiday's latest hour came back to an ordinary day's after its quieter hours so far: "
                           f"read at its level (x{math.exp(back_up[0] - max(hypotheses)):.2f} the day's reading)")
    elif turned_up is not None:
        shape_notes.append(f"the holiday's latest {turned_up[2]} hours ran above its hours so far: read at their level "
                           f"(x{math.exp(turned_up[0] - max(hypotheses)):.2f} the day's reading)")
    # (a holiday hour never seen, before its hours so far can tell, on a day that opened at the hours a day
    # of the week keeps of its own: read as that day's same hour, see _kept_hours)
    kept = _kept_hours(pts, local, target, cal) if unseen and grain == "hour" and not so_far else []
    if kept:
        effect = min(_effect_as_day(fit, target_feats, day) for day in kept)
    # (an unseen holiday hour read from its hours so far: its baseline is the highest hypothesis, so
    # the hard rule's 1.9x is above everything it may plausibly be)
    log_pred = level + (turned_up[0] if turned_up else max(hypotheses) if so_far else effect)
    band_spread = spread
    if so_far:
        # the holiday's factor rests on its hours so far: as uncertain as a group of that many points,
        # and no more precise than the likeness fitted them (a turn busier: on its run's hours alone)
        inflation = math.sqrt(inflation ** 2 + 1.57 / (turned_up[2] if turned_up else len(same_day)))
        band_spread = max(spread, max(rms for _, _, rms, _ in so_far))
    # a small count moves by whole rows: never tighter than about one Poisson sd plus a row
    count_floor = _count_floor(math.exp(log_pred))
    # ... and a history noisier than the ceiling (0.70x-1.43x, made for thousands of rows) allows
    # widens it as far as counting noise explains: a group of ten rows a day moves by +-30% every
    # other week by counting alone (a Swedish refunds table flagged 93% of its clean days). The
    # band, and the hard rule's 1.9x, then cover the counts a clean partition of the expected size
    # reaches more than once in ten thousand (Poisson), but no further than the history's own
    # spread: rows that arrive like clockwork (devices reporting each minute) are not Poisson
    expected_rows = math.exp(log_pred)
    # (a week's partition is judged once for a day's seven times: the same false alarms per day, see _band_k)
    # (a partition keyed on days of the month holds its span's days, half a month's: judged once for them, as a week)
    judged_days = round(MONTH_DAYS / len(keyed)) if keyed else span
    k = _band_k(p, judged_days, fit, feats, target_feats, used)
    if k < p.k:
        shape_notes.append(f"a partition of {judged_days} days is judged at the daily band's false-alarm rate per day: "
                           f"{k:.2f} spreads (a day's {p.k:g})")
    raw_h = k * math.sqrt((band_spread * inflation) ** 2 + trend_var + length_var)
    count_low, count_high = 1.0, 1.0
    if raw_h > p.ceiling:
        # (a few rows on a series that reaches zero: the count's own tails, its log spread blind to them)
        count_low, count_high = _count_tails(expected_rows, raw_h, _sparse_count(expected_rows, zeros))
    hard_ratio = max(p.hard_ratio, count_high)
    h = min(max(raw_h, p.floor, count_floor), p.ceiling)
    # the hypotheses kept part at this hour by more than a band: the hours so far could not tell them
    # apart (a holiday's nights say nothing of its business hours), and a second copy of the lower
    # could pass as the higher (Easter Monday's business hours x0.5 of a weekday's, doubled, are a
    # weekday's). A holiday closes like a weekend more often than not (the weekend prior below): the
    # hour is judged as the lowest hypothesis's, with the widest band the model gives (its ceiling),
    # so a duplicate fails; a holiday worked as usual fails once, at its first business hour, and its
    # next hours fit "an ordinary day"
    parted = bool(so_far) and turned_up is None and max(hypotheses) - min(hypotheses) > h
    if parted:
        log_pred = level + min(hypotheses)
        count_floor = _count_floor(math.exp(log_pred))
    baseline = math.exp(log_pred)
    lower, upper = math.exp(log_pred - h), math.exp(log_pred + h)
    if burst_floor is not None:
        # the lower side also reads the ordinary partitions' level and noise (the bursts never reached below
        # them), where that is the narrower reading; the centre and the upper side are the model's as before (a
        # burst, or an owner's step, passes as then)
        below, narrower, runs = burst_floor
        h_low = min(max(raw_h * narrower, p.floor, count_floor), p.ceiling)
        floor_lower = min(baseline, math.exp(log_pred - below - h_low))
        if floor_lower > lower:
            lower = floor_lower
            shape_notes.append(f"{runs} upward bursts in the history, read out of its level: the band's lower side "
                               f"reads the ordinary partitions' level (x{math.exp(-below):.2f}) and noise "
                               f"(x{math.exp(-h_low):.2f} below it)")
    lower, upper = min(lower, baseline * count_low), max(upper, baseline * count_high)
    if p.lower_ratio is not None:
        lower = min(lower, baseline * p.lower_ratio)
    if p.upper_ratio is not None:
        upper = max(upper, baseline * p.upper_ratio)
    if as_a_year_back is not None and unproven * event_move > 0:
        unproven = 0.0  # (a neighbourhood seen once on the same dates a year back: the level's move reads it)
    if unproven < 0:
        lower = min(lower, math.exp(log_pred + unproven - h))
    elif unproven > 0:
        upper = max(upper, math.exp(log_pred + unproven + h))
    notes = shape_notes
    if grain == "day" and step < 1.5 and (run_up := _run_up_reach(pts_pos, target, target_feats, cal)) is not None:
        # a moving holiday's run-up in no calendar that its past occasions ran: the centre is the model's, that side
        # of the band reaches as far as they ran (less what the target's neighbourhood, where kept, reads already)
        run_up_near = (fit.effect_for(target_feats)[0] - fit.effect_for({**target_feats, "near_holiday": ""})[0]
                       if "near_holiday" in fit.used else 0.0)
        move = run_up[0] - run_up_near
        if move < 0:
            lower = min(lower, math.exp(log_pred + move - h))
        elif move > 0:
            upper = max(upper, math.exp(log_pred + move + h))
        notes.append(f"{run_up[1]}'s run-up: the same days before it ran x{math.exp(run_up[0]):.2f} "
                     f"on {run_up[2]} past occasion(s), to the holiday: the band reaches that far")
    if festival_once:
        lower = min(lower, math.exp(log_pred + festival_once - h))
        upper = max(upper, math.exp(log_pred + festival_once + h))
        # (a doubled partition fails as it did against the festival's level: the hard rule reads from there)
        hard_ratio *= math.exp(max(festival_once, 0.0))
        notes.append(f"{season}: a festival earned on one past occasion, when this day moved x{math.exp(festival_once):.2f}: "
                     "the centre is an ordinary day's, the band reaches that far")
    if grain == "day" and step >= MONTHLY_STEP_DAYS and (moved_month := _moved_holiday_month(fit, pts_pos, target, cal)
                                                         or _moved_working_days(pts_pos, target, cal)) is not None:
        # the moving holidays of the month (or of the month before, caught up in it) moved since its past years: the
        # band also reaches the reading where the months' effects were the holidays' (the centre the model's)
        reach, why = moved_month
        if reach < 0:
            lower = min(lower, math.exp(log_pred + reach - h))
        else:
            upper = max(upper, math.exp(log_pred + min(reach + h, math.log(DUPLICATE) - h)))
        notes.append(why)
    if grain == "day" and step < 1.5 and (place_back := _same_place_a_year_back(fit, pts_pos, special, target, cal,
                                                                            level_points)) is not None:
        # a one-day event a year back at the target's place in the month: the centre an ordinary day's, the band
        # reaching that far above, and a doubled partition on that reach still fails (as `festival_once`)
        upper = max(upper, math.exp(log_pred + place_back + h))
        hard_ratio *= math.exp(place_back)
        notes.append(f"the same place in the month a year back ran x{math.exp(place_back):.2f} above the level on its "
                     "own: the band reaches that far above")
    if grain == "day" and step < 1.5 and as_a_year_back is None and \
            (year_back := _same_dates_a_year_back(fit, pts_pos, special, target, cal, level_points)) is not None:
        # the same dates a year back ran above the level together: the upper side reaches that far (never so
        # far that a doubled partition passes); the lower side is untouched
        ran = year_back[0]
        upper = max(upper, math.exp(log_pred + min(ran + h, math.log(DUPLICATE) - h)))
        notes.append(f"the same dates a year back ran x{math.exp(ran):.2f} above the level ({year_back[1]} days): "
                     "the band reaches that far above")
    if grain == "day" and step < 1.5 and (tail := _upper_tail(fit, special)) is not None:
        # real one-day bursts in the history (a customer's backfill): the upper side reaches as far as
        # the largest seen and its noise, but never so far that a doubled partition passes; the lower
        # side is untouched
        reach = min(tail[0] + h, math.log(DUPLICATE) - h)
        if reach > h:
            upper = max(upper, math.exp(log_pred + reach))
            notes.append(f"{tail[1]} one-day bursts up to x{math.exp(tail[0]):.2f} in the history: the band reaches "
                         f"x{math.exp(reach):.2f} above")
    if grain == "day" and level_holiday is None \
            and (untold_day := _weekday_untold(fit, target_feats, used, h)) is not None:
        # a calendar day seen once, on another weekday: one occasion cannot tell whether the week's
        # shape held on it (a deadline's last weekend worked like its weekdays), so the band also
        # covers the day read without the weekdays' difference
        untold, untold_move = untold_day
        lower = min(lower, math.exp(log_pred + untold_move - h))
        notes.append(f"{untold} was seen once, on another weekday: the band also covers it without the weekdays' "
                     f"difference (x{math.exp(untold_move):.2f})")
    if week_now or week_var:
        notes.append(f"the {'week' if span == WEEK_DAYS else 'partition'} is read by the holidays "
                     f"{'and eves ' if span == WEEK_DAYS else 'after its key day '}it holds: x{math.exp(week_now):.2f}")
    if episode_weeks:
        notes.append(f"{episode_weeks} weeks of an episode in the history, off their other years, read as those years")
    if "week_of_year" in used and (edge := _season_edge_moves(fit, target_feats.get(YEAR_OUT), spread)) is not None:
        # the season's edges moved a week between the history's years: at an edge the week may read as either
        # neighbouring week (a doubled partition still fails)
        edge_low, edge_high, edge_moved = edge
        lower = min(lower, math.exp(log_pred + edge_low - h))
        upper = max(upper, math.exp(log_pred + min(edge_high + h, math.log(DUPLICATE) - h)))
        notes.append(f"the season's edges moved a week between years ({edge_moved} past edge weeks read as a "
                     f"neighbour's): this week at an edge reads x{math.exp(edge_low):.2f}-x{math.exp(edge_high):.2f}")
    if season_now or season_var:
        notes.append(f"a smooth yearly season is taken out of the series: x{math.exp(season_now):.2f} at this week")
    season_effect = fit.effects["season"].get(target_feats.get("season"), 0.0) if "season" in used else 0.0
    if (season_effect and target_feats.get("season") == RAMADAN and RAMADAN not in cal.seasons
            and target.date().toordinal() == season_at):
        # Ramadan lasts 29 or 30 days, and which only the crescent tells: its first day counted back
        # from Eid may be an ordinary day, so the band also covers an ordinary day's
        if season_effect > 0:
            lower = min(lower, math.exp(log_pred - season_effect - h))
        else:
            upper = max(upper, math.exp(log_pred - season_effect + h))
        notes.append("Ramadan's first day if it lasts 30 days, an ordinary day if 29: either passes")
    if unseen_season:
        # the first time the history holds this season: it may move the series by as much as the
        # widest band the model gives (Ramadan's orders up a third, an office's traffic down one)
        # without being a fault, so the band reaches that much further each way (failing the season
        # day after day would teach its owner to ignore the check); empty and doubled days still fail
        lower = min(lower, math.exp(log_pred - h - p.ceiling))
        upper = max(upper, math.exp(log_pred + h + p.ceiling))
        notes.append(f"{season} has no past occurrence: the band reaches x{math.exp(-p.ceiling):.2f}-"
                     f"x{math.exp(p.ceiling):.2f} further (a season may move the series that much); "
                     "the hard rules judge beyond it")
    if unknown_share is not None:
        # its new share is anyone's guess: like one of the week's other days (their shares now, as
        # far as seen), and at least as far as a first-ever season reaches. An empty day still fails,
        # and so does one at 1.9x the busiest share (the hard rule's baseline is the highest the day
        # may plausibly be, as for a holiday hour never seen: a Friday at 0.6 becoming a weekday at
        # 1.1 is 1.83x its old share, and 1.9x of the old share is within its noise)
        shares = [fit.effects[f].get(v, 0.0) for f in SHAPE_GROUPS if f in used for v, m in fit.members[f].items() if m]
        lower = min(lower, math.exp(log_pred - h - p.ceiling), math.exp(level + min(shares, default=effect) - h))
        upper = max(upper, math.exp(log_pred + h + p.ceiling), math.exp(level + max(shares, default=effect) + h))
        hard_ratio = max(hard_ratio, p.hard_ratio * math.exp(max(shares, default=effect) - effect))
        notes.append(f"the weekly pattern changed from {marked_at:%Y-%m-%d} (accepted) and "
                     f"{unknown_share} has not occurred since: its share is unknown, the band reaches as far as the "
                     f"week's other days and at least x{math.exp(-p.ceiling):.2f}-x{math.exp(p.ceiling):.2f} "
                     "further; the hard rules judge beyond it")
    if as_a_year_back is not None:
        notes.append(f"the same dates a year back ran x{math.exp(event_move):.2f} off the level ({event_days} days), and "
                     "this year's days so far ran as theirs did: the level moves that far")
    elif lagged:
        notes.append(f"the level window missed the same days around {lagged}'s previous occasion by x{math.exp(event_move):.2f}: "
                     f"the level moves x{math.exp(event_move):.2f}")
    elif event_days:
        notes.append(f"the level window stood out x{math.exp(-event_move):.2f} as it did a year earlier, when the "
                     f"days after it came back: the level moves x{math.exp(event_move):.2f}")
    if local_slope is not None:
        notes.append(f"the latest {2 * level_points} points hold a trend of their own, x{math.exp(local_slope):.4f} "
                     f"a point (the history's x{math.exp(fit.slope):.4f}): the level is extrapolated along it, "
                     f"by at most the band's half-width")
    # an accepted weekly pattern change: only its weeks say which slots are closed now
    # (an eve read as another day of the week keeps that day's closed slots, not its own weekday's: see _as_day_before)
    slot, slot_local = (_as_day_before(local, eve_day, target)
                        if eve_day is not None and _is_eve(local[target].date(), cal) else (target, local))
    closed = _closed_as_usual([q for q in pts if marked_at is None or q.at >= marked_at], slot_local, slot, grain,
                              step, cal)
    if unseen_gap and closed is None:
        upper = baseline * hard_ratio  # a backlog of unknown size: only the hard rule judges a spike
        notes.append(f"the first partition after {unseen_gap} closed {'hours' if grain == 'hour' else 'days'}, "
                     f"a closure never seen before: "
                     f"a spike is judged by the hard rule only")
    if parted:
        reach = max(h, p.ceiling, count_floor)
        # (never narrower than the counts a clean hour of the expected size reaches, as above)
        lower, upper = min(math.exp(log_pred - reach), baseline * count_low), max(math.exp(log_pred + reach),
                                                                                  baseline * count_high)
        notes.append(f"{so_far_of}: the holiday's {len(same_day)} hours so far fit "
                     f"{' or '.join(name for name, _, _, _ in so_far)}, which part at this hour "
                     f"(x{math.exp(max(hypotheses) - min(hypotheses)):.2f}): judged as the lowest, with the widest band")
    elif turned_up is not None:
        # (the latest hours' level, read under each likeness: the band around the lowest reaches the highest too)
        lower = min(lower, baseline * count_low)
        upper = max(upper, math.exp(level + turned_up[1] + h), baseline * count_high)
        notes.append(f"{so_far_of}: read from the holiday's latest {turned_up[2]} hours, which turned busier than its "
                     f"{len(same_day)} hours so far ({' or '.join(name for name, _, _, _ in so_far)})")
    elif so_far:
        # a factor read from hours of another kind (the first evening, from the nights) may be off by
        # as much as the kinds differ
        # as far off, too, as a clean hour of the expected size counts (a line's night of three calls
        # read at the ceiling's 0.70x-1.43x, made for thousands of rows, failed every other hour)
        lower = min(math.exp(min(level + e - gap for _, e, _, gap in so_far) - h), baseline * count_low)
        upper = max(math.exp(max(level + e + gap for _, e, _, gap in so_far) + h), baseline * count_high)
        notes.append(f"{so_far_of}: read from the holiday's {len(same_day)} hours so far, "
                     f"which fit {' or '.join(name for name, _, _, _ in so_far)}")
    elif kept:
        # the holiday opened at a day's own hours (a shop's Sunday mall hours): it is that kind of day, and
        # an ordinary hour's reading (x3 a Sunday's) would pass its double. How much busier than that day it
        # runs, its hours so far will tell (from the third); until then a spike is judged by the hard rule,
        # and it may be quieter than that day by as much as the widest band (as a season never seen)
        lower = min(lower, math.exp(log_pred - h - p.ceiling))
        upper = baseline * hard_ratio
        notes.append(f"{unseen} has no past occurrence: it opened at the hour a "
                     f"{' or '.join(calendar.day_name[d] for d in kept)} opens at, later than other days: read as "
                     "that day's same hour, a spike judged by the hard rule")
    elif unseen and grain == "day" and len(behaviours := _holiday_behaviours(fit, quiet_holidays)) >= 5:
        # never seen, on a series that has seen five of the calendar's other holidays or more (a
        # few spring holidays of a new table say little of the next: eating out at Easter, street
        # parties on King's Day): it behaves like one
        # of them, from the quietest to the busiest (an ordinary day only where some holiday was
        # one). Otherwise a holiday at half the ordinary volume, loaded twice, reads as an ordinary
        # day and passes (an Indian holiday that fell on closed Sundays the year before)
        # (a week's quietest is read per holiday day, see _behaviours_by_holiday_days; never quieter than the
        # quietest week seen: a week of two named days, one a Sunday, need not be twice as quiet)
        quietest = max(min(_behaviours_by_holiday_days(fit, pts_pos, target, cal, quiet_holidays)
                           if 6 <= step <= 8 else (), default=min(behaviours)), min(behaviours))
        lower = min(lower, math.exp(log_pred + quietest - h))
        upper = math.exp(log_pred + max(behaviours) + h)
        notes.append(f"{unseen} has no past occurrence: expected to behave like one of the {len(behaviours)} "
                     f"holidays seen, x{math.exp(quietest):.2f}-{math.exp(max(behaviours)):.2f} "
                     f"of an ordinary {'week' if 6 <= step <= 8 else 'day'}")
    elif (unseen and grain == "day" and span == 1 and 1.5 <= step < MONTHLY_STEP_DAYS
          and (behaviours := _holiday_behaviours(fit, quiet_holidays))):
        # a partition of several days keyed on a holiday never seen (its label names the key day only): the
        # holiday is one day of `step`, so it behaves like a seen holiday on a key day or moves the partition by
        # no more than its day's share (closed, or as busy as the hard rule allows); the hard rules alone passed a
        # fortnight's double there
        quietest, busiest = _key_holiday_reach(behaviours, step, p.hard_ratio)
        lower = min(lower, math.exp(log_pred + quietest - h))
        upper = max(upper, math.exp(log_pred + busiest + h))
        notes.append(f"{unseen} has no past occurrence: one day of a partition of {step:.0f}, read like the "
                     f"{len(behaviours)} holiday(s) seen on a key day or its day's share, "
                     f"x{math.exp(quietest):.2f}-{math.exp(busiest):.2f} of an ordinary partition")
    elif unseen and grain == "day":
        # never seen, and too few holidays seen to say what this calendar's are like: it may be
        # quieter or busier than an ordinary day (a Pentecost Monday of bookings x1.15), so only the
        # hard rules judge it
        lower = min(lower, math.exp(log_pred - 4 * p.ceiling))
        upper = baseline * hard_ratio
        notes.append(f"{unseen} has no past occurrence: expected, judged by the hard rules only")
    elif unseen:
        # never seen: like an ordinary hour or, where the weekend differs, like the weekend's same
        # hour (a holiday closes like a weekend: business hours quiet, a nightly batch unchanged),
        # and it may be quieter than either (Labour Day x0.7 where Sunday is x0.9). Where the weekend's
        # same hour runs busier (leisure: a ski resort's Easter Monday skis like a Saturday), the upper
        # side reaches it too, and the hard rule reads from there (see _busier_weekend)
        lower = min([lower, math.exp(level + effect - 2 * p.ceiling * 2),
                     *(math.exp(level + w - h - 2 * p.ceiling * 2) for w in weekend)])
        # (only where the history holds no holiday at all: a holiday seen tells how this business's run)
        busier = 0.0 if quiet_holidays or _holiday_behaviours(fit, False) else _busier_weekend(effect, weekend)
        if busier > 0:
            upper = max(upper, math.exp(log_pred + busier + h))
            hard_ratio *= math.exp(busier)
        notes.append(f"{unseen} has no past occurrence: expected, judged by the hard rules only"
                     + (f" (like an ordinary hour or the weekend's same hour, x{math.exp(min(weekend) - effect):.2f}"
                        f"-{math.exp(max(weekend) - effect):.2f} of it)" if weekend else "")
                     + (f": the weekend runs busier at this hour, so the band reaches its x{math.exp(busier):.2f} "
                        "and the hard rule reads from there" if busier > 0 else ""))
    if turned is not None:
        lower = min(lower, math.exp(level + turned - h))  # (a holiday turned quieter today, see _holiday_turned)
    own_closed = own_calendar and unseen is not None and not so_far and not _holiday_behaviours(fit, quiet_holidays)
    if own_closed:
        # a market on a calendar of its own closes on its holidays (that is why its owner gave it one),
        # and the history has shown none of them open: empty is expected, and open it is read as usual
        lower = 0.0
        notes.append(f"{unseen} is a holiday of the series' own calendar, never seen in its history: a market on "
                     "a calendar of its own closes on its holidays, so an empty partition is expected (open, it "
                     f"is read as an ordinary {'hour' if grain == 'hour' else 'day'}, up to {baseline:,.0f} "
                     f"x{upper / baseline:.2f})")
    reopens = _reopens_after_empty_holidays(pts, local, target, cal) if grain == "hour" else None
    if reopens is not None and not unseen_gap and closed is None:
        upper = max(upper, baseline * hard_ratio)  # a backlog of unknown size: only the hard rule judges a spike
        notes.append(f"the first open day after {reopens}, when every partition was empty, a closure never seen "
                     "before: a spike is judged by the hard rule only")
    late = _opened_late(pts, local, target, cal) if grain == "hour" else None
    if late is not None and reopens is None and not unseen_gap and closed is None:
        upper = max(upper, baseline * hard_ratio)  # the closed hours' backlog, of unknown size, as above
        notes.append(f"the day opened at {(late[0] + night) % 24:02d}h, not at its usual {(late[1] + night) % 24:02d}h (its first hours closed, in "
                     "no calendar): its hours may carry their backlog, a spike is judged by the hard rule only")
    if grain == "hour" and not unseen and not so_far:
        today = local[target].date()
        same_day = [i for i, q in enumerate(pts_pos) if local[q.at].date() == today]
        near_read = _near_unseen_so_far(fit, same_day, feats, [local[q.at] for q in pts_pos], local[target], cal,
                                        level, t, t_target, spread)
        if near_read is not None:
            # a day around a holiday the history never held: the band also reaches as far as the day's own
            # hours so far have moved, on their side only (an empty, a doubled or a dropped hour still fails)
            near_label, near_factors = near_read
            lower = min(lower, *(math.exp(log_pred + f - h) for f in near_factors))
            upper = max(upper, *(math.exp(log_pred + f + h) for f in near_factors))
            notes.append(f"{near_label}, a day around a holiday never seen in the history: its hours so far ran "
                         f"{' and '.join(f'x{math.exp(f):.2f}' for f in near_factors)} of an ordinary day's, "
                         "and the band covers that too")
        first_hours = (_bridge_run_first_hours(fit, same_day, feats, local[target], cal, level, t, t_target, spread)
                       if near_read is None else None)
        if first_hours is not None:
            # a day between two holidays whose first hours ran below its weekday's: the band also reaches their level
            lower = min(lower, math.exp(log_pred + first_hours - h))
            notes.append(f"a day between two holidays, its hours so far x{math.exp(first_hours):.2f} of an ordinary "
                         "day's or lower: the band also reaches their level")
    if grain == "hour" and not unseen:
        eve = _eve_effect(fit, [local[q.at] for q in pts_pos], local[target], cal, spread)
        if eve is not None:
            # the evening before a holiday moved this hour on past eves (or, none seen, may run busier):
            # the band also covers that move, on its side only (a drop on the eve still fails where eves rose)
            effect_eve, eves = eve
            if effect_eve > 0:
                upper = max(upper, math.exp(log_pred + effect_eve + h))
            else:
                lower = min(lower, math.exp(log_pred + effect_eve - h))
            holiday_name = cal.name(local[target].date() + timedelta(days=1))
            notes.append(f"the eve of {holiday_name}: this hour ran x{math.exp(effect_eve):.2f} on {eves} past "
                         "eve(s), and the band covers that too" if eves else
                         f"the eve of {holiday_name}, no past eve seen: the band reaches x{math.exp(effect_eve):.2f} "
                         "higher (an evening before a day off may run busier)")
    reopening = _reopening_lift(pts, target, cal, h) if grain == "day" and step < 1.5 else None
    if reopening is not None:
        # the first day back after a closure like those its past reopenings ran high after: the band's upper side
        # also covers their median lift (a reopening at the ordinary level, a half-term's, still passes)
        upper = max(upper, math.exp(log_pred + reopening[0] + h))
        notes.append(f"the first day back after a closure in no calendar: {reopening[1]} of its {reopening[2]} past "
                     f"reopenings ran x{math.exp(reopening[0]):.2f} (their median), and the band covers that too")
    if closed is not None:
        notes.append(f"closed as usual: no rows on {closed[0]} of {closed[1]} past {closed[2]} (the weeks either side "
                     "loaded), so an empty partition is one of its ordinary ones")
    if grain == "day" and step < 1.5 and cal.seasons and unseen is None and not parted:
        once = _season_seen_once(pts_pos, target, cal, p, spread, h)
        if once is not None:
            # a configured season seen once: its offset's day a year before, on this year's weekday and level,
            # replaces a season-wide effect times the ordinary week (see _season_seen_once)
            log_pred, h, once_other, once_note = once
            baseline = math.exp(log_pred)
            lower, upper = math.exp(min(log_pred, once_other) - h), math.exp(max(log_pred, once_other) + h)
            notes.append(once_note)
    ended = _surge_may_have_ended(shift, pts_pos, pts, local, target) if grain == "hour" else None
    if ended is not None and max(ended, 1 / ended) <= upper / lower:
        # (only a run no further off than the band is wide: the two levels' bands then meet, while between a
        # larger surge's level and the one before it a drop from the surge reads as its end)
        # the band also reaches the level before the run, on the run's far side (its near side as before)
        lower, upper = min(lower, lower / ended), max(upper, upper / ended)
        notes.append(f"a run of x{ended:.2f} over {EVENT_RUN_DAYS} day(s) at most, not accepted as a shift, may have "
                     "ended with its days: this first hour of a new day may read at the level before it")
    if dark_run is not None and shift is not None and shift.get("ratio"):
        # a short dark run that ended on past days (see _dark_run_ended_before): the band and the hard ratio also
        # reach the level before it, on the run's far side (its near side as before: a dark hour reads as the shift's)
        upper, hard_ratio = max(upper, upper / shift["ratio"]), max(hard_ratio, hard_ratio / shift["ratio"])
        notes.append(f"a run of x{shift['ratio']:.2f} within a day, not accepted as a shift, like the runs that "
                     f"ended on {dark_run[0]} past days (up to {dark_run[1]} points): this hour may read at the "
                     "level before it")
    opened_read = _opened_hours_read(pts, local, target, p) if grain == "hour" and closed is None else None
    if opened_read is not None:
        # the series opened hours it kept closed: the latest days' same hours read it, not the history's bands
        baseline, lower, upper, hard_ratio, opened_note = opened_read
        notes.append(opened_note)
    closure_read = _closure_hours_read(pts, local, target, baseline, lower, upper, h, spread, hard_ratio, p) \
        if grain == "hour" and closed is None and opened_read is None else None
    if closure_read is not None:
        # hours next to a day's usual hours shut in no calendar: read against the past days shut alike, or wider
        baseline, lower, upper, closure_note = closure_read
        notes.append(closure_note)
    # (an hour a surge still running already reads by its own days, see _surge_hour_shape, is not read twice)
    evening = _event_evening_read(fit, [local[q.at] for q in pts_pos], local[target], h) \
        if grain == "hour" and compare_by is None and opened_read is None and closure_read is None \
        and surge_hour is None else None
    if evening is not None:
        # an event's evening in no calendar, seen on the latest days and today so far: the band moves, no wider
        baseline, lower, upper = (v * math.exp(evening) for v in (baseline, lower, upper))
        notes.append(f"an event's evenings in no calendar: this hour and the hour before ran up on the latest "
                     f"{EVENT_EVENING_DAYS} day(s), the hour before up today too: read x{math.exp(evening):.2f} "
                     "higher, the band no wider")
    if dip is not None:
        upper, hard_ratio, dip_note = _dip_set_aside(dip, pts_pos, history, target, baseline, upper, hard_ratio,
                                                     calendar_=calendar_, params=params, own_calendar=own_calendar)
        notes.append(dip_note)
    upper = min(upper, baseline * hard_ratio)
    group = _group_label(target_feats, used)
    if shift is not None:
        shift = {k: v for k, v in shift.items() if k != "index"}
    if marked_at is not None:
        zeros = [q for q in zeros if q.at >= marked_at]  # empty days of the old pattern are not this one's
    # empty partitions before the series' first rows, a level window of them at least, are from before it began (a
    # region's agents signed inside the history): no slot of it closed then, so they are none of its empties (a
    # Ramadan it never traded in would make its first Ramadan's empty days look usual). A shorter run is a closure
    # the window happens to start in (a night's hours, a weekend), its slots' own empties
    if sum(q.at < pts_pos[0].at for q in pts) >= level_points:
        zeros = [q for q in zeros if q.at > pts_pos[0].at]
    if grain == "hour":
        zeros = _outside_shut_spells(zeros, pts_pos, step, level_points)
    # (an empty period's position in the year is counted as the points' are; an hour of a holiday never
    # seen, or one read with its holiday's hours together, is read as its ordinary hour, above, so that hour's past
    # empties are its own)
    like = {**target_feats, "holiday": "", "near_holiday": ""} if (unseen or pooled) and grain == "hour" else target_feats
    same_day_zeros = [q for q in zeros if all(
        ((by_place[1][q.at] if by_place else round((target - q.at).days / step) % cast(int, steps_a_year))
         if f == "period_of_year"
         else _eve_features(local[q.at], night, eve_day, grain, cal, span).get(f, 0)) == like[f] for f in used)]
    if grain == "day" and step < 1.5 and "weekday" not in used:
        same_day_zeros = _on_its_open_weekdays(same_day_zeros, pts_pos, target, cal)
    same = [q.at for q, fv in zip(pts_pos, feats) if all(fv[f] == like[f] for f in used)]
    if same_day_zeros and _opened_for_good([q.at for q in same_day_zeros], same, p):
        # the target's slot opened for good after its empty days (a shop that began opening on Sundays):
        # those were the old pattern's, as before an accepted shape change
        same_day_zeros = []
        # (a daily series whose fit reads no weekday compares the target with every weekday: its weekly slot's
        # closure stands unless that weekday's own occurrences opened for good)
        if closed is not None and closed[2].startswith("occurrences") and (
                grain != "day" or "weekday" in used or _weekday_reopened(pts, slot_local[slot].date(), p)):
            closed = None
            notes = [n for n in notes if not n.startswith("closed as usual")]
    closed_season = (_closed_in_season(pts, target, step)
                     or (_closed_as_last_year(pts, target, cal) if step < 1.5 else None)) if grain == "day" else None
    if closed_season is not None:
        notes.append(closed_season[1])
    open_state = None
    occasions = _open_occasions(pts_pos, target, cal, hard_ratio, spread, p) if (
        grain == "day" and step < 1.5 and closed is None) else None
    if occasions is not None and occasions[0][1] > OPEN_APART * upper:
        open_state = occasions[0]
        notes.append(occasions[1])
    return Forecast(baseline=baseline, lower=lower, upper=upper, group=group, features=used, history_points=len(pts),
                    spread=spread, half_width=h, open_state=open_state, trend_per_step=math.exp(fit.slope if local_slope is None else local_slope), shift=shift,
                    unseen_holiday=unseen, notes=notes, hard_ratio=hard_ratio,
                    closed=own_closed,
                    empty_is_normal=closed is not None or own_closed or closed_season is not None or bool(same_day_zeros) and (len(same_day_zeros) * 3 >= len(same) + len(same_day_zeros)
                                                              or _empty_by_chance(expected_rows, raw_h, p))
                    or _zero_by_counting(baseline, raw_h, zeros, p))


def _surge_may_have_ended(shift: dict | None, pts_pos: Sequence[Point], pts: Sequence[Point],
                          local: Mapping[datetime, datetime], target: datetime) -> float | None:
    """The ratio of a run the shift rule took for a new level (not accepted by the owner) where the target is
    the first partition of its local day and the run spans EVENT_RUN_DAYS local days at most, else None. A
    business's surge often ends with its days (a payday's pick-ups from its afternoon through the next day, a
    two-day sale): until the run has carried into a day after those, the next day's first hour may open at the
    level before it as well as at the run's (it was "below_band" at x0.67-0.75 of a payday's level)."""
    if shift is None or shift["accepted"] or not shift.get("ratio") or shift.get("index") is None:
        return None
    today = local[target].date()
    if any(local[q.at].date() == today for q in pts):
        return None
    run_days = {local[q.at].date() for q in pts_pos[shift["index"]:]}
    return float(shift["ratio"]) if len(run_days) <= EVENT_RUN_DAYS else None


def _dark_run_ended_before(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], shift: dict | None,
                           h: float, level_points: int, after: int, hard: float,
                           local: Mapping[datetime, datetime]) -> tuple[int, int] | None:
    """A short dark run the shift rule took for a new level that the group's own history shows ending: (the local
    days holding past runs like it that ended, the longest of those runs in points), else None. The shift's run (not
    accepted by its owner) sits beyond the hard ratio (`hard`, its log) below the level before it, on the series net
    of its dense effects and trend (`_dense_adjusted`), and spans less than DARK_RUN_MAX_SPAN; the earlier runs off
    the level (`_runs_off_level`, of `after` points or more, beyond the band's half-width `h`) at least half as deep
    and as short, each followed by `after` ordinary points nearer the level before it than half its depth (it ended),
    fall on DARK_RUN_MIN_OCCASIONS local days or more, and the run so far is no longer than the longest of them; every
    hour of the run and of those runs expects DARK_RUN_MIN_ROWS rows or more at the level before it (a small group's
    night hours of a few rows run that low by counting noise alone, which is no dark run). A
    rotating blackout block, a nightly maintenance window, a siesta closure: the run is an episode, and the next hour
    may be its last dark one or the first back at the level before it (after four dark hours the shift rule read a
    block's first lit hour 4-6.7x). A run longer than every past one, or one never seen to end (a feed that stops),
    stays the shift rule's new level; calendar points (`special`) neither break nor confirm a run."""
    if shift is None or shift["accepted"] or shift.get("index") is None:
        return None
    adj = _dense_adjusted(fit)
    n, start = len(adj), shift["index"]
    run = [j for j in range(start, n) if not special[j]]
    before = [j for j in range(start - 1, -1, -1) if not special[j]][:level_points]
    if not run or len(before) < level_points // 2 or pts[n - 1].at - pts[start].at >= DARK_RUN_MAX_SPAN:
        return None
    level = median(adj[j] for j in before)
    depth = median(adj[j] for j in run) - level

    def counted(members: Iterable[int], base: float) -> bool:
        # (each hour's rows expected at the level before the run: its log value less its own move off that level)
        return all(fit.x[j] - (adj[j] - base) >= math.log(DARK_RUN_MIN_ROWS) for j in members)

    if depth > -hard or not counted(run, level):
        return None
    days, longest = set(), 0
    for first, last, size in _runs_off_level(adj, special, 0, start, h, level_points, after):
        if size > depth / 2 or pts[last].at - pts[first].at >= DARK_RUN_MAX_SPAN:
            continue
        base = median(adj[j] for j in [j for j in range(first - 1, -1, -1) if not special[j]][:level_points])
        back = [j for j in range(last + 1, start) if not special[j]][:after]
        if len(back) < after or any(adj[j] - base < size / 2 for j in back) \
                or not counted((j for j in range(first, last + 1) if not special[j]), base):
            continue
        days.add(local[pts[first].at].date())
        longest = max(longest, sum(1 for j in range(first, last + 1) if not special[j]))
    if len(days) < DARK_RUN_MIN_OCCASIONS or len(run) > longest:
        return None
    return len(days), longest


def _against_last_week(day: date, values: Mapping[date, float], cal: HolidayCalendar) -> float | None:
    """The median (log) of the six days before `day` (its week's other weekdays) without holidays, None where
    fewer than OPEN_WEEK_DAYS of them are loaded: the level a day of `day`'s weekday is read against."""
    week = [values[d] for d in (day - timedelta(days=j) for j in range(1, WEEK_DAYS)) if d in values and not cal.name(d)]
    return median(week) if len(week) >= OPEN_WEEK_DAYS else None


def _open_occasions(pts: Sequence[Point], target: datetime, cal: HolidayCalendar, hard_ratio: float, spread: float,
                    p: ModelParams) -> tuple[tuple[float, float, float], str] | None:
    """The open state of the target's weekday where the history holds it closed (a small always-open part's
    rows only: online orders on a store chain's Sundays) but open like a working day on a few occasions (Poland's
    trading Sundays, in no calendar): ((baseline, lower, upper), a note), else None. A day of such a weekday is
    one of two states, not one level: the model reads the closed one (the occasions are its outliers) and
    an open occasion would fail its hard ratio. Each occurrence is read against its previous six days (the
    week's other weekdays, an open week's: not a hard ratio below their usual level): the weekday is kept
    closed where its median stands `hard_ratio` squared below them at least (loaded twice, still a hard ratio
    below them; an open weekday's first day back after a break stands above its week too: no second state);
    the open ones stand within `hard_ratio` of their week's other days (open like a working day), number at
    least OPEN_MIN_OCCASIONS and at most OPEN_MAX_SHARE of the occurrences. The open baseline is the target's
    previous six days' level times the occasions' median ratio, its band their spread (never below the
    model's `spread`) times k, within the model's floor and ceiling, so that a doubled open day or one
    dropped by a third falls outside it and meets the closed state's hard ratio."""
    values = {q.at.date(): math.log(q.value) for q in pts if q.value > 0}
    day = target.date()
    now = _against_last_week(day, values, cal)
    if now is None:
        return None
    weeks = [(d, w) for d in values if d.weekday() == day.weekday()
             if (w := _against_last_week(d, values, cal)) is not None]
    if not weeks:
        return None
    # an occasion read in an open week only: a week of a break or a closure, a hard ratio below the usual, would
    # make its closed weekday look open against it
    usual_week = median(w for _, w in weeks)
    read = [(d, values[d] - w) for d, w in weeks if w >= usual_week - math.log(hard_ratio)]
    usual = median(r for _, r in read)
    if usual > -2 * math.log(hard_ratio):
        # a weekday open as usual, or a light one (a Saturday at half a weekday's): one kept closed stands a hard
        # ratio below a working day even loaded twice
        return None
    # open like a working day: within the hard ratio of the week's other days (a low count's noise, a hard ratio
    # above a closed day's few rows, is no opening)
    open_ = [r for _, r in read if r >= -math.log(hard_ratio)]
    if len(open_) < OPEN_MIN_OCCASIONS or len(open_) > OPEN_MAX_SHARE * len(read):
        return None
    level = median(open_)
    h = p.half_width(max(MAD_SCALE * mad(open_), spread))
    baseline = math.exp(now + level)
    note = (f"a {day:%a} kept closed, open on {len(open_)} of {len(read)} past occurrences (x{math.exp(level - usual):.1f}"
            f" its usual level): a day at that open level ({baseline:,.0f} "
            f"[{baseline * math.exp(-h):,.0f}, {baseline * math.exp(h):,.0f}]) is one of those occasions")
    return (baseline, baseline * math.exp(-h), baseline * math.exp(h)), note


def _outside_shut_spells(zeros: Sequence[Point], pts_pos: Sequence[Point], step: float,
                         spell: int) -> list[Point]:
    """The empty partitions of an hourly series that fall outside its shut spells: gaps between two partitions with
    rows that hold `spell` partitions or more (the level window: a week of hours, so every hour of the week was
    empty, no slot's own pattern) and that ended before the target (rows since). A route whose berth was closed for
    weeks, a branch shut for a refit, a sensor out for a fortnight: the spell is the series shut, once, and once it
    is back its slots' empties are those outside the spell. Kept in, a three-week closure in four weeks of hours
    made every slot's empties look usual (`same_day_zeros` a quarter or more of its occurrences), so the route's
    rows lost to a failed load passed as `empty_as_usual` for days after it reopened. A spell still running at the
    target (no rows since) keeps its empties: the first hour back cannot be told from the closure going on. An
    hourly history is weeks (never a year), so such a spell cannot be a season seen again; a night's or a weekend's
    closed hours are runs far shorter than a week, and keep counting as the slot's."""
    cut = [(a.at, b.at) for a, b in itertools.pairwise(pts_pos)
           if (b.at - a.at).total_seconds() / 86400 / step - 1 >= spell]
    return [q for q in zeros if not any(a < q.at < b for a, b in cut)]


def _opened_for_good(empty: Sequence[datetime], open_: Sequence[datetime], p: ModelParams) -> bool:
    """Whether a slot's (a weekday's) empty occurrences all precede a run of open ones that its share of
    empty ones over the whole history would give by chance less often than `OPENED_P` (and
    `p.shape_after` at least, as a share changed for good must hold): a shop that began opening on
    Sundays, whose closed Sundays are an old pattern's. A slot empty now and then keeps its empties (a
    run of its open occurrences is as likely as its share says; the share is the whole history's, the
    run included: the share up to the last empty one ends on an empty one by construction, and two
    chance empties among a channel's first Sundays would read as a slot closed two weeks in seven)."""
    last = max(empty)
    since = sum(at > last for at in open_)
    share = len(empty) / (len(empty) + len(open_))
    return since >= p.shape_after and (1 - share) ** since < OPENED_P


def _on_its_open_weekdays(zeros: Sequence[Point], pts_pos: Sequence[Point], target: datetime,
                          cal: HolidayCalendar) -> list[Point]:
    """A daily series' empty partitions that are the target's kind of day: where the target falls on one of the
    weekdays the series opens on (`open_weekdays`), those on its open weekdays outside its closures that ended
    (days without rows holding TERM_CLOSURE_OPEN_DAYS of its open weekdays in no calendar, rows after them) alone.
    A group whose fit reads no weekday (its open days all alike: a school's tuck shops, Monday to Friday) matched
    the target with every weekday's empties, its closed weekends' and its holidays' among them (`_closed_as_usual`
    and `_closed_as_last_year` read those): they made a third of its days look empty as usual, and a missing group
    on a school day passed."""
    days = [q.at.date() for q in pts_pos]
    open_days = open_weekdays(days)
    if not zeros or target.weekday() not in open_days:
        return list(zeros)
    closures = [(first, last) for first, last, count in
                _empty_runs(set(days), min(zeros[0].at.date(), days[0]), days[-1], open_days, cal)
                if count >= TERM_CLOSURE_OPEN_DAYS]
    return [q for q in zeros if q.at.weekday() in open_days
            and not any(first <= q.at.date() <= last for first, last in closures)]


def _weekday_reopened(pts: Sequence[Point], day: date, p: ModelParams) -> bool:
    """Whether a daily series' partitions on `day`'s weekday opened for good after their empty ones
    (`_opened_for_good` on that weekday's own occurrences). A group whose fit reads no weekday (its open days all
    alike: a school's tuck shops, Monday to Friday) matches the target with every weekday's partitions, so its
    weekdays' rows after its latest empty Saturday in no calendar's neighbourhood said its Saturdays had opened:
    its Saturday, empty on all 46 of its past occurrences, read as a missing group."""
    empty = [q.at for q in pts if q.at.weekday() == day.weekday() and q.value <= 0]
    open_ = [q.at for q in pts if q.at.weekday() == day.weekday() and q.value > 0]
    return bool(empty) and _opened_for_good(empty, open_, p)


def _shut_by_accepted_shift(pts: Sequence[Point]) -> datetime | None:
    """The partition of the latest accepted shift where its owner accepted an empty partition as the new level and
    every partition since stayed empty, after rows before it on nearly every partition (a group whose branches were
    sold or closed for good); else None. The fit reads positive partitions only, so an empty shift partition would
    leave the old level in place and every later empty day would fail against it. A series never accepted as shut
    (rows before an unaccepted run of empties), or with rows again since the shift, is read as usual: its empties
    still fail."""
    start = max((i for i, q in enumerate(pts) if q.shift), default=None)
    if start is None or any(q.value > 0 for q in pts[start:]):
        return None
    # its partitions from its first rows to the shift: rarely empty, so an empty one is news (a group closed on
    # Sundays or at night, accepted on one of its empty partitions, is no closure: its rows come back next)
    first = next((i for i, q in enumerate(pts[:start]) if q.value > 0), None)
    before = pts[first:start] if first is not None else []
    if not before or sum(q.value <= 0 for q in before) > SHUT_EMPTY_SHARE * len(before):
        return None
    return pts[start].at


def _not_launched(past: Sequence[Point]) -> datetime | None:
    """The first partition of a series whose every past partition is empty (a district a delivery app has not
    launched in yet, a product line set up before its first sale), else None. Nothing was ever counted, so no level,
    weekday or holiday can be read from it: read by weekday and label, its empty days would be a closed slot's on
    some days and news on others (a Monday failed as `empty`), though empty is all it has ever been."""
    if past and all(q.value <= 0 for q in past):
        return past[0].at
    return None


def _shut_forecast(shut: datetime, history_points: int, p: ModelParams, *, why: str = "accepted") -> Forecast:
    """The forecast of a series shut for good by an accepted shift (`_shut_by_accepted_shift`), re-keyed
    (`retired_groups`, `why` "re-keyed"), closed for good (`closed_groups`, `why` "closed") or never launched (`_not_launched`, `why` "not launched"): empty expected,
    and rows back (a reopening, rows loaded under the wrong group, a launch) fail as a spike for its owner to accept;
    a total read as its groups' sum counts it as no rows (`closed`)."""
    reason, state, rows = {
        "accepted": ("a partition its owner accepted as a new level", "shut for good", "a reopening"),
        "re-keyed": ("as other keys began carrying its level (re-keyed)", "shut for good", "a reopening"),
        "not launched": ("every partition of its history", "not launched yet", "its launch (accept it as a new level)"),
        "closed": ("with nothing back since, far longer than any empty run a group came back from", "closed for good",
                   "a reopening (accept it as a new level)"),
    }[why]
    label = {"not launched": "empty", "closed": "closed"}.get(why, "shut")
    return Forecast(baseline=SHUT_BASELINE_ROWS, lower=0.0, upper=SHUT_BASELINE_ROWS * p.hard_ratio,
                    group=f"{label} since {shut:%Y-%m-%d} ({why})",
                    features=[], history_points=history_points,
                    spread=0.0, half_width=p.ceiling, trend_per_step=1.0, hard_ratio=p.hard_ratio,
                    empty_is_normal=True, closed=True,
                    notes=[(f"empty since {shut:%Y-%m-%d}, {reason}: {state}, so an empty partition is expected and "
                            f"rows read as {rows}")])


def _off_its_row_days(past: Sequence[Point], target: datetime, grain: Grain, cal: HolidayCalendar
                      ) -> tuple[int, int, str] | None:
    """(empty occurrences, occurrences, what recurs) where a daily series' rows land on a few weekdays only and the
    target is one of its days without rows as usual (`_closed_as_usual`: its weekday, or a holiday on one of its row
    weekdays, held no rows on most past occurrences); else None. A group of a grouped check loaded as one weekly
    file (stamped with the week's first business day), a batch posted on Mondays and Thursdays, a branch open two
    days a week, beside groups that land every day: its partitions, the empty ones too, lie a day apart, while its
    rows lie `FEW_WEEKDAYS_STEP` days apart or more, so `_forecast` reads its rows as a weekly (or every-other-day)
    series, a step no weekday is closed on, and expected its level on every day: each empty day between two files
    failed as empty, a missing group. Its row days keep that reading (its level is its rows', a week's sum on a
    weekly file: an empty file day still fails). A business day that follows a holiday on one of its row weekdays
    that held no rows is a row day too (`_file_day_moved`: the file moved to the next business day). A series that
    was daily and stopped landing on most days is no such series until most of its weeks in the history say so
    (`_closed_share`): its empty days still fail."""
    if not rows_on_few_weekdays(past, grain):
        return None
    local = {at: at for at in [target, *(q.at for q in past)]}
    closed = _closed_as_usual(past, local, target, grain, 1.0, cal) or _row_day_holidays_empty(past, target.date(), cal)
    if closed is None or _file_day_moved(past, target.date(), cal):
        return None
    return closed


def _row_day_holidays_empty(past: Sequence[Point], day: date, cal: HolidayCalendar) -> tuple[int, int, str] | None:
    """(empty occasions, occasions, what recurs) where `day` is a holiday on one of a few-weekday series' row
    weekdays and its past holidays on its row weekdays held no rows on `CLOSED_SHARE` of them at least, one at
    least; else None. A weekly file's day falls on a holiday once or twice a year, so `_closed_as_usual`'s three
    occasions are seldom in a year's history; the history says the file moves off a holiday (its next business day
    is then a row day, `_file_day_moved`, where a missing file still fails). Never seen: the day stays a row day."""
    if not cal.name(day):
        return None
    had_rows, days_with_rows, first = _row_hours(past, {q.at: q.at for q in past})

    def row_day(at: datetime) -> bool:
        return not _closed_share(*_slot_empties(at, had_rows, days_with_rows, first))

    if not row_day(datetime.combine(day, first.time())):
        return None
    holidays = [q.at for q in past if cal.name(q.at.date()) and row_day(q.at)]
    empty = sum(at not in had_rows for at in holidays)
    if not holidays or empty < CLOSED_SHARE * len(holidays):
        return None
    return empty, len(holidays), "holidays on its row weekdays"


def rows_on_few_weekdays(history: Sequence[Point], grain: Grain) -> bool:
    """Whether a daily series' rows land on a few weekdays only (see _off_its_row_days): its partitions, the empty
    ones too, a day apart, its rows `FEW_WEEKDAYS_STEP` days apart or more (their median gap)."""
    pts = sorted(history, key=lambda q: q.at)
    if grain != "day" or len(pts) < 2 or abs(_step_days(pts) - 1.0) > 1e-9:
        return False
    rows = [q for q in pts if q.value > 0]
    return len(rows) >= 2 and _step_days(rows) >= FEW_WEEKDAYS_STEP


def _file_day_moved(past: Sequence[Point], day: date, cal: HolidayCalendar) -> bool:
    """Whether `day`, a business day of the calendar, is the first one after a holiday on one of the series' row
    weekdays (rows on most of its past occurrences, `_closed_share`) that held no rows: a weekly file whose day is a
    holiday lands on the next business day, stamped with it. The walk back crosses non-business days only (a
    weekend between a Friday holiday and the Monday), a week at most, and none that held rows
    (`_moved_file_landed`)."""
    if not cal.is_business_day(day):
        return False
    had_rows, days_with_rows, first = _row_hours(past, {q.at: q.at for q in past})
    return _moved_onto(day, cal, had_rows, first,
                       lambda at: not _closed_share(*_slot_empties(at, had_rows, days_with_rows, first)))


def _moved_onto(day: date, cal: HolidayCalendar, had_rows: set[datetime], first: datetime,
                row_day: Callable[[datetime], bool]) -> bool:
    """`_file_day_moved`'s walk back from `day` over the calendar's non-business days (a week at most): True at a
    holiday on a row weekday (`row_day`) that held no rows, False at a day that held rows on a weekday without rows
    as usual (`_moved_file_landed`) or at the first business day."""
    d = day - timedelta(days=1)
    while (day - d).days <= WEEK_DAYS and not cal.is_business_day(d):
        at = datetime.combine(d, first.time())
        row = row_day(at)
        if _moved_file_landed(at, had_rows, row):
            return False
        if cal.name(d) and at not in had_rows and row:
            return True
        d -= timedelta(days=1)
    return False


def _moved_file_landed(at: datetime, had_rows: set[datetime], row_day: bool) -> bool:
    """Whether `at`, a day `_file_day_moved` walks back over between a holiday and the target, held rows on a
    weekday that holds none as usual (not `row_day`): the holiday's file already landed there (a route delivering
    on its own weekdays moved Friday's delivery to the Saturday its table works, a day the calendar counts as the
    weekend), so the business day after it is no moved file's day. Without it the Monday after a Friday holiday
    expected the route's level and its ordinary empty Monday failed as `empty`. Rows on one of its row weekdays are
    that day's own file, and the walk goes on."""
    return at in had_rows and not row_day


def _carried_file_rows(past: Sequence[Point], target: datetime, cal: HolidayCalendar) -> tuple[float, str] | None:
    """(the rows a moved file adds, a note) where a few-weekday series' (`rows_on_few_weekdays`) target is
    one of its row days and also the day a holiday's file moved onto (`_moved_onto`: Santa Ana's Monday after Holy
    Week's Maundy Thursday, which holds Monday's delivery and Thursday's), else None. The share is learned from the
    series' own past days a file moved onto, `CARRIED_MIN_OCCASIONS` at least: on each, its rows beyond its own
    file (none on a weekday without rows as usual) against the median of the row days within `CARRIED_LEVEL_DAYS`
    of it; every one of them must hold `CARRIED_MIN_SHARE` of a file at least (a holiday's file lost, not moved,
    says the target holds its own file only); the rows it adds are their median share of the row days' level
    before the target. Row weekdays are read over the whole history (the weeks before a history's first weeks say
    nothing of a weekday's rows)."""
    if not cal.is_business_day(target.date()) or not rows_on_few_weekdays(past, "day"):
        return None
    had_rows, days_with_rows, first = _row_hours(past, {q.at: q.at for q in past})

    def row_day(at: datetime) -> bool:
        # the weekday's occurrences over the whole history: read from its first occurrence on or after the target
        last = at + timedelta(days=WEEK_DAYS * math.ceil((target - at).days / WEEK_DAYS))
        return not _closed_share(*_slot_empties(last, had_rows, days_with_rows, first))

    if not row_day(target) or not _moved_onto(target.date(), cal, had_rows, first, row_day):
        return None
    rows = [q for q in past if q.value > 0 and row_day(q.at) and not cal.name(q.at.date())]
    onto = [q for q in past if q.value > 0 and cal.is_business_day(q.at.date())
            and _moved_onto(q.at.date(), cal, had_rows, first, row_day)]
    moved = {q.at for q in onto}

    def level(at: datetime) -> float | None:
        near = [q.value for q in rows if q.at not in moved and abs((q.at - at).days) <= CARRIED_LEVEL_DAYS]
        return median(near) if near else None

    shares = []
    for q in onto:
        base = level(q.at)
        if base is not None:
            shares.append(q.value / base - (1.0 if row_day(q.at) else 0.0))
    now = level(target)
    if len(shares) < CARRIED_MIN_OCCASIONS or min(shares) < CARRIED_MIN_SHARE or now is None:
        return None
    share = median(shares)
    note = (f"a row day a holiday's file moved onto: its {len(shares)} past days a file moved onto each held a moved "
            f"file of {min(shares):.2f}-{max(shares):.2f} of a file, so it holds its own and {share:.2f} more")
    return share * now, note


def _with_carried_file(fc: Forecast, past: Sequence[Point], target: datetime, cal: HolidayCalendar) -> Forecast:
    """The forecast of a row day a holiday's file moved onto (`_carried_file_rows`): its own file's reading plus the
    moved file's share of the row days' level around it, the band moved with it (no wider); else `fc`."""
    if fc.closed or fc.empty_is_normal or fc.open_state is not None:
        return fc
    carried = _carried_file_rows(past, target, cal)
    if carried is None:
        return fc
    rows, note = carried
    scale = 1.0 + rows / fc.baseline
    return replace(fc, baseline=fc.baseline * scale, lower=fc.lower * scale, upper=fc.upper * scale,
                   notes=[*fc.notes, note])


def _off_days_forecast(closed: tuple[int, int, str], target: datetime, history_points: int, p: ModelParams
                       ) -> Forecast:
    """The forecast of a day without rows as usual of a series whose rows land on a few weekdays
    (`_off_its_row_days`): empty expected, as a shut series' (`_shut_forecast`), and rows there (a file on a day it
    never lands) fail as a spike."""
    empty, occurrences, what = closed
    fc = _shut_forecast(target, history_points, p)
    return replace(fc, group=f"no rows as usual ({what})",
                   notes=[(f"rows land on a few weekdays only: no rows on {empty} of {occurrences} past {what}, so "
                           "an empty partition is one of its ordinary ones and rows read as a file on a day it never "
                           "lands")])


def _stopped_at(pts: Sequence[Point]) -> int | None:
    """The first partition of a series' latest run of empty partitions, where that run reaches the history's end
    and reads as a stop, not an outage nor a day off: `RETIRED_MIN_RUN` partitions long at least and
    `RETIRED_RUN_RATIO` times the longest empty run it had from its first rows to that run; else None (rows in the
    latest partition, never any rows, or a run no longer than its own usual ones)."""
    start = len(pts)
    while start > 0 and pts[start - 1].value <= 0:
        start -= 1
    first = next((i for i, q in enumerate(pts[:start]) if q.value > 0), None)
    run = len(pts) - start
    if first is None or run < RETIRED_MIN_RUN:
        return None
    return start if run >= RETIRED_RUN_RATIO * _longest_empty_run(pts, start) else None


def _longest_empty_run(pts: Sequence[Point], end: int) -> int:
    """The longest run of empty partitions in `pts[:end]` from the series' first rows on (0 without rows): the
    longest outage, season or closure it came back from, where `end` starts its latest run."""
    first = next((i for i, q in enumerate(pts[:end]) if q.value > 0), None)
    if first is None:
        return 0
    return max((len(r) for r in _runs([i for i in range(first, end) if pts[i].value <= 0])), default=0)


def _began_at(pts: Sequence[Point]) -> int | None:
    """The first partition of a series' rows where at least `RETIRED_MIN_RUN` empty partitions precede it in the
    window (a key that began inside the history, not one whose window starts at its rows); else None."""
    first = next((i for i, q in enumerate(pts) if q.value > 0), None)
    return first if first is not None and first >= RETIRED_MIN_RUN else None


def _run_level(histories: Sequence[Sequence[Point]], keys: Collection[int], lo: int, hi: int) -> float:
    """The median, over partitions [lo, hi) of aligned histories, of the sum of `keys`' values."""
    return median(sum(histories[k][i].value for k in keys) for i in range(lo, hi))


def _aligned_groups(histories: Sequence[Sequence[Point]], target: datetime) -> list[list[Point]]:
    """The groups' histories before `target`, aligned on the partitions any group holds, a group absent from one
    counting 0 there (as the grouped check reads it: its series may start at its own first rows)."""
    values = [{q.at: q.value for q in h if q.at < target} for h in histories]
    moments = sorted(set().union(*values))
    return [[Point(at, v.get(at, 0.0)) for at in moments] for v in values]


def closed_groups(histories: Sequence[Sequence[Point]], target: datetime) -> dict[int, datetime]:
    """The groups of a grouped check closed for good, by index: the partition their rows stopped. A group is closed
    where its rows stopped (`_stopped_at`) with nothing coming back since, for a run long in the cadence's terms
    (`CLOSED_MIN_DAYS` days and `CLOSED_MIN_RUN` partitions at least) and `RETIRED_RUN_RATIO` times the longest
    empty run any of the groups came back from (an outage, a closure for works, a season), and it was open over
    the same span of the year before where the history holds it (`_open_a_year_before`): a region's agents gone
    from the network, a branch shut. Without it its old level is expected on every partition, months on, each read
    as a missing group. Its first empty partitions still fail, as does a group that came back from such a run
    before, or whose season's closure the history saw."""
    past = _aligned_groups(histories, target)
    return _closed_of(past, _stopped_runs(past), target)


def _stopped_runs(past: Sequence[Sequence[Point]]) -> dict[int, int]:
    """Each aligned group's (`_aligned_groups`) stopped run by index: the partition it begins (`_stopped_at`), for
    the groups whose rows stopped; read once for `closed_groups` and `retired_groups`."""
    return {k: s for k, h in enumerate(past) if (s := _stopped_at(h)) is not None}


def _closed_of(past: Sequence[Sequence[Point]], stopped: Mapping[int, int], target: datetime) -> dict[int, datetime]:
    """`closed_groups` on the groups' aligned histories (`_aligned_groups`) and their stopped runs (`_stopped_runs`)."""
    if not past or len(past[0]) < 2:
        return {}
    came_back = max(_longest_empty_run(h, stopped.get(k, len(h))) for k, h in enumerate(past))
    return {k: past[k][s].at for k, s in stopped.items() if _closed_for_good(past[k], s, target, came_back)}


def _closed_for_good(pts: Sequence[Point], start: int, target: datetime, came_back: int) -> bool:
    """Whether a group's latest empty run, from `start` to the history's end, reads as a closure (see
    `closed_groups`): long enough in days and partitions, `RETIRED_RUN_RATIO` times `came_back` (the longest
    empty run any group came back from), and the group open a year before (`_open_a_year_before`)."""
    run = len(pts) - start
    if run < CLOSED_MIN_RUN or run < RETIRED_RUN_RATIO * came_back:
        return False
    return target - pts[start].at >= timedelta(days=CLOSED_MIN_DAYS) and _open_a_year_before(pts, start, target)


def _open_a_year_before(pts: Sequence[Point], start: int, target: datetime) -> bool:
    """Whether a group empty from `start` to the history's end held rows on `CLOSED_YEAR_OPEN_SHARE` of its
    partitions over the same span a year before (from a year before its run began to a year before the target, up
    to the run), or the history does not reach it (nothing there to tell a season from a closure). A desert camp
    shut every summer, whose history begins inside last summer, was empty then."""
    year = timedelta(days=YEAR_LENGTH)
    before = [q.value for q in pts[:start] if pts[start].at - year <= q.at < target - year]
    return not before or sum(v > 0 for v in before) >= CLOSED_YEAR_OPEN_SHARE * len(before)


def retired_groups(histories: Sequence[Sequence[Point]], target: datetime,
                   params: ModelParams | None = None) -> dict[int, datetime]:
    """The groups of a grouped check re-keyed inside the history, by index: the partition they stopped. A key is
    retired where its rows stopped for good (`_stopped_at`) on or about the partition (`RETIRED_ONSET_REACH`) where
    one or more new keys began (`_began_at`: no rows before), the new keys' sum carrying the stopped keys' level
    on (within the model's widest band, `params.ceiling`, over `RETIRED_LEVEL_DAYS` of partitions each side): a
    region split into two, a product renamed, a carrier's code changed, two keys merged into one. Nobody accepted
    it, and the fit reads positive partitions only, so without this each empty partition of the old key, months
    on, is read as a missing group. Reads the groups' own rows only; a key missing in the target alone or for a
    partition or two, a key that stopped with nothing taking its place (the total fell), and a season's empty run
    no longer than its own seen before are not retired."""
    past = _aligned_groups(histories, target)
    return _retired_of(past, _stopped_runs(past), params or ModelParams())


def _retired_of(past: Sequence[Sequence[Point]], stopped: Mapping[int, int], p: ModelParams) -> dict[int, datetime]:
    """`retired_groups` on the groups' aligned histories (`_aligned_groups`) and their stopped runs
    (`_stopped_runs`)."""
    if len(past) < 2 or len(past[0]) < 2:
        return {}
    n = len(past[0])
    reach_level = max(1, round(RETIRED_LEVEL_DAYS / _step_days(past[0])))
    began = {k: b for k, h in enumerate(past) if k not in stopped and (b := _began_at(h)) is not None}
    out: dict[int, datetime] = {}
    for k, s in stopped.items():
        olds = [j for j, t in stopped.items() if abs(t - s) <= RETIRED_ONSET_REACH]
        news = [j for j, b in began.items() if abs(b - s) <= RETIRED_ONSET_REACH]
        if not news:
            continue
        lo = min(stopped[j] for j in olds)
        first = min(began[j] for j in news)
        span = min(reach_level, n - first, lo)
        old = _run_level(past, olds, lo - span, lo)
        new = _run_level(past, news, first, first + span)
        if old > 0 and new > 0 and abs(math.log(new / old)) <= p.ceiling:
            out[k] = past[k][s].at
    return out


def with_retired_groups(forecasts: Sequence[Forecast], histories: Sequence[Sequence[Point]], target: datetime,
                        params: ModelParams | None = None) -> list[Forecast]:
    """The groups' forecasts with each re-keyed one (`retired_groups`) read as shut since it stopped: its empty
    partitions expected (no missing group, no drop), rows back a reopening. The new keys keep their own
    forecasts, read from their short history. A group closed for good with nothing taking its place
    (`closed_groups`) is read the same way, "closed since" its first empty partition, where its own forecast
    would fail an empty partition."""
    p = params or ModelParams()
    past = _aligned_groups(histories, target)
    stopped = _stopped_runs(past)
    retired = _retired_of(past, stopped, p)
    closed = _closed_of(past, stopped, target)
    return [_shut_forecast(retired[k], fc.history_points, p, why="re-keyed") if k in retired
            else _shut_forecast(closed[k], fc.history_points, p, why="closed")
            if k in closed and not fc.empty_is_normal else fc for k, fc in enumerate(forecasts)]


def _weekday_untold(fit: SeriesFit, target_feats: Mapping[str, object], used: Sequence[str],
                    h: float) -> tuple[str, float] | None:
    """A holiday or neighbourhood day the history holds once (one occasion), on a weekday other than
    the target's, where the occasion's weekday is the quieter by more than the band's half-width `h`:
    (the day's name, the move down from the forecast to the day read without the weekdays' difference,
    log space). Its effect was learned on top of its own weekday's, which one occasion cannot tell from a
    day that keeps no weekly shape at all (agents filing at the weekend in a deadline's last week); only
    where the occasion stood above its weekday by more than `h` (as such a day would). The lower side
    only: a duplicated day must still fail. None elsewhere: two occasions or more, the same weekday, the
    target's weekday the quieter or the weekdays alike, an effect within the band or below it, or no
    weekday group."""
    if "weekday" not in used:
        return None
    weekdays = fit.effects["weekday"]
    target_weekday = target_feats.get("weekday")
    for f in ("holiday", "near_holiday"):
        value = target_feats.get(f, "")
        if f not in used or value in NONE or fit.members[f].get(value) != 1:
            continue
        seen = {fv.get("weekday") for fv in fit.feats if fv.get(f) == value}
        if len(seen) != 1 or target_weekday in seen:
            continue
        moved = weekdays.get(seen.pop(), 0.0) - weekdays.get(target_weekday, 0.0)
        effect = fit.effects[f].get(value, 0.0)
        # the occasion itself must say so: it stood out of its own weekday by more than a band, the way a
        # day without that weekday's shape would (a quiet weekday's share undone), not a small move
        # (the lower side only: the upper stays the forecast's, so a duplicated quiet day still fails)
        if moved < -h and effect > h:
            return str(value), moved
    return None


def _season_once_map(day: date, spans: Sequence[tuple[date, date]]) -> tuple[int, date, date] | None:
    """The configured occurrence (its index in `spans`, first and last day) whose season or reach holds
    `day`: its days from its first day on and its reach (SEASON_ONCE_REACH days) after its last."""
    for i, (first, last) in enumerate(spans):
        if first <= day <= last + timedelta(days=SEASON_ONCE_REACH):
            return i, first, last
    return None


def _season_once_day(day: date, first: date, last: date, first0: date, last0: date) -> date:
    """The day of another occurrence at `day`'s offset: from the season's first day inside it and
    before it, from its last day after it (a run-up of another length still ends on its deadline)."""
    if day > last:
        return last0 + (day - last)
    return first0 + (day - first)


def _centred_week(day: date, values: Mapping[date, float], cal: HolidayCalendar,
                  less: Mapping[int, float] | None = None) -> list[float]:
    """The log values of `day`'s centred week without its holidays, each less its weekday's `less`."""
    days = (day + timedelta(days=j) for j in range(-3, 4))
    return [values[d] - (less[d.weekday()] if less else 0.0) for d in days if d in values and not cal.name(d)]


def _season_once_week(day: date, values: Mapping[date, float], cal: HolidayCalendar) -> float | None:
    """The median of `day`'s centred week (log values) without its holidays (a Christmas week's closed
    days would make a Saturday its median), None where fewer than SEASON_ONCE_WEEK_DAYS days are left."""
    week = _centred_week(day, values, cal)
    return median(week) if len(week) >= SEASON_ONCE_WEEK_DAYS else None


def _season_once_off(day: date, values: Mapping[date, float], cal: HolidayCalendar, shape: Mapping[int, float]) -> float:
    """How far `day` (log) stood off the season's weekly `shape`: its value less its weekday's, against the
    median of its centred week's values each less its weekday's (a run-up's steady climb is no day off,
    a weekend filed like the weekdays is); 0 for a holiday or a week too short to read."""
    week = _centred_week(day, values, cal, less=shape)
    if cal.name(day) or len(week) < SEASON_ONCE_WEEK_DAYS:
        return 0.0
    return values[day] - shape[day.weekday()] - median(week)


def _season_once_reach(values: Mapping[date, float], cal: HolidayCalendar, shape: Mapping[int, float], first: date,
                       last0: date, model_h: float) -> bool:
    """Whether the occurrence's SEASON_ONCE_REACH days after its last one are its reach: their median (log,
    each less its weekday's `shape`, holidays aside) stands from this year's as many days before the
    season (ordinary ones) by more than the model's band `model_h` and SEASON_ONCE_REACH_Z standard
    errors (a deadline's quiet month after it); days after a season that are ordinary ones are the model's."""
    def read(days: Iterable[date]) -> list[float]:
        return [values[d] - shape[d.weekday()] for d in days if d in values and not cal.name(d)]

    after = read(last0 + timedelta(days=j) for j in range(1, SEASON_ONCE_REACH + 1))
    before = read(first - timedelta(days=j) for j in range(1, SEASON_ONCE_REACH + 1))
    if len(after) < SEASON_ONCE_MIN_DAYS or len(before) < SEASON_ONCE_MIN_DAYS:
        return False
    move = median(after) - median(before)
    sd = MAD_SCALE * median([abs(v - median(after)) for v in after] + [abs(v - median(before)) for v in before])
    return abs(move) > max(model_h, SEASON_ONCE_REACH_Z * sd * math.sqrt(1.57 / len(after) + 1.57 / len(before)))


def _season_seen_once(pts: Sequence[Point], target: datetime, cal: HolidayCalendar, p: ModelParams,
                      model_spread: float, model_h: float) -> tuple[float, float, float, str] | None:
    """A day of a configured season (or of its reach, the SEASON_ONCE_REACH days after it) whose history
    holds one occurrence: (log forecast, half-width, another log forecast the band also covers, a note),
    else None. The reach is read so only where the occurrence's days after it stood apart from the
    ordinary days (`_season_once_reach`).

    A season-wide effect times the ordinary week reads a run-up of weeks (x1.1 at its start, x12 on its
    last day) as its average, and the days after it as ordinary ones. One occurrence holds each offset
    once: the target is read as that offset's day of the occurrence, moved from its weekday to the
    target's by the season's own weekly shape (each of its days against its centred week's median, a
    median per weekday), and by the change since, read from the latest SEASON_ONCE_SO_FAR days each against its own
    offset's day (the median of those differences). Their spread is this reading's own error on this
    occurrence's days so far: where it is larger than two days of the model's noise (`model_spread`)
    allow at the chi-square bar SEASON_ONCE_P, the reading does not hold on this year's days and the
    model's forecast stands; else the band is `p.k` of it, never narrower than the model's (`model_h`)
    nor wider than its ceiling. Where the
    occurrence's day stood off the season's weekly shape by more than the band and by more than `p.k` of
    its days' own noise about it (robust: MAD_SCALE times their median distance; a deadline's last weekend
    filed like its weekdays), one occurrence cannot tell whether the target keeps the week's shape: it
    is read as the occurrence's day without the weekdays' difference, and the band also reaches the
    reading with it (the hard rule still judges from the forecast, so a duplicate still fails). Off by
    less than the band but beyond its days' noise (a total, whose quiet part worked the weekend), the
    forecast stays the week's and the band also reaches the reading without the weekdays' difference.
    None where the history holds no occurrence or two, the target or its offset's day is a holiday the
    other is not, or the days so far are too few."""
    day = target.date()
    values = {q.at.date(): math.log(max(q.value, 0.5)) for q in pts}
    for name, spans_ in cal.seasons.items():
        spans = sorted(spans_)
        hit = _season_once_map(day, spans)
        if hit is None or hit[0] == 0:
            continue
        i, first, last = hit
        first0, last0 = spans[i - 1]
        day0 = _season_once_day(day, first, last, first0, last0)
        if day0 not in values or day0 >= first:
            return None
        if i >= 2:
            # a second occurrence in the history: the season's own effect is read as the model reads it
            older = _season_once_day(day, first, last, *spans[i - 2])
            if older in values:
                return None
        if cal.name(day) != cal.name(day0):
            return None
        # the season's own weekly shape, from the occurrence's days (and its reach) each against its centred
        # week's median (a median: the season's last days, steeply up, do not lift the days after them)
        resid: dict[int, list[float]] = defaultdict(list)
        d = first0
        while d <= last0 + timedelta(days=SEASON_ONCE_REACH):
            if d in values and not cal.name(d) and (week := _season_once_week(d, values, cal)) is not None:
                resid[d.weekday()].append(values[d] - week)
            d += timedelta(days=1)
        if len(resid) < WEEK_DAYS or min(len(v) for v in resid.values()) < SEASON_ONCE_MIN_WEEKS:
            return None
        # (each weekday against the week's median, as the occurrence's day is below: not centred)
        shape = {w: median(v) for w, v in resid.items()}
        occurrence = [d for d in (first0 + timedelta(days=j) for j in range((last0 - first0).days + SEASON_ONCE_REACH + 1))
                      if d in values]
        if day > last and not _season_once_reach(values, cal, shape, first, last0, model_h):
            return None
        diffs = []
        for j in range(1, SEASON_ONCE_SO_FAR + 1):
            d = day - timedelta(days=j)
            d0 = _season_once_day(d, first, last, first0, last0)
            # (a pair where either day stood off the season's week is what one occurrence cannot tell: not read)
            if d in values and d0 in values and cal.name(d) == cal.name(d0) \
                    and max(abs(_season_once_off(d, values, cal, shape)), abs(_season_once_off(d0, values, cal, shape))) <= model_h:
                diffs.append((values[d] - shape[d.weekday()]) - (values[d0] - shape[d0.weekday()]))
        if len(diffs) < SEASON_ONCE_MIN_DAYS:
            return None
        change = median(diffs)
        spread = MAD_SCALE * median([abs(v - change) for v in diffs])
        # the reading holds where its errors so far are the model's noise on two days (twice its variance),
        # at the chi-square bar SEASON_ONCE_P on their number
        if spread ** 2 > 2 * model_spread ** 2 * chi2.ppf(1 - SEASON_ONCE_P, len(diffs) - 1) / (len(diffs) - 1):
            return None
        # (never narrower than the model's band, never wider than its ceiling)
        h = min(max(p.k * spread * math.sqrt(1 + 1.57 / len(diffs)), model_h), p.ceiling)
        kept = values[day0] - shape[day0.weekday()] + shape[day.weekday()] + change
        untold = values[day0] + change  # the occurrence's day without the weekdays' difference
        # did the occurrence's day keep the season's week? its value against its centred week, less its weekday's
        off = _season_once_off(day0, values, cal, shape)
        offset = (day - first).days if day <= last else (day - last).days
        where = f"day {offset + 1} of" if day <= last else f"{offset} days after"
        # (off by more than the band and by more than the band's bar on the occurrence's own days' noise
        # about the season's week: a day a little off its week is noise, which a total's smooth days make small)
        offs = [abs(_season_once_off(d, values, cal, shape)) for d in occurrence]
        off_noise = p.k * MAD_SCALE * median(offs)
        if abs(off) > max(h, off_noise) and abs(kept - untold) > h:
            return (untold, h, kept,
                    (f"{where} {name}, seen once: read as {day0:%Y-%m-%d} x{math.exp(change):.2f}, without the weekdays' "
                    f"difference (that day stood x{math.exp(off):.2f} off the season's week); the band also covers "
                    f"it with the difference"))
        # off by less than the band, but beyond its days' noise (a total, its quiet filers a part of it): the
        # band also covers the day without the weekdays' difference, the forecast stays the week's
        also = untold if abs(off) > off_noise and abs(kept - untold) > h else kept
        return (kept, h, also,
                (f"{where} {name}, seen once: read as {day0:%Y-%m-%d} on this weekday (the season's own week), "
                f"x{math.exp(change):.2f} since (its latest {len(diffs)} days each against its own offset's)"
                + (f"; that day stood x{math.exp(off):.2f} off the season's week, so the band also covers it without "
                   "the weekdays' difference" if also != kept else "")))
    return None


def _many_day_partitions(grain: Grain, span: int, step: float) -> bool:
    """A series of partitions of four weeks or more each, that is no weekly series (thirty-day reading cycles,
    four-weekly periods, months): a dozen points a year or fewer, whose level window (six of them) spans half a
    year, so a trailing level lags its season by a season's step."""
    return grain == "day" and span == 1 and step >= MANY_DAY_MIN_STEP


def _own_year_apart(at: Sequence[datetime]) -> float | None:
    """The days of the series' own year (`_own_year_length`: twelve lunar months make 354) where, over its history
    (`at`: its keys in time order, the target's last), its places part from the sun's by a partition or more, so
    that a season of either year can be told from the other's: a Hijri month's holidays drift eleven days a year
    through the sun's seasons, a month's worth in three years. A season read in the sun's year alone there takes
    the lunar months' effects for the sun's and misplaces them as they drift. Else None: a cadence whose year of
    partitions misses the sun's by a few days a year (thirty-day cycles, 360 days) holds the same partitions in both
    over its history, and two such seasons fitted together trade off against each other."""
    if len(at) < 3:
        return None
    history = (at[-1] - at[0]).days
    step = history / (len(at) - 1)  # (a mean, as _year_by_position's: thirteen Ethiopian months of 28 days on average)
    year = _own_year_length(at, round(YEAR_LENGTH / step))
    return year if history * abs(year - YEAR_LENGTH) / YEAR_LENGTH >= step else None


def _year_harmonics(middles: Sequence[datetime], year_days: float | None = None) -> np.ndarray:
    """Columns 1, cos(j a), sin(j a) for j = 1..YEARLY_HARMONICS, a the angle of the day in its year; where
    `year_days` is given, the same again for the series' own year of that many days (see _own_year_apart), its
    angle counted from the last middle."""
    angles = np.asarray([2 * math.pi * (m.timetuple().tm_yday - 1) / (366 if calendar.isleap(m.year) else 365)
                         for m in middles])
    cols = [np.ones(len(angles))]
    for j in range(1, YEARLY_HARMONICS + 1):
        cols += [np.cos(j * angles), np.sin(j * angles)]
    if year_days is not None:
        own = np.asarray([2 * math.pi * ((m - middles[-1]).total_seconds() / 86400 / year_days) for m in middles])
        for j in range(1, YEARLY_HARMONICS + 1):
            cols += [np.cos(j * own), np.sin(j * own)]
    return np.column_stack(cols)


def _robust_lstsq(a: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least squares with Huber weights (a few rounds): a week the calendar does not name (a school
    holiday, a fault in the history) pulls the fit as a point of 1.345 sd at most."""
    w = np.ones(len(y))
    beta = np.zeros(a.shape[1])
    for _ in range(5):
        sw = np.sqrt(w)
        beta = np.linalg.lstsq(a * sw[:, None], y * sw, rcond=None)[0]
        r = y - a @ beta
        s = MAD_SCALE * float(np.median(np.abs(r - np.median(r)))) or 1e-9
        w = np.minimum(1.0, 1.345 * s / np.maximum(np.abs(r), 1e-12))
    return beta


def _season_episodes(x: Sequence[float], feats: Sequence[Mapping[str, object]], segment: Sequence[int],
                     per_year: int = 52) -> tuple[list[float], list[int]] | None:
    """A weekly series' history with its episodes read as their other years: (the log values, each episode week
    moved to the median of its week of the year's other years on the growth, and the weeks so moved), or None
    where none is found. An episode is a run of EPISODE_RUN_WEEKS weeks or more, each off its week's other years
    (of its accepted level, `segment`) on one side by EPISODE_EDGE_Z year-over-year spreads, their median by
    EPISODE_Z, over before the latest EPISODE_RUN_WEEKS: an incident left in the history unlabelled (months of
    unrest, a border shut). Its weeks are no season: a week of the year learned on three years, one of them the
    episode's, is read from the other two; on two, from the year that is not the episode's (a median of two is
    their mean, half the episode's). The odd run is found one at a time, the farthest first, and left out of the
    other years' medians before the next is looked for (the clean year against the episode's is off as much,
    each by half); a run still going is left out of them too, and read as it is."""
    n = len(x)
    pairs = [x[i] - x[i - per_year] for i in range(per_year, n) if segment[i] == segment[i - per_year]]
    if len(pairs) < per_year:
        return None
    growth = float(np.median(pairs)) / per_year
    flat = [v - growth * i for i, v in enumerate(x)]
    weeks: dict[object, list[int]] = defaultdict(list)
    for i, fv in enumerate(feats):
        weeks[fv.get(YEAR_OUT)].append(i)
    episode: set[int] = set()  # runs off their other years, left out of the others' medians ...
    ended: set[int] = set()  # ... and those over: a run still going may be a new level (the shift rule's)

    def others(i: int) -> list[float]:
        return [flat[j] for j in weeks[feats[i].get(YEAR_OUT)]
                if j != i and j not in episode and segment[j] == segment[i]]

    while True:
        dev = {i: flat[i] - median(o) for i in range(n) if i not in episode and (o := others(i))}
        if len(dev) < per_year:
            break
        scale = MAD_SCALE * float(np.median(np.abs(list(dev.values()))))
        if scale <= 0:
            break
        runs: list[list[int]] = []
        for i in range(n):
            edge = i in dev and abs(dev[i]) > EPISODE_EDGE_Z * scale
            if edge and runs and runs[-1][-1] == i - 1 and (dev[i] > 0) == (dev[runs[-1][-1]] > 0):
                runs[-1].append(i)
            elif edge:
                runs.append([i])
        found = [r for r in runs if len(r) >= EPISODE_RUN_WEEKS and median(abs(dev[i]) for i in r) > EPISODE_Z * scale]
        if not found:
            break
        run = max(found, key=lambda r: median(abs(dev[i]) for i in r))
        episode |= set(run)
        if run[-1] < n - EPISODE_RUN_WEEKS:
            ended |= set(run)
    moved = {i: median(o) + growth * i for i in sorted(ended) if (o := others(i))}
    if not moved:
        return None
    return [moved.get(i, v) for i, v in enumerate(x)], sorted(moved)


def _episode_year_ends(pts: Sequence[Point], cal: HolidayCalendar, per_year: int = 52) -> tuple[list[Point], float] | None:
    """A weekly series whose latest year is an episode off its year back (a drought's crop year, a contract's
    year, unlabelled), the target one of the first EPISODE_YEAR_AFTER_WEEKS weeks after its first week's anniversary: (the history
    with the episode's weeks read as their year back on the growth, the episode's median log deviation), or None.
    The level the target is read from is the episode's, and an episode of a year may end on its anniversary (the
    harvest that ended a drought's crop year): the target may be back at the years before it, a drop (or a rise)
    of the episode's size on its own, which no reading of the latest weeks expects. Each week is read as its log
    ratio to its year back less the growth (the median of the pairs before it, all within one accepted level), in
    year-over-year spreads; a week holding a holiday, or whose year back does, is read by no pair (a holiday moving
    a week is no episode). The episode's start: the step that best splits the quarter of a year each side of the
    target's year back (two means), within the EPISODE_YEAR_AFTER_WEEKS weeks up to it; the weeks since its
    anniversary's own week, if any, nearer the years before than the episode's level (one still going is a new
    level, the shift rule's). The episode: the year from it, whose median
    is off by EPISODE_EDGE_Z spreads, EPISODE_YEAR_SHARE of its weeks on that side and each quarter's median too,
    EPISODE_YEAR_SHARE of its first EPISODE_RUN_WEEKS weeks off by EPISODE_EDGE_Z, the quarter before it not (its
    median nearer the years before than the episode's). Its weeks one by one are no test: a year holds moving holidays and other
    episodes (a season's edge, load-shedding) that break a run. Why not `_season_episodes`: a run reaching the
    latest weeks is no episode there (a new level may be), and a year-long run leaves no other year of its weeks to
    read them by. What it costs: a step a year back nobody accepted widens its anniversary's first weeks' band to
    the level before it."""
    n, quarter = len(pts), per_year // 4
    if n < 2 * per_year + quarter or any(q.value <= 0 for q in pts) \
            or any((b.at - a.at).days != WEEK_DAYS for a, b in itertools.pairwise(pts[-2 * per_year - quarter:])):
        return None
    x = [math.log(q.value) for q in pts]
    segment = list(itertools.accumulate(1 if q.accepted and q.shift else 0 for q in pts))
    holiday = [any(cal.name(q.at.date() + timedelta(days=j)) for j in range(WEEK_DAYS)) for q in pts]
    plain = [i >= per_year and not holiday[i] and not holiday[i - per_year] for i in range(n)]
    back = n - per_year  # the target's week a year back
    first = back - EPISODE_YEAR_AFTER_WEEKS + 1 - quarter
    if first - per_year < 0 or any(segment[i] != segment[i - per_year] for i in range(first, n)):
        return None
    earliest = back - EPISODE_YEAR_AFTER_WEEKS + 1  # the earliest start the target may follow the anniversary of
    pairs = [x[i] - x[i - per_year] for i in range(max(per_year, earliest - 2 * per_year), earliest) if plain[i]]
    if len(pairs) < EPISODE_YEAR_MIN_PAIRS:
        return None
    growth = float(np.median(pairs))
    scale = MAD_SCALE * mad([v - growth for v in pairs])
    if scale <= 0:
        return None
    off = {i: x[i] - x[i - per_year] - growth for i in range(first, n)}  # every week's; `dev` the plain ones'
    dev = {i: d for i, d in off.items() if plain[i]}
    # (the step's first week: the split of the plain weeks around the year back leaving the least squared error)
    around = [i for i in range(first, back + quarter) if i in dev]
    splits = [(float(np.var([dev[i] for i in around[:k]]) * k + np.var([dev[i] for i in around[k:]]) * (len(around) - k)),
               around[k]) for k in range(STEP_RUN, len(around) - STEP_RUN + 1)]
    if not splits:
        return None
    start = min(splits)[1]
    if not earliest <= start <= back:
        return None
    weeks = [i for i in range(start, start + per_year) if i in dev]
    before = [dev[i] for i in range(start - quarter, start) if i in dev]
    opening = [dev[i] for i in weeks if i < start + EPISODE_RUN_WEEKS]
    if len(weeks) < EPISODE_YEAR_MIN_PAIRS or min(len(before), len(opening)) < STEP_RUN:
        return None
    edge = EPISODE_EDGE_Z * scale
    size = float(np.median([dev[i] for i in weeks]))
    side = 1.0 if size > 0 else -1.0
    quarters = [[dev[i] for i in weeks if start + k * quarter <= i < start + (k + 1) * quarter] for k in range(4)]
    if abs(size) <= edge or side * float(np.median(before)) > abs(size) / 2 \
            or sum(side * d > edge for d in opening) < EPISODE_YEAR_SHARE * len(opening) \
            or any(not q or side * float(np.median(q)) <= 0 for q in quarters) \
            or sum(side * dev[i] > 0 for i in weeks) < EPISODE_YEAR_SHARE * len(weeks):
        return None
    # (the weeks since its anniversary's own, which may hold part of it as its first did, nearer the years before:
    # an episode still going is a new level, the shift rule's)
    since = [off[i] for i in range(start + per_year + 1, n) if i in dev]
    if since and side * float(np.median(since)) > -abs(size) / 2:
        return None
    # (its weeks from the start on, those at half its size or more: a week back already is left as it is; a
    # holiday's week moved by the episode's size, its year back may hold another week's holiday)
    moved = [replace(q, value=math.exp(x[i] - dev.get(i, size))) if i >= start and side * off[i] > abs(size) / 2 else q
             for i, q in enumerate(pts)]
    return moved, size


def _season_steps_recur(fit: SeriesFit, trial: SeriesFit, gain: float) -> bool:
    """Whether a weekly series' week of the year (`trial`) cuts its one-step errors, each read against the level
    of the points before it only (as the target is), by `gain` (SEASON_STEPS_GAIN) over the plain level (`fit`), after
    paying for its degrees of freedom. `typical_error` reads each point against the level before or after it, whichever is
    nearer, so a season that steps up and down at the same weeks every year (a monsoon's tourists x2.6 for three
    months, a mountain's summer) reads there as level shifts it forgives, and the plain level wins; read from
    before, each year's first weeks in and out of the season miss by the whole step, as the target's would."""
    def trailing(f: SeriesFit) -> float:
        errors = [min(abs(e), 1.0) for _, e in f.errors]
        return sum(errors) / len(errors) if errors else 0.0
    return trailing(trial) * trial.dof_factor() < (1 - gain) * trailing(fit) * fit.dof_factor()


def _season_edge_moves(fit: SeriesFit, target_week: object, spread: float) -> tuple[float, float, int] | None:
    """How far a weekly series' season may stand off its week of the year at the target, where the history shows
    the season's edges moving between years: (the lowest and the highest of the neighbouring weeks' effects
    against the target week's, log, each 0.0 at most and at least; the history's edge weeks read as a neighbour's),
    or None. A week of the year is the median of two or three years; a school break that starts a week later this
    year than in those (its dates are no calendar of the series') reads its first week as an ordinary one against a
    season's effect, and its last week the other way. The history tells whether this happens: at the weeks that sit
    at an edge (a neighbouring week's effect EDGE_Z spreads off), a past year's week that reads nearer the
    neighbour's effect than its own (and EDGE_MOVED_Z spreads off its own) had its edge a week off the others'. Where
    they are EDGE_MOVED_SHARE of the edge weeks or more, the target's week, at an edge, may read as either
    neighbour's: a week inside the season and off its edges is untouched."""
    effects = fit.effects.get(YEAR_OUT)
    if not effects or spread <= 0 or target_week not in effects:
        return None
    weeks = sorted(cast(int, w) for w in effects if w not in NONE and fit.members[YEAR_OUT].get(w))

    def neighbours(w: int) -> list[int]:
        # (the year wraps: week 1's neighbour is the year's last week, 52 or 53)
        return [n for n in (w - 1 if w > 1 else weeks[-1], w + 1 if w + 1 in effects else weeks[0]) if n in effects]

    def edge_to(w: int) -> list[float]:
        return [effects[n] - effects[w] for n in neighbours(w) if abs(effects[n] - effects[w]) > EDGE_Z * spread]

    # (a week holding a holiday has its holiday's effect taken out of its week of the year: next to its
    # neighbours it is no season's edge, and its own reading is no season's)
    holiday_weeks = {fv.get(YEAR_OUT) for fv in fit.feats if fv.get("holiday", "") not in NONE}
    edges, moved = 0, 0
    for i, fv in enumerate(fit.feats):
        w = cast(int, fv.get(YEAR_OUT))
        if w not in effects or w in holiday_weeks or not (steps := edge_to(w)):
            continue
        edges += 1
        off = fit.e[i] - fit.local[i]  # the week's reading against its own week of the year's effect
        if abs(off) > EDGE_MOVED_Z * spread and any(abs(off - d) < abs(off) for d in steps):
            moved += 1
    if moved < EDGE_MOVED_MIN or moved < EDGE_MOVED_SHARE * edges:
        return None
    steps = edge_to(cast(int, target_week))
    if not steps:
        return None
    return min(0.0, *steps), max(0.0, *steps), moved


def _yearly_season(t: list[float], x: list[float], feats: list[dict[str, object]], middles: Sequence[datetime],
                   target_middle: datetime, lag: int, level_points: int,
                   p: ModelParams, cycle: int = 52, year_days: float | None = None
                   ) -> tuple[list[float], float, float] | None:
    """A weekly series' smooth yearly season (log space): (each point's, the target's, its variance in
    squared spreads), or None where it does not earn its place. A few harmonics of the year fitted to
    each week's log ratio to the median of the year centred on it (a year's median holds neither the
    season nor the trend, and follows a level shift from its own week on), by robust least squares on
    the weeks without a holiday. Why harmonics and not 52 week-of-year effects: a smooth cycle is a
    few numbers, learned from every week, where 52 effects of two or three years each are as noisy as
    two or three points (the band widened for them), and the week of the year drifts with ISO week
    53; a sharp season (six school-summer weeks) stays the week of the year's. Kept only when it makes
    the history's one-step errors (each week against the trailing level) at least `dense_gain`
    smaller, the season then fitted out of sample: each quarter of the history from the others. `cycle`: the
    series' points a year (52 weeks; 24 half-months, see _month_day_keys)."""
    n, half, quarter = len(x), cycle // 2, cycle // 4
    if n < 2 * cycle + 1:
        return None
    holiday = _calendar_days(feats)
    idx = [i for i in range(half, n - half) if not holiday[i]]
    if len(idx) < cycle:
        return None
    xx = np.asarray(x)
    ref = np.asarray([median(x[i - half:i + half + 1]) for i in idx])
    a_all = _year_harmonics([*middles, target_middle], year_days)
    a_fit, y = a_all[idx], xx[idx] - ref
    # out of sample: each quarter year's points from a fit on the other quarters (a held-out year
    # would leave a history of two or three years with half the cycle unseen)
    block = np.asarray(idx) // quarter
    held = np.zeros(n)
    for b in range(n // quarter + 1):
        keep = block != b
        if keep.sum() < cycle:
            return None
        beta = _robust_lstsq(a_fit[keep], y[keep])
        rows = slice(b * quarter, min(n, (b + 1) * quarter))
        held[rows] = a_all[rows, 1:] @ beta[1:]
    used = [f for f in SPARSE if f in feats[0]]

    def spread_of(values: list[float]) -> float:
        errors = [e for _, e in SeriesFit(t, values, feats, used, lag, level_points).errors]
        return MAD_SCALE * mad(errors)

    if not spread_of([v - s for v, s in zip(x, held.tolist())]) < (1 - p.dense_gain) * spread_of(x):
        return None
    beta = _robust_lstsq(a_fit, y)
    season = a_all[:, 1:] @ beta[1:]
    # the fitted curve's own uncertainty, as a least-squares prediction's (in spreads), of what the band
    # does not already hold: the level is read from the latest weeks, de-seasoned by the same curve, so
    # an error of the curve there moves the level with it, and only its change to the target counts
    d = a_all[n] - a_all[n - level_points:n].mean(axis=0)
    return season[:n].tolist(), float(season[n]), float(d @ np.linalg.pinv(a_fit.T @ a_fit) @ d)


_WEEK_DAYS_READ: dict[tuple, tuple[tuple[str, str, int], ...]] = {}


def _week_day_kinds(start: date, cal: HolidayCalendar) -> tuple[tuple[str, str, int], ...]:
    """A week's working days (the calendar's weekend left out) by what they are: ("closed", NAME, 0) a
    holiday's, ("eve", NAME, k) k days before the nearest holiday within the longest eve reach; an
    ordinary day is not listed."""
    key = (start, cal.cache_key)
    hit = _WEEK_DAYS_READ.get(key)
    if hit is None:
        if len(_WEEK_DAYS_READ) > WEEK_DAYS_CACHE:
            _WEEK_DAYS_READ.clear()
        hit = _WEEK_DAYS_READ[key] = _read_week_day_kinds(start, cal)
    return hit


def _read_week_day_kinds(start: date, cal: HolidayCalendar) -> tuple[tuple[str, str, int], ...]:
    out: list[tuple[str, str, int]] = []
    for d in (start + timedelta(days=k) for k in range(WEEK_DAYS)):
        if cal.is_weekend(d):
            continue
        name = cal.identity(d)
        if name:
            out.append(("closed", name, 0))
            continue
        ahead = next(((n, k) for n, k in ((cal.identity(d + timedelta(days=k)), k)
                                          for k in range(1, max(WEEK_EVE_REACHES) + 1)) if n), None)
        if ahead:
            out.append(("eve", *ahead))
    return tuple(out)


def _season_weeks(pts: Sequence[Point], x: list[float], feats: Sequence[Mapping[str, object]], target: datetime,
                  cal: HolidayCalendar) -> tuple[list[float], float, float]:
    """A weekly series with its declared season's days taken out (Ramadan where the calendar holds Eid al-Fitr, a
    configured season; not a break, which keeps its own label): (the series, the target week's log effect, its
    variance in squared spreads); the series as it was, 0 and 0 where the history earns none. Ramadan moves eleven
    days a year, so no week of the year holds it: a weekly series read its weeks against their week of the year (a
    hotel's Ramadan weeks at 0.6x), and the week holding Eid held two to six of its days, a different number each
    year. Each week is read as one plus the season's effect per working day times the share of its working days the
    season holds; the effect is the median ratio of the history's weeks wholly inside it, holding no holiday or eve,
    to their nearest ordinary weeks (`_local_deviations`), earned where it stands DISTINCT_Z["season"] standard
    errors from none counted in occasions (one a year, SEASON_WEEK_OCCASIONS at least, as a daily series' season
    is). Taken out before the holidays' days are read (`_week_days`), on its own: a week holding a few of its days
    only (a pre-Eid run-up in Ramadan's last week) tells nothing, and a season earned does not carry the holidays'
    reading with it (a pooled holiday effect read on an Eid al-Adha week it under-reads)."""
    n = len(x)
    days = [*(q.at.date() for q in pts), target.date()]
    kinds = [_week_day_kinds(d, cal) for d in days]
    names = [[s[0] if (s := declared_season(first + timedelta(days=k), cal)) and s[0] not in cal.breaks else ""
              for k in range(WEEK_DAYS) if not cal.is_weekend(first + timedelta(days=k))] for first in days]
    plain = [i for i in range(n) if not kinds[i] and not any(names[i]) and not feats[i].get("holiday")]
    dev = _local_deviations(x, plain)
    ordinary = [d for i in plain if (d := dev[i]) is not None]
    sd = MAD_SCALE * mad(ordinary) if len(ordinary) >= 26 else 0.0
    inside: dict[str, list[float]] = defaultdict(list)
    seen: dict[str, set[int]] = defaultdict(set)
    for i in range(n):
        if (d := dev[i]) is not None and names[i] and all(names[i]) and len(set(names[i])) == 1 and not kinds[i] \
                and not feats[i].get("holiday") and (at := declared_season(days[i], cal)) is not None:
            inside[names[i][0]].append(math.expm1(d))
            seen[names[i][0]].add(at[1].toordinal())
    effects = {name: median(v) for name, v in inside.items() if sd > 0 and len(seen[name]) >= SEASON_WEEK_OCCASIONS
               and abs(math.log1p(max(median(v), WEEK_DAYS_FLOOR - 1))) > DISTINCT_Z["season"] * _median_se(sd, len(seen[name]))}
    if not effects:
        return x, 0.0, 0.0
    offsets, variances = [], []
    for held in names:
        share = {name: sum(1 for nm in held if nm == name) / max(1, len(held)) for name in effects}
        ratio = max(1 + sum(share[name] * effects[name] for name in effects), WEEK_DAYS_FLOOR)
        offsets.append(math.log(ratio))
        # (a median of the season's weeks: pi / 2 of a mean's variance, in the ordinary weeks' spreads)
        variances.append(sum((share[name] * (1 + effects[name])) ** 2 * math.pi / (2 * len(inside[name]))
                             for name in effects) / ratio ** 2)
    if not offsets[n] and not _shares_season_weeks(kinds, offsets) \
            and not _season_in_week_of_year(feats, target, offsets):
        return x, 0.0, 0.0
    return [v - o for v, o in zip(x, offsets)], offsets[n], variances[n]


def _shares_season_weeks(kinds: Sequence[Sequence[tuple[str, str, int]]], offsets: Sequence[float]) -> bool:
    """Whether a target week holding none of a declared season's days (the last of `kinds`, `_week_day_kinds`' of
    each week; `offsets`, the season's log effect on each) holds a holiday or eve whose past weeks held some (Eid
    al-Fitr's week, with two to six of Ramadan's last days in its past years and none this year): its label was read
    on weeks the season lowered, so the season is taken out of the history for it. Any other week keeps the history
    as it was: a week of the year, or a season's edges, read across the years' Ramadans (three years' medians hold
    some of its weeks) are the model's own reading there, and taking the season out of them moved the weeks around a
    fixed-date season's steps (a monsoon's first week, the mountain's cool weeks ending)."""
    held = {name for _, name, _ in kinds[-1]}
    return any(o and held & {name for _, name, _ in k} for k, o in zip(kinds[:-1], offsets))


def _season_in_week_of_year(feats: Sequence[Mapping[str, object]], target: datetime, offsets: Sequence[float]) -> bool:
    """Whether a target week holding none of a declared season's days has a week of the year (ISO, of its middle
    day, as `_months_of_year` reads it) that held some of them in a past year (`offsets`, the season's log effect on
    each week): Ramadan moves eleven days a year, so the weeks just after this year's were its weeks a year or two
    ago, and their week of the year, read across those years, carries the season into an ordinary week (a dairy's
    first week after Eid at 0.71x of a week of the year that held two years' iftar lift). The season is taken out
    of the history for it; a week of the year that never held the season (a monsoon's, a camp's reopening) keeps the
    history as it was."""
    week = (target.date() + timedelta(days=WEEK_DAYS // 2)).isocalendar().week
    return any(o and fv.get("week_of_year") == week for fv, o in zip(feats, offsets))


def _moving_holiday_days(pts: Sequence[Point], x: list[float], feats: list[dict[str, object]], target: datetime,
                         cal: HolidayCalendar) -> tuple[list[float], float, float, bool] | None:
    """A weekly series' target week holding a moving holiday's days (`_moving_holidays`: a lunar Eid, Easter's feasts)
    read by the share of its days that holiday holds, or None where the history does not earn it: (the series with the
    holiday's weeks taken out, the target week's log effect, its variance in squared spreads, True). A lunar feast
    moves eleven days a year, so its days fall on a week's weekend one year (a dairy's Eid al-Adha on a Friday: 0.96
    of an ordinary week) and on three working days the next (0.77), and its weeks read against their median (one
    label) missed both; where `_week_days` pooled every holiday's closed days into one effect it earned nothing
    there. Each past week holding the holiday and no other (`_local_deviations`: against its nearest ordinary weeks)
    gives its effect per day, the ratio's excess over its share of the week's days: all seven, or the working days
    (the calendar's weekend left out), whichever reads those weeks better; the effect is their median. Kept only
    where, each past week read from the others' (two years at least, `MOVING_DAYS_OCCASIONS`), the shares read them
    closer than the others' median ratio does (the label's reading); the target and the weeks read lose their label."""
    n = len(x)
    starts = [*(q.at.date() for q in pts), target.date()]
    names = [[cal.identity(start + timedelta(days=k)) or "" for k in range(WEEK_DAYS)] for start in starts]
    moving = sorted(_moving_holidays((start + timedelta(days=k) for start in starts for k in range(WEEK_DAYS)), cal)
                    & set(names[n]))
    if not moving or {nm for nm in names[n] if nm} != set(moving):
        return None
    plain = [i for i in range(n) if not any(names[i]) and not _week_day_kinds(starts[i], cal)
             and not feats[i].get("holiday")]
    dev = _local_deviations(x, plain)
    ordinary = [d for i in plain if (d := dev[i]) is not None]
    sd = MAD_SCALE * mad(ordinary) if len(ordinary) >= 26 else 0.0
    if sd <= 0:
        return None

    def shares(name: str, working: bool) -> list[float]:
        out = []
        for start, held in zip(starts, names):
            days = [k for k in range(WEEK_DAYS) if not (working and cal.is_weekend(start + timedelta(days=k)))]
            out.append(sum(1 for k in days if held[k] == name) / max(1, len(days)))
        return out

    offsets, variances = np.zeros(n + 1), np.zeros(n + 1)
    for name in moving:
        past = [i for i in range(n) if dev[i] is not None and {nm for nm in names[i] if nm} == {name}]
        if len({starts[i].year for i in past}) < MOVING_DAYS_OCCASIONS or len(past) < MOVING_DAYS_OCCASIONS + 1:
            return None
        ratio = {i: math.expm1(d) for i in past if (d := dev[i]) is not None}
        # (the label's reading: each past week as the others' median ratio)
        label_err = sum(abs(ratio[i] - median(ratio[j] for j in past if j != i)) for i in past)
        best: tuple[float, list[float]] | None = None
        for working in (False, True):
            share = shares(name, working)
            err = sum(abs(ratio[i] - _per_day_effect(ratio, share, [j for j in past if j != i]) * share[i])
                      for i in past)
            # (kept unless it reads the past weeks worse than the label by more than their noise: weeks holding as
            # many of its days each year read alike either way, and a target holding fewer reads by its own share)
            if err < label_err + sd * len(past) and (best is None or err < best[0]):
                best = (err, share)
        if best is None or not best[1][n]:
            return None
        share = best[1]
        effect = _per_day_effect(ratio, share, past)
        for i in [*past, n]:
            offsets[i] += math.log(max(1 + effect * share[i], WEEK_DAYS_FLOOR))
        # (least squares through none: the target's share squared over the past weeks' sum of squares, in spreads)
        variances[n] += share[n] ** 2 / max(sum(share[i] ** 2 for i in past), share[n] ** 2)
    for i in range(n):
        if offsets[i]:
            feats[i]["holiday"], feats[i]["near_holiday"] = "", ""
    ratio_now = math.exp(offsets[n])
    return (np.asarray(x) - offsets[:n]).tolist(), float(offsets[n]), float(variances[n]) / ratio_now ** 2, True


class _WeekdayWeights(NamedTuple):
    """What a holiday costs a weekly series on the calendar's working days and on each weekend day (see
    _holiday_weekday_weights)."""
    days: list[int]  # the kinds of day weighed, in order: WORKING_DAY, then weekend days by their day of the week
    weights: np.ndarray  # each kind's holiday loss over a working day's (the working day's is one)
    cov: np.ndarray  # the weights' covariance
    dev: list[float | None]  # each past week's log deviation from its nearest weeks holding no holiday
    sd: float  # the ordinary weeks' spread of those deviations


def _holiday_day_kinds(start: date, cal: HolidayCalendar) -> list[int]:
    """The kind of each of the calendar's holidays in the seven days from `start`: WORKING_DAY for one on a working
    day of the calendar, its day of the week (0 Monday) for one on a weekend day."""
    return [WORKING_DAY if not cal.is_weekend(d) else d.weekday()
            for d in (start + timedelta(days=k) for k in range(WEEK_DAYS)) if cal.name(d)]


def _holiday_weekday_weights(x: Sequence[float], starts: Sequence[date], feats: Sequence[Mapping[str, object]],
                             cal: HolidayCalendar) -> _WeekdayWeights | None:
    """What a holiday costs a weekly series on each of the calendar's weekend days, as a share of what it costs on a
    working day (`starts`: each past week's first day, in order; `x` their logs), or None where the history does not
    show it. A week sums its days, so a day's share of the week shows only where a holiday takes the day out: each
    past week holding holidays (no declared season's day) is read against its nearest plain weeks
    (`_local_deviations`), in ratios (two days off lose twice one's rows), by robust least squares on the number of
    its holidays on working days and on each weekend day (a weekend day seen in HOLIDAY_WEEKDAY_WEEKS weeks at
    least); the working day's loss must stand WEEK_DAYS_Z standard errors below none (a series that loses on
    holidays). The working days are pooled: their holidays' own depths (a Christmas Eve's afternoon, a bridge) tell
    them apart more than the days do. A plant's Saturday morning shift then weighs about a third of a working day,
    its shut Sunday nothing; a shop open all week, or a six-day week's Saturday, about one."""
    n = len(x)
    held = [_holiday_day_kinds(start, cal) for start in starts]
    plain = [i for i in range(n) if not held[i] and not feats[i].get("holiday")]
    dev = _local_deviations(x, plain)
    ordinary = [d for i in plain if (d := dev[i]) is not None]
    sd = MAD_SCALE * mad(ordinary) if len(ordinary) >= 26 else 0.0
    if sd <= 0:
        return None
    rows = [i for i in range(n) if held[i] and dev[i] is not None
            and _week_holiday_names(datetime.combine(starts[i], datetime.min.time()), cal) is not None]
    seen = Counter(d for i in rows for d in set(held[i]))
    days = sorted(d for d, weeks in seen.items() if weeks >= HOLIDAY_WEEKDAY_WEEKS)
    rows = [i for i in rows if set(held[i]) <= set(days)]
    if WORKING_DAY not in days or len(days) < 2 or len(rows) <= len(days):
        return None
    a = np.asarray([[held[i].count(d) for d in days] for i in rows], dtype=float)
    y = np.asarray([math.expm1(cast(float, dev[i])) for i in rows], dtype=float)
    beta = _robust_lstsq(a, y)
    cov = sd ** 2 * np.linalg.pinv(a.T @ a)
    working = float(beta[0])
    if working >= -WEEK_DAYS_Z * math.sqrt(max(float(cov[0, 0]), 0.0)):
        return None
    weights = np.clip(beta / working, 0.0, DAY_WEIGHT_BOUNDS[1])
    return _WeekdayWeights(days, weights, cov / working ** 2, dev, sd)


def _holiday_on_lighter_days(pts: Sequence[Point], x: Sequence[float], feats: Sequence[Mapping[str, object]],
                             target: datetime, target_feats: Mapping[str, object], cal: HolidayCalendar
                             ) -> tuple[float, float] | None:
    """A weekly target week read by its holidays' label whose holidays fall on days of the week that carry more or
    less of the week than they did on the label's past weeks (Victory Day on a Saturday after three years on
    weekdays, where the plants work a morning shift on Saturdays): (the log move of the label's reading, its
    variance in squared spreads), or None. The label's effect, read from its past weeks (their median deviation
    from their nearest plain weeks, a loss: HOLIDAY_WEEKDAY_OCCASIONS of them at least), is scaled by the target's
    holidays' weight (`_holiday_weekday_weights`, summed over its days: a working day's one) over its past weeks'
    mean weight. Kept where the two weights differ by HOLIDAY_WEEKDAY_Z standard errors (by the weights' covariance)
    and the move is larger than an ordinary week's spread and HOLIDAY_WEEKDAY_Z of its own standard errors (a few
    weekend holidays of a series that loses little on them weigh a day anywhere): a holiday moving between working
    days moves nothing."""
    label = target_feats.get("holiday")
    if not label:
        return None
    starts = [*(q.at.date() for q in pts), target.date()]
    read = _holiday_weekday_weights(x, starts[:-1], feats, cal)
    if read is None:
        return None

    def counts(start: date) -> np.ndarray | None:
        days = _holiday_day_kinds(start, cal)
        if not days or not set(days) <= set(read.days):
            return None
        return np.asarray([days.count(d) for d in read.days], dtype=float)

    past = [(d, c) for i in range(len(x)) if feats[i].get("holiday") == label
            and (d := read.dev[i]) is not None and (c := counts(starts[i])) is not None]
    now = counts(starts[-1])
    if now is None or len(past) < HOLIDAY_WEEKDAY_OCCASIONS:
        return None
    effect = math.expm1(median(d for d, _ in past))
    mean_past = np.mean([c for _, c in past], axis=0)
    contrast = now - mean_past
    before = float(mean_past @ read.weights)
    if effect >= 0 or before < HOLIDAY_WEEKDAY_MIN_WEIGHT:
        return None
    differ, differ_var = float(contrast @ read.weights), float(contrast @ read.cov @ contrast)
    if abs(differ) < HOLIDAY_WEEKDAY_Z * math.sqrt(max(differ_var, 0.0)):
        return None
    scale = 1 + differ / before
    move = math.log(max(1 + effect * scale, WEEK_DAYS_FLOOR)) - math.log1p(effect)
    # (the label's median, pi / 2 of a mean's variance, scaled; and the weights' own, on the effect)
    var = (scale - 1) ** 2 * math.pi / (2 * len(past)) + (effect / before / read.sd) ** 2 * differ_var
    # (a move within an ordinary week's spread, or within HOLIDAY_WEEKDAY_Z of its own uncertainty, is no reading)
    if abs(move) <= read.sd * max(1.0, HOLIDAY_WEEKDAY_Z * math.sqrt(var)):
        return None
    return move, var


def _per_day_effect(ratio: Mapping[int, float], share: Sequence[float], weeks: Sequence[int]) -> float:
    """A holiday's effect per share of a week's days, by least squares through none on `weeks` (their `ratio` to
    their nearest ordinary weeks, less one, against the share of their days it holds): a week holding one of its days
    tells its per-day effect with seven times a week's noise, one holding all seven with a week's."""
    den = sum(share[i] ** 2 for i in weeks)
    return sum(share[i] * ratio[i] for i in weeks) / den if den > 0 else math.inf


def _week_columns(kinds: Sequence[tuple[str, str, int]], working: int,
                  reach: Mapping[str, int], default: int) -> dict[str, float]:
    """A week's columns, as shares of its `working` days: "closed:NAME" a holiday's days, "eve:NAME" its
    eves (within the family's reach, `default` where it has none of its own)."""
    out: dict[str, float] = defaultdict(float)
    for kind, name, k in kinds:
        if k <= reach.get(name, default):
            out[kind if kind == "closed" else f"{kind}:{name}"] += 1 / working
    return dict(out)


def _week_days(pts: Sequence[Point], t: list[float], x: list[float], feats: list[dict[str, object]],
               target: datetime, cal: HolidayCalendar, lag: int,
               level_points: int, gain: float) -> tuple[list[float], float, float, bool] | None:
    """A weekly series read by the days each week holds, or None where that does not earn its place:
    (the series with each week's holidays taken out, the target week's log effect, its variance in
    squared spreads, whether the target week is read so). A moving festival (the Hebrew, Islamic or
    lunar calendar, Easter) falls on a Tuesday one year and a Sunday the next, so the week it names
    holds its eves' rush one year and its closed days the next, and one label per week averages the
    two. Each week's ratio to its nearest weeks without holidays is read as one plus each family's
    effect per working day times the share of its working days it holds, closed ("closed:Pesach") or
    eve ("eve:Pesach", the days before it up to a reach the history chooses, for all families and
    then each family's own), the two added inside a week as a day's rows are; by robust least
    squares, each effect kept where it stands `WEEK_DAYS_Z` standard errors from none. Kept only where
    the history's one-step errors, paying for the effects, are `gain` (the dense groups' 20%) below the
    labels' (a fixed-date Christmas read by its days was counted twice with the week of the year);
    the weeks it reads then lose their label."""
    n = len(x)
    days = [*(q.at.date() for q in pts), target.date()]
    kinds = [_week_day_kinds(d, cal) for d in days]
    # a declared break's weeks keep their own label (a public holiday inside one closes nothing more)
    # (to its first week back: the weeks back after it hold none of its days)
    in_break = [bool(cal.breaks) and bool(part := cal.break_part(d, WEEK_DAYS)) and not past_a_break(part)
                for d in days]
    # (only a target week holding a holiday or an eve is read so: any other keeps the labels' reading)
    if n < 2 * 52 or not kinds[n] or in_break[n]:
        return None
    working = max(1, sum(1 for k in range(WEEK_DAYS) if not cal.is_weekend(days[n] + timedelta(days=k))))
    plain = [i for i in range(n) if not kinds[i] and not feats[i].get("holiday")]
    xx = np.asarray(x)
    base = np.full(n, np.nan)
    for i in range(n):
        at, past = bisect.bisect_left(plain, i), bisect.bisect_right(plain, i)
        near = [j for j in plain[max(0, at - WEEK_DAYS_BASE):at] + plain[past:past + WEEK_DAYS_BASE]
                if abs(j - i) <= 2 * WEEK_DAYS_BASE]
        if len(near) >= 2:
            base[i] = median(x[j] for j in near)
    ratio = np.exp(xx - base) - 1
    ordinary = [i for i in plain if not math.isnan(base[i])]
    if len(ordinary) < 26:
        return None
    sd = MAD_SCALE * mad(ratio[ordinary].tolist())
    if sd <= 0:
        return None
    # every reach is scored on the same weeks: those the longest reads
    judged = [i for i in range(n) if kinds[i] and not in_break[i] and not math.isnan(base[i])]

    def read(reach: Mapping[str, int], default: int) -> tuple[float, list[str], np.ndarray, np.ndarray] | None:
        cols = [_week_columns(kinds[i], working, reach, default) for i in judged]
        names = sorted({c for row in cols for c in row})
        # a family seen in two weeks at least (its effect is not one week's noise)
        names = [c for c in names if sum(1 for row in cols if row.get(c)) >= 2]
        beta, a = np.zeros(0), np.zeros((len(judged), 0))
        while names:
            a = np.asarray([[row.get(c, 0.0) for c in names] for row in cols])
            beta = _robust_lstsq(a, ratio[judged])
            se = sd * np.sqrt(np.maximum(np.diag(np.linalg.pinv(a.T @ a)), 0.0))
            strong = [c for c, b, s in zip(names, beta, se) if abs(b) >= WEEK_DAYS_Z * s]
            if len(strong) == len(names):
                break
            names = strong
        if not names:
            return None
        resid = float(np.mean(np.abs(ratio[judged] - a @ beta)))
        m = len(judged)
        return resid * math.sqrt(m / max(m - 1.57 * len(names), m / 2)), names, beta, np.linalg.pinv(a.T @ a)

    best, default = None, 0
    best_reach: dict[str, int] = {}
    for r in WEEK_EVE_REACHES:
        trial = read({}, r)
        if trial is not None and (best is None or trial[0] < best[0]):
            best, default = trial, r
    if best is None:
        return None
    # then each family's own reach, one at a time (a festival's meals bought five days ahead, a fast's one)
    for family in sorted({name for i in judged for kind, name, _ in kinds[i] if kind == "eve"}):
        for r in WEEK_EVE_REACHES:
            if r == best_reach.get(family, default):
                continue
            trial = read({**best_reach, family: r}, default)
            if trial is not None and trial[0] < best[0]:
                best, best_reach = trial, {**best_reach, family: r}
    _, names, beta, cov = best
    vec = np.asarray([[_week_columns(k, working, best_reach, default).get(c, 0.0) for c in names] for k in kinds])
    offsets = np.log(np.maximum(1 + vec @ beta, WEEK_DAYS_FLOOR))
    is_read = [bool(np.any(v)) and not b for v, b in zip(vec, in_break)]
    if not is_read[n]:
        return None  # the target's days earned nothing: the labels read every week, as before
    adjusted = (xx - np.where(is_read[:n], offsets[:n], 0.0)).tolist()
    # (the two readings are compared without the weeks before moving holidays' labels, which read some of the same
    # eves: see _weeks_before_moving_holidays)
    labelled = [{**fv, "near_holiday": ""} for fv in feats]
    relabelled = [{**fv, "holiday": "" if is_read[i] else fv.get("holiday", "")} for i, fv in enumerate(labelled)]
    used = [f for f in SPARSE if f in feats[0]]
    labels = SeriesFit(t, x, labelled, used, lag, level_points)
    by_days = SeriesFit(t, adjusted, relabelled, used, lag, level_points)
    m, effects = max(len(by_days.errors), 1), _effect_count(by_days)
    cost = math.sqrt(max(m - 1.57 * effects, m / 2) / max(m - 1.57 * (effects + len(names)), m / 2))
    if not typical_error(by_days) * by_days.dof_factor() * cost < (1 - gain) * typical_error(labels) * labels.dof_factor():
        return None
    for fv, by_its_days in zip(feats, is_read):
        if by_its_days:
            # (a week read by its days holds its eves: it is no week before a moving holiday's either, or its eves
            # would count twice)
            fv["holiday"], fv["near_holiday"] = "", ""
    target_vec = vec[n]
    # the target's effect's own uncertainty (least squares' for the ratio, in the ordinary weeks' spreads)
    var = float(target_vec @ cov @ target_vec) / max(1 + float(target_vec @ beta), WEEK_DAYS_FLOOR) ** 2
    return adjusted, float(offsets[n]), var, is_read[n]


def _span_holidays(pts: Sequence[Point], x: list[float], feats: Sequence[Mapping[str, object]], target: datetime,
                   cal: HolidayCalendar, days: int) -> tuple[list[float], float, float] | None:
    """A series of partitions of `days` days each (a fortnight, a dekad on a fixed step) read by the holidays its
    days after the key hold, or None where the history shows none of the target's: (the series with those holidays
    taken out, the target's log effect, its variance in squared spreads). The key day's holiday is the partition's
    label; the others went unnamed, so a fortnight holding a moving holiday (Good Friday its second day, a shut day
    of fourteen) read as an ordinary one. Each partition is read against the one a year back (the key nearest a
    year before it, within half a step): their ratio, over the series' growth, is one plus each holiday's effect
    per day times the difference of its shares of the two partitions' days. A fixed-date holiday sits in the same
    place of the year both years and cancels (the place of the year is the model's own reading, with any season
    there); one that moves (Easter, a lunar feast) does not, and its effect is read from the years it moved. By
    robust least squares, holidays with the same occurrences one family, each effect kept where it stands
    `WEEK_DAYS_Z` standard errors from none (the least distinct dropped first, the rest fitted again) and within
    what a day can do (`DAY_WEIGHT_BOUNDS` of an ordinary day's). Read only where the target holds a kept holiday
    after its key day."""
    n = len(x)
    starts = [*(q.at.date() for q in pts), target.date()]
    held = [frozenset(nm for nm in (cal.identity(first + timedelta(days=k)) for k in range(1, days)) if nm)
            for first in starts]
    if not held[n]:
        return None
    year_back: list[tuple[int, int]] = []  # (partition, the one a year before it), same key-day label
    for i in range(n):
        j = min(range(i), key=lambda k: abs((starts[i] - starts[k]).days - YEAR_LENGTH), default=None)
        if j is not None and abs((starts[i] - starts[j]).days - YEAR_LENGTH) <= days / 2 \
                and feats[i].get("holiday", "") == feats[j].get("holiday", ""):
            year_back.append((i, j))
    # (holidays that always come together, Good Friday and Easter Monday, are one family: apart they part at random)
    together: dict[tuple[int, ...], list[str]] = defaultdict(list)
    for name in sorted(held[n].union(*held[:n])):
        together[tuple(i for i in range(n + 1) if name in held[i])].append(name)
    families = list(together.values())

    def shares(i: int) -> np.ndarray:
        named = [cal.identity(starts[i] + timedelta(days=k)) for k in range(1, days)]
        return np.asarray([sum(1 for nm in named if nm in names) / days for names in families])

    share = [shares(i) for i in range(n + 1)]
    design = np.asarray([share[i] - share[j] for i, j in year_back]).reshape(len(year_back), len(families))
    moved = np.any(np.abs(design) > 0, axis=1)
    growth = np.asarray([x[i] - x[j] for i, j in year_back])
    if np.count_nonzero(~moved) < 2 * WEEK_DAYS_BASE or not moved.any():
        return None
    ratio = np.exp(growth - float(np.median(growth[~moved]))) - 1
    sd = MAD_SCALE * mad(ratio[~moved].tolist())
    if sd <= 0:
        return None
    low, high = -1.0, DAY_WEIGHT_BOUNDS[1] - 1
    # (a family read from two years that moved at least: one move is one year's noise)
    active = [c for c in range(len(families)) if np.count_nonzero(design[:, c]) >= 2]
    beta, cov = np.zeros(0), np.zeros((0, 0))
    while active:
        a = design[moved][:, active]
        beta = _robust_lstsq(a, ratio[moved])
        cov = np.linalg.pinv(a.T @ a)
        se = np.maximum(sd * np.sqrt(np.maximum(np.diag(cov), 0.0)), 1e-12)
        z = np.abs(beta) / se
        # (an effect surely beyond what a day can do, shut or five-fold, is a season's or a step's, not the holiday's)
        z[(beta + WEEK_DAYS_Z * se < low) | (beta - WEEK_DAYS_Z * se > high)] = 0.0
        if z.min() >= WEEK_DAYS_Z:
            break
        active.pop(int(z.argmin()))
    target_vec = share[n][active]
    if not active or not target_vec.any():
        return None
    offsets = [math.log(max(1 + float(share[i][active] @ beta), WEEK_DAYS_FLOOR)) for i in range(n + 1)]
    var = float(target_vec @ cov @ target_vec) / max(1 + float(target_vec @ beta), WEEK_DAYS_FLOOR) ** 2
    return [v - o for v, o in zip(x, offsets)], offsets[n], var


def _effect_count(fit: SeriesFit) -> int:
    """The group effects a fit holds (as `SeriesFit.dof_factor` counts them)."""
    return sum(1 for f in fit.used for v in fit.effects[f] if not (f in SPARSE and v in NONE))


def _band_k(p: ModelParams, span: int, fit: SeriesFit, feats: Sequence[Mapping[str, object]],
            target_feats: Mapping[str, object], used: Sequence[str]) -> float:
    """The band's multiplier for a partition covering `span` days. `k` is set for a day: a week is
    judged once where a day is judged seven times, so the same false alarms per day of the owner's
    calendar allow seven times the tail probability per week (k = 4: 3.51). Student's t with the
    degrees of freedom the target's spread rests on (its own group's one-step errors) keeps a spread
    read from few errors at k or wider: a week of the year's two or three past occurrences."""
    if span <= 1:
        return p.k
    own = sum(1 for i, _ in fit.errors if all(feats[i][f] == target_feats[f] for f in used))
    if own < BAND_K_MIN_ERRORS:
        return p.k
    return min(p.k, float(student_t.isf(float(norm.sf(p.k)) * span, own)))


def _upper_tail(fit: SeriesFit, special: Sequence[bool]) -> tuple[float, int] | None:
    """The history's upper tail, where it has one: ordinary days that stood more than `TAIL_Z` noise
    sds above their level for one partition (the next back inside), at least `TAIL_MIN` of them, in
    both halves of the errors, and more than the downward ones at `TAIL_P` (one-sided binomial:
    a misfit errs both ways, a backfill only up). Returns the largest such move (log) and the count."""
    sd = _noise_sd(fit)
    errors = [(i, e) for i, e in fit.errors if i < len(special) and not special[i]]
    if len(errors) < 2 or sd <= 0:
        return None
    bar = TAIL_Z * sd
    ups, downs = [], 0
    for (i, e), (_, after) in itertools.pairwise(errors):
        if abs(after) > bar:
            continue  # a step, or a load repaid the next partition: not a one-day burst
        if e > bar:
            ups.append((i, e))
        elif e < -bar:
            downs += 1
    if len(ups) < TAIL_MIN:
        return None
    middle = errors[len(errors) // 2][0]
    if min(sum(1 for i, _ in ups if i < middle), sum(1 for i, _ in ups if i >= middle)) < TAIL_HALF_MIN:
        return None
    if float(binom.sf(len(ups) - 1, len(ups) + downs, 0.5)) > TAIL_P:
        return None
    return max(e for _, e in ups), len(ups)


@dataclass(frozen=True)
class _Bursts:
    """A history's upward bursts (see `_upward_bursts`): the partitions inside them, how many runs, and the
    ordinary partitions' spread as a share of all's."""
    points: frozenset[int]
    runs: int
    narrower: float


def _burst_errors(adj: Sequence[float], bursts: Collection[int], level_points: int, first: int) -> dict[int, float]:
    """Each point's error against the level of the ordinary points before it (the median of the latest
    `level_points` of them outside `bursts`), where at least three are."""
    out: dict[int, float] = {}
    prior: list[float] = []
    for i in range(len(adj)):
        if i >= first and len(prior) >= 3:
            out[i] = adj[i] - median(prior[-level_points:])
        if i not in bursts:
            prior.append(adj[i])
    return out


def _runs(points: Collection[int]) -> list[list[int]]:
    """Consecutive indices grouped into runs, in order."""
    out: list[list[int]] = []
    for i in sorted(points):
        if out and out[-1][-1] == i - 1:
            out[-1].append(i)
        else:
            out.append([i])
    return out


def _upward_bursts(fit: SeriesFit, special: Sequence[bool], level_points: int) -> _Bursts | None:
    """The history's upward bursts, where its departures are mostly upward runs that end (a lottery's
    jackpot rollovers lift several weeks in a row, then a win drops sales back; a promotion's weeks):
    each run of partitions `BURST_Z` noise sds above the level of the ordinary partitions before it, the
    noise read from the partitions' changes on the one before, then again from the ordinary partitions'
    own errors (`BURST_ROUNDS`). Earned from `TAIL_MIN` runs back inside at least, outnumbering the runs
    as far below at `TAIL_P` (one-sided binomial, runs counted as one: a rollover's weeks are one event). A run still going at the history's end and longer than every finished one is
    a step, not a burst: it reads the level. A calendar day is never a burst (its own effect reads it).
    Why: a burst read as the level lifts the weeks after it (each then errs below), and read as noise it
    widens the band both ways, so a drop passes on the side the bursts never touched."""
    errors = dict(fit.errors)
    values = list(errors.values())
    if len(values) < 2 * level_points:
        return None
    adj = (np.asarray(fit.e) - fit.slope * fit._tt).tolist()
    # (first read from the partitions' changes on the one before: a burst's weeks climb together, so they
    # move its start and end only, where a level lifted by a burst moves every error after it)
    noise = MAD_SCALE * mad(np.diff(adj).tolist()) / math.sqrt(2)
    if noise <= 0:
        return None
    first = min(errors)
    bursts = {i for i, e in errors.items() if e > BURST_Z * noise and not special[i]}
    for _ in range(BURST_ROUNDS):
        read = _burst_errors(adj, bursts, level_points, first)
        ordinary = [e for i, e in read.items() if i not in bursts]
        noise = MAD_SCALE * mad(ordinary) if len(ordinary) >= 2 * level_points else 0.0
        if noise <= 0:
            return None
        bursts = {i for i, e in read.items() if e > BURST_Z * noise and not special[i]}
    runs = _runs(bursts)
    finished = [r for r in runs if r[-1] + 1 < len(adj)]
    if runs and runs[-1] not in finished and len(runs[-1]) > max((len(r) for r in finished), default=0):
        bursts -= set(runs[-1])  # a run longer than every burst, still going: a step, read as the level
    downs = len(_runs({i for i, e in read.items() if e < -BURST_Z * noise}))
    if len(finished) < TAIL_MIN or float(binom.sf(len(finished) - 1, len(finished) + downs, 0.5)) > TAIL_P:
        return None
    narrower = min(1.0, noise / (MAD_SCALE * mad(values)))
    return _Bursts(frozenset(bursts), len(finished), narrower)


def _burst_floor(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], t: Sequence[float], t_target: float,
                 level: float, level_points: int) -> tuple[float, float, int] | None:
    """Where the history holds upward bursts (`_upward_bursts`): how far the level of its latest
    `level_points` ordinary partitions since the latest accepted shift sits below `level` (log, never
    negative), the ordinary partitions' spread as a share of all's, and the bursts' count. None where
    it holds none, or fewer than three ordinary partitions since the shift."""
    bursts = _upward_bursts(fit, special, level_points)
    if bursts is None:
        return None
    since = max((i for i, q in enumerate(pts) if q.shift), default=0)
    calm = [j for j in range(since, len(pts)) if j not in bursts.points and not special[j]][-level_points:]
    if len(calm) < 3:
        return None
    floor = median([fit.e[j] + fit.slope * (t_target - t[j]) for j in calm])
    return max(0.0, level - floor), bursts.narrower, bursts.runs


def _ramp_unconfirmed(special: Sequence[bool], level_points: int) -> bool:
    """The latest RAMP_STALE_SHARE of a level window are all calendar days (a holiday's fortnight):
    a ramp's line rests on ordinary days older than them, and their own values, de-seasoned by
    effects learned a year earlier on another level, cannot say whether it went on (a Christmas
    season's climb to the 22nd, carried on through the quiet week after it, read New Year 0.6x)."""
    latest = special[-max(1, round(level_points * RAMP_STALE_SHARE)):]
    return len(latest) > 0 and all(latest)


def _ramp_own(fit: SeriesFit, pts: Sequence[Point], t: Sequence[float], special: Sequence[bool], level_points: int,
              spread: float, slope: float) -> bool:
    """Whether a ramp (`slope`: its local slope, per point, beyond the history's) is the series' own, not a season's
    climb, so it is followed through calendar days that fill the level window's latest days (_ramp_unconfirmed): the
    ordinary points of the two level windows before the ramp's (`_local_trend`'s) already sloped its way by one
    standard error of their own (a launch ramping for months, not a climb of the weeks before a holiday), and the same
    two windows a year back (YEAR_DAYS), where the history holds them, climbed by less than half as much and by no
    more than two standard errors of their own (a season climbs every year; a launch's ramp was not there). A
    season's climb with no year back stays unconfirmed."""
    n = len(fit.e)
    if n < 4 * level_points:
        return False
    before = _ordinary_line(fit, t, special, range(n - 4 * level_points, n - 2 * level_points))
    if before is None:
        return False
    before_slope, before_se, _ = theil_sen(*before, spread)
    if before_slope * slope <= 0 or abs(before_slope) <= before_se:
        return False
    year = timedelta(days=YEAR_DAYS)
    first, last = pts[n - 2 * level_points].at - year, pts[n - 1].at - year
    back_idx = [j for j, q in enumerate(pts) if first <= q.at <= last]
    if len(back_idx) < level_points:
        return False  # (no year back to tell a season from a launch)
    back = _ordinary_line(fit, t, special, back_idx)
    if back is None:
        return False
    back_slope, back_se, _ = theil_sen(*back, spread)
    climbed = back_slope * math.copysign(1.0, slope)
    # (a season's climb a year back, partly read as its neighbourhoods' effects, may slope less than this year's)
    return climbed < abs(slope) / 2 and climbed <= 2 * back_se


def _ordinary_line(fit: SeriesFit, t: Sequence[float], special: Sequence[bool],
                   window: Sequence[int]) -> tuple[np.ndarray, np.ndarray] | None:
    """The times and deseasonalised values beyond the history's slope of `window`'s ordinary points (its calendar
    days left out, unless they fill half of it or more: Easter's fortnight, read by their deseasonalised values as
    the level is), in time order, for a local line through them; None under 8 points."""
    idx = [j for j in window if not special[j]]
    if len(idx) * 2 < len(window):
        idx = list(window)
    if len(idx) < 8:
        return None
    return (np.asarray([t[j] for j in idx], dtype=float),
            np.asarray([fit.e[j] - fit.slope * t[j] for j in idx], dtype=float))


def _local_trend(fit: SeriesFit, t: Sequence[float], special: Sequence[bool], level_points: int,
                 spread: float) -> tuple[float, float, float, float] | None:
    """The latest two level windows' own trend beyond the history's (slope, its standard error,
    intercept, mean time; in log space, per point), or None. The slope over the ordinary points must
    stand 3 standard errors from the history's; the older half of them must already slope the same
    way by one standard error of its own (a step in the latest days leaves it flat, and stays the
    band's and the shift rule's; a ramp that began less than a level window ago is _onset_ramp's,
    tried first) and the newer half must not have turned (a ramp that ended is not
    extrapolated). Followed or not, the extrapolation is capped at
    the band's half-width: a slow fault the local trend is allowed to follow is still flagged once
    it falls more than twice the band's half-width behind the level window's median, and an empty
    partition or a 1.9x one fails whatever the trend."""
    n = len(fit.e)
    line = _ordinary_line(fit, t, special, range(max(0, n - 2 * level_points), n))
    if line is None:
        return None
    tt, y = line
    slope, se, intercept = theil_sen(tt, y, spread)
    if abs(slope) <= 3 * se:
        return None
    half = len(tt) // 2
    older, older_se, _ = theil_sen(tt[:half], y[:half], spread)
    newer, _, _ = theil_sen(tt[half:], y[half:], spread)
    if older * slope <= 0 or abs(older) <= older_se or newer * slope <= 0:
        return None
    return slope, se, intercept, float(tt.mean())


def _onset_ramp(fit: SeriesFit, t: Sequence[float], special: Sequence[bool], level_points: int,
                spread: float, not_a_step: bool = False) -> tuple[float, float, float, float] | None:
    """A ramp that began inside the latest two level windows (a rollout, a migration, a campaign, up
    or down), which _local_trend's older half, still flat, cannot show: a hinge (the level flat, then
    a line from a knot) fitted to the ordinary points' deseasonalised values, the knot where it fits
    best. Returned as _local_trend's (the line after the knot: slope, its standard error, intercept,
    mean time) when at least RAMP_POINTS points follow the knot, the slope stands RAMP_Z standard
    errors from flat (RAMP_Z above 3: the knot was chosen among many), RAMP_SAME_SIDE of those
    points' one-step errors (each against the points before it) lie on its side, and the newest half
    of them has not turned, and the hinge's residuals stay within 1.5x the series' spread. With
    `not_a_step` (a run the shift rule found), two flat levels must also fit the window worse than
    the hinge. Only the history before the target is read."""
    n = len(fit.e)
    window = list(range(max(0, n - 2 * level_points), n))
    idx = [j for j in window if not special[j]]
    if len(idx) * 2 < len(window):
        idx = window
    if len(idx) < RAMP_POINTS + 4:
        return None
    errors = dict(fit.errors)
    if not _same_side_suffix(idx, errors):
        return None  # no knot could pass the one-step errors' test below: spare the knot search
    tt = np.asarray([t[j] for j in idx], dtype=float)
    y = np.asarray([fit.e[j] - fit.slope * t[j] for j in idx], dtype=float)
    fits: dict[int, tuple[float, int, np.ndarray, np.ndarray]] = {}

    def hinge(k: int) -> tuple[float, int, np.ndarray, np.ndarray]:
        if k not in fits:
            # the knot at the last flat point: the line starts from the level, without a step
            d = np.maximum(0.0, tt - tt[k - 1])
            design = np.column_stack([np.ones_like(tt), d])
            coef = _robust_lstsq(design, y)
            fits[k] = (float(np.sum(np.abs(y - design @ coef))), k, coef, d)
        return fits[k]

    knots = range(4, len(idx) - RAMP_POINTS + 1)
    # every knot on a daily window; on a long (hourly) one every `stride`-th, then every knot
    # around the best of those (the fit's cost moves smoothly with its knot)
    stride = max(1, len(knots) // RAMP_KNOTS)
    coarse = min((hinge(k) for k in knots[::stride]), key=lambda f: (f[0], f[1]))
    near = range(max(knots.start, coarse[1] - stride + 1), min(knots.stop, coarse[1] + stride))
    cost, k, coef, d = min((hinge(k) for k in near), key=lambda f: (f[0], f[1]))
    # against a run the shift rule found: a step fits a step better than any line, so the best
    # split into two flat levels must fit worse (a -30% step six days ago is a new level, not a
    # steep ramp through it)
    if not_a_step and min(float(np.sum(np.abs(y[:s] - np.median(y[:s]))) + np.sum(np.abs(y[s:] - np.median(y[s:]))))
           for s in range(4, len(idx) - 2)) <= cost:
        return None
    slope = float(coef[1])
    resid = y - coef[0] - slope * d
    noise = MAD_SCALE * float(np.median(np.abs(resid)))
    if noise > 1.5 * spread:
        return None
    sigma = max(spread, noise)
    sdd = float(np.sum((d - d.mean()) ** 2))
    # (Huber's fit costs about 5% of least squares' efficiency)
    se = 1.05 * sigma / math.sqrt(sdd) if sdd > 0 else math.inf
    if abs(slope) <= RAMP_Z * se:
        return None
    after = [errors[j] for j in idx[k:] if j in errors]
    if not after or sum(1 for e in after if e * slope > 0) < RAMP_SAME_SIDE * len(after):
        return None
    post_t, post_y = tt[k:], y[k:]
    half = len(post_t) // 2
    newer, _, _ = theil_sen(post_t[half:], post_y[half:], spread)
    if newer * slope <= 0 or _ramp_fell_back(y[-STEP_RUN:] - (coef[0] + slope * d[-STEP_RUN:]), slope * d[-1], sigma):
        return None
    return slope, se, float(coef[0] - slope * tt[k - 1]), float(post_t.mean())


def _ramp_fell_back(latest: np.ndarray, rise: float, sigma: float) -> bool:
    """Whether a ramp's latest points (`latest`: their offsets from its line, STEP_RUN of them) fell back off
    it: their median sits against the ramp's direction by STEP_RUN_Z noise sds (`sigma`) and nearer the flat
    level before the knot than the line (`rise`: the line's end above that level). A ramp keeps to its line; a
    surge at the window's end (a neighbour's holiday weekend, x1.25 for three days in no calendar, whose
    hinge climbs through it) ends at once, back to the level before it, and the line extrapolated past its
    end read the next morning's hours 0.64-0.70x. Such a median comes by chance about once in 600 (two of
    three points beyond two sds)."""
    back = -float(np.median(latest)) * math.copysign(1.0, rise)
    return back > STEP_RUN_Z * sigma and back > abs(rise) / 2


def _same_side_suffix(idx: Sequence[int], errors: Mapping[int, float]) -> bool:
    """Whether any knot _onset_ramp may choose (4 .. len(idx) - RAMP_POINTS) leaves points after it
    whose one-step errors lie RAMP_SAME_SIDE on one side: its test on the chosen knot can pass only
    then. (The knot search fits a robust line per knot, hundreds on an hourly window: most
    histories hold no such run and skip it; the result is the same.)"""
    signs = np.asarray([np.sign(errors[j]) if j in errors else np.nan for j in idx], dtype=float)
    counted = ~np.isnan(signs)
    # counts over each suffix idx[k:], read from the end
    n_counted = np.cumsum(counted[::-1])[::-1]
    n_up = np.cumsum((signs == 1)[::-1])[::-1]
    n_down = np.cumsum((signs == -1)[::-1])[::-1]
    knots = slice(4, len(idx) - RAMP_POINTS + 1)
    need = RAMP_SAME_SIDE * n_counted[knots]
    return bool(np.any((n_counted[knots] > 0) & ((n_up[knots] >= need) | (n_down[knots] >= need))))


def _calendar_days(feats: Sequence[Mapping[str, object]]) -> list[bool]:
    """Which points are calendar days for the shift rule and the level: a holiday, its
    neighbourhood, a closure, a close window or a season (a weekly or monthly series' month or
    week of the year is every point's, so none of them; a restart's week after a break reads the
    level, `reads_level`)."""
    return [any(fv.get(f, "") not in NONE for f in EARNED if f not in SEASONS) and not reads_level(fv)
            for fv in feats]


def _closed_as_usual(pts: Sequence[Point], local: Mapping[datetime, datetime], target: datetime, grain: Grain,
                     step: float, cal: HolidayCalendar) -> tuple[int, int, str] | None:
    """(empty occurrences, occurrences, what recurs) when the target's slot held no rows on most of
    its past occurrences: its weekly slot (its weekday; on an hourly series its weekday's local
    hour: a table closed on Sundays, or at night), or, on a holiday, the past holidays' same slot
    where the weeks either side were open (a business closed on holidays). The warehouse returns
    no row for a partition without rows, so a closed slot is absent from the history rather than
    zero, and an empty partition there is not a failed load. Only on a series of consecutive days
    or hours (a month-end or weekly series has no slots), and never on a slot that had rows in
    most of its weeks (an empty Monday still fails), nor on a weekend day worked in exchange for a
    day off (China's Saturdays around Spring Festival)."""
    unit = 1 / 24 if grain == "hour" else 1.0
    day = local[target].date()
    if grain not in ("day", "hour") or abs(step - unit) > 1e-9 or not pts or cal.is_worked_weekend(day):
        return None
    had_rows, days_with_rows, first = _row_hours(pts, local)
    if grain == "hour" and _closed_hours_opened(local[target], had_rows, days_with_rows, first):
        return None
    empty, loaded = _slot_empties(local[target], had_rows, days_with_rows, first)
    if _closed_share(empty, loaded):
        return empty, len(loaded), "occurrences of this hour of the week" if grain == "hour" else "occurrences of this weekday"
    if not cal.name(day):
        return None
    # past holidays whose slot was open the week before and the week after: closed on them, or not
    holidays = []
    for d in range((day - first.date()).days):
        at = datetime.combine(first.date() + timedelta(days=d), local[target].time())
        if (cal.name(at.date()) and not cal.is_worked_weekend(at.date())
                and at - timedelta(days=7) in had_rows and at + timedelta(days=7) in had_rows):
            holidays.append(at)
    empty = sum(at not in had_rows for at in holidays)
    if empty >= CLOSED_MIN_OCCASIONS and empty >= CLOSED_SHARE * len(holidays):
        return empty, len(holidays), "holidays' same hour" if grain == "hour" else "holidays"
    partitions = {local[q.at] for q in pts}
    shut = (_holiday_shut_so_far(local[target], had_rows, days_with_rows, first, partitions)
            if grain == "hour" and not holidays else 0)
    if shut:
        return shut, shut, "usual open hours of this holiday so far, never held before"
    return None


def _closed_in_season(pts: Sequence[Point], target: datetime, step: float) -> tuple[int, str] | None:
    """(years read, a note) where a weekly or monthly series held no rows at the target's place in the year (a
    partition loaded empty, or none, within half a step of the same date a whole year back) in every past year its
    history holds from its first rows, SEASON_CLOSED_MIN_YEARS of them at least, each time with rows after it before
    the target: a group shut for the same season every year and back after it (a ski lift in summer, a beach kiosk
    in winter, a desert camp in the heat), whose empty partition in that season is one of its ordinary ones, not a
    missing group. A month-end or weekly series has no weekly slots (`_closed_as_usual`), so its closures are read
    from its own years. Still none where a past year held rows there (empty out of its season), where the history
    holds fewer years (its season's first year: nothing shows it), or where it never came back after a past year's
    empty (a group stopped for good); a daily series is not read so (a year back lands on another weekday)."""
    if step < WEEK_DAYS - 0.5:
        return None
    with_rows = [q.at for q in pts if q.value > 0]
    if not with_rows:
        return None
    reach, years = timedelta(days=step / 2), 0
    while (back := target - timedelta(days=round((years + 1) * YEAR_LENGTH))) >= with_rows[0]:
        if any(abs(at - back) < reach for at in with_rows) or not any(back < at < target for at in with_rows):
            return None
        years += 1
    if years < SEASON_CLOSED_MIN_YEARS:
        return None
    return years, (f"closed for its season as usual: no rows at this time of the year in each of the {years} past "
                   "years its history holds, each time back after it, so an empty partition is one of its ordinary ones")


def _empty_runs(days_with_rows: Collection[date], first: date, last: date, open_days: Collection[int],
                cal: HolidayCalendar) -> list[tuple[date, date, int]]:
    """The runs of days without rows from `first` to `last` (both included): (first day, last day, how many of them
    are usual open weekdays, `open_days`, the calendar names no holiday on)."""
    runs: list[tuple[date, date, int]] = []
    start, count, d = None, 0, first
    while d <= last:
        if d in days_with_rows:
            if start is not None:
                runs.append((start, d - timedelta(days=1), count))
            start, count = None, 0
        else:
            start = d if start is None else start
            count += d.weekday() in open_days and not cal.name(d)
        d += timedelta(days=1)
    if start is not None:
        runs.append((start, last, count))
    return runs


def _years_back(run: Sequence[date], day: date, history: Collection[date], cal: HolidayCalendar) -> set[date]:
    """`day`'s places a year back: 52 weeks back, the same date, and for each holiday `run` holds, the day as far
    from that holiday's past occasion (`cal.identity`) within TERM_CLOSURE_YEAR_DAYS of it in `history`."""
    out = {day - timedelta(weeks=52), _year_ago(day)}
    for d in run:
        if not (name := cal.identity(d)):
            continue
        for back in range(TERM_CLOSURE_YEAR_DAYS[0], TERM_CLOSURE_YEAR_DAYS[1] + 1):
            past = d - timedelta(days=back)
            if past in history and cal.identity(past) == name and cal.identity(past - timedelta(days=1)) != name:
                out.add(day - timedelta(days=back))
    return out


def _closed_as_last_year(pts: Sequence[Point], target: datetime, cal: HolidayCalendar) -> tuple[int, str] | None:
    """(past closures read, a note) where a daily group is closed for a season in no calendar, as it was a year back:
    its latest days without rows (to the target) hold one of its usual open weekdays at least (a holiday's too), its
    history holds TERM_CLOSURE_MIN_OCCASIONS closures that ended or more (runs without rows holding
    TERM_CLOSURE_OPEN_DAYS open weekdays in no calendar, rows after them), one of which began within
    TERM_CLOSURE_REACH_DAYS of this run's start a year back (`_years_back`: 52 weeks, the same date, or as far from
    a holiday this run holds as from its past occasion), and this run, the target included, is no longer than that
    one was (a reopening day a year back, or later, may be the reopening's: an empty one there still fails). A school's tuck shops shut in the school holidays and half-term weeks, on dates no calendar names: an
    empty day there is one of its ordinary ones, not a missing group. Still none where the group's rows stopped on
    an ordinary day with no closure a year back (an outage, a group gone), where it stays shut longer than it did a
    year back (its term began, it did not), or where the history shows no such closures that ended. A weekly or
    monthly series reads its seasons as `_closed_in_season`; a daily one's weekly closures as `_closed_as_usual`."""
    rows = [q.at.date() for q in pts if q.value > 0]
    if len(rows) < 2 or target.date() <= rows[-1] + timedelta(days=1):
        return None
    with_rows, open_days = set(rows), open_weekdays(rows)
    start = rows[-1] + timedelta(days=1)
    # (its holidays count here: Easter Tuesday's run of Good Friday, the weekend and Easter Monday is under way)
    if not any((start + timedelta(days=k)).weekday() in open_days for k in range((target.date() - start).days)):
        return None
    # (a closure the history begins in counts, begun on or before its first day: a long summer's start falls out of
    # 400 days of history by its last weeks)
    begins = pts[0].at.date()
    past = [r for r in _empty_runs(with_rows, begins, rows[-1], open_days, cal) if r[2] >= TERM_CLOSURE_OPEN_DAYS]
    if len(past) < TERM_CLOSURE_MIN_OCCASIONS:
        return None
    run = [start + timedelta(days=k) for k in range((target.date() - start).days + 1)]
    backs = _years_back(run, start, {q.at.date() for q in pts}, cal)
    length = (target.date() - start).days
    if not any(_closure_matches(first, last, first == begins, back, length) for first, last, _ in past for back in backs):
        return None
    return len(past), (f"closed for a season in no calendar as it was a year back: no rows since {start}, as in a "
                       f"closure that began about then a year back and lasted longer (of {len(past)} closures it "
                       "came back from), so an empty partition is one of its ordinary ones")


def _closure_matches(first: date, last: date, truncated: bool, back: date, length: int) -> bool:
    """Whether a past closure (`first` to `last`; `truncated`: the history begins inside it) is the one a run of
    `length` days to the target, begun on `back` a year back, repeats: begun within TERM_CLOSURE_REACH_DAYS of
    `back` and no shorter than the run (a truncated one, whose start the history does not hold: under way at the
    target's place a year back and the day after it, so that a year back's reopening day, on one reading of "a year
    back" or the other, is none of its days)."""
    if truncated:
        return first <= back + timedelta(days=length) < last
    return abs((first - back).days) <= TERM_CLOSURE_REACH_DAYS and length <= (last - first).days


def _reopening_lift(pts: Sequence[Point], target: datetime, cal: HolidayCalendar,
                    h: float) -> tuple[float, int, int] | None:
    """(the median lift, in log, of the past reopenings that ran high, how many did, how many were read) where the
    target is a daily group's first day back after a closure (days without rows holding TERM_CLOSURE_OPEN_DAYS of its
    usual open weekdays in no calendar at least, as `_closed_as_last_year` reads them) and TERM_CLOSURE_MIN_OCCASIONS
    of its past first days back after such closures or more sat above their level by more than the band's
    half-width `h` (against the median of its next REOPENING_LEVEL_DAYS days with rows: a term's level, not the
    fit's, whose calendar groups learn a first day on a holiday's neighbourhood as that neighbourhood's); else None. A school's tuck shops stocked on a term's
    first day (x1.4 against the term's level, read 1.38-1.50 as a spike), not after a half-term week: the lift is
    read from the reopenings that ran high, and the band widens on that side only."""
    rows = [q for q in pts if q.value > 0]
    days = [q.at.date() for q in rows]
    if len(rows) < 2 or target.date() <= days[-1] + timedelta(days=1):
        return None
    with_rows, open_days = set(days), open_weekdays(days)
    now = _empty_runs(with_rows, days[-1] + timedelta(days=1), target.date() - timedelta(days=1), open_days, cal)
    if not now or now[0][2] < TERM_CLOSURE_OPEN_DAYS:
        return None
    index = {d: j for j, d in enumerate(days)}
    logs = [math.log(q.value) for q in rows]
    # (a closure the history begins in counts: its first day back is seen whole)
    readings = [logs[j] - median(logs[j + 1:j + 1 + REOPENING_LEVEL_DAYS])
                for _, last, count in _empty_runs(with_rows, pts[0].at.date(), days[-1], open_days, cal)
                if count >= TERM_CLOSURE_OPEN_DAYS and (j := index.get(last + timedelta(days=1))) is not None
                and j + REOPENING_LEVEL_DAYS < len(rows)]
    high = [r for r in readings if r > h]
    if len(high) < TERM_CLOSURE_MIN_OCCASIONS:
        return None
    return median(high), len(high), len(readings)


def _span_occasions(start: datetime, days: int, cal: HolidayCalendar, moving: Collection[str]) -> frozenset[str]:
    """The moving holidays (`identity`, among `moving`) and declared seasons (Ramadan where the calendar holds Eid
    al-Fitr) the `days` days from `start` hold: what a partition a year back must hold too to read the target's (an
    Eid, Ramadan's eleven days a year earlier, move in and out of the same weeks of the year; a fixed date's holiday
    stays in them)."""
    out = set()
    for d in (start.date() + timedelta(days=k) for k in range(days)):
        out.add(name if (name := cal.identity(d)) in moving else "")
        out.add(season[0] if (season := declared_season(d, cal)) else "")
    return frozenset(out - {""})


def _season_year_back(pts: Sequence[Point], target: datetime, p: ModelParams, cal: HolidayCalendar
                      ) -> tuple[float, float, float, str] | None:
    """A weekly or monthly series closed for a season every year (its latest empty partitions, or none loaded, closed
    for its season as usual: `_closed_in_season` at their middle), read open as its same place in the year in its past
    years (each within half a step of the same date, on the year-over-year growth: their median) : (log baseline,
    spread, half-width, note), or None. Its open months are a season of their own (a desert camp's first weeks
    back at x0.6, its winter at x1.25): the level of its latest open weeks lags it, the more so across the closure
    (last season's end read against this season's start), and it has too few open weeks for a week of the year's
    effects; its return and its weeks after it ran as in its past years, on its growth. The spread is the MAD of
    its year-over-year pairs' errors about the growth; an accepted shift since a year back is read on the pairs
    across it (the check's owner accepts a partition for every group: most groups' pairs across read no move), as
    `_year_back_band` reads it. None where no closed season recurs, where no pair crosses an accepted shift the
    target's year back stands before, or from fewer than SEASON_BACK_MIN_PAIRS pairs. A partition and its year back
    are paired only where they hold the same moving holidays and seasons (`_span_occasions`: an Eid's week read a year
    back is an ordinary one)."""
    rows = [q for q in pts if q.value > 0]
    if len(rows) < 2:
        return None
    step = _step_days(rows)
    if step < WEEK_DAYS - 0.5:
        return None
    closure = max(((a.at, b.at) for a, b in itertools.pairwise(rows) if (b.at - a.at).days > 1.5 * step), default=None)
    if closure is None or _closed_in_season(pts, closure[0] + (closure[1] - closure[0]) / 2, step) is None:
        return None
    segment = dict(zip((q.at for q in rows), itertools.accumulate(1 if q.accepted and q.shift else 0 for q in rows)))
    latest = segment[rows[-1].at]
    reach, days = timedelta(days=step / 2), round(step)
    moving = _moving_holidays((pts[0].at.date() + timedelta(days=k) for k in range((target - pts[0].at).days + days)),
                              cal)

    def back(at: datetime, k: int) -> Point | None:
        at_back = at - timedelta(days=round(k * YEAR_LENGTH))
        near = min(rows, key=lambda q: abs(q.at - at_back))
        return near if abs(near.at - at_back) < reach and (
            _span_occasions(near.at, days, cal, moving) == _span_occasions(at, days, cal, moving)) else None

    paired = [(q, b) for q in rows if (b := back(q.at, 1)) is not None]
    same = [math.log(q.value / b.value) for q, b in paired if segment[q.at] == segment[b.at]]
    if len(same) < SEASON_BACK_MIN_PAIRS:
        return None
    growth = float(np.median(same[-2 * round(YEAR_LENGTH / step):]))
    across = [math.log(q.value / b.value) - growth for q, b in paired if segment[q.at] == latest != segment[b.at]]
    shift = float(np.median(across)) if across else None
    reads = [math.log(b.value) + k * growth + (0.0 if segment[b.at] == latest else cast(float, shift))
             for k in range(1, YEAR_BACK_YEARS + 1)
             if (b := back(target, k)) is not None and (segment[b.at] == latest or shift is not None)]
    if not reads:
        return None
    errors = [d - growth for d in same]
    spread = _year_back_spread(errors)
    h = p.half_width(spread)
    note = (f"closed for a season every year: read as its same place in {len(reads)} past year(s), x{math.exp(growth):.3f}"
            f" a year, spread {spread:.3f} from {len(errors)} year-over-year pairs")
    return float(np.median(reads)), spread, h, note


def _holiday_shut_so_far(target: datetime, had_rows: set[datetime], days_with_rows: set[date], first: datetime,
                         loaded: set[datetime]) -> int:
    """How many hours of the local `target`'s day before it, in weekly slots open as usual (rows on most of
    their past occurrences), were loaded empty (a partition of no rows of the series, among `loaded`, the
    partitions of the table: a branch's zero while the other branches ran), where every such hour was and they
    are HOLIDAY_SHUT_HOURS at least (else 0; hours not loaded at all may be an outage or a history that ends the
    evening before): on a holiday the history never held (no past holiday's same hour to tell), a series empty through
    its usual hours so far is shut for the day (a branch reading room closed on a holiday while the other
    libraries open), and its next empty hours are its state, not failed loads (its first empty hours still
    fail: nothing tells a closure from an outage there)."""
    usual = []
    for hour in range(target.hour):
        at = target.replace(hour=hour)
        empty, occurrences = _slot_empties(at, had_rows, days_with_rows, first)
        if len(occurrences) >= CLOSED_MIN_OCCASIONS and len(occurrences) - empty >= CLOSED_SHARE * len(occurrences):
            usual.append(at)
    if len(usual) < HOLIDAY_SHUT_HOURS or any(at in had_rows or at not in loaded for at in usual):
        return 0
    return len(usual)


def _row_hours(pts: Sequence[Point], local: Mapping[datetime, datetime]) -> tuple[set[datetime], set[date], datetime]:
    """(the local moments with rows, their days, the first local moment) of a non-empty history: what
    _slot_empties reads a weekly slot from."""
    had_rows = {local[q.at] for q in pts if q.value > 0}
    return had_rows, {at.date() for at in had_rows}, min(local[q.at] for q in pts)


def _closed_share(empty: int, loaded: Sequence[datetime]) -> bool:
    """Whether a weekly slot that held no rows on `empty` of its `loaded` occurrences is closed as usual."""
    return empty >= CLOSED_MIN_OCCASIONS and empty >= CLOSED_SHARE * len(loaded)


def _slot_empties(at: datetime, had_rows: set[datetime], days_with_rows: set[date],
                  first: datetime) -> tuple[int, list[datetime]]:
    """(how many held no rows, the occurrences) of the weekly slot of local `at` (its weekday's hour or its
    weekday) over the weeks before it that the table was loaded at all (a table missing for a month, or a
    history of a point or two, says nothing of its closed days)."""
    loaded = [at - timedelta(days=7 * k) for k in range(1, (at - first).days // 7 + 1)]
    loaded = [a for a in loaded if any(a.date() + timedelta(days=d) in days_with_rows for d in range(-3, 4))]
    return sum(a not in had_rows for a in loaded), loaded


def _closed_hours_opened(target: datetime, had_rows: set[datetime], days_with_rows: set[date],
                         first: datetime) -> bool:
    """Whether the run of hours with rows (local `had_rows`, as _slot_empties reads them) up to the local
    `target` (no hour without rows between) holds, within the
    24 hours before it, at least OPENED_CLOSED_HOURS in weekly slots closed as usual before them (empty on most
    of their earlier occurrences): the series opens hours it kept closed and has not closed since (a library
    open around the clock for its exams, a shop trading through its Sunday), so its history's closed hours say
    nothing of the target's, and an empty partition there is an outage. A series whose closed hours stay closed
    (a bar's nights) holds no such hours, and one that opened a night once and closed after it (a club open on
    a holiday's eve, shut the next evening until its usual hour) passes its empties as before."""
    opened = 0
    for back in range(1, 25):
        at = target - timedelta(hours=back)
        if at not in had_rows:
            break
        empty, loaded = _slot_empties(at, had_rows, days_with_rows, first)
        opened += _closed_share(empty, loaded)
    return opened >= OPENED_CLOSED_HOURS


def _opened_at(target: datetime, had_rows: set[datetime], days_with_rows: set[date], first: datetime) -> datetime | None:
    """The first hour, in the unbroken run of hours with rows (local, as _slot_empties reads them) up to local
    `target`, in a weekly slot closed as usual before it: where the series began opening hours it kept closed
    (None when the run holds none)."""
    opened = None
    at = target - timedelta(hours=1)
    while at in had_rows:
        empty, loaded = _slot_empties(at, had_rows, days_with_rows, first)
        if _closed_share(empty, loaded):
            opened = at
        at -= timedelta(hours=1)
    return opened


def _same_hour_reading(values: Mapping[datetime, float], opened: datetime
                       ) -> Callable[[datetime, datetime], tuple[float, list[float], float] | None]:
    """A reader of local hours since `opened`: (the log of the hour's median on its latest OPENED_SAME_HOUR_DAYS
    days since the opening, the logs by which the latest OPENED_RECENT_HOURS hours from a floor ran off their own
    such medians, together and the latest alone, and the reading's own counting variance), or None where the hour
    or its latest hours have no same hour since."""
    def same_hour(at: datetime) -> tuple[float, int] | None:
        logs = [math.log(values[a]) for k in range(1, OPENED_SAME_HOUR_DAYS + 1)
                if (a := at - timedelta(days=k)) >= opened and values.get(a, 0.0) > 0]
        if not logs:
            # none since the opening: an hour the series kept open before it reads its latest days then (the
            # first day after the opening, at the level its latest hours ran against theirs)
            before = [a for k in range(1, 2 * OPENED_SAME_HOUR_DAYS + 1)
                      if (a := at - timedelta(days=k)) < opened and values.get(a, 0.0) > 0]
            logs = [math.log(values[a]) for a in before[:OPENED_SAME_HOUR_DAYS]]
        return (median(logs), len(logs)) if logs else None

    def read(at: datetime, floor: datetime) -> tuple[float, list[float], float] | None:
        centre = same_hour(at)
        if centre is None:
            return None
        seen, usual, usual_var, latest = 0.0, 0.0, 0.0, None
        for j in range(1, OPENED_RECENT_HOURS + 1):
            a = at - timedelta(hours=j)
            if a < floor or values.get(a, 0.0) <= 0:
                break
            own = same_hour(a)
            if own is not None:
                seen, usual = seen + values[a], usual + math.exp(own[0])
                usual_var += MEDIAN_VARIANCE / own[1] * math.exp(own[0])
                latest = math.log(values[a]) - own[0] if latest is None else latest
        if latest is None:
            return None
        # (the latest hours' level as a ratio of their sums: a night's few rows an hour read as one count)
        # (a Poisson count's log varies by 1/count)
        level = math.log(seen / usual)
        return (centre[0], [level, latest],
                MEDIAN_VARIANCE / centre[1] / math.exp(centre[0]) + 1 / seen + usual_var / usual ** 2)
    return read


def _hour_reads_alone(values: Mapping[datetime, float], read: Callable[[datetime, datetime], tuple[float, list[float],
                      float] | None], at: datetime, opened: datetime) -> bool:
    """Whether local `at`'s hour of the day, on the run's earlier days since `opened` (OPENED_ALONE_MIN_DAYS of them
    at least, each with a same-hour reading), was read closer by its same hour's median alone than at the level its
    latest hours ran (`read`, _same_hour_reading): an hour that runs alike every day (a library's nights, the same
    on a Friday and a Monday) is misread by the evening before it (a Friday's quieter evening, a holiday's), while an
    hour that moves with its day's kind (a weekday's morning against a weekend's) is read better at that level."""
    alone, with_level = 0.0, 0.0
    days = 0
    for k in range(1, OPENED_SAME_HOUR_DAYS + 1):
        moment = at - timedelta(days=k)
        if moment < opened or values.get(moment, 0.0) <= 0:
            continue
        past = read(moment, opened)
        if past is None:
            continue
        observed = math.log(values[moment])
        alone += abs(observed - past[0])
        with_level += abs(observed - past[0] - past[1][0])
        days += 1
    return days >= OPENED_ALONE_MIN_DAYS and alone < with_level


def _opened_hours_read(pts: Sequence[Point], local: Mapping[datetime, datetime], target: datetime,
                       p: ModelParams) -> tuple[float, float, float, float, str] | None:
    """(baseline, lower, upper, hard ratio, note) for an hour of a series that opened hours it kept closed
    (_closed_hours_opened: a library open around the clock for its exams, a shop trading through its
    Sundays): its regime changed, so the history's term-day bands and shift rule read its new hours as a
    level that never settles (each new day's hours 1.5x, its holidays open). Each hour is read against
    its same hour on the latest days since the opening, at the level its latest hours ran against their
    own same hours (a holiday's or a weekend's day, a surge in no calendar, from its first hours on; from
    an accepted shift on, only its hours), the band as wide as that reading erred on the run's own hours
    and as counting a count of that size needs. None where the target's hour has no same hour since the
    opening (its first day: the model reads it as before) or the series opened nothing."""
    had_rows, days_with_rows, first = _row_hours(pts, local)
    at = local[target]
    if not _closed_hours_opened(at, had_rows, days_with_rows, first):
        return None
    opened = _opened_at(at, had_rows, days_with_rows, first)
    if opened is None:
        return None
    values = {local[q.at]: q.value for q in pts}
    read = _same_hour_reading(values, opened)
    accepted = [local[q.at] for q in pts if q.shift and local[q.at] >= opened]
    target_read = read(at, max(accepted, default=opened))
    if target_read is None and accepted:
        target_read = read(at, opened)  # (the target is the accepted shift's next hour with none after it)
    if target_read is None:
        return None
    errors, count_vars = [], []
    for moment, value in values.items():
        past = read(moment, opened) if value > 0 and moment >= opened else None
        if past is not None:
            guess = past[0] + past[1][0]
            errors.append(math.log(value) - guess)
            count_vars.append(1 / math.exp(guess) + past[2])  # the hour's and its reading's own counting noise
    centre, moves, reading_var = target_read
    if abs(moves[0]) <= p.ceiling and _hour_reads_alone(values, read, at, opened):
        # its same hour alone, where its latest hours ran within the widest band of theirs (beyond it, a surge or a
        # lull in no calendar, a holiday's evening, may hold through the night: read at that level, as before)
        moves = [0.0]
    log_pred = centre + moves[0]
    expected_rows = math.exp(log_pred)
    counting = 1 / expected_rows + reading_var
    if len(errors) >= OPENED_MIN_ERRORS:
        beyond_counting = max(0.0, (MAD_SCALE * mad(errors)) ** 2 - median(count_vars))
        raw_h = p.k * math.sqrt(beyond_counting + counting)
    else:
        raw_h = max(p.ceiling, p.k * math.sqrt(counting))
    h = min(max(raw_h, p.floor, _count_floor(expected_rows)), p.ceiling)
    count_low, count_high = _count_tails(expected_rows, raw_h) if raw_h > p.ceiling else (1.0, 1.0)
    # (the latest hour alone may already have moved to a new level: the band reaches it on its side)
    low, high = min(moves), max(moves)
    if (at - timedelta(hours=OPENED_RECENT_HOURS)).date() != at.date():
        # (a new day's first hours read the level of the day before: it may have been another kind of day, a
        # holiday's evening before an ordinary night, so the band also reaches the same hours' own reading)
        low, high = min(low, 0.0), max(high, 0.0)
    baseline = expected_rows
    lower = min(math.exp(centre + low - h), baseline * count_low)
    upper = max(math.exp(centre + high + h), baseline * count_high)
    note = (f"hours it kept closed opened from {opened:%Y-%m-%d %H}h: read against this hour on the latest days since "
            f"({math.exp(centre):,.0f}), at the level its latest hours ran against theirs "
            f"(x{math.exp(moves[0]):.2f}), the band as wide as that reading erred on {len(errors)} hours of the run")
    # (the hard rule reads from the highest of them: a double of any fails, a clean hour at the highest does not)
    return baseline, lower, upper, max(p.hard_ratio, count_high) * math.exp(high - moves[0]), note


def _usual_hours(had_rows: set[datetime], days: Collection[date]) -> dict[int, set[int]]:
    """Each weekday's usual service hours (local hours of the day): those with rows on more than CLOSURE_USUAL_SHARE
    of that weekday's `days` (days with rows)."""
    seen: dict[int, Counter[int]] = defaultdict(Counter)
    for at in had_rows:
        seen[at.weekday()][at.hour] += 1
    count = Counter(d.weekday() for d in days)
    return {wd: {hour for hour, n in hours.items() if n > CLOSURE_USUAL_SHARE * count[wd]} for wd, hours in seen.items()}


def _day_closure(day: date, had_rows: set[datetime], usual: Mapping[int, set[int]],
                 until: int = 24) -> tuple[int, int] | None:
    """(first, last local hour) of the longest run of `day`'s usual hours without rows, CLOSURE_MIN_HOURS long at
    least, between hours of that day with rows (before `until`, the hour read as holding rows: a target day's
    hours so far), or None: its usual service shut for some hours of the day."""
    hours = sorted(hour for hour in usual.get(day.weekday(), ()) if hour < until)
    # (the hour `until` closes a run reaching it: the target's own hour holds rows)
    open_ = [hour for hour in hours if datetime(day.year, day.month, day.day, hour) in had_rows] + \
        ([until] if until < 24 else [])
    runs: list[list[int]] = [[]]
    for hour in [*hours, until]:
        if hour in open_:
            runs.append([])
        elif open_ and open_[0] < hour:
            runs[-1].append(hour)
    # (a run is closed by an open hour after it: the day's last hours without rows are its evening, not a closure)
    longest = max((run for run in runs[:-1] if len(run) >= CLOSURE_MIN_HOURS), key=len, default=None)
    return (longest[0], longest[-1]) if longest else None


def _month_position(day: date) -> tuple[int, int, int]:
    """(weekday, its ordinal in the month from the start, from the end): where a monthly closure falls (the last
    Saturday, the first Sunday)."""
    return day.weekday(), (day.day - 1) // 7, (calendar.monthrange(day.year, day.month)[1] - day.day) // 7


def _closure_hours_read(pts: Sequence[Point], local: Mapping[datetime, datetime], target: datetime, baseline: float,
                        lower: float, upper: float, h: float, spread: float, hard_ratio: float,
                        p: ModelParams) -> tuple[float, float, float, str] | None:
    """(baseline, lower, upper, note) for an hour within CLOSURE_NEAR_HOURS of a day's usual service hours shut in no
    calendar (_day_closure: a monthly community-work morning's roads closed, a marathon's, a Friday prayer's shut
    hours once): the hours around a closure run unlike the weekday's (few go out before it, everyone after it), and
    the same weekday's bands read them as faults. Where the history holds days shut over the same hours (the
    closure seen in the target's day so far), or days at the target's place in the month (its weekday, its
    ordinal from the month's start or end: the last Saturday) that were all shut before (the closure still ahead,
    expected as on them), the hour is read as their same hour ran against their weekday's same hour in the weeks
    either side, times the target's weekday's same hour on its latest ordinary weeks, in the series' spread
    widened by how few they are. Where the target's day is shut for the first time, its first hour after the
    closure may carry a backlog of any size: a spike is judged by the hard rule (its lower side kept: the missing
    hours may be hours not loaded yet). None elsewhere: an hour missing alone, a day
    without a closure, a weekly closed slot (_closed_as_usual reads that)."""
    values = {local[q.at]: q.value for q in pts}
    had_rows = {at for at, v in values.items() if v > 0}
    at = local[target]
    today = at.date()
    days = {m.date() for m in had_rows if m.date() < today}
    usual = _usual_hours({m for m in had_rows if m.date() < today}, days)
    if at.hour not in usual.get(at.weekday(), ()):
        return None
    shut = {d: run for d in days if (run := _day_closure(d, had_rows, usual)) is not None}
    own = _day_closure(today, had_rows, usual, at.hour)
    if own is not None:
        if not 0 < at.hour - own[1] <= CLOSURE_NEAR_HOURS:
            return None
        alike = [d for d, run in shut.items() if run == own]
        why = f"the day's usual hours {own[0]:02d}-{own[1]:02d}h shut"
    else:
        # the closure still ahead: expected where every past day at the target's place in the month was shut
        position = _month_position(today)
        alike = [d for d, run in shut.items() if 0 < run[0] - at.hour <= CLOSURE_NEAR_HOURS
                 and _month_position(d)[0] == position[0]
                 and (_month_position(d)[1] == position[1] or _month_position(d)[2] == position[2])]
        # (and no day at that place since, or between them, that ran without it: a closure once is no month's)
        same_place = [d for d in days if d.weekday() == today.weekday()
                      and any(_month_position(d)[i] == position[i] == _month_position(a)[i] for a in alike
                              for i in (1, 2))]
        if not alike or any(d not in shut for d in same_place):
            return None
        why = (f"a day at the place in the month of {len(alike)} past day(s) shut "
               f"{shut[alike[0]][0]:02d}-{shut[alike[0]][1]:02d}h, the closure ahead")

    def same_hour(day: date) -> float | None:
        moment = datetime(day.year, day.month, day.day, at.hour)
        return math.log(values[moment]) if values.get(moment, 0.0) > 0 and day not in shut else None

    factors, neighbours = [], []
    for d in alike:
        own_hour = values.get(datetime(d.year, d.month, d.day, at.hour), 0.0)
        around = [v for k in (-1, 1) if (v := same_hour(d + timedelta(days=7 * k))) is not None]
        if own_hour > 0 and around:
            factors.append(math.log(own_hour) - sum(around) / len(around))
            neighbours.append(len(around))
    recent = [v for k in range(1, CLOSURE_RECENT_WEEKS + 1) if (v := same_hour(today - timedelta(days=7 * k))) is not None]
    if own is not None and not factors:
        # shut for the first time: its first hour after may carry the closed hours' backlog, of unknown size (as a
        # day opened late, _opened_late): a spike is judged by the hard rule; a drop still fails (the hours missing
        # may be hours not loaded yet, not a closure: nothing tells them apart, so the lower side is kept)
        if at.hour != min((hour for hour in usual[at.weekday()] if hour > own[1]), default=at.hour):
            return None
        return (baseline, lower, baseline * hard_ratio,
                (f"{why}, a closure never seen before: its first hour after may carry a backlog, a spike is "
                 "judged by the hard rule only"))
    if not factors or not recent:
        return None
    centre = median(recent) + sum(factors) / len(factors)
    # (the target's noise, its weekday's same-hour median's, and the past closures' factors', each against the mean
    # of its neighbours)
    variance = 1 + MEDIAN_VARIANCE / len(recent) + sum(1 + 1 / n for n in neighbours) / len(factors) ** 2
    half = min(max(p.k * spread * math.sqrt(variance), p.floor, _count_floor(math.exp(centre))), p.ceiling)
    return (math.exp(centre), math.exp(centre - half), math.exp(centre + half),
            (f"{why}: read as this hour ran on {len(factors)} past day(s) shut alike "
             f"(x{math.exp(sum(factors) / len(factors)):.2f} of their weekday's same hour either side), times the "
             f"weekday's same hour on its latest {len(recent)} week(s)"))


def _event_evening_read(fit: SeriesFit, moments: Sequence[datetime], target: datetime, h: float) -> float | None:
    """The move (log, off the fit's reading) to read local `target` at where its same hour ran above its reading by
    EVENT_EVENING_SHARE of the band's half-width `h` or more on each of the latest EVENT_EVENING_DAYS days (on no
    calendar day, within EVENT_EVENING_LOOKBACK days), and the hour just before the target ran above by as much on
    those days and today (an event's evenings in no calendar: a festival's crowds on one corridor at 20-22h every
    night of a week, today's 19h already up): the least of those days' moves, each less what today's hour before
    runs short of that day's (the part of tonight the reading already carries). None elsewhere: a first evening, an
    evening's first hour (nothing before it today tells it from a spike), an evening whose earlier hour today ran
    as usual (the run has ended), and any move down (an evening event adds activity; a load losing its evening is a
    fault to catch, however many days it repeats). The band keeps its width around the moved reading, so a drop from
    the evening's level fails as one from an ordinary hour's; the fit's in-sample residuals read each hour net of
    its hour, weekday and level."""
    index = {at: j for j, at in enumerate(moments)}
    above, hour = EVENT_EVENING_SHARE * h, timedelta(hours=1)
    today = index.get(target - hour)
    if today is None or (target - hour).date() != target.date() or fit.resid[today] < above:
        return None
    days = [(index.get(target - timedelta(days=k)), index.get(target - hour - timedelta(days=k)))
            for k in range(1, EVENT_EVENING_LOOKBACK + 1)]
    seen = [(j, i) for j, i in days if j is not None and i is not None and reads_level(fit.feats[j])]
    seen = seen[:EVENT_EVENING_DAYS]
    if len(seen) < EVENT_EVENING_DAYS or any(fit.resid[j] < above or fit.resid[i] < above for j, i in seen):
        return None
    # (the reading may already carry part of tonight: a level that read today's evening as a step up leaves today's
    # hour before less far above it than the past evenings' was; the target's move is cut by that much)
    move = min(fit.resid[j] - max(0.0, fit.resid[i] - fit.resid[today]) for j, i in seen)
    return move if move > 0 else None


def _empty_by_chance(expected_rows: float, raw_h: float, p: ModelParams) -> bool:
    """A series of a few rows, as noisy as counting makes it, that was empty before on such days:
    an empty partition is one of its ordinary counts (three rows a day are none one day in
    twenty), not a failed load. Never where nothing but a failure empties it: hundreds of rows."""
    return raw_h > p.ceiling and math.exp(-expected_rows) >= 10 * COUNT_TAIL


def _zero_by_counting(expected_rows: float, raw_h: float, zeros: Sequence[Point], p: ModelParams) -> bool:
    """A partition of so few rows expected that a Poisson count of that size is zero at least `ZERO_BY_COUNTING`
    of the time, on a series as noisy as counting makes it that has been empty before (on any day: it reaches
    zero, it is no clockwork feed): an empty partition there is a count, not a failed load, even on a kind of
    day never empty before (a branch of four jobs a day on a holiday new to the calendar, about a row expected).
    `_empty_by_chance` asks past zeros of the same kind of day for a zero ten times rarer."""
    return bool(zeros) and raw_h > p.ceiling and math.exp(-expected_rows) >= ZERO_BY_COUNTING


def _holiday_behaviours(fit: SeriesFit, quiet: bool) -> list[float]:
    """The effects of the holidays the history has seen (0 for an ordinary day when some seen
    holiday's effect was within the noise): what a holiday never seen may be like. A restart's weeks
    after a break (`past_a_break`) are no closure and say nothing of one."""
    if "holiday" not in fit.used:
        return []
    seen = [fit.effects["holiday"][v] for v, m in fit.members["holiday"].items()
            if m and v not in NONE and not past_a_break(str(v))]
    return seen + [0.0] if quiet and seen else seen


def _holiday_days(first_day: date, cal: HolidayCalendar) -> int:
    """How many of the seven days from `first_day` the calendar names a holiday."""
    return sum(bool(cal.name(first_day + timedelta(days=k))) for k in range(WEEK_DAYS))


def _behaviours_by_holiday_days(fit: SeriesFit, pts: Sequence[Point], target: datetime, cal: HolidayCalendar,
                                quiet: bool) -> list[float]:
    """A weekly series' seen holiday effects (as _holiday_behaviours), each read per holiday day its weeks held
    (their median count) and scaled to the holiday days of the target's week: a week losing one day to a holiday
    never seen is not as quiet as the week that lost Christmas and Boxing Day together. Empty where the target's
    week names no holiday day or no seen holiday's weeks can be counted."""
    own = _holiday_days(target.date(), cal)
    if "holiday" not in fit.used or not own or len(fit.feats) != len(pts):
        return []
    days_of: dict[object, list[int]] = defaultdict(list)
    for fv, q in zip(fit.feats, pts):
        days_of[fv.get("holiday")].append(_holiday_days(q.at.date(), cal))
    seen = [e * own / median(days_of[v]) for v, e in fit.effects["holiday"].items()
            if fit.members["holiday"].get(v) and v not in NONE and not past_a_break(str(v))
            and days_of.get(v) and median(days_of[v]) > 0]
    return seen + [0.0] if quiet and seen else seen


def _key_holiday_reach(behaviours: Sequence[float], step: float, hard_ratio: float) -> tuple[float, float]:
    """The quietest and busiest effects (logs) a holiday never seen may have on a partition of `step` days keyed on
    it: like one of the seen holidays' (`behaviours`, _holiday_behaviours), and at least as far as its one day can
    move the partition, from closed (its day's share lost) to `hard_ratio` times an ordinary day."""
    share = 1 / max(step, 1.0)
    return (min(min(behaviours), math.log(1 - share)),
            max(max(behaviours), math.log(1 + (hard_ratio - 1) * share)))


def _weekend_prior(fit: SeriesFit, target_feats: Mapping[str, object], used: Sequence[str],
                   cal: HolidayCalendar) -> list[float]:
    """The effects of the weekend's same hour (each weekend day's), the prior for a holiday hour
    never seen before: a holiday closes like a weekend more often than not (business hours quiet,
    a nightly batch unchanged). Only when the series shows its weekdays differ (a weekday or hour
    of the week group earned its place); otherwise [] and the holiday is judged by the hard rules."""
    if not ({"weekday", "hour_of_week"} & set(used)):
        return []
    weekend = sorted(weekend_days(cal.country, cal.subdiv)) if cal.country else [5, 6]
    return [_effect_as_day(fit, target_feats, day) for day in weekend]


def _busier_weekend(effect: float, weekend: Sequence[float]) -> float:
    """How far (log) the busiest weekend day's same hour runs above the target's ordinary hour, 0 where
    none does: what a holiday hour never seen may reach on a leisure business (its weekends busier than
    its weekdays: a ski resort, a bar). Read only where the history holds no holiday at all (four weeks of
    hours hold none): then nothing tells a holiday closed like an office's from one run like the weekend's,
    and the band holds both (the lower side reaches the closed-like reading already). Where a holiday was
    seen, its hours tell which way this business's holidays run (a bar's holiday night x0.6 of a weekday's,
    doubled, must fail). The hard rule reads from that weekend hour too, so a duplicated weekend-like
    holiday hour (2x its weekend day's) still fails. What it costs: a drop of a weekend-like holiday's
    first hours to a weekday's level passes, and so does a doubled weekday-like holiday hour where the
    weekend's hour runs above twice the weekday's over the band's half-width (x1.4 at the ceiling)."""
    return max(0.0, max(weekend, default=effect) - effect)


def _effect_as_day(fit: SeriesFit, target_feats: Mapping[str, object], day: int) -> float:
    """The target's hour read as the same hour of another day of the week, no holiday: with the closure
    that day's same hour usually comes after (a Sunday's first hour on mall hours follows the night and a
    morning: its backlog is its `after_gap` group's, not the hour's), where the history holds that hour."""
    hour = cast(int, target_feats["hour_of_day"])
    gaps = Counter(fv.get("after_gap", 0) for fv in fit.feats
                   if fv.get("weekday") == day and fv.get("hour_of_day") == hour and fv.get("holiday", "") in NONE)
    gap = gaps.most_common(1)[0][0] if gaps else target_feats.get("after_gap", 0)
    fv = {**target_feats, "weekday": day, "hour_of_week": day * 24 + hour, "holiday": "", "near_holiday": "",
          "after_gap": gap}
    return fit.effect_for(fv)[0]


def _eve_effect(fit: SeriesFit, moments: Sequence[datetime], target: datetime, cal: HolidayCalendar,
                spread: float) -> tuple[float, int] | None:
    """How far the target's hour may run off its usual on the eve of a holiday (a day that is no
    holiday, before one): (the mean one-step error of the same hour on the history's past eves, how
    many), or, with no past eve holding the hour, (EVE_PRIOR, 0) from EVE_FROM_HOUR on. None where
    the target is no eve, or the past eves' mean is within the noise (DISTINCT_Z["holiday"] standard
    errors: a series whose eves are ordinary keeps its band). Too few eves for a group of their own
    (four weeks of hours hold one or two), but enough to say which side of the band they reach."""
    if not _is_eve(target.date(), cal):
        return None
    errors = dict(fit.errors) or dict(enumerate(fit.resid))
    past = [errors[i] for i, at in enumerate(moments)
            if i in errors and at.hour == target.hour and _is_eve(at.date(), cal)]
    if not past:
        return (EVE_PRIOR, 0) if target.hour >= EVE_FROM_HOUR else None
    mean_error = sum(past) / len(past)
    if abs(mean_error) <= DISTINCT_Z["holiday"] * spread / math.sqrt(len(past)):
        return None
    return mean_error, len(past)


def _holiday_so_far(fit: SeriesFit, same_day: Sequence[int], feats: Sequence[Mapping[str, object]],
                    target_feats: Mapping[str, object], used: Sequence[str], cal: HolidayCalendar, level: float,
                    t: Sequence[float], t_target: float, spread: float) -> list[tuple[str, float, float, float]]:
    """A holiday hour never seen in past years, read from the same holiday's earlier hours today:
    each hypothesis (the holiday is an ordinary day, or the weekend's day, times a factor) is fitted
    to the hours so far (the factor: their median) and kept while those hours fit it within the noise
    (root mean square within 2.5 spreads; a closed holiday's business hours do not fit "an ordinary
    day times one factor" once its night hours showed no effect). A hypothesis is a likeness, not the
    holiday itself (Good Friday is a Saturday with its business hours 12% quieter): its misfit does not
    shrink with the noise, so the noise alone would reject on a series' total what it keeps on each of
    its noisier groups. The tolerance is therefore 2.5 times the noise or the best hypothesis's own
    misfit, whichever is larger (the best one is always kept), and each kept hypothesis carries its
    misfit into the band, and the distance from the target's kind of hour to the nearest kind seen.
    [(hypothesis, the target's effect under it, its root mean square, that distance)]; [] with fewer
    than three hours so far: the holiday is then judged as never seen."""
    if len(same_day) < 3:
        return []
    days = [("an ordinary day", cast(int, target_feats["weekday"]))]
    if {"weekday", "hour_of_week"} & set(used):
        weekend = sorted(weekend_days(cal.country, cal.subdiv)) if cal.country else [5, 6]
        days += [(f"a {calendar.day_name[d]}", d) for d in weekend if d != target_feats["weekday"]]

    def effect_as(fv: Mapping[str, object], day: int) -> float:
        return _effect_as_day(fit, fv, day)

    ordinary = cast(int, target_feats["weekday"])
    alike = 2.5 * spread
    fits = []
    for name, day in days:
        resid = [fit.x[i] - (level - fit.slope * (t_target - t[i])) - effect_as(feats[i], day) for i in same_day]
        # an hour's kind under the likeness: how far the weekend's same hour departs from an ordinary
        # day's (business hours x0.4, evenings x1.3, nights x1.0). The factor is read from the hours
        # so far of the target's kind, or of the nearest kind seen (`gap` away: the first evening
        # hour after the nights and business hours); Easter Monday's business hours are a Sunday's
        # x1.25 while its nights are a Sunday's x1.0, and one factor for both fitted neither
        kind = [effect_as(feats[i], day) - effect_as(feats[i], ordinary) for i in same_day]

        def factor_at(k: float, resid: list[float] = resid, kind: list[float] = kind) -> tuple[float, float]:
            nearest = min(abs(d - k) for d in kind)
            return median([r for r, d in zip(resid, kind) if abs(d - k) <= nearest + alike]), nearest

        rms = math.sqrt(sum((r - factor_at(d)[0]) ** 2 for r, d in zip(resid, kind)) / len(resid))
        factor, gap = factor_at(effect_as(target_feats, day) - effect_as(target_feats, ordinary))
        fits.append((f"{name} x{math.exp(factor):.2f}", effect_as(target_feats, day) + factor, rms, gap))
    tolerance = 2.5 * max(spread, min(rms for _, _, rms, _ in fits))
    return [hypothesis for hypothesis in fits if hypothesis[2] <= tolerance]


def _hours_with_ordinary_past(fit: SeriesFit, feats: Sequence[Mapping[str, object]], hours: Sequence[int]
                              ) -> list[int]:
    """A holiday's hours so far (`hours`, indices into `feats`) whose local hour the history held on
    HOLIDAY_HOUR_OWN_DAYS other days or more: only those say how far the holiday runs off an ordinary day. An hour
    the series opens only for the holiday (a metro running through New Year's night, where every other night had
    no partition) has no same hour of its own to compare with: the model fits that hour's group on the holiday's
    own point (its effect is the point itself, so the hour reads "x1.00", an ordinary day), and taken with the
    day's other hours it reads a x0.35 holiday morning as an ordinary one. Such hours are left out of
    _holiday_so_far's and _first_hours_so_far's evidence; the holiday is read from its other hours, or as never
    seen where none is left."""
    days = {feats[i].get("day") for i in hours}
    held = Counter(fv.get("hour_of_day") for fv in fit.feats if fv.get("day") not in days)
    return [i for i in hours if held[feats[i].get("hour_of_day")] >= HOLIDAY_HOUR_OWN_DAYS]


def _latest_run_readings(fit: SeriesFit, same_day: Sequence[int], feats: Sequence[Mapping[str, object]],
                         target_feats: Mapping[str, object], used: Sequence[str], cal: HolidayCalendar, level: float,
                         t: Sequence[float], t_target: float, spread: float, side: int, min_hours: int,
                         counted: bool = False) -> list[tuple[float, int]] | None:
    """A holiday hour never seen, read from its hours so far (`same_day`, in time order, _holiday_so_far's): where
    the latest `min_hours` hours or more, up to the target, each ran off the day's factor (the median of the hours so
    far) by HOLIDAY_DAYS_FIT spreads on `side` (-1 quieter, +1 busier) under every likeness _holiday_so_far weighs
    (an ordinary day's same hours and, where the week's days differ, the weekend's), the target's effect at their
    factor and the run's length, one per likeness; None otherwise (or where every hour so far ran off: no turn).
    `counted`: an hour's spread is never below its count's own (_count_floor at the day's reading of the hour: a
    night of three rows moves by half its size by counting alone, where the series' spread is its busy hours')."""
    if len(same_day) < 3:
        return None
    days = [cast(int, target_feats["weekday"])]
    if {"weekday", "hour_of_week"} & set(used):
        days += sorted(weekend_days(cal.country, cal.subdiv)) if cal.country else [5, 6]
    readings = []
    for day in days:
        resid = [fit.x[i] - (level - fit.slope * (t_target - t[i])) - _effect_as_day(fit, feats[i], day)
                 for i in same_day]
        factor = median(resid)

        def edge(k: int, resid: list[float] = resid, factor: float = factor) -> float:
            i = same_day[k]
            noise = max(spread, _count_floor(math.exp(fit.x[i] - resid[k] + factor))) if counted else spread
            return factor + side * HOLIDAY_DAYS_FIT * noise

        run = 0
        while run < len(resid) and side * (resid[-1 - run] - edge(len(resid) - 1 - run)) > 0:
            run += 1
        if run < min_hours or run == len(resid):
            return None
        readings.append((_effect_as_day(fit, target_feats, day) + median(resid[-run:]), run))
    return readings


def _holiday_turned(fit: SeriesFit, same_day: Sequence[int], feats: Sequence[Mapping[str, object]],
                    target_feats: Mapping[str, object], used: Sequence[str], cal: HolidayCalendar, level: float,
                    t: Sequence[float], t_target: float, spread: float) -> float | None:
    """A holiday hour never seen, read from its hours so far (`same_day`, in time order, _holiday_so_far's), whose
    latest hours turned quieter than the day's factor: a holiday may change within its day (New Year's Eve worked
    at x0.7 until the afternoon and x0.3 from 16h, a shop's Christmas Eve shut from 14h), and the day's median
    still reads its morning for hours after the turn. Where the latest HOLIDAY_TURNED_MIN_HOURS hours or more, up to
    the target, each ran below the day's factor by HOLIDAY_DAYS_FIT spreads (the same tolerance as a factor's fit)
    under every likeness _holiday_so_far weighs (an ordinary day's same hours and, where the week's days differ,
    the weekend's: a holiday closed like a Sunday, its business hours quiet after an ordinary night, has not
    turned), the target's effect at their factor, the shallowest of the likenesses': the band reaches it too, the
    centre kept, so a doubled hour still fails against the day's factor. Only quieter here: a holiday that turned
    busier is read by _holiday_turned_busier. None otherwise."""
    readings = _latest_run_readings(fit, same_day, feats, target_feats, used, cal, level, t, t_target, spread,
                                    -1, HOLIDAY_TURNED_MIN_HOURS)
    return max(e for e, _ in readings) if readings else None


def _holiday_turned_busier(fit: SeriesFit, same_day: Sequence[int], feats: Sequence[Mapping[str, object]],
                           target_feats: Mapping[str, object], used: Sequence[str], cal: HolidayCalendar, level: float,
                           t: Sequence[float], t_target: float, spread: float) -> tuple[float, float, int] | None:
    """A holiday hour never seen, read from its hours so far, whose latest hours turned busier than the day's factor:
    Independence Day quiet until the afternoon (x0.55) and its evening's celebrations busier than an ordinary
    evening (x1.25), a holiday with no past occasion, so no hour of it has a shape of its own, and the day's median
    still reads its morning for every hour of the evening (2-2.8x, a hard-ratio failure each hour). Where the latest
    HOLIDAY_TURNED_BUSIER_MIN_HOURS hours or more, up to the target, each ran above the day's factor by
    HOLIDAY_DAYS_FIT spreads under every likeness (as _holiday_turned reads a turn quieter; each hour's spread never
    below its count's own: a holiday's night hours of a few rows each, three of its first six hours above their
    median by counting noise, are no turn), the hour is read at their level: (the target's effect, the lowest of the
    likenesses', and the highest, for the band's upper side; the shortest run, the hours that factor rests on). The centre moves, not only the upper side as for a turn
    quieter: a doubled hour at the evening's level must still fail, and a band stretched from the morning's level
    to the evening's would pass a drop of a third. A turn back (the celebrations over) reads the day's factor
    again from its first hour (that hour no longer runs above). None otherwise."""
    readings = _latest_run_readings(fit, same_day, feats, target_feats, used, cal, level, t, t_target, spread,
                                    1, HOLIDAY_TURNED_BUSIER_MIN_HOURS, counted=True)
    if not readings:
        return None
    return min(e for e, _ in readings), max(e for e, _ in readings), min(r for _, r in readings)


def _holiday_back_to_ordinary(fit: SeriesFit, same_day: Sequence[int], feats: Sequence[Mapping[str, object]],
                              target_feats: Mapping[str, object], used: Sequence[str], cal: HolidayCalendar,
                              level: float, t: Sequence[float], t_target: float, spread: float
                              ) -> tuple[float, float, int] | None:
    """A holiday hour never seen, read from its hours so far, whose latest hour alone ran above the day's factor (too
    few for _holiday_turned_busier) and came back to an ordinary day's same hour (its residual under the ordinary
    day's likeness within HOLIDAY_BACK_FIT of its noises, the hour's count's own at least, of zero), the day's factor
    quieter than that by twice as much (the two readings apart by both tolerances: one hour of a dawn of a few rows,
    or of a day x0.7, tells neither): a holiday's late start, then people out (a Good Friday's east x0.5 until 15h and
    as usual from then, judged at 16h against the morning's x0.5: 2.2x, a hard-ratio failure). The ordinary day is
    the prior of any day, not a burst's level: the hour is read at the latest hour's level, as _holiday_turned_busier
    reads a run (the same tuple: the target's effect, lowest and highest of the likenesses', and the run, one), so a
    doubled hour still fails against an ordinary day's. The cost: a quiet day's hour duplicated in the history reads
    as an ordinary day's too, and its next hour is judged from it (a clean quiet hour fails, a second duplicate
    passes); the duplicate itself failed first. None otherwise."""
    readings = _latest_run_readings(fit, same_day, feats, target_feats, used, cal, level, t, t_target, spread,
                                    1, 1, counted=True)
    if not readings:
        return None
    ordinary = cast(int, target_feats["weekday"])
    resid = [fit.x[i] - (level - fit.slope * (t_target - t[i])) - _effect_as_day(fit, feats[i], ordinary)
             for i in same_day]
    noise = max(spread, _count_floor(math.exp(fit.x[same_day[-1]])))
    if abs(resid[-1]) > HOLIDAY_BACK_FIT * noise or median(resid) > -2 * HOLIDAY_BACK_FIT * noise:
        return None
    return min(e for e, _ in readings), max(e for e, _ in readings), 1


def _holiday_of_hour(label: str) -> str:
    """The holiday an hourly series' holiday label names, without its hour ("Morazan Weekend 06h" -> "Morazan
    Weekend"); "" for an ordinary hour."""
    return label[:-4] if label and label[-4:-3] == " " and label[-3:-1].isdigit() and label.endswith("h") else ""


def _holiday_days_so_far(feats: Sequence[Mapping[str, object]], named: Sequence[str], target_named: str,
                         target_day: int) -> list[int]:
    """A holiday's hour on an hourly series whose same hour the history held on fewer than HOLIDAY_HOUR_OWN_DAYS
    past days, on a day after the holiday's first in the history (a festival of several days under one name: the
    Morazan Weekend's Wednesday to Friday, an Eid's three days): the indices of all of the holiday's hours in the
    history, its earlier days' and today's so far, from which _holiday_so_far reads it ("an ordinary day, or the
    weekend's day, times a factor"), as it reads a holiday never seen from today's hours alone. Each hour of a
    holiday is its own group where its past days can say what it is (a business's hours closed, its nightly batch
    run as usual); on one or two past days each hour's effect is that many noisy hours, earned or set aside by
    chance (a delivery app's 06h at x0.47 on the first day, its 12h at x0.85), its band at the ceiling, while the
    holiday's twenty-four hours or more together read its factor within a few rows. `named`: each point's holiday
    label as the calendar gave it (before an indistinct group was blanked), `target_day` the target's day (`day`,
    the night's on a night business's clock). [] where the target is no holiday, or the day before it is none of
    the holiday's in the history (its first day is read from its own hours, or as never seen), or its hour was seen
    often enough. Only the days of the holiday's run up to the target count."""
    ours, _ = _holiday_run_hours(feats, named, target_named, target_day)
    if len({cast(int, feats[i]["day"]) for i in ours if named[i] == target_named}) >= HOLIDAY_HOUR_OWN_DAYS:
        return []
    return ours


def _holiday_run_hours(feats: Sequence[Mapping[str, object]], named: Sequence[str], target_named: str,
                       target_day: int) -> tuple[list[int], bool]:
    """The holiday's run of days up to the target's (`named`, `target_day` as _holiday_days_so_far's): the indices of
    its hours, its earlier days' and today's so far ([] where the target is no holiday or the day before it is none of
    the holiday's), and whether the history holds the holiday on a day before the run (a past occasion weeks before
    is a past occasion, each hour compared with its same hour then)."""
    holiday = _holiday_of_hour(target_named)
    if not holiday:
        return [], False
    held = {cast(int, feats[i]["day"]) for i, label in enumerate(named) if _holiday_of_hour(label) == holiday}
    first = target_day
    while first - 1 in held:
        first -= 1
    before = min(held, default=first) < first
    if first == target_day:
        return [], before
    return [i for i, label in enumerate(named) if _holiday_of_hour(label) == holiday
            and cast(int, feats[i]["day"]) >= first], before


def _run_seen_only_in_run(feats: Sequence[Mapping[str, object]], named: Sequence[str], target_named: str,
                          target_day: int) -> list[int]:
    """A holiday's hour on an hourly series seen on HOLIDAY_HOUR_OWN_DAYS past days or more, every one of them an
    earlier day of the target's own run (a festival of several days under one name the history never held before
    it: Thingyan's nine days "Myanmar New Year", its water festival's four days, New Year's Day proper, the extended
    days): the run's hours, its earlier days' and today's so far (_holiday_run_hours'), so that a later day is
    read as a day of its own until its hours show it is like them (_run_day_own_hours), as a day whose hour was
    seen on fewer days is (_holiday_days_so_far). The hour's own effect is then its run's earlier days only, and
    they are no past occasion of the day: New Year's Day's noon at x0.7 read at the water festival's afternoon
    (x0.25), 2.7x, and the extended days' hours 1.6-3.2x. [] where the holiday has a day in the history before
    the run (a past occasion: its hours keep their own effects), or the hour was seen on fewer days (read by
    _holiday_days_so_far)."""
    ours, before = _holiday_run_hours(feats, named, target_named, target_day)
    if before or len({cast(int, feats[i]["day"]) for i in ours if named[i] == target_named}) < HOLIDAY_HOUR_OWN_DAYS:
        return []
    return ours


def _holiday_fits_a_factor(fit: SeriesFit, hours: Sequence[int], feats: Sequence[Mapping[str, object]],
                           t: Sequence[float], t_target: float, spread: float) -> bool:
    """Whether a holiday's hours so far (`hours`, _holiday_days_so_far's) fit an ordinary day times one factor
    within HOLIDAY_DAYS_FIT spreads, their robust spread around the factor (one hour's incident or burst is no
    shape): a holiday that moves its hours alike (the city away, x0.65 at every hour) is read by its factor; one
    whose hours keep a shape of their own, repeated each of its days (a water festival's afternoons up, its
    mornings down), by each hour's own group as before."""
    resid = np.array([fit.x[i] + fit.slope * (t[i] - t_target)
                      - _effect_as_day(fit, feats[i], cast(int, feats[i]["weekday"])) for i in hours])
    misfit = MAD_SCALE * float(np.median(np.abs(resid - np.median(resid))))
    return misfit <= HOLIDAY_DAYS_FIT * spread


def _run_day_own_hours(fit: SeriesFit, pooled: Sequence[int], feats: Sequence[Mapping[str, object]],
                       target_feats: Mapping[str, object], t: Sequence[float], t_target: float,
                       spread: float, ceiling: float) -> list[int] | None:
    """A later day of a holiday's run of days the calendar names alike (`pooled`: _holiday_days_so_far's hours, the
    run's earlier days' and today's so far), read as a day of its own until its hours show it is like them. The
    `holidays` package names Orthodox Easter Sunday and Easter Monday both "Easter" (Moldova; "Christmas Day (by old
    style)" on 7 and 8 January), and an Eid's or a New Year's days share one name: an earlier day of the same run
    is no past occasion of the day (Easter Sunday's x0.3 read Easter Monday's x0.5 at 1.6-3.5x, hour after hour).
    Each of today's hours so far with an ordinary past (_hours_with_ordinary_past) is set beside the earlier days'
    same hour, both read as the run's hours together would read them (against an ordinary day of the target's
    weekday, _holiday_so_far's first likeness): with none of today's yet, nothing says the day parts from its run
    (a metro's first hour of service on New Year's second day is read as its first day's hours, and so, at its
    midnight, is Easter Monday); with fewer than RUN_DAY_OWN_HOURS, each must read the earlier days' same hour within
    `ceiling`, or the day is read as never seen (its hours so far returned: Easter Monday's night hours ran x1.7-3
    Easter Sunday's); with more, the median of the hour-by-hour gaps, widened by RUN_DAY_ALIKE_Z standard errors of
    it, must stay within HOLIDAY_DAYS_FIT times an hour's noise (the gaps' own scatter, never below two hours'
    spread, over the two hours each gap holds: a night of a few rows scatters more than the busy hours the series'
    spread reads) and within `ceiling` (the widest band: a sector of a few rows an hour, its hours' noise x3, tells
    no likeness), or the day is read from its own hours alone (returned): a gap the hours cannot yet tell from their
    noise is no likeness. None where it stays within: the run is read together, as before (the Morazan Weekend's
    weekdays alike, x0.65 each; a festival's shape the same each day, each hour from the earlier days' same hour)."""
    today, gapped = _run_day_gaps(fit, pooled, feats, target_feats, t, t_target)
    if not today:
        return None  # (no hour of its own yet: nothing says the day parts from its run, which is all there is to read)
    gaps = np.array([gap for _, gap in gapped])
    if len(gaps) < RUN_DAY_OWN_HOURS:
        # (one or two hours so far: alike only where each reads the earlier days' same hour within the widest band,
        # as _first_hours_so_far holds a likeness; one further off, and the day is never seen)
        return None if len(gaps) == len(today) and bool(np.all(np.abs(gaps) <= ceiling)) else today
    gap = float(np.median(gaps))
    noise = max(math.sqrt(2) * spread, MAD_SCALE * float(np.median(np.abs(gaps - gap))))
    tolerance = min(HOLIDAY_DAYS_FIT * noise / math.sqrt(2), ceiling)
    alike = abs(gap) + RUN_DAY_ALIKE_Z * _median_se(noise, len(gaps)) <= tolerance
    return None if alike else today


def _run_day_gaps(fit: SeriesFit, pooled: Sequence[int], feats: Sequence[Mapping[str, object]],
                  target_feats: Mapping[str, object], t: Sequence[float], t_target: float
                  ) -> tuple[list[int], list[tuple[int, float]]]:
    """A later day of a holiday's run (`pooled`: the run's earlier days' hours and today's so far, in time order):
    today's hours with an ordinary past (_hours_with_ordinary_past), and for each that the earlier days held at its
    hour, (the hour, its gap: today's reading less the earlier days' mean at that hour), both read against an ordinary
    day of the target's weekday (_holiday_so_far's first likeness). Read by _run_day_own_hours and _run_day_turned."""
    day = cast(int, target_feats["day"])
    today = _hours_with_ordinary_past(fit, feats, [i for i in pooled if feats[i]["day"] == day])
    weekday = cast(int, target_feats["weekday"])

    def read(i: int) -> float:
        return fit.x[i] + fit.slope * (t[i] - t_target) - _effect_as_day(fit, feats[i], weekday)

    earlier: dict[object, list[float]] = defaultdict(list)
    for i in _hours_with_ordinary_past(fit, feats, [i for i in pooled if feats[i]["day"] != day]):
        earlier[feats[i]["hour_of_day"]].append(read(i))
    return today, [(i, read(i) - float(np.mean(earlier[feats[i]["hour_of_day"]]))) for i in today
                   if feats[i]["hour_of_day"] in earlier]


def _run_day_turned(fit: SeriesFit, run: Sequence[int], feats: Sequence[Mapping[str, object]],
                    target_feats: Mapping[str, object], t: Sequence[float], t_target: float,
                    spread: float) -> list[int] | None:
    """A later day of a holiday run whose hour was seen only on the run's earlier days (`run`:
    _run_seen_only_in_run's hours), read like them by _run_day_own_hours (the median of today's gaps to the earlier
    days' same hours within the noise), whose latest RUN_DAY_OWN_HOURS hours, up to the target, each ran off the
    earlier days' same hour by HOLIDAY_DAYS_FIT spreads on one side (each spread never below the hour's counting
    noise, as a holiday's turn is read, _latest_run_readings): its nights read the run's, its day parted from them
    (Thingyan's seventh day, x0.85 all day, read the festival's nights at 00-08h and ran 1.8-2.1x its afternoons
    from 09h; New Year's Day's merit-making morning over at 11h). Today's hours (read as its own day, as
    _run_day_own_hours returns them), or None."""
    today, gapped = _run_day_gaps(fit, run, feats, target_feats, t, t_target)
    latest = today[-RUN_DAY_OWN_HOURS:]
    if len(latest) < RUN_DAY_OWN_HOURS or [i for i, _ in gapped[-RUN_DAY_OWN_HOURS:]] != latest:
        return None  # (a latest hour the earlier days never held: nothing to set it beside)
    offs = [gap / (HOLIDAY_DAYS_FIT * max(spread, _count_floor(math.exp(fit.x[i])))) for i, gap in gapped[-len(latest):]]
    return today if all(off > 1 for off in offs) or all(off < -1 for off in offs) else None


def _first_hours_so_far(fit: SeriesFit, same_day: Sequence[int], feats: Sequence[Mapping[str, object]],
                        target_feats: Mapping[str, object], used: Sequence[str], cal: HolidayCalendar, level: float,
                        t: Sequence[float], t_target: float, reach: float) -> list[tuple[str, float, float, float]]:
    """A holiday hour never seen, after one or two of its hours (too few for _holiday_so_far, whose free factor
    fits any likeness to one hour): the likenesses are read as they are, unscaled (an ordinary day's same
    hours, or a weekend day's where the history holds that day open at those hours and at the target's), and
    where the hours so far lie within `reach` (the widest band) of one of them (or of several that agree at the
    target's hour within `reach`), the holiday is read as that one (a holiday opening at a Saturday's x0.3 of a
    working morning is a Saturday, and a working morning's band would pass its double). Its factor is the hours'
    median against it and its misfit their root mean square, in _holiday_so_far's form. [] with no hour so far, no likeness fitting or ones that part
    at the target's hour, or a week whose days do not differ."""
    if not 1 <= len(same_day) < 3 or not {"weekday", "hour_of_week"} & set(used):
        return []
    ordinary = cast(int, target_feats["weekday"])
    held = {(fv.get("weekday"), fv.get("hour_of_day")) for fv in fit.feats if fv.get("holiday", "") in NONE}
    weekend = sorted(weekend_days(cal.country, cal.subdiv)) if cal.country else [5, 6]
    hours = [feats[i]["hour_of_day"] for i in same_day] + [target_feats["hour_of_day"]]
    days = [("an ordinary day", ordinary)] + [(f"a {calendar.day_name[d]}", d) for d in weekend
                                              if d != ordinary and all((d, hour) in held for hour in hours)]
    fits = []
    for name, day in days:
        resid = [fit.x[i] - (level - fit.slope * (t_target - t[i])) - _effect_as_day(fit, feats[i], day)
                 for i in same_day]
        if max(abs(r) for r in resid) <= reach:
            factor = median(resid)
            rms = math.sqrt(sum((r - factor) ** 2 for r in resid) / len(resid))
            fits.append((f"{name} x{math.exp(factor):.2f}", _effect_as_day(fit, target_feats, day) + factor, rms, 0.0))
    # (likenesses the same at these hours, a Saturday's and a Sunday's, are one reading; ones that part at the
    # target's hour by more than the band are a choice the hours so far cannot make)
    return fits if fits and max(e for _, e, _, _ in fits) - min(e for _, e, _, _ in fits) <= reach else []


def _near_unseen_so_far(fit: SeriesFit, same_day: Sequence[int], feats: Sequence[Mapping[str, object]],
                        moments: Sequence[datetime], target: datetime, cal: HolidayCalendar, level: float,
                        t: Sequence[float], t_target: float, spread: float) -> tuple[str, list[float]] | None:
    """A day within a holiday's neighbourhood (NEIGHBOURHOOD_DAYS, the calendar's `near_holiday`) on an
    hourly series whose history holds no day at that offset of that holiday: four weeks of hours never
    saw the exodus before a festival or the return after it, so the model's ordinary hour is no reading
    of it, and the day's own hours so far are the only evidence. Its factors: the median of its hours
    so far against their ordinary reading (at least NEAR_SO_FAR_MIN_HOURS) and of its latest
    NEAR_SO_FAR_LATEST hours (an exodus that starts in the evening), each kept only where it stands
    NEAR_SO_FAR_Z standard errors off the noise (an ordinary day near a holiday keeps its band). Where
    none is kept, or the target is no such day: None. (`moments`: each point's local hour.)"""
    day = target.date()
    label = near_holiday(day, cal)
    if not label or cal.name(day) or len(same_day) < NEAR_SO_FAR_MIN_HOURS:
        return None
    if any(at.date() != day and not cal.name(at.date()) and near_holiday(at.date(), cal) == label for at in moments):
        return None  # the history held a day at this offset of this holiday: the fit has read it
    # (each hour against an ordinary hour's reading: a neighbourhood's hour group holding today's own hour,
    # the day after a holiday's, has already taken part of the day's move in)
    resid = [fit.x[i] - (level - fit.slope * (t_target - t[i])) - fit.effect_for({**feats[i], "near_holiday": ""})[0]
             for i in same_day]
    factors = []
    for run in (resid, resid[-NEAR_SO_FAR_LATEST:]):
        factor = median(run)
        if abs(factor) > NEAR_SO_FAR_Z * _median_se(spread, len(run)):
            factors.append(factor)
    return (label, factors) if factors else None


def _wider_neighbourhoods(pts: Sequence[Point], feats: list[dict[str, object]], target: datetime,
                          target_feats: dict[str, object], cal: HolidayCalendar, fit: SeriesFit,
                          drop: set[tuple[str, object]]) -> set[tuple[str, int]]:
    """Learn how far a holiday's effect reaches: where the outermost day of its neighbourhood
    (three working days out) is a group of its own, that side is widened to NEIGHBOURHOOD_MAX_DAYS
    working days (days not already near another holiday); the refit and `_beyond_reach` then keep
    only as far as its days stay distinct. Returns the widened (holiday, side) pairs."""
    if "near_holiday" not in fit.members:
        return set()
    wider: set[tuple[str, int]] = set()
    for label, members in fit.members["near_holiday"].items():
        if not label or not members or ("near_holiday", label) in drop:
            continue
        name, offset = split_near(str(label))
        if abs(offset) == NEIGHBOURHOOD_DAYS:
            wider.add((name, 1 if offset > 0 else -1))
    if not wider:
        return wider
    open_days = open_weekdays([q.at.date() for q in pts])
    for at, fv in [*((q.at, fv) for q, fv in zip(pts, feats)), (target, target_feats)]:
        if fv["holiday"] or fv["near_holiday"]:
            continue
        far = near_holiday(at.date(), cal, open_days, NEIGHBOURHOOD_MAX_DAYS)
        if far:
            name, offset = split_near(far)
            if (name, 1 if offset > 0 else -1) in wider:
                fv["near_holiday"] = far
    return wider


def _beyond_reach(fit: SeriesFit, wider: set[tuple[str, int]], drop: set[tuple[str, object]]) -> set[tuple[str, object]]:
    """The widened neighbourhood days past the first that is not a group of its own: the reach
    ends there (a distinct day further out is chance, not the festival's effect)."""
    out: set[tuple[str, object]] = set()
    for name, side in wider:
        ended = False
        for k in range(NEIGHBOURHOOD_DAYS + 1, NEIGHBOURHOOD_MAX_DAYS + 1):
            label = f"{name} {side * k:+d}d"
            members = fit.members["near_holiday"].get(label, 0)
            if ended or ("near_holiday", label) in drop or not members:
                ended = True
                out.add(("near_holiday", label))
            elif members < 2:
                # seen once (one past festival in the history): where the effect reached that year is
                # no rule yet (a week of shopping counted in working days moves with the weekends):
                # an ordinary day whose band also covers the effect it showed
                out.add(("near_holiday", label))
    return out


def _months_level_fit(t: list[float], x: list[float], feats: list[dict[str, object]], used: list[str], lag: int,
                      level_points: int, p: ModelParams, calendar_months: bool) -> SeriesFit:
    """The fit of a series of calendar months (`calendar_months`, see _calendar_months: each partition is its month,
    so its month of the year is its season) with months of the year, its level fitted over a whole year
    (`months_level_half`: a season of several months is no level, and its months are learned at their size) where
    that cuts the series' noise (`_noise_sd`: its one-step errors and residuals, the same effects fitted in both) by
    `dense_gain`; else the level window's fit. Where it is kept, every feature set carries `MONTHS_LEVEL`, so the
    model's later fits read the level alike. A series whose level stepped in and out in its history (months
    backfilled from an archive at x0.6 for a year) is read across the step by a year's window for months on either
    side of it, its errors there grow, and it keeps the level window that follows the step. Partitions that are no
    calendar months (four-weekly periods, billing cycles read on a month's last Tuesday, Hijri months) keep the level
    window: their months of the year are not their seasons' own, and their other readings lean on that level."""
    fit = SeriesFit(t, x, feats, used, lag, level_points)
    if not calendar_months or not months_level_half(lag, used):
        return fit
    for fv in feats:
        fv[MONTHS_LEVEL] = True
    trial = SeriesFit(t, x, feats, used, lag, level_points)
    if _noise_sd(trial) < (1 - p.dense_gain) * _noise_sd(fit):
        return trial
    for fv in feats:
        fv.pop(MONTHS_LEVEL, None)
    return fit


def _months_of_year(pts: Sequence[Point], feats: list[dict[str, object]], target: datetime,
                    target_feats: dict[str, object], span: int) -> None:
    """A weekly or monthly series' month of the year, a group of its own (a season: March's bonus,
    the summer weeks) that must earn its place like a holiday: at least two past occurrences and an
    effect that stands out, both counted in years (a month's four weeks of one year are one
    occasion, and as uncertain as one). A week is the month of its middle day; a monthly partition its month."""
    middle = timedelta(days=span // 2)
    for at, fv in [*((q.at, fv) for q, fv in zip(pts, feats)), (target, target_feats)]:
        fv["month_of_year"], fv["year"] = (at.date() + middle).month, (at.date() + middle).year
        if span > 1:
            # a weekly series' season is its week of the year (ISO, of its middle day), not its
            # month: a season that splits a month (school summer holidays from late July) is its
            # weeks', and the week that is July's this year was August's the last three
            fv["week_of_year"], fv["month_of_year"] = (at.date() + middle).isocalendar().week, ""
            # nor is a week a period end because its first day is one (a Monday 31 March learned
            # its "quarter end" from the one other Monday quarter end, in a shift's first weeks)
            fv["period_end"] = ""


def _moving_holidays(days: Iterable[date], cal: HolidayCalendar,
                     names: Callable[[date], Iterable[str]] | None = None) -> set[str]:
    """The calendar's holidays (by identity, or by `names` of a day) among `days` whose date lies more than
    MOVING_HOLIDAY_DAYS apart between two of their occurrences, read on the circle of the year (Easter's feasts, a
    lunar calendar's; a New Year observed on 31 December is no move)."""
    seen: dict[str, list[int]] = defaultdict(list)
    for d in days:
        for name in (names(d) if names else [cal.identity(d)]):
            if name:
                seen[name].append(d.timetuple().tm_yday)
    moving = set()
    for name, places in seen.items():
        gaps = [abs(a - b) for a, b in itertools.combinations(sorted(set(places)), 2)]
        if any(MOVING_HOLIDAY_DAYS < g < round(YEAR_LENGTH) - MOVING_HOLIDAY_DAYS for g in gaps):
            moving.add(name)
    return moving


def _days_of_month(year: int, month: int) -> list[date]:
    """The days of a calendar month."""
    return [date(year, month, d) for d in range(1, calendar.monthrange(year, month)[1] + 1)]


def _calendar_months(pts: Sequence[Point]) -> bool:
    """Whether a series' partitions are calendar months: one a month (a quarter's holds three), each dated on the same
    day of its month or each on its month's last day (lunar months and billing cycles of four or five weeks drift
    through the calendar's months, so the days a Gregorian month holds are not their partition's)."""
    keys = [q.at.year * MONTHS + q.at.month for q in pts]
    return len(keys) > 1 and median(b - a for a, b in itertools.pairwise(keys)) == 1 \
        and (len({q.at.day for q in pts}) == 1
             or all(q.at.day == calendar.monthrange(q.at.year, q.at.month)[1] for q in pts))


def _moved_holiday_month(fit: SeriesFit, pts: Sequence[Point], target: datetime,
                         cal: HolidayCalendar) -> tuple[float, str] | None:
    """A monthly target whose moving holidays (`_moving_holidays`: Easter's feasts, a lunar Eid) moved since its past
    same months: (the log move the band reaches, a note), or None. A month's arrangement is the moving holidays it
    holds and those the month before held (a series billed in arrears catches up the next month what a holiday's month
    left unbilled). Where every past occurrence of the target's month of the year (MOVED_MONTH_YEARS at least) held
    one arrangement and the target holds another, the history cannot tell the month's earned effect from the
    holidays': Holy Week in April every past year, April's low and May's catch-up are April's and May's as much as
    Holy Week's. So the band also reaches the reading where they are the holidays': the target's month of the year's
    effect taken out where its past months held moving holidays, and the effect of the month of the year whose every
    past occurrence (as many years) held the target's arrangement put in (March holding Holy Week reads as April did,
    April after it as May did, May with none before it as a plain May). Only where that month exists and both
    effects were earned (`month_of_year`); the centre is the model's, and a doubled partition still fails."""
    if "month_of_year" not in fit.used or not _calendar_months(pts):
        return None

    def before(year: int, month: int) -> tuple[int, int]:
        return (year, month - 1) if month > 1 else (year - 1, MONTHS)

    months = sorted({(q.at.year, q.at.month) for q in pts} | {(target.year, target.month)})
    moving = _moving_holidays((d for ym in [before(*months[0]), *months] for d in _days_of_month(*ym)), cal)
    if not moving:
        return None

    def holds(year: int, month: int) -> frozenset[str]:
        # (a lunar holiday's date the package estimated is the same holiday as the years it was announced)
        return frozenset(name.replace(ESTIMATED, "") for d in _days_of_month(year, month) if (name := cal.identity(d)) in moving)

    def arrangement(year: int, month: int) -> tuple[frozenset[str], frozenset[str]]:
        return holds(year, month), holds(*before(year, month))

    past: dict[int, set[tuple[frozenset[str], frozenset[str]]]] = defaultdict(set)
    years: dict[int, set[int]] = defaultdict(set)
    for year, month in months[:-1]:
        past[month].add(arrangement(year, month))
        years[month].add(year)
    now = arrangement(target.year, target.month)
    if len(years[target.month]) < MOVED_MONTH_YEARS or len(past[target.month]) != 1 or now in past[target.month]:
        return None
    was = next(iter(past[target.month]))
    effects = fit.effects["month_of_year"]
    move = -effects.get(target.month, 0.0) if any(was) else 0.0
    twin = ""
    if any(now):
        # (the month of the year that held the target's arrangement every past year: its effect may be theirs)
        twins = [m for m, held in past.items() if held == {now} and len(years[m]) >= MOVED_MONTH_YEARS]
        if len(twins) != 1:
            return None
        move += effects.get(twins[0], 0.0)
        twin = f", as {calendar.month_name[twins[0]]} read with them"
    if not move:
        return None
    names = ", ".join(sorted(now[0] | now[1] | was[0] | was[1]))
    return move, (f"the moving holidays this month and the one before hold ({names}) are not those its past years held: "
                  f"the band also reaches x{math.exp(move):.2f}, the month's effect read as theirs{twin}")


def _moved_working_days(pts: Sequence[Point], target: datetime, cal: HolidayCalendar) -> tuple[float, str] | None:
    """A monthly target (calendar months) holding more of the calendar's moving holidays (`_moving_holidays`:
    Easter's feasts, a lunar calendar's) on its working days (the calendar's weekend left out) than every past
    occurrence of its month held (MOVED_MONTH_YEARS at least), or fewer: (the log move the band reaches, a note), or
    None. Read where `_moved_holiday_month` has no reading (no month of the year held the target's arrangement every
    past year, or its effects do not tell them apart): Good Friday and Phagwah in March after three Marches with
    Phagwah alone, and the April after them holding Easter Monday only. A business closed on its holidays loses (or
    gains) those days' share of the month's working days, and no past year of the month showed it, so neither the
    month's earned effect nor its noise holds it. The band reaches as far as those days move the month (each one
    working day of the month's), on their side only; the centre is the model's, and a drop of a fifth beyond them or a
    doubled month still fails. A holiday on fixed dates is in its month every year (its weekday's turns are the
    month's noise), and a moving one whose months the past years already spread (Diwali in October one year, November
    the next) is inside their range and reaches nothing."""
    if not _calendar_months(pts):
        return None
    weekend = weekend_days(cal.country, cal.subdiv) if cal.country else frozenset({5, 6})
    months = sorted({(q.at.year, q.at.month) for q in pts})

    moving = _moving_holidays((d for ym in [*months, (target.year, target.month)] for d in _days_of_month(*ym)), cal)

    def working(year: int, month: int) -> tuple[int, int]:
        # (the month's working days, and the moving holidays on them)
        open_ = [d for d in _days_of_month(year, month) if d.weekday() not in weekend]
        return len(open_), sum(1 for d in open_ if cal.identity(d) in moving)

    past = [working(y, m)[1] for y, m in months if m == target.month]
    if len(past) < MOVED_MONTH_YEARS:
        return None
    days, now = working(target.year, target.month)
    held = max(past) if now > max(past) else min(past)
    moved, usual = now - held, days - held  # (the days lost, or gained where negative; the month's usual open days)
    if not moved or usual <= moved:
        return None
    reach = math.log(1 - moved / usual)
    return reach, (f"this month holds {now} holiday(s) on its working days, its past years {min(past)}-{max(past)}: "
                   f"the band also reaches x{math.exp(reach):.2f}, those days' share of its working days")


def _weeks_before_moving_holidays(pts: Sequence[Point], x: Sequence[float], feats: list[dict[str, object]],
                                  target: datetime, target_feats: dict[str, object], cal: HolidayCalendar) -> None:
    """A weekly series' week holding no holiday whose last days are the eves of a moving holiday (within
    WEEK_BEFORE_REACH days of its end, the holiday in the next week) is that holiday's neighbourhood,
    "NAME -1w", where the history's such weeks stand out of their nearest ordinary weeks (`_earned_weeks_before`),
    and the target's is earned again as a neighbourhood is (`_indistinct`, DISTINCT_Z["near_holiday"]). Carnival
    Tuesday's week is the holiday's, but its weekend and the shopping before it fall in the week before, which no
    label named: it read as its week of the year, which held it in no other year (Carnival moves with Easter, over
    a month), and its weeks of the year learned Carnival's weekend in the years it fell there. A holiday on a fixed
    date keeps the week before as its week of the year, which holds it every year."""
    keys = [q.at.date() for q in pts] + [target.date()]
    first, last = min(keys), max(keys) + timedelta(days=WEEK_DAYS + WEEK_BEFORE_REACH)
    moving = _moving_holidays((first + timedelta(days=k) for k in range((last - first).days + 1)), cal)
    if not moving:
        return
    labels: list[str] = []
    for day, fv in [*zip(keys, feats), (keys[-1], target_feats)]:
        ahead = (cal.identity(day + timedelta(days=WEEK_DAYS + k)) for k in range(WEEK_BEFORE_REACH))
        name = "" if fv.get("holiday") or fv.get("near_holiday") else next((n for n in ahead if n in moving), "")
        labels.append(f"{name} {WEEK_BEFORE}" if name else "")
    earned = _earned_weeks_before(x, [bool(fv.get("holiday")) for fv in feats], labels[:-1])
    for fv, label in zip([*feats, target_feats], labels):
        if label in earned:
            fv["near_holiday"] = label


_MOVING_STARTS: dict[tuple, dict[str, tuple[date, ...]]] = {}


def _moving_starts(first: date, last: date, cal: HolidayCalendar) -> dict[str, tuple[date, ...]]:
    """Each moving holiday's (`_moving_holidays`) first days from `first` to `last` (a run of days under one name is
    one), kept by its arguments (`_memo`): a grouped check's groups and its total ask it of the same days. The run-up
    rule and the moving-distance rule ask it once each a forecast, on spans of their own reach (not one reading: a
    wider span may hold another occasion that makes a holiday a moving one)."""
    return _memo(_MOVING_STARTS, (first, last, cal.cache_key), lambda: _read_moving_starts(first, last, cal))


def _read_moving_starts(first: date, last: date, cal: HolidayCalendar) -> dict[str, tuple[date, ...]]:
    """`_moving_starts`, read from the calendar."""
    span = [first + timedelta(days=k) for k in range((last - first).days + 1)]
    moving = _moving_holidays(span, cal)
    starts: dict[str, list[date]] = defaultdict(list)
    for d in span:
        if (name := cal.identity(d)) in moving and cal.identity(d - timedelta(days=1)) != name:
            starts[name].append(d)
    return {name: tuple(days) for name, days in starts.items()}


def _run_up_agrees(logs: Mapping[date, float], start: date, days_before: int, skip: Collection[date], bar: float,
                   cal: HolidayCalendar) -> float | None:
    """The excess (`_weekday_excess`) of the day `days_before` days before a past occasion `start` of a moving holiday,
    where that day and every day between it and the holiday the history holds (the calendar's holidays aside) ran
    off their weekday's days around them on one side, the day itself beyond `bar`: a run up to the holiday, not an
    incident on one day. Else None."""
    run = [start - timedelta(days=k) for k in range(1, days_before + 1)]
    if run[-1] not in logs or cal.name(run[-1]):
        return None
    excess = [_weekday_excess(logs, d, skip, RUN_UP_WEEKS) for d in run if d in logs and not cal.name(d)]
    own = excess[-1]
    if own is None or abs(own) <= bar or any(e is None or e * own <= 0 for e in excess):
        return None
    return own


def _run_up_reach(pts: Sequence[Point], target: datetime, target_feats: Mapping[str, object],
                  cal: HolidayCalendar) -> tuple[float, str, int] | None:
    """A daily series' day in no calendar (and after no closure) RUN_UP_DAYS days or fewer before a moving holiday
    of its calendar (`_moving_starts`: Diwali, the Eids, Easter, whose dates move by weeks between years), whose
    every past occasion in the history, read at the same number of days before that year's holiday, ran up to it
    (`_run_up_agrees`: that day and every day after it to the holiday off their weekday's days around them on one
    side, the day by DISTINCT_Z["near_holiday"] ordinary days' sds). Its reach (the least of those days' excesses),
    the holiday's name and how many occasions; else None. A run-up in no calendar (a week of shopping before Diwali,
    the days before an Eid) moves with the holiday, so a calendar date or a fixed holiday's neighbourhood (a national
    day ten days before one year's Diwali) never reads it, and a 400-day history holds one past occasion: it says the
    days CAN run so far, not that they will (the caller widens that side of the band, never the centre). A day
    whose past occasions were ordinary, or parted, keeps its band."""
    if target_feats.get("holiday") or target_feats.get("after_gap") or not pts:
        return None
    day, first = target.date(), pts[0].at.date()
    starts = _moving_starts(first, day + timedelta(days=RUN_UP_DAYS), cal)
    ahead = [(name, (s - day).days) for name, firsts in sorted(starts.items()) for s in firsts
             if 0 < (s - day).days <= RUN_UP_DAYS]
    if not ahead:
        return None
    logs = {q.at.date(): math.log(max(q.value, 0.5)) for q in pts}
    # (the weekday's days around a run-up day are outside every moving holiday's run-up, and no holiday)
    skip = {s - timedelta(days=k) for firsts in starts.values() for s in firsts for k in range(1, RUN_UP_DAYS + 1)} \
        | {d for d in logs if cal.name(d)}
    plain = [e for d in logs if d not in skip and (e := _weekday_excess(logs, d, skip, RUN_UP_WEEKS)) is not None]
    if len(plain) < AFTER_DAY_OFF_OCCASIONS:
        return None
    bar = DISTINCT_Z["near_holiday"] * MAD_SCALE * mad(plain)
    for name, days_before in ahead:
        past = [s for s in starts[name] if s < day and s - timedelta(days=days_before) >= first]
        if not past:
            continue
        reads = [_run_up_agrees(logs, s, days_before, skip, bar, cal) for s in past]
        if all(r is not None and r > 0 for r in reads) or all(r is not None and r < 0 for r in reads):
            return min(cast(list[float], reads), key=abs), name, len(reads)
    return None


def _days_at_moving_distance(pts: Sequence[Point], feats: list[dict[str, object]], target: datetime,
                             target_feats: dict[str, object], cal: HolidayCalendar) -> None:
    """A daily series' day in no calendar and no holiday's neighbourhood that stands at a fixed distance from a moving
    holiday of its calendar (its date MOVING_HOLIDAY_DAYS apart between years: Easter's feasts, a lunar calendar's),
    beyond NEIGHBOURHOOD_MAX_DAYS and within MOVING_DISTANCE_REACH days of it, is labelled "NAME +Nd" with the
    history's days at that distance from the holiday's past occurrences, where EVERY past year the history holds
    (MOVING_DISTANCE_OCCASIONS at least) showed that day standing out on the same side: its log against its weekday's
    days around it (`_weekday_excess`, which a season of weeks moves too, so only the day's own effect stands out) by
    DISTINCT_Z["near_holiday"] ordinary days' sds. Carnival's Monday and Tuesday (Easter's 48th and 47th days
    before) and a feast eleven days before Lent's first day are in no calendar and moved weeks between years: read as
    their weekday, they alarm every year. The fit then learns the effect from those past days, and its band from
    their spread, as a neighbourhood's (and `_indistinct` earns it again); one past year is no rule (an incident on
    that day would read as an effect), and a day no past year showed stays an ordinary day."""
    if target_feats["holiday"] or target_feats.get("near_holiday") or target_feats.get("after_gap"):
        return
    day, first = target.date(), pts[0].at.date()
    reach = timedelta(days=MOVING_DISTANCE_REACH)
    starts = _moving_starts(first - reach, day + reach, cal)
    logs, skip = _eve_excess_inputs(pts, feats, ())
    index = {q.at.date(): i for i, q in enumerate(pts)}
    free = {d for d, i in index.items() if not feats[i]["holiday"] and not feats[i].get("near_holiday")}
    plain: list[float] | None = None
    for name in sorted(starts):
        here = min(starts[name], key=lambda s: abs((day - s).days))
        distance = (day - here).days
        if not NEIGHBOURHOOD_MAX_DAYS < abs(distance) <= MOVING_DISTANCE_REACH:
            continue
        past = [d for s in starts[name] if first <= (d := s + timedelta(days=distance)) < day]
        if len(past) < MOVING_DISTANCE_OCCASIONS or not all(d in free for d in past):
            continue  # fewer past years in the history, or a holiday or a neighbour's day in one of them
        if plain is None:
            plain = [e for d in free if d not in skip and (e := _weekday_excess(logs, d, skip)) is not None]
        excess = [_weekday_excess(logs, d, skip | set(past)) for d in past]
        if len(plain) < AFTER_DAY_OFF_OCCASIONS or any(e is None for e in excess):
            continue
        bar = DISTINCT_Z["near_holiday"] * MAD_SCALE * mad(plain)
        if all(e is not None and e > bar for e in excess) or all(e is not None and e < -bar for e in excess):
            label = f"{name} {distance:+d}d"
            for d in past:
                feats[index[d]]["near_holiday"] = label
            target_feats["near_holiday"] = label
            return


def _year_apart_occasions(day: date, first: date) -> dict[str, list[date]]:
    """A day's past occasions a year apart from `first` on, latest first, by kind: "date" the same date of each
    past year (none for 29 February), "weekday" the same weekday YEAR_APART_WEEKS weeks back, and as many again."""
    dates: list[date] = []
    if (day.month, day.day) != (2, 29):
        dates = [d for year in range(day.year - 1, first.year - 1, -1) if (d := day.replace(year=year)) >= first]
    weeks = [d for k in range(1, (day - first).days // (YEAR_APART_WEEKS * WEEK_DAYS) + 1)
             if (d := day - timedelta(weeks=YEAR_APART_WEEKS * k)) >= first]
    return {"date": dates, "weekday": weeks}


def _days_a_year_apart(pts: Sequence[Point], feats: list[dict[str, object]], target: datetime,
                       target_feats: dict[str, object]) -> None:
    """A daily series' day in no calendar, no holiday's neighbourhood, no period's close and after no closure
    (none of YEAR_APART_TAKEN), whose past occasions a year apart (`_year_apart_occasions`: the same date of every
    past year the history holds, or the same weekday YEAR_APART_WEEKS weeks back and as many again), all in the
    history and none another rule's, YEAR_APART_OCCASIONS at least, EVERY one showed standing out on the same side,
    against its weekday's days before it and, apart, against those after it (`_weekday_excess` of each side) by
    DISTINCT_Z["near_holiday"] ordinary days' sds, as `_days_at_moving_distance` reads a day at a distance from a
    moving holiday. A day's own effect stands out of both sides; a season's edge (a coast season that ended within
    days of the same date each year) only of the side out of the season, and the level at the target already holds
    the season, so read as the day's own it would count the season twice. It is labelled with those
    days ("11 Nov -1y", "Tue 10 Mar -52w"), a neighbourhood the fit learns from them and `_indistinct` earns
    again. A double-date sale (11 November) or the cakes of the day before New Year's eve keep their date, the
    Tuesdays before a feast on a fixed date (the last four before Novruz) their weekday; none is in a calendar, so
    read as its weekday each alarms every year. The same date is tried first; one past year is no rule (an incident
    on that day would read as an effect), so a history of 400 days leaves the day ordinary."""
    if any(target_feats.get(f) for f in YEAR_APART_TAKEN):
        return
    day, first = target.date(), pts[0].at.date()
    index = {q.at.date(): i for i, q in enumerate(pts)}
    logs, skip = _eve_excess_inputs(pts, feats, ())
    free = {d for d, i in index.items() if not any(feats[i].get(f) for f in YEAR_APART_TAKEN)}
    plain: list[float] | None = None
    for kind, past in _year_apart_occasions(day, first).items():
        if len(past) < YEAR_APART_OCCASIONS or not all(d in free for d in past):
            continue  # fewer past years in the history, or one of them missing or another rule's
        if plain is None:
            plain = [e for d in free if d not in skip and (e := _weekday_excess(logs, d, skip)) is not None]
        # each past day against its weekday's days before it and, apart, against those after it
        excess = [_weekday_excess(logs, d, skip | set(past) | {d + timedelta(days=k) for k in EXCESS_WEEKS if k * side > 0})
                  for d in past for side in (1, -1)]
        if len(plain) < AFTER_DAY_OFF_OCCASIONS or any(e is None for e in excess):
            continue
        bar = DISTINCT_Z["near_holiday"] * MAD_SCALE * mad(plain)
        if all(e is not None and e > bar for e in excess) or all(e is not None and e < -bar for e in excess):
            # (a neighbourhood's "NAME OFFSET" form: "11 Nov -1y", "Tue 10 Mar -52w")
            label = f"{day:%d %b} -1y" if kind == "date" else f"{day:%a %d %b} -{YEAR_APART_WEEKS}w"
            for d in past:
                feats[index[d]]["near_holiday"] = label
            target_feats["near_holiday"] = label
            return


def _earned_weeks_before(x: Sequence[float], holiday: Sequence[bool], labels: Sequence[str]) -> set[str]:
    """The labels of weeks before moving holidays (`labels`, "" for none; `x` the weeks' logs, `holiday` whether
    each holds one) whose weeks in the history stand out of the nearest WEEK_DAYS_BASE ordinary weeks each side
    (`_local_base`): seen twice at least, their median deviation DISTINCT_Z["holiday"] standard errors from none,
    in the ordinary weeks' own deviations. A label the history shows no move on is left unread, so it
    does not take its weeks out of the level and the season for nothing (a coupon series' Good Friday)."""
    n = len(x)
    plain = [i for i in range(n) if not holiday[i] and not labels[i]]
    dev = _local_deviations(x, plain)
    ordinary = [d for i in plain if (d := dev[i]) is not None]
    sd = MAD_SCALE * mad(ordinary) if len(ordinary) >= 26 else 0.0
    by_label: dict[str, list[float]] = defaultdict(list)
    for label, d in zip(labels, dev):
        if label and d is not None:
            by_label[label].append(d)
    # (a holiday's bar, not a neighbourhood's: the calendar names the holiday, and its week before is one candidate a
    # holiday, not a guess over the days around every one; the target's label still meets the neighbourhood's)
    return {label for label, v in by_label.items()
            if sd > 0 and len(v) >= 2 and abs(median(v)) > DISTINCT_Z["holiday"] * _median_se(sd, len(v))}


def _month_closes(pts: Sequence[Point], feats: list[dict[str, object]], target: datetime,
                  target_feats: dict[str, object], cal: HolidayCalendar, open_days: frozenset[int]) -> None:
    """Which open days close a month. A series closed on some days (weekends, holidays) closes its
    month on its last open day: a journal feed's month-end close falls on Friday 30 January when the
    31st is a Saturday, and compares with every other month's last open day, not only with months
    ending on a weekday. And on such a series the PERIOD_CLOSE_DAYS open days before a quarter's or
    year's last one, and as many after it, are its close (`near_period_end`, "quarter_end -2d",
    "year_end +1d"): a close over three days is heavier at a quarter's end on all three, and a new
    year opens with the old one's adjustments, which neither the last day's period end nor a
    business day of the month (the same in every month) holds. A group that must earn its place,
    like a holiday's neighbourhood."""
    open_on_holidays = any(cal.name(q.at.date()) for q in pts)
    edges: dict[tuple[int, int, bool], list[date]] = {}  # each month's first or last open days, found once
    every_day = open_days == ALL_WEEK and _works_every_day(pts)

    def open_days_of(year: int, month: int, last: bool) -> list[date]:
        """The month's first (or last, latest first) PERIOD_CLOSE_DAYS + 1 open days."""
        key = (year, month, last)
        if key not in edges:
            numbers = range(1, calendar.monthrange(year, month)[1] + 1)
            days = (date(year, month, d) for d in (reversed(numbers) if last else numbers))
            edges[key] = list(itertools.islice(
                (d for d in days if d.weekday() in open_days and (open_on_holidays or not cal.name(d))),
                PERIOD_CLOSE_DAYS + 1))
        return edges[key]

    for at, fv in [*((q.at, fv) for q, fv in zip(pts, feats)), (target, target_feats)]:
        day = at.date()
        last = open_days_of(day.year, day.month, True)
        kind = month_period(day, cal)
        if open_days != ALL_WEEK:
            fv["period_end"] = kind if not last or day >= last[0] else ""
        fv["near_period_end"] = ""
        if open_days == ALL_WEEK:
            # (a close is an office's: only a series closed on some weekdays has one; a series open
            # every day, orders or events, learns its quarter's last day as its period end, and one that
            # works every day the calendar days around every month's turn as their own groups: rents, moves)
            fv["near_period_end"] = _month_turn(day) if every_day else ""
            continue
        if kind != "month" and day in last[1:]:
            fv["near_period_end"] = f"{kind}_end {-last.index(day)}d"
            continue
        # ... and the open days after it: a new fiscal year's first days carry the old one's adjustments
        closed = month_period(date(day.year, day.month, 1) - timedelta(days=1), cal)
        first = open_days_of(day.year, day.month, False)[:PERIOD_CLOSE_DAYS]
        if closed != "month" and day in first:
            fv["near_period_end"] = f"{closed}_end +{first.index(day) + 1}d"


def _own_business_days(pts: Sequence[Point], feats: list[dict[str, object]], target: datetime,
                       target_feats: dict[str, object], cal: HolidayCalendar, open_days: frozenset[int]) -> None:
    """A daily series closed on some days of the week counts its business days of the month (BUSINESS_DAY_GROUPS)
    in its own open days, not in the calendar's working week: a month-end run that fills a station's last four
    open days (certificates, bills or payroll due with the month) falls on business days -1..-4 of a series open
    Monday to Saturday in every month, while counted Monday to Friday its Saturday is no business day and the
    fourth day back is the Tuesday one month and the Wednesday the next, so no position earns the run. A series
    open every day keeps the calendar's count (a quiet Sunday is no closed day: `_works_every_day`); on a
    series open on the calendar's working days the two counts agree."""
    if open_days == ALL_WEEK:
        return
    is_open = _open_test(pts, cal, open_days)
    months: dict[tuple[int, int], list[int]] = {}  # each month's open days (their day numbers), found once

    def open_in(key: tuple[int, int]) -> list[int]:
        if key not in months:
            months[key] = [d for d in range(1, calendar.monthrange(*key)[1] + 1) if is_open(date(*key, d))]
        return months[key]

    for at, fv in [*((q.at, fv) for q, fv in zip(pts, feats)), (target, target_feats)]:
        if "business_day" not in fv:
            continue
        day = at.date()
        numbers = open_in((day.year, day.month))
        # (a closed day counts as the calendar counts a non-business day: -1 from the start, 0 from the end)
        from_start, from_end = ((numbers.index(day.day) + 1, numbers.index(day.day) - len(numbers))
                                if day.day in numbers else (-1, 0))
        fv["business_day"], fv["business_day_from_end"] = from_start, from_end
        fv["business_day_edge"] = business_day_edge(from_start, from_end)
    # the target's place in the month's middle, counted from the nearer end, no deeper than MIN_POSITION_MONTHS of
    # the history's months reach: a 27th open day falls in one month a year, so its middle position is a group of
    # one past day (a register outage's, read as that place's effect the next October)
    # (the target's own month is no past month: its days so far never reached its middle's far side)
    past_months = {(q.at.year, q.at.month) for q in pts} - {(target.year, target.month)}
    lengths = sorted((len(open_in(k)) for k in past_months), reverse=True)
    if len(lengths) >= MIN_POSITION_MONTHS and target_feats.get("business_day_edge"):
        longest = lengths[MIN_POSITION_MONTHS - 1]
        edge = cast(int, target_feats["business_day_edge"])
        target_feats["business_day_edge"] = min(edge, (longest + 1) // 2) if edge > 0 else max(edge, -(longest // 2))


def _works_every_day(pts: Sequence[Point]) -> bool:
    """Whether a series open every day works every day: no day of the week's median stands LIGHT_DAY (a hard
    ratio squared, the bar a weekday kept closed stands below its week by, `_open_occasions`) below the median
    day's. A series with such a day (orders with a quiet Sunday, a canteen's weekends) keeps a working week, and
    reads its month's turn in business days (BUSINESS_DAY_GROUPS); one without (removals, rents, a night
    business) turns its month on calendar days (`_month_turn`)."""
    return len({q.at.weekday() for q in pts}) == WEEK_DAYS and not _light_weekdays(pts)


def _light_weekdays(pts: Sequence[Point]) -> frozenset[int]:
    """The days of the week whose median stands LIGHT_DAY below the median day's: closed-like days of a series
    with partitions on them (a parcel network's Sunday of marketplace vans only, a canteen's weekend)."""
    by_day: dict[int, list[float]] = defaultdict(list)
    for q in pts:
        by_day[q.at.weekday()].append(q.value)
    medians = {day: median(v) for day, v in by_day.items()}
    typical = median(medians.values()) if medians else 0.0
    return frozenset(day for day, m in medians.items() if m * LIGHT_DAY < typical)


def _month_turn(day: date) -> str:
    """A day of a series open every day by its place at the month's turn, in calendar days: the
    PERIOD_CLOSE_DAYS days before the month's last ("month_end -2d") and its first PERIOD_CLOSE_DAYS
    ("month_end +1d"); "" elsewhere. Leases, rents, salaries and bills turn with the month on every day of
    the week, so the turn is counted in calendar days, not business days: a turn over a weekend read in
    business days puts its Saturday among all Saturdays and splits the rest between two counts from either
    end, so no count earns it. Each day is a group that must earn its place like a holiday's neighbour
    (`_indistinct`, DISTINCT_Z["near_period_end"]); a history holds twelve turns a year, so a position
    effect the history shows against its noise is earned, and one it does not show joins the ordinary days."""
    last = calendar.monthrange(day.year, day.month)[1]
    if last - PERIOD_CLOSE_DAYS <= day.day < last:
        return f"{MONTH_TURN} {day.day - last}d"
    if day.day <= PERIOD_CLOSE_DAYS:
        return f"{MONTH_TURN} +{day.day}d"
    return ""


def _in_month_run(day: date, run: tuple[int, int]) -> bool:
    """Whether `day` is in the run (first, after): from day `first` of a month to its last day, and the first
    `after` days of the next."""
    first, after = run
    return day.day >= first or day.day <= after


def _month_run_occasion(day: date, run: tuple[int, int]) -> tuple[int, int]:
    """The month whose turn a day of the run belongs to (its first days belong to the month before)."""
    if day.day >= run[0]:
        return day.year, day.month
    before = date(day.year, day.month, 1) - timedelta(days=1)
    return before.year, before.month


def _month_run_label(run: tuple[int, int]) -> str:
    """A run's `rolled_day` label: "25 to last" (the 25th to the month's end), "25 to +2" (to the next month's 2nd)."""
    return f"{run[0]} to last" if not run[1] else f"{run[0]} to +{run[1]}"


def _month_day_run(days: Sequence[date], resid: Sequence[float], sd: float, p: ModelParams) -> tuple[int, int] | None:
    """The run of calendar days over the month's turn whose days share one effect, read from the residuals a fit
    without the days of the month leaves: salaries paid from the 25th to the 2nd, a monthly plan renewed from payday
    to the month's end. Read day by day (a rolled day and its neighbour, the turn's last three and first three days)
    such a run is cut into groups that hold it in some months and not in others (the 26th is a 25th's neighbour when
    the 25th is open, a day of its own when not; February's last three days are its 26th to 28th, a long month's
    28th to 30th), each learned from a few months, and a group that holds the run in one month and overlaps another
    in the next reads its effect twice or not at all. Every run (MONTH_RUN_FIRST_DAYS x MONTH_RUN_AFTER_DAYS) is
    tried and the one whose days' residuals explain most kept; each month's run is one occasion (the mean of its
    days' residuals), and the run is held to the rolled days' bar: ROLLED_Z standard errors of its months' own spread (never
    below the noise of its days' mean), MONTH_RUN_MIN_OCCASIONS months at least, ROLLED_SAME_SIDE of them on its
    side, each half by ROLLED_HALF_Z, and an effect beyond the band's floor and the noise. A run that holds days
    without the effect dilutes its months' mean, and one that leaves some out loses their months' evidence: the
    strongest is the run the data hold. None where no run earns its place."""
    if sd <= 0:
        return None
    best: tuple[float, tuple[int, int], dict[tuple[int, int], list[float]]] | None = None
    for run in itertools.product(MONTH_RUN_FIRST_DAYS, MONTH_RUN_AFTER_DAYS):
        by_month: dict[tuple[int, int], list[float]] = defaultdict(list)
        for day, r in zip(days, resid):
            if _in_month_run(day, run):
                by_month[_month_run_occasion(day, run)].append(r)
        # (the run whose days' residuals explain most, their sum squared over their count: a day without the
        # effect dilutes the mean more than its count adds, a day with it left out takes its share away)
        every = [r for v in by_month.values() for r in v]
        score = sum(every) ** 2 / len(every) if every else 0.0
        if len(by_month) >= MONTH_RUN_MIN_OCCASIONS and (best is None or score > best[0]):
            best = (score, run, by_month)
    if best is None:
        return None
    _, run, by_month = best
    return run if _run_months_earn(by_month, sd, p) else None


def _run_months_earn(by_month: Mapping[tuple[int, int], Sequence[float]], sd: float, p: ModelParams) -> bool:
    """Whether a run's months (each month's residuals of the run's days, in the months' order) clear the rolled
    days' bar: each month one occasion (its days' mean), ROLLED_Z standard errors of the months' own spread (never
    below the noise of a month's mean), ROLLED_SAME_SIDE of them on its side, each half by ROLLED_HALF_Z, and an
    effect beyond the band's floor and the noise."""
    values = [sum(v) / len(v) for _, v in sorted(by_month.items())]
    effect = median(values)
    spread = max(MAD_SCALE * mad(values), sd / math.sqrt(median(len(v) for v in by_month.values())))
    if abs(effect) <= ROLLED_Z * _median_se(spread, len(values)) or abs(effect) < max(p.floor, sd):
        return False
    sign = 1 if effect > 0 else -1
    if sum(1 for v in values if v * sign > 0) < ROLLED_SAME_SIDE * len(values):
        return False
    halves = (values[:len(values) // 2], values[len(values) // 2:])
    return not any(median(h) * sign <= ROLLED_HALF_Z * _median_se(spread, len(h)) for h in halves)


def _with_month_day_run(pts: Sequence[Point], t: list[float], x: list[float], feats: list[dict[str, object]],
                        target: datetime, target_feats: dict[str, object], used: list[str], lag: int,
                        level_points: int, fit: SeriesFit, special: list[bool], p: ModelParams
                        ) -> tuple[SeriesFit, list[bool]]:
    """A daily series' run of days over the month's turn (`_month_day_run`), read as one group: its days take the
    run's `rolled_day` label in place of a rolled day's, and lose their place at the turn (`_month_turn`'s
    "month_end -2d", which would read the run's effect a second time); the month's last day keeps its period end.
    The run is read on the residuals of a fit without the days of the month and the turn's places, and kept only
    where the history's one-step errors shrink with it. Returns the fit and its calendar days."""
    plain = [f for f in used if f not in ("rolled_day", "near_period_end")]
    base = SeriesFit(t, x, feats, plain, lag, level_points)
    days = [q.at.date() for q in pts]
    run = _month_day_run(days, base.resid, _noise_sd(base), p)
    if run is None:
        return fit, special
    label = _month_run_label(run)
    before = [(fv.get("rolled_day", ""), fv.get("near_period_end", "")) for fv in [*feats, target_feats]]
    for day, fv in [*zip(days, feats), (target.date(), target_feats)]:
        if _in_month_run(day, run):
            fv["rolled_day"] = label
            if _is_month_turn(fv):
                fv["near_period_end"] = ""
    trial = SeriesFit(t, x, feats, used, lag, level_points)
    if typical_error(trial) < typical_error(fit):
        return trial, _calendar_days(feats)
    for fv, (rolled, near) in zip([*feats, target_feats], before):
        fv["rolled_day"], fv["near_period_end"] = rolled, near
    return fit, special


PaydayRun = tuple[int, str, str, int]  # (day of the month, roll, roll calendar, length in calendar days)


def _payday_roll_tests(pts: Sequence[Point], cal: HolidayCalendar, open_days: frozenset[int]
                       ) -> dict[str, Callable[[date], bool]]:
    """The open-day tests of PAYDAY_ROLL_CALENDARS: every day (no roll), the series' own (`_roll_test`), the
    calendar's business days (weekends and holidays)."""
    return {"unrolled": lambda d: True, "own": _roll_test(pts, cal, open_days), "business": cal.is_business_day}


def _payday_variants(day: int, first: date, last: date, tests: Mapping[str, Callable[[date], bool]]
                     ) -> list[tuple[str, str, list[date]]]:
    """Day `day`'s rolled dates on each roll calendar and roll ((calendar, roll, dates)), those the history can tell
    apart: a roll only where its dates part from the unrolled day's on PAYDAY_PARTED_MIN months at least, the
    calendar's business days only where they part from the series' own days (same roll) on as many; a variant whose
    dates an earlier one holds is that one (the plainer first)."""
    dated = {(c, r): sorted(rolled_anchors(day, r, first, last, tests[c]))
             for c in PAYDAY_ROLL_CALENDARS for r in ((ROLLS[0],) if c == "unrolled" else ROLLS)}
    plain = set(dated[("unrolled", ROLLS[0])])
    out: list[tuple[str, str, list[date]]] = []
    for (c, r), dates in dated.items():
        if c != "unrolled" and len(set(dates) - plain) < PAYDAY_PARTED_MIN:
            continue
        if c == "business" and len(set(dates) - set(dated[("own", r)])) < PAYDAY_PARTED_MIN:
            continue
        if all(set(dates) != set(o) for _, _, o in out):
            out.append((c, r, dates))
    return out


def _payday_run(pts: Sequence[Point], resid: Sequence[float], sd: float, p: ModelParams, cal: HolidayCalendar,
                open_days: frozenset[int], days_of_month: Collection[int]) -> PaydayRun | None:
    """An earned day of the month read as a payday's run: the day rolled back, forward or not at all, on the
    series' own open days or the calendar's business days, and the calendar days after it its cash is spent on
    (PAYDAY_RUN_LENGTHS). Read day by day, a payday on the 24th moved back to the Friday when the 24th is a
    Saturday lifts the Friday, Saturday and Sunday, and a "26th" learned from its ordinary months expects the lift
    on a Monday the cash was spent before. Each earned day (`days_of_month`) is tried on every roll the history
    can tell apart (`_payday_variants`) and every length, the run whose days' residuals explain most kept (as
    `_month_day_run`: each month's days one occasion), held to the rolled days' bar (`_run_months_earn`) over
    MONTH_RUN_MIN_OCCASIONS months at least. None where no run earns its place."""
    if sd <= 0:
        return None
    index = {q.at.date(): i for i, q in enumerate(pts)}
    first, last = pts[0].at.date(), pts[-1].at.date()
    tests = _payday_roll_tests(pts, cal, open_days)
    best: tuple[float, PaydayRun, dict[tuple[int, int], list[float]]] | None = None
    for day in sorted(d for d in days_of_month if d in PAYDAY_RUN_DAYS):
        for calendar_, roll, dates in _payday_variants(day, first, last, tests):
            for length in PAYDAY_RUN_LENGTHS:
                by_month: dict[tuple[int, int], list[float]] = defaultdict(list)
                for anchor in dates:
                    for k in range(length):
                        if (d := anchor + timedelta(days=k)) in index:
                            by_month[(anchor.year, anchor.month)].append(resid[index[d]])
                every = [r for v in by_month.values() for r in v]
                score = sum(every) ** 2 / len(every) if every else 0.0
                if len(by_month) >= MONTH_RUN_MIN_OCCASIONS and (best is None or score > best[0]):
                    best = (score, (day, roll, calendar_, length), by_month)
    if best is None or not _run_months_earn(best[2], sd, p):
        return None
    return best[1]


def _payday_run_label(run: PaydayRun) -> str:
    """A payday run's `rolled_day` label: "24 preceding business and 2 after" (it ends in no "d", a neighbour's
    mark)."""
    day, roll, calendar_, length = run
    rolled = "" if calendar_ == "unrolled" else f" {roll}" if calendar_ == "own" else f" {roll} {calendar_}"
    return f"{day}{rolled} and {length - 1} after"


def _with_payday_run(pts: Sequence[Point], t: list[float], x: list[float], feats: list[dict[str, object]],
                     target: datetime, target_feats: dict[str, object], used: list[str], lag: int,
                     level_points: int, fit: SeriesFit, special: list[bool], p: ModelParams, cal: HolidayCalendar,
                     open_days: frozenset[int], days_of_month: Collection[int]) -> tuple[SeriesFit, list[bool]]:
    """A daily series' earned day of the month read as a payday's run (`_payday_run`): the run's days take its
    `rolled_day` label in place of a rolled day's or its neighbour's (the other days keep theirs: a "26th" left
    with the months its lift moved away from learns that). Read on the residuals of a fit without the days of the
    month, and kept only where the history's one-step errors shrink with it. Returns the fit and its calendar days."""
    plain = [f for f in used if f not in ("rolled_day", "near_period_end")]
    base = SeriesFit(t, x, feats, plain, lag, level_points)
    run = _payday_run(pts, base.resid, _noise_sd(base), p, cal, open_days, days_of_month)
    if run is None:
        return fit, special
    label, test = _payday_run_label(run), _payday_roll_tests(pts, cal, open_days)[run[2]]
    on = {anchor + timedelta(days=k)
          for anchor in rolled_anchors(run[0], run[1], pts[0].at.date(), target.date() + timedelta(days=14), test)
          for k in range(run[3])}
    before = [fv.get("rolled_day", "") for fv in [*feats, target_feats]]
    for day, fv in [*((q.at.date(), fv) for q, fv in zip(pts, feats)), (target.date(), target_feats)]:
        if day in on:
            fv["rolled_day"] = label
    trial = SeriesFit(t, x, feats, used, lag, level_points)
    if typical_error(trial) < typical_error(fit):
        return trial, _calendar_days(feats)
    for fv, rolled in zip([*feats, target_feats], before):
        fv["rolled_day"] = rolled
    return fit, special


def _is_month_turn(fv: Mapping[str, object]) -> bool:
    """Whether a day's `near_period_end` is a place at the month's turn (`_month_turn`), not a quarter's close."""
    return str(fv.get("near_period_end", "")).startswith(MONTH_TURN)


def _closes_on_business_days(fit: SeriesFit, days: Sequence[date], feats: list[dict[str, object]], target: datetime,
                             target_feats: dict[str, object], cal: HolidayCalendar, lag: int) -> SeriesFit:
    """A series with rows every day (a light weekend of special reads) whose close was earned by business days
    counted from the month's end: its period end is its month's last business day, not its last calendar day.
    Read on the calendar day, a month ending on a weekend puts the close's effect on a Saturday and leaves the
    last business day without it, so the two groups share one close between them (the last business day's
    effect a median of months with and without it, a quarter's close on a Sunday read back by the holiday
    neighbourhood beside it). Only where the calendar's month end holds a close at all (its effect beyond
    DISTINCT_Z noise sds, as a period end's neighbourhood must earn), and kept only where the history's one-step
    errors shrink with it."""
    if abs(fit.effects.get("period_end", {}).get("month", 0.0)) <= DISTINCT_Z["near_period_end"] * _noise_sd(fit):
        return fit
    before = [fv.get("period_end", "") for fv in feats]
    target_before = target_feats.get("period_end", "")
    for day, fv in [*zip(days, feats), (target.date(), target_feats)]:
        fv["period_end"] = month_period(day, cal) if fv.get("business_day_from_end") == -1 else ""
    trial = SeriesFit(fit.t, fit.x, feats, fit.used, lag, fit.level_points)
    # (the month's last business day then holds the close: its period end and its count from the end together,
    # which must stand out as the calendar day's did, not split one effect between two labels of the same days)
    last = trial.effects["period_end"].get("month", 0.0) + sum(trial.effects[g].get(-1, 0.0)
                                                               for g in FROM_END_GROUPS if g in trial.used)
    if typical_error(trial) < typical_error(fit) and abs(last) > DISTINCT_Z["near_period_end"] * _noise_sd(trial):
        return trial
    for fv, was in zip(feats, before):
        fv["period_end"] = was
    target_feats["period_end"] = target_before
    return fit


def _open_test(pts: Sequence[Point], cal: HolidayCalendar, open_days: frozenset[int]) -> Callable[[date], bool]:
    """Whether a day is a business day of the series: one of its open weekdays, and not a holiday
    unless the series is open on holidays."""
    open_on_holidays = any(cal.name(q.at.date()) for q in pts)
    return lambda d: d.weekday() in open_days and (open_on_holidays or not cal.name(d))


def _roll_test(pts: Sequence[Point], cal: HolidayCalendar, open_days: frozenset[int]) -> Callable[[date], bool]:
    """The business days a day of the month rolls to: the series' own (`_open_test`), or on a series open every
    day (cash machines, a web shop) the calendar's, its weekends and holidays. Every day is open to such a
    series, yet a payroll on the 25th brought forward to the Friday when the 25th is a Saturday is paid by
    employers keeping the calendar's working week: read on the series' own days it never rolls, and its months
    with a weekend 25th put the payday's lift on a Friday the 25th's group never holds."""
    if open_days == ALL_WEEK:
        return cal.is_business_day
    return _open_test(pts, cal, open_days)


def _rolled_candidates(pts: Sequence[Point], cal: HolidayCalendar, open_days: frozenset[int]) -> dict[tuple[int, str], list[int]]:
    """Every day of the month with each roll, and the history points on its rolled dates."""
    first, last = pts[0].at.date(), pts[-1].at.date()
    is_open = _roll_test(pts, cal, open_days)
    index = {q.at.date(): i for i, q in enumerate(pts)}
    out = {}
    for day in range(1, 32):
        for roll in ROLLS:
            dates = rolled_anchors(day, roll, first, last, is_open)
            out[(day, roll)] = sorted(index[d] for d in dates if d in index)
    return out


def _label_rolled_days(pts: Sequence[Point], feats: list[dict[str, object]], target: datetime,
                       target_feats: dict[str, object], cal: HolidayCalendar, open_days: frozenset[int],
                       anchors: Sequence[tuple[int, str]], fortnights: Sequence[tuple[int, str]] = (),
                       month_weekdays: Sequence[tuple[int, int]] = ()) -> None:
    """Each point (and the target) on a rolled day of `anchors` takes its label ("27 preceding"); a
    date two anchors share is the first one's. The business days next to it (ROLLED_NEIGHBOURS each
    side) take the anchor's label with their offset ("27 preceding -1d": files that land the day
    before a payday); an anchor's own date keeps the anchor's, and each neighbour must earn its group
    (`_indistinct`), as a holiday's neighbourhood does. `fortnights`: 14-day cycles ((phase, roll),
    `_fortnights`), labelled by their weekday ("fortnightly Fri preceding"), after the days of the month.
    `month_weekdays`: a weekday's places in the month ((position, weekday), `_month_weekdays`: "1st Sun of the
    month"), last and with no neighbours (a free Sunday moves no day around it that the history shows)."""
    for fv in [*feats, target_feats]:
        fv["rolled_day"] = ""
    if not anchors and not fortnights and not month_weekdays:
        return
    is_open, rolls_to = _open_test(pts, cal, open_days), _roll_test(pts, cal, open_days)
    index = {q.at.date(): i for i, q in enumerate(pts)}
    labels: dict[date, str] = {}
    # (anchors up to a fortnight past the target: the target may be the eve of the next payday)
    # (rolled to the calendar's business days on a series open every day, `_roll_test`; their neighbours are
    # the series' own open days: the day after a Friday payday is the Saturday its cash is spent on)
    for day, roll in anchors:
        for anchor in rolled_anchors(day, roll, pts[0].at.date(), target.date() + timedelta(days=14), rolls_to):
            labels.setdefault(anchor, f"{day} {roll}")
    for phase, roll in fortnights:
        label = f"{CYCLE_LABEL}{calendar.day_abbr[date.fromordinal(phase + 14).weekday()]} {roll}"
        for anchor in fortnight_anchors(phase, roll, pts[0].at.date(), target.date() + timedelta(days=14), is_open):
            labels.setdefault(anchor, label)
    near: dict[date, str] = {}
    for anchor, label in labels.items():
        for sign in (-1, 1):
            d, steps = anchor, 0
            while steps < ROLLED_NEIGHBOURS:
                d += timedelta(days=sign)
                if not is_open(d):
                    if abs((d - anchor).days) > 10:
                        break
                    continue
                steps += 1
                near.setdefault(d, f"{label} {sign * steps:+d}d")
    for d, label in near.items():
        labels.setdefault(d, label)
    for d, label in labels.items():
        if d in index:
            feats[index[d]]["rolled_day"] = label
    target_feats["rolled_day"] = labels.get(target.date(), "")
    for fv, d in [*((fv, q.at.date()) for q, fv in zip(pts, feats)), (target_feats, target.date())]:
        if not fv["rolled_day"]:
            fv["rolled_day"] = next((month_weekday_label(k, w) for k, w in month_weekdays
                                     if d.weekday() == w and k in month_positions(d)), "")


def _rolled_days(pts: Sequence[Point], fit: SeriesFit, cal: HolidayCalendar, open_days: frozenset[int],
                 p: ModelParams, declared: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """The fixed days of the month, rolled to a business day, whose effect the history earns (a
    payroll on the 27th, the Thursday before when the 27th is a Friday): greedily, the strongest
    first, each tried on the residuals the ones before it leave, as many as clear the bar. A day earns
    its place with ROLLED_MIN_OCCASIONS months at least, a median residual ROLLED_Z standard errors
    from zero, ROLLED_SAME_SIDE of its months on that side, the same in each half of its months (by
    ROLLED_HALF_Z: chance that piled up in one year is no payday) and an effect beyond the band's floor and the
    noise: a day that moves less is no group worth its degrees of freedom."""
    sd = _noise_sd(fit)
    if sd <= 0:
        return []
    resid = list(fit.resid)
    candidates = _rolled_candidates(pts, cal, open_days)
    earned: list[tuple[int, str]] = []
    taken = [set(candidates[(d, r)]) for d, r in declared if (d, r) in candidates]
    while True:
        best: tuple[float, int, str, list[int], float] | None = None
        for (day, roll), idx in candidates.items():
            if (day, roll) in declared or (day, roll) in earned:
                continue
            if len(idx) < ROLLED_MIN_OCCASIONS or set(idx) in taken:
                continue
            values = [resid[i] for i in idx]
            effect = median(values)
            z = abs(effect) / _median_se(sd, len(values))
            if z <= ROLLED_Z or abs(effect) < max(p.floor, sd) or (best is not None and z <= best[0]):
                continue
            sign = 1 if effect > 0 else -1
            if sum(1 for v in values if v * sign > 0) < ROLLED_SAME_SIDE * len(values):
                continue
            halves = (values[:len(values) // 2], values[len(values) // 2:])
            if any(median(h) * sign <= ROLLED_HALF_Z * _median_se(sd, len(h)) for h in halves):
                continue
            best = (z, day, roll, idx, effect)
        if best is None:
            break
        _, day, roll, idx, effect = best
        # the roll is read on the days the two rolls part (the 10th on a Saturday: the Friday before or
        # the Monday after), not on the median both share: the other roll where its own days show more
        other = ROLLS[1 - ROLLS.index(roll)]
        alt = candidates[(day, other)]
        parted, parted_alt = sorted(set(idx) - set(alt)), sorted(set(alt) - set(idx))
        if parted and parted_alt and (day, other) not in declared and set(alt) not in taken and \
                median(resid[i] for i in parted_alt) * effect > median(resid[i] for i in parted) * effect:
            roll, idx = other, alt
            effect = median(resid[i] for i in idx)
        earned.append((day, roll))
        taken.append(set(idx))
        for i in idx:
            resid[i] -= effect  # the next day is tried on what this one leaves
    return earned


def _fortnights(pts: Sequence[Point], fit: SeriesFit, cal: HolidayCalendar, open_days: frozenset[int],
                p: ModelParams) -> list[tuple[int, str]]:
    """The 14-day cycles the history earns ((phase, roll): the days whose ordinal is `phase` modulo 14,
    rolled to a business day), read from the data, never from a calendar date. No weekday, business
    day or day of the month holds a pay run every second Friday: each phase's days are compared with
    the same weekday's other phase (the week before and after), so the weekly shape cancels. A phase
    earns its cycle when its median residual stands out of the other phase's by ROLLED_Z standard
    errors of their own spread (the weekday group's; no less than the series' noise), over
    FORTNIGHT_MIN_OCCASIONS occasions each, ROLLED_SAME_SIDE of its days beyond the other phase's
    median, the same in each half of the history (by ROLLED_HALF_Z: alternating weeks that piled up by chance in one stretch are no cycle)
    and by more than the band's floor and that spread. Of the two phases of a weekday, the one that
    moved (further from the other days) is the cycle's. The roll is the one whose rolled days show
    it more ("preceding" where the history holds none: a pay run before a holiday, not after)."""
    resid = np.asarray(fit.resid)
    noise = _noise_sd(fit)
    first, last = pts[0].at.date(), pts[-1].at.date()
    is_open = _open_test(pts, cal, open_days)
    index = {q.at.date(): i for i, q in enumerate(pts)}
    ordinal = np.array([q.at.date().toordinal() for q in pts])
    middle = pts[len(pts) // 2].at.date().toordinal() + 0.5
    halves = (ordinal < middle, ordinal >= middle)

    def days_of(phase: int, roll: str) -> np.ndarray:
        return np.array(sorted(index[d] for d in fortnight_anchors(phase, roll, first, last, is_open) if d in index),
                        dtype=int)

    def stands_out(on: np.ndarray, off: np.ndarray) -> float | None:
        """z of on's median against off's, or None where it does not earn a cycle."""
        if min(len(on), len(off)) < FORTNIGHT_MIN_OCCASIONS:
            return None
        a, b = resid[on], resid[off]
        effect = float(np.median(a) - np.median(b))
        # (no narrower than the series' noise: a level read by medians leaves many residuals at zero)
        sd = max(MAD_SCALE * float(np.median(np.abs(np.concatenate([a - np.median(a), b - np.median(b)])))), noise)
        if sd <= 0 or abs(effect) < max(p.floor, sd) or abs(float(np.median(a))) < abs(float(np.median(b))):
            return None
        z = abs(effect) / _median_se(sd, len(a), len(b))
        sign = 1 if effect > 0 else -1
        if z <= ROLLED_Z or np.mean((a - np.median(b)) * sign > 0) < ROLLED_SAME_SIDE:
            return None
        for half in halves:
            ha, hb = on[half[on]], off[half[off]]
            if min(len(ha), len(hb)) < 2:
                return None
            gap = float(np.median(resid[ha]) - np.median(resid[hb]))
            if gap * sign <= ROLLED_HALF_Z * _median_se(sd, len(ha), len(hb)):
                return None
        return z

    # the cycles found, by the days they hold: a closed weekday's phase rolled to an open one holds
    # the open one's days (Sunday's, rolled back, are Friday's), and the phase whose own days they
    # are (fewest rolled) names them; of two rolls holding the same days, the first ("preceding")
    found: dict[tuple[int, ...], tuple[int, float, int, str]] = {}
    for phase in range(14):
        before, after = days_of(phase, ROLLS[0]), days_of(phase, ROLLS[1])
        other = days_of((phase + 7) % 14, ROLLS[0])
        if min(len(before), len(other)) < FORTNIGHT_MIN_OCCASIONS:
            continue
        # the roll is read on the days the two rolls part (a payday whose Friday was a holiday):
        # "following" only where those days show the cycle more than the days before the holiday
        sign = 1 if np.median(resid[before]) > np.median(resid[other]) else -1
        parted_before, parted_after = np.setdiff1d(before, after), np.setdiff1d(after, before)
        roll, on = ROLLS[0], before
        if len(parted_after) and len(parted_before) and \
                np.median(resid[parted_after]) * sign > np.median(resid[parted_before]) * sign:
            roll, on, other = ROLLS[1], after, days_of((phase + 7) % 14, ROLLS[1])
        z = stands_out(on, other)
        if z is None:
            continue
        rolled = sum(1 for i in on if pts[i].at.date().toordinal() % 14 != phase)
        key = tuple(on.tolist())
        if key not in found or (rolled, -z) < found[key][:2]:
            found[key] = (rolled, -z, phase, roll)
    return [(phase, roll) for _, _, phase, roll in sorted(found.values(), key=lambda c: c[1])[:ROLLED_MAX]]


def _cycles_under_month_days(fit: SeriesFit, pts: Sequence[Point], feats: Sequence[Mapping[str, object]],
                             target: datetime, target_feats: Mapping[str, object], cal: HolidayCalendar,
                             open_days: frozenset[int], fortnights: Sequence[tuple[int, str]]
                             ) -> tuple[dict[int, tuple[str, float]], tuple[str, float, int] | None]:
    """The days that fall on an earned 14-day cycle's day (`_fortnights`: its payday or the day after it) while a
    label of the month took their `rolled_day` (a day of the month, a run over the month's turn, a neighbour of
    one: a rolled day holds one label, the first anchor's), where the cycle earned its effect on
    CYCLE_MET_MIN_DAYS days of its own: ({history index: (the cycle's label, its effect)}, the target's (label,
    effect, days) or None). A cycle of 14 days and one of the month drift through each other (they meet on one
    day in 14 of the month's, at no fixed date), so each effect is learned almost entirely on days the other is
    absent from: two effects earned alone, combined as the model combines any two groups (log effects add: a
    weekday's and a holiday's). Read as the month's alone, a mine's fortnightly Friday that met the civil
    service's 24th rolled back to it lost its x1.8 on the day, and in the history its lift was left to whatever
    other group the day held (a holiday's neighbourhood seen once, read a year later at x1.8 on a Sunday). Not
    where the day's own label is the cycle's, nor for a cycle day whose group was not kept (`_indistinct`)."""
    # the labels the cycles alone give (their days and the days next to them), on a copy: the series' own stay
    alone: list[dict[str, object]] = [{} for _ in pts]
    target_alone: dict[str, object] = {}
    _label_rolled_days(pts, alone, target, target_alone, cal, open_days, (), fortnights)
    members, effects = fit.members.get("rolled_day", {}), fit.effects.get("rolled_day", {})

    def beneath(own: object, cycle: object) -> tuple[str, float, int] | None:
        label = str(cycle or "")
        if not label or str(own or "").startswith(CYCLE_LABEL) or members.get(label, 0) < CYCLE_MET_MIN_DAYS:
            return None
        return label, effects.get(label, 0.0), members[label]

    history = {i: (met[0], met[1]) for i, (fv, av) in enumerate(zip(feats, alone))
               if (met := beneath(fv.get("rolled_day"), av.get("rolled_day"))) is not None}
    return history, beneath(target_feats.get("rolled_day"), target_alone.get("rolled_day"))


def month_positions(day: date) -> tuple[int, ...]:
    """A day's places as its weekday in its month: its week of the month counted from the start (1 for days 1-7,
    2 for 8-14, ...) and -1 as well where it is the month's last of its weekday (its last seven days)."""
    last = calendar.monthrange(day.year, day.month)[1]
    return ((day.day - 1) // WEEK_DAYS + 1, *((-1,) if day.day > last - WEEK_DAYS else ()))


def month_weekday_label(position: int, weekday: int) -> str:
    """"1st Sun of the month", "last Fri of the month" (a rolled day's label: it ends in no "d", a neighbour's mark)."""
    place = "last" if position == -1 else f"{position}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(position, 'th')}"
    return f"{place} {calendar.day_abbr[weekday]} of the month"


def _apart(values: np.ndarray, on: np.ndarray, off: np.ndarray, floor: float, halves: Sequence[np.ndarray]) -> float | None:
    """How many standard errors `on`'s median stands from `off`'s (None where it does not earn a group): over
    MONTH_WEEKDAY_MIN_OCCASIONS each, by ROLLED_Z standard errors of their own pooled spread, beyond the band's
    floor and that spread, ROLLED_SAME_SIDE of `on` past `off`'s median, and in each half of the history by
    ROLLED_HALF_Z (a run that piled up in one stretch is no monthly ritual)."""
    if min(len(on), len(off)) < MONTH_WEEKDAY_MIN_OCCASIONS:
        return None
    a, b = values[on], values[off]
    effect = float(np.median(a) - np.median(b))
    sd = MAD_SCALE * float(np.median(np.abs(np.concatenate([a - np.median(a), b - np.median(b)]))))
    if sd <= 0 or abs(effect) < max(floor, sd):
        return None
    sign = 1 if effect > 0 else -1
    z = abs(effect) / _median_se(sd, len(a), len(b))
    if z <= ROLLED_Z or np.mean((a - np.median(b)) * sign > 0) < ROLLED_SAME_SIDE:
        return None
    for half in halves:
        ha, hb = on[half[on]], off[half[off]]
        if min(len(ha), len(hb)) < 2 or \
                float(np.median(values[ha]) - np.median(values[hb])) * sign <= ROLLED_HALF_Z * _median_se(sd, len(ha), len(hb)):
            return None
    return z


def _month_weekdays(pts: Sequence[Point], fit: SeriesFit, p: ModelParams) -> list[tuple[int, int]]:
    """A weekday's places in the month the history earns ((position, weekday): the first Sunday's free admission,
    a payday on the last Friday), read from the data, never from a calendar: no weekday, business day or day of
    the month holds them (the first Sunday is the 1st to the 7th). Each place's days, their weekday's median taken
    out, must stand apart (`_apart`) both from the same weekday's other days (the weekday's own spread: a quiet
    series' Sundays that vary by chance earn nothing) and from the other weekdays of the same week of the month
    (a month-start run lifts every weekday of days 1-7: that is the month's turn, not the weekday's place). The
    strongest first, at most ROLLED_MAX."""
    resid = np.asarray(fit.resid, dtype=float)
    days = [q.at.date() for q in pts]
    weekday = np.array([d.weekday() for d in days])
    centred = resid.copy()
    for w in set(weekday.tolist()):
        centred[weekday == w] -= float(np.median(resid[weekday == w]))
    places = [month_positions(d) for d in days]
    ordinal = np.array([d.toordinal() for d in days])
    middle = days[len(days) // 2].toordinal() + 0.5
    halves = (ordinal < middle, ordinal >= middle)
    found: list[tuple[float, int, int]] = []
    for position in MONTH_WEEKDAY_POSITIONS:
        week = np.array([position in ps for ps in places])
        for w in sorted(set(weekday.tolist())):
            same = weekday == w
            on = np.flatnonzero(same & week)
            z = _apart(centred, on, np.flatnonzero(same & ~week), p.floor, halves)
            z_week = _apart(centred, on, np.flatnonzero(~same & week), p.floor, halves) if z else None
            if z and z_week:
                found.append((min(z, z_week), position, w))
    return [(position, w) for _, position, w in sorted(found, reverse=True)[:ROLLED_MAX]]


def _working_day_neighbourhoods(pts: Sequence[Point], feats: list[dict[str, object]], target: datetime,
                                target_feats: dict[str, object], cal: HolidayCalendar,
                                open_days: frozenset[int]) -> None:
    """A series closed on some weekdays counts a holiday's neighbourhood, and the weeks around Lunar
    New Year, in its own working days."""
    if open_days == ALL_WEEK or not open_days:
        return
    for at, fv in [*((q.at, fv) for q, fv in zip(pts, feats)), (target, target_feats)]:
        if not fv["holiday"]:
            fv["near_holiday"] = near_holiday(at.date(), cal, open_days)
        # (Ramadan and a configured season keep their days, as the calendar gives them priority)
        if "season" in fv and (not fv["season"] or str(fv["season"]).startswith(LUNAR_NEW_YEAR_SEASON)):
            fv["season"], fv["season_at"] = lunar_new_year_part(at.date(), cal, open_days)


def _long_weekend_block(day: date, cal: HolidayCalendar) -> tuple[date, date] | None:
    """The long weekend a day of the calendar's weekend belongs to: its run of weekend days joined to one
    holiday on a working day (the Monday after it, the Friday before it: a puente), as (first, last) day,
    holiday included. None where no holiday adjoins the run, where both ends do, or where another holiday
    lies within NEIGHBOURHOOD_DAYS of it (Easter, Christmas to New Year: a season of their own, read by
    their names)."""
    if not cal.is_weekend(day) or cal.name(day):
        return None
    first = last = day
    while cal.is_weekend(first - timedelta(days=1)) and not cal.name(first - timedelta(days=1)):
        first -= timedelta(days=1)
    while cal.is_weekend(last + timedelta(days=1)) and not cal.name(last + timedelta(days=1)):
        last += timedelta(days=1)
    before, after = first - timedelta(days=1), last + timedelta(days=1)
    joined = [d for d in (before, after) if cal.name(d) and not cal.is_weekend(d)]
    if len(joined) != 1:
        return None
    first, last = min(first, joined[0]), max(last, joined[0])
    window = (first + timedelta(days=k) for k in range(-NEIGHBOURHOOD_DAYS, (last - first).days + NEIGHBOURHOOD_DAYS + 1))
    if any(cal.name(d) for d in window if not first <= d <= last):
        return None
    return first, last


def long_weekend(day: date, cal: HolidayCalendar) -> str:
    """The day's place around a long weekend (`_long_weekend_block`), one label whatever the holiday's name:
    its weekend days are "a long weekend +0d", the working day before it "-1d" and after it "+1d"; "" for
    any other day and for the holiday itself (read by its name). A country whose holidays move to Mondays
    (Colombia's Emiliani law: some ten puentes a year) has ten occasions of each a year, where a
    neighbourhood per holiday name has one, or none where that holiday fell on another weekday last year."""
    if cal.name(day):
        return ""
    if cal.is_weekend(day):
        return f"{LONG_WEEKEND} +0d" if _long_weekend_block(day, cal) else ""
    if _long_weekend_block(day + timedelta(days=1), cal) or (
            cal.name(day + timedelta(days=1)) and _long_weekend_block(day + timedelta(days=2), cal)):
        return f"{LONG_WEEKEND} -1d"
    if _long_weekend_block(day - timedelta(days=1), cal) or (
            cal.name(day - timedelta(days=1)) and _long_weekend_block(day - timedelta(days=2), cal)):
        return f"{LONG_WEEKEND} +1d"
    return ""


def _long_weekends(pts: Sequence[Point], feats: list[dict[str, object]], target: datetime,
                   target_feats: dict[str, object], cal: HolidayCalendar, open_days: frozenset[int]) -> None:
    """A series open at weekends reads a long weekend's days (`long_weekend`) as one neighbourhood pooled
    over every long weekend of its history, in place of each holiday's own neighbourhood: the members out of
    town on a puente's Saturday and Sunday are there whichever holiday makes the Monday free. A holiday's own
    neighbourhood day seen LONG_WEEKEND_OWN_OCCASIONS times in the history keeps its name. A series closed
    at weekends has no such days (its day after a closure is `after_gap`'s), nor does a calendar without
    weekend-adjoining holidays; the group must still earn its effect (`_indistinct`)."""
    if not cal.country and not cal.dates:
        return
    weekend = weekend_days(cal.country, cal.subdiv) if cal.country else frozenset({5, 6})
    if not weekend or not weekend <= open_days:
        return
    seen = Counter(str(fv.get("near_holiday", "")) for fv in feats)
    for at, fv in [*((q.at, fv) for q, fv in zip(pts, feats)), (target, target_feats)]:
        label = long_weekend(at.date(), cal)
        if label and not fv["holiday"] and seen[str(fv.get("near_holiday", ""))] < LONG_WEEKEND_OWN_OCCASIONS:
            fv["near_holiday"] = label


def after_day_off(day: date, cal: HolidayCalendar, working: frozenset[int]) -> bool:
    """Whether the day is the first working day (a day of the week in `working`, or a weekend day worked for a
    bridge) after a holiday that fell on a working day, across the closed-like days between (a Sunday, more
    holidays): the day that carries what the day off left undone. A holiday on a day the series keeps closed
    leaves no backlog."""
    def works(d: date) -> bool:
        return not cal.name(d) and (d.weekday() in working or cal.is_worked_weekend(d))

    if not works(day):
        return False
    back = day - timedelta(days=1)
    for _ in range(AFTER_DAY_OFF_REACH):
        if works(back):
            return False
        if cal.name(back) and back.weekday() in working:
            return True
        back -= timedelta(days=1)
    return False


def _days_after_days_off(pts: Sequence[Point], feats: list[dict[str, object]], target: datetime,
                         target_feats: dict[str, object], cal: HolidayCalendar, open_days: frozenset[int]) -> None:
    """A daily series reads the first working day after a holiday on a working day (`after_day_off`, its working
    days the days of the week it keeps open and not closed-like, `_light_weekdays`) as one neighbourhood pooled
    over every holiday of its calendar ("a day off +1d"): a parcel network's backlog after a day off is the same
    whichever holiday closed it, where each holiday's own "+1d" is seen once a year. A holiday's own day after,
    seen LONG_WEEKEND_OWN_OCCASIONS times in the history, keeps its name, as a long weekend's days do; the day
    after a long weekend (`long_weekend`'s "+1d") is such a day too and joins the pool. A day after a closure
    the partitions show (`after_gap`) is read by that. The group must still earn its effect (`_indistinct`)."""
    if not cal.country and not cal.dates:
        return
    working = open_days - _light_weekdays(pts)
    after = {q.at.date() for q, fv in zip(pts, feats)
             if not fv["holiday"] and not fv.get("after_gap") and after_day_off(q.at.date(), cal, working)}
    if not _days_off_carry_over(pts, feats, after, working):
        return
    if not target_feats["holiday"] and not target_feats.get("after_gap") \
            and after_day_off(target.date(), cal, working):
        after.add(target.date())
    seen = Counter(str(fv.get("near_holiday", "")) for fv in feats)
    pooled = f"{LONG_WEEKEND} +1d"
    for at, fv in [*((q.at, fv) for q, fv in zip(pts, feats)), (target, target_feats)]:
        if at.date() not in after:
            continue
        label = str(fv.get("near_holiday", ""))
        if label == pooled or seen[label] < LONG_WEEKEND_OWN_OCCASIONS:
            fv["near_holiday"] = f"{AFTER_DAY_OFF} +1d"


def eve_of_day_off(day: date, cal: HolidayCalendar, working: frozenset[int]) -> bool:
    """Whether the day is the last working day (a day of the week in `working`, or a weekend day worked for a
    bridge) before a holiday that falls on a working day, across the closed-like days between (a Sunday): the
    day business and households get ready for the day off (`after_day_off`'s mirror)."""
    def works(d: date) -> bool:
        return not cal.name(d) and (d.weekday() in working or cal.is_worked_weekend(d))

    if not works(day):
        return False
    ahead = day + timedelta(days=1)
    for _ in range(AFTER_DAY_OFF_REACH):
        if works(ahead):
            return False
        if cal.name(ahead) and ahead.weekday() in working:
            return True
        ahead += timedelta(days=1)
    return False


def _eves_of_days_off(pts: Sequence[Point], feats: list[dict[str, object]], target: datetime,
                      target_feats: dict[str, object], cal: HolidayCalendar, open_days: frozenset[int]) -> None:
    """A daily series reads the last working day before a holiday on a working day (`eve_of_day_off`) as one
    neighbourhood pooled over every holiday of its calendar ("a day off -1d"): cash drawn, shelves emptied the
    day before a day off whichever holiday it is, where each holiday's own "-1d" is seen once a year and earns
    little of its lift. Pooled only where the history's eves agree (`_eves_agree`: most of them, and each half's,
    on the side of their median, which stands from the noise): a series whose eves are ordinary keeps each
    holiday's own neighbourhood. A holiday's own eve seen LONG_WEEKEND_OWN_OCCASIONS times keeps its name, and
    a long weekend's days keep theirs (`_long_weekends`); the group must still earn its effect (`_indistinct`)."""
    if not cal.country and not cal.dates:
        return
    working = open_days - _light_weekdays(pts)
    eves = {q.at.date() for q, fv in zip(pts, feats)
            if not fv["holiday"] and not fv.get("after_gap") and eve_of_day_off(q.at.date(), cal, working)}
    if not _eves_agree(pts, feats, eves, working):
        return
    if not target_feats["holiday"] and not target_feats.get("after_gap") \
            and eve_of_day_off(target.date(), cal, working):
        eves.add(target.date())
    seen = Counter(str(fv.get("near_holiday", "")) for fv in feats)
    own = _eves_of_their_own(pts, feats, eves, working)
    pooled = f"{AFTER_DAY_OFF} -1d"
    for at, fv in [*((q.at, fv) for q, fv in zip(pts, feats)), (target, target_feats)]:
        label = str(fv.get("near_holiday", ""))
        if at.date() not in eves or label.startswith(LONG_WEEKEND) or label in own:
            continue
        if label == pooled or seen[label] < LONG_WEEKEND_OWN_OCCASIONS:
            fv["near_holiday"] = pooled


def moving_feast_eve(day: date, cal: HolidayCalendar, moving: Collection[str]) -> bool:
    """Whether `day` is the eve of a moving feast's first day: the next day holds a holiday of `moving` (among the
    parts of its name: "Eid al-Fitr; Spring Festival" holds Eid al-Fitr) that `day` does not hold."""
    ahead = set(holiday_parts(cal.name(day + timedelta(days=1)))) & set(moving)
    return bool(ahead - set(holiday_parts(cal.name(day))))


def _eves_of_moving_feasts(pts: Sequence[Point], feats: list[dict[str, object]], target: datetime,
                           target_feats: dict[str, object], cal: HolidayCalendar) -> None:
    """A daily series reads the day before a moving feast's first day (`moving_feast_eve`: a holiday whose date
    moves between years, `_moving_holidays`, read on each part of a day's name) as one neighbourhood pooled over
    the calendar's moving feasts ("a moving feast -1d"): the Eids' eves are two occasions a year where each Eid's
    own "-1d" is seen once in 400 days, and an eve whose next day holds two holidays (Eid al-Fitr on Novruz's
    first day) takes the other's name, whose past eves were ordinary days. Pooled only where the history holds
    MOVING_EVE_OCCASIONS such eves or more (on days that are no holiday), every one off its weekday's days around
    it (`_weekday_excess`) on the same side by more than DISTINCT_Z["near_holiday"] ordinary days' sds (of the
    same reading): a calendar whose feasts' eves are ordinary days, or run apart (a Ramadan's first day's eve
    quiet, Eid's busy; one Eid's run-up and the other's ordinary eve), keeps each holiday's own neighbourhood. A holiday's own eve seen
    LONG_WEEKEND_OWN_OCCASIONS times keeps its name, as the other pools' do; the group must still earn its effect
    (`_indistinct`)."""
    if not cal.country and not cal.dates:
        return
    # (moving as the calendar dates it over the years around the history: a feast seen once in it still moves)
    first, last = date(pts[0].at.year - 1, 1, 1), date(target.year + 1, 12, 31)
    # (a feast's own days: a day off observed for one is no feast's first day)
    moving = _moving_holidays((first + timedelta(days=k) for k in range((last - first).days + 1)), cal,
                              lambda d: [part for part in holiday_parts(cal.name(d)) if not part.endswith(OBSERVED)])
    if not moving:
        return
    eves = {q.at.date() for q, fv in zip(pts, feats)
            if not fv["holiday"] and not fv.get("after_gap") and moving_feast_eve(q.at.date(), cal, moving)}
    logs, skip = _eve_excess_inputs(pts, feats, eves)
    excess = [e for d in sorted(eves) if (e := _weekday_excess(logs, d, skip)) is not None]
    plain = [e for d in logs if d not in skip and (e := _weekday_excess(logs, d, skip)) is not None]
    if len(excess) < MOVING_EVE_OCCASIONS or len(plain) < AFTER_DAY_OFF_OCCASIONS:
        return
    # (each eve an occasion of the rush on its own: one eve's lift halving into a pool whose other eves are
    # ordinary would read a lift on them all)
    sign, bar = (1.0 if median(excess) > 0 else -1.0), DISTINCT_Z["near_holiday"] * MAD_SCALE * mad(plain)
    if not all(e * sign > bar for e in excess):
        return
    if not target_feats["holiday"] and not target_feats.get("after_gap") \
            and moving_feast_eve(target.date(), cal, moving):
        eves.add(target.date())
    seen = Counter(str(fv.get("near_holiday", "")) for fv in feats)
    pooled = f"{MOVING_EVE} -1d"
    for at, fv in [*((q.at, fv) for q, fv in zip(pts, feats)), (target, target_feats)]:
        label = str(fv.get("near_holiday", ""))
        if at.date() in eves and (label == pooled or seen[label] < LONG_WEEKEND_OWN_OCCASIONS):
            fv["near_holiday"] = pooled


def _eves_agree(pts: Sequence[Point], feats: Sequence[Mapping[str, object]], eves: Collection[date],
                working: frozenset[int]) -> bool:
    """Whether the history's eves of days off stand apart from their weekday as one (`_days_off_carry_over`'s
    bar) and agree on it: ROLLED_SAME_SIDE of them on their median's side, and the median of each half of them
    (by date) too. An eve effect that one holiday carries (a feast's rush, the rest ordinary) is that holiday's
    own, not the calendar's."""
    if not _days_off_carry_over(pts, feats, eves, working):
        return False
    logs, skip = _eve_excess_inputs(pts, feats, eves)
    excess = [e for d in sorted(eves) if (e := _weekday_excess(logs, d, skip)) is not None]
    if len(excess) <= AFTER_DAY_OFF_OCCASIONS:  # (two in each half at least)
        return False
    sign = 1.0 if median(excess) > 0 else -1.0
    halves = (excess[:len(excess) // 2], excess[len(excess) // 2:])
    return bool(np.mean([e * sign > 0 for e in excess]) >= ROLLED_SAME_SIDE) and all(median(h) * sign > 0 for h in halves)


def _eve_excess_inputs(pts: Sequence[Point], feats: Sequence[Mapping[str, object]], eves: Collection[date]
                       ) -> tuple[dict[date, float], set[date]]:
    """What `_weekday_excess` reads an eve against: each day's log rows, and the days its weekday's neighbours skip
    (the eves themselves and the holidays)."""
    logs = {q.at.date(): math.log(max(q.value, 0.5)) for q in pts}
    return logs, set(eves) | {q.at.date() for q, fv in zip(pts, feats) if fv["holiday"]}


def _eves_of_their_own(pts: Sequence[Point], feats: Sequence[Mapping[str, object]], eves: Collection[date],
                       working: frozenset[int]) -> set[str]:
    """The holidays' own eve labels whose every past eve stood off the pooled eves' median excess by more than
    DISTINCT_Z["near_holiday"] ordinary days' sds: an eve with a rush of its own (Christmas Eve's shopping on top
    of an eve's cash) keeps its name, as it earned before the pool, rather than the pool's milder lift."""
    logs, skip = _eve_excess_inputs(pts, feats, eves)
    label_of = {q.at.date(): str(fv.get("near_holiday", "")) for q, fv in zip(pts, feats)}
    excess = {d: e for d in eves if d in logs and (e := _weekday_excess(logs, d, skip)) is not None}
    plain = [e for d in logs if d.weekday() in working and d not in skip
             and (e := _weekday_excess(logs, d, skip)) is not None]
    if not excess or len(plain) < AFTER_DAY_OFF_OCCASIONS:
        return set()
    pool, bar = median(excess.values()), DISTINCT_Z["near_holiday"] * MAD_SCALE * mad(plain)
    by_label: dict[str, list[float]] = defaultdict(list)
    for d, e in excess.items():
        by_label[label_of[d]].append(e)
    return {label for label, own in by_label.items() if label and all(abs(e - pool) > bar for e in own)}


def _days_off_carry_over(pts: Sequence[Point], feats: Sequence[Mapping[str, object]], after: Collection[date],
                         working: frozenset[int]) -> bool:
    """Whether the history's days after a day off (`after`, found by `after_day_off`), AFTER_DAY_OFF_OCCASIONS at
    least, ran apart from their weekday by DISTINCT_Z["near_holiday"] standard errors (their median excess,
    `_weekday_excess`, against the ordinary days' spread of the same reading). A pool the occurrences do not show (a business with
    no backlog, days after holidays inside a season's episode pulling both ways) leaves each holiday its own
    neighbourhood, as before: pooled unearned, those days would join the ordinary ones and widen their spread."""
    logs = {q.at.date(): math.log(max(q.value, 0.5)) for q in pts}
    if len(after) < AFTER_DAY_OFF_OCCASIONS:
        return False
    skip = set(after) | {q.at.date() for q, fv in zip(pts, feats) if fv["holiday"]}
    excess = {d: _weekday_excess(logs, d, skip) for d in logs if d.weekday() in working and d not in skip or d in after}
    pooled = [e for d, e in excess.items() if d in after and e is not None]
    plain = [e for d, e in excess.items() if d not in after and e is not None]
    if len(pooled) < AFTER_DAY_OFF_OCCASIONS or len(plain) < AFTER_DAY_OFF_OCCASIONS:
        return False
    sd = MAD_SCALE * mad(plain)
    return abs(median(pooled)) > DISTINCT_Z["near_holiday"] * _median_se(sd, len(pooled))


def _weekday_excess(logs: Mapping[date, float], day: date, skip: Collection[date],
                    weeks: Sequence[int] = EXCESS_WEEKS) -> float | None:
    """A day's log against the median of its weekday's days `weeks` around it (EXCESS_WEEKS; those in the history,
    none in `skip`); None with fewer than two of them."""
    around = [logs[d] for k in weeks if (d := day + timedelta(days=k)) in logs and d not in skip]
    return logs[day] - median(around) if len(around) >= 2 else None


def _years_out(fit: SeriesFit) -> dict[int, tuple[float, float]]:
    """Each point's week of the year read from its other years (log): the move from its own effect, and
    how much of the error's sd is the point's own noise (the rest is the other years' effect's: a median of
    n points costs 1.57/n of a point's variance, one of two their mean's 1/2), for every point whose week
    was learned on another year too, or not on it at all (a holiday's week; see _spread)."""
    f = YEAR_OUT
    others: dict[object, list[int]] = {}
    for i, fv in enumerate(fit.feats):
        others.setdefault(fv[f], []).append(i)
    # the effect is the median of its ordinary points' values, each its own less the level and the other effects
    values = [e - lv + fit.effects[f][fv[f]] for e, lv, fv in zip(fit.e, fit.local, fit.feats)]
    # (learned on ordinary points only, as SeriesFit learns it)
    learned = {i for i, fv in enumerate(fit.feats) if not any(fv.get(g, "") not in NONE for g in EARNED)
               and fv.get("period_end") not in ("quarter", "year")}
    out: dict[int, tuple[float, float]] = {}
    for i, fv in enumerate(fit.feats):
        if i not in learned:
            out[i] = (0.0, 1.0)  # a holiday's week: its week of the year was learned on other points only
            continue
        rest = [values[j] for j in others[fv[f]] if j != i and j in learned]
        if rest:
            cost = 1 / len(rest) if len(rest) <= 2 else 1.57 / len(rest)
            out[i] = (fit.effects[f][fv[f]] - median(rest), 1 / math.sqrt(1 + cost))
    return out


def _spread(fit: SeriesFit, feats: Sequence[Mapping[str, object]], target_feats: Mapping[str, object],
            used: Sequence[str], days: Sequence[date] | None = None, target_day: date | None = None) -> float:
    """Robust sd of the one-step errors: the target's own group's, shrunk towards the whole
    series' (as if five more points of it) so a group of a few points cannot make it tiny. On a
    daily series (`days`, the points' dates) the own group's errors leave out its days in an
    episode (`_episode_errors`)."""
    errors = dict(fit.errors) or dict(enumerate(fit.resid))
    resid = list(fit.resid)
    honest: tuple[str, ...] = ()
    if YEAR_OUT in used:
        # a weekly series' 52 weeks of the year, each learned on the two or three years that are then
        # judged by it, fit their own noise (a week of three years is the median of three: one of them
        # sits on it exactly, and a bookings total's errors read a third of its noise): each error is
        # read with its week learned on its other years instead, and a week seen in one year only has none
        # (each scaled to the point's own noise: the band adds the target's week's own uncertainty)
        moved = _years_out(fit)
        read = {i: (err + moved[i][0]) * moved[i][1] for i, err in errors.items() if i in moved}
        if len(read) >= YEAR_OUT_MIN_ERRORS:
            errors, honest = read, (YEAR_OUT,)
            resid = [(r + moved[i][0]) * moved[i][1] for i, r in enumerate(resid) if i in moved]
    # the one-step errors, but never less than the points' own scatter around their level: a MAD
    # of three errors (six same-weekday points) can be near zero by chance
    pooled = MAD_SCALE * max(mad(list(errors.values())), mad(resid))
    # a history with a second mode (two Saturdays in six lighter) has a small MAD: the mean
    # absolute residual (sd = 1.25 x it for normal noise) keeps half a say
    pooled = max(pooled, 0.5 * 1.2533 * sum(min(abs(r), 1.0) for r in resid) / max(len(resid), 1))
    same = [i for i, fv in enumerate(feats) if all(fv[f] == target_feats[f] for f in used)]
    episode = _episode_errors(fit, feats, days, target_day) if days is not None and target_day is not None else set()
    own_errors = [errors[i] for i in same if i in errors and i not in episode]
    if len(own_errors) < 2:
        return fit.dof_factor(honest) * pooled
    # the group's own spread as a root mean square (each error capped at 4x the pooled spread, so a
    # fault left in the history counts but not wildly): unbiased in variance however few errors the
    # group has, where a MAD of two to four errors is mostly far too small and pulled the band in
    # (Monday 07:00 of four weeks of hours, a Wednesday that is business day 18)
    cap = 4 * pooled
    own_var = sum(min(abs(e), cap) ** 2 for e in own_errors) / len(own_errors)
    return fit.dof_factor(honest) * math.sqrt((len(own_errors) * own_var + 5 * pooled ** 2) / (len(own_errors) + 5))


def _shift_size(t: list[float], x: list[float], feats: list[dict[str, object]], used: list[str], lag: int,
                level_points: int, start: int) -> float:
    """The shift in log space: the points from `start` on against a model fitted before it."""
    pre = SeriesFit(t[:start], x[:start], feats[:start], used, lag, level_points)
    base = [pre.e[j] - pre.slope * t[j] for j in range(max(0, start - level_points), start)]
    level = median(base)
    return median([x[i] - (level + pre.slope * t[i]) - pre.effect_for(feats[i])[0] for i in range(start, len(x))])


def _older_accepted_shifts(t: list[float], x: list[float], feats: list[dict[str, object]], used: list[str], lag: int,
                           level_points: int, pts: Sequence[Point]) -> tuple[list[float], bool]:
    """The series with every point before an accepted shift older than the level window, and inside
    the latest two, moved to the shift's level (the latest first), and whether any was. Each shift is
    sized as _find_shift's accepted one is on the level window after it: the level window's points
    from it against a model fitted before it, then corrected once by the refitted model's residuals
    either side (later points do not size it)."""
    n = len(x)
    shifts = [i for i in range(n) if pts[i].shift]
    starts = [i for i in shifts if max(7, n - 2 * level_points) <= i < n - level_points]
    for start in reversed(starts):
        # (sized on its own level: up to the next accepted shift, whose window re-baselines it)
        stop = min([start + level_points, *(i for i in shifts if i > start)])
        delta = _sized_shift(t[:stop], x[:stop], feats[:stop], used, lag, level_points, start)
        x = [v + delta if i < start else v for i, v in enumerate(x)]
    return x, bool(starts)


def _sized_shift(t: list[float], x: list[float], feats: list[dict[str, object]], used: list[str], lag: int,
                 level_points: int, start: int) -> float:
    """The log size of a shift at `start`: the points after it against a model fitted before it
    (_shift_size), then one correction, the shift as the model refitted on the moved series sees it
    (few points after it can mislead the first estimate when their weekday was thin before it)."""
    delta = _shift_size(t, x, feats, used, lag, level_points, start)
    refit = SeriesFit(t, [v + delta if i < start else v for i, v in enumerate(x)], feats, used, lag, level_points)
    return delta - (median(refit.resid[start:]) - median(refit.resid[max(0, start - level_points):start]))


def _calendar_levels(fit: SeriesFit, special: Sequence[bool], reach: int) -> list[float | None]:
    """Each point's level as the shift rule reads it (fit.e, its calendar effects taken out): a calendar day's
    effect read from its groups' earlier occasions alone (each group's members before `reach`: their median
    residual, the part of the fitted effect this occasion pulled, is put back), and None where a group has
    none, its effect resting on this occasion's days alone (its level is then the one it was learned against).
    Only a holiday's days and its neighbourhood's (`OCCASION_FEATURES`) are read so: a declared season's, a
    break's or a month's days keep their fitted level, as their earlier occasion may be no reading at all (a
    season met once in a group's opening weeks left a residual of x0.3 that, put back, read its days a year on
    at x3 and carried an owner's accepted shift back a week)."""
    earlier: dict[tuple[str, object], list[float]] = defaultdict(list)
    for i, fv in enumerate(fit.feats[:reach]):
        for f in OCCASION_FEATURES:
            if f in fit.used and fv.get(f, "") not in NONE:
                earlier[(f, fv[f])].append(fit.resid[i])
    out: list[float | None] = []
    for i, fv in enumerate(fit.feats):
        labels = [(f, fv[f]) for f in OCCASION_FEATURES if f in fit.used and fv.get(f, "") not in NONE] \
            if special[i] else []
        if any(not earlier.get(key) for key in labels):
            out.append(None)
        else:
            out.append(fit.e[i] - sum(median(earlier[key]) for key in labels))
    return out


def _year_ago(day: date) -> date:
    """The same Gregorian date a year earlier (a leap day's: the 28th)."""
    return day.replace(year=day.year - 1) if (day.month, day.day) != (2, 29) else date(day.year - 1, 2, 28)


def _runs_off_level(adj: Sequence[float], special: Sequence[bool], lo: int, hi: int, h: float, level_points: int,
                    after: int) -> list[tuple[int, int, float]]:
    """The runs of `after` or more ordinary points in [lo, hi) that all sit off the level before them by more than
    `h`, on one side (special points inside neither break nor confirm a run): (first, last, the run's median less
    that level). The level before a run is its `level_points` ordinary points before it, none in an earlier run: a
    closure's reopening is the old level again, not a run off the closure's."""
    runs: list[tuple[int, int, float]] = []
    taken: set[int] = set()
    a = lo
    while a < hi:
        base_at = [j for j in range(a - 1, -1, -1) if not special[j] and j not in taken][:level_points]
        if special[a] or len(base_at) < level_points // 2:
            a += 1
            continue
        base = median(adj[j] for j in base_at)
        side = 1 if adj[a] - base > h else -1 if adj[a] - base < -h else 0
        members, b = [a], a
        for j in range(a + 1, hi):
            if special[j]:
                continue
            if side and (adj[j] - base) * side > h:
                members.append(j)
                b = j
            else:
                break
        if side and len(members) >= after:
            runs.append((a, b, median(adj[j] for j in members) - base))
            taken.update(range(a, b + 1))
            a = b + 1
        else:
            a += 1
    return runs


def _dense_adjusted(fit: SeriesFit, detrended: bool = True) -> list[float]:
    """Each point's log value less its dense groups' effects only (weekday, hour), and less the trend where
    `detrended`: a calendar group's or a month's effect, learned on a closure's or a surge's own days of one
    occasion, took the run in (and a surge's climb at the history's end tilts the fitted trend itself)."""
    return [x - fit.slope * t * detrended - sum(fit.effects[f].get(fv.get(f), 0.0) for f in fit.used if f not in SPARSE)
            for x, t, fv in zip(fit.x, fit.t, fit.feats)]


def _surge_smoothed(fit: SeriesFit, special: Sequence[bool], level_points: int
                    ) -> tuple[list[float], list[int], list[float]]:
    """The series as a surge's rules read it: each point's log value net of its dense effects, not of the trend (two
    level windows: the trend is the surge's, not the series', `_dense_adjusted`), the ordinary points' indices
    (calendar days neither break nor confirm a surge), and each ordinary point's median over its neighbours
    SURGE_SMOOTH_SHARE of a level window either side (the surge's shape from day to day, not its hours' noise)."""
    adj = _dense_adjusted(fit, detrended=False)
    plain = [i for i in range(len(fit.e)) if not special[i]]
    half = max(1, level_points // SURGE_SMOOTH_SHARE)
    smooth = [median(adj[i] for i in plain[max(0, m - half):m + half + 1]) for m in range(len(plain))]
    return adj, plain, smooth


class _RunningSurge(NamedTuple):
    adj: list[float]     # each point's log value net of its dense effects, not of the trend (`_surge_smoothed`)
    level: list[float]   # each ordinary point's smoothed level (0.0 at calendar points, never read)
    plain: list[int]     # the ordinary points' indices
    first: int           # the surge's first point


def _running_surge(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], h: float, level_points: int
                   ) -> _RunningSurge | None:
    """A surge (or a dip) in no calendar still running at the history's end, else None: on the series net of its dense
    effects and smoothed (`_surge_smoothed`), the latest ordinary points form a run off the level before it, on one
    side, beyond the band's half-width `h` (`_runs_off_level`, of half a day's points at least: SURGE_SMOOTH_SHARE of
    a level window), holding to the latest point, and no point of it, nor of the level window before it, was accepted
    by its owner as a shift (the owner's new level is the shift rule's). Calendar days neither break nor confirm it."""
    adj, plain, smooth = _surge_smoothed(fit, special, level_points)
    level = [0.0] * len(adj)
    for m, i in enumerate(plain):
        level[i] = smooth[m]
    runs = _runs_off_level(level, special, max(level_points, len(adj) - 2 * level_points), len(adj), h, level_points,
                           level_points // SURGE_SMOOTH_SHARE)
    # (nor in the level window before it: the smoothing spreads a step the owner accepted over half a day either
    # side, so the run off the old level may start hours after the accepted point)
    if not plain or not runs or runs[-1][1] != plain[-1] \
            or any(q.shift for q in pts[max(0, runs[-1][0] - level_points):]):
        return None
    return _RunningSurge(adj, level, plain, runs[-1][0])


def _surge_hour_shape(surge: _RunningSurge, fit: SeriesFit, target_hour: object, level_points: int
                      ) -> tuple[float, int] | None:
    """The target hour's share of the day during a surge still running (`_running_surge`), read from the surge's own
    days: (the move of the hour's effect, the readings it rests on), else None. A surge in no calendar may change the
    day's shape as well as its level: a pilgrimage's walkers arrive through the night, so the city's night hours climb
    two to three times their usual share while its evening peak climbs with the level alone; the hour effects, learned
    on the ordinary days, read every night of the climb 1.6-3.4x. Each of the surge's points at the target's hour of
    the day is read against its smoothed neighbours (its share of the surge's day); with SURGE_SHAPE_MIN_DAYS of them
    or more, the latest SURGE_SHAPE_DAYS all off the hour's share before the surge on one side by SURGE_SHAPE_Z robust
    sds of the hours about their smoothed level before it, their median less that share is the hour's move. A step
    that scales every hour alike, a season the calendar names, or a surge whose shape stays the series' own, reads as
    before; a drop of the target against the surge's own shape still fails (the move reads the hours before it)."""
    adj, level, plain, first = surge
    before = [i for i in plain if i < first][-level_points:]
    usual = [adj[i] - level[i] for i in before if fit.feats[i].get("hour_of_day") == target_hour]
    readings = [adj[i] - level[i] for i in plain if i >= first and fit.feats[i].get("hour_of_day") == target_hour]
    latest = readings[-SURGE_SHAPE_DAYS:]
    if len(latest) < SURGE_SHAPE_MIN_DAYS or not usual:
        return None
    # (the hours' own noise about their smoothed level before the run: a surge's share stands out of it, or is none)
    share = median(usual)
    noise = MAD_SCALE * mad([adj[i] - level[i] for i in before])
    if not (all(r - share > SURGE_SHAPE_Z * noise for r in latest) or all(r - share < -SURGE_SHAPE_Z * noise for r in latest)):
        return None
    return median(latest) - share, len(latest)


def _surge_latest_level(surge: _RunningSurge, fit: SeriesFit, level: float, h: float, level_points: int) -> float | None:
    """The level of a surge still running (`_running_surge`) as its own latest half day reads it, where the model's
    level (the level window's median, or its ramp's line) parts from it by more than SURGE_LEVEL_APART of the band's
    half-width `h`, else None. Its latest SURGE_SMOOTH_SHARE-th of a level window (half a day), each point less its
    hour's share of the surge's day (the median of its latest SURGE_SHAPE_DAYS readings against their smoothed
    neighbours, read on points whose neighbours lie on both sides: a flatter day's nights would otherwise read a
    half day of nights as a higher level), their median; only where each of those hours has SURGE_SHAPE_MIN_DAYS
    readings (a surge of a day or two, a long weekend's tourists, is left to the model's level and its ramp rules). A surge climbs and falls by the day: the week's median lags
    it, and a ramp fitted on the climb carries the level on up through the peak's fall (x7 to x3.5 to x1.8 a day: the
    fall's hours read 0.2-0.7x). A step that holds sits at its new level, which the shift rule's level already reads:
    the two agree, and the steadier reading is kept. A fault at the target is no part of the level (read from the
    hours before)."""
    adj, smooth, plain, first = surge
    half = max(1, level_points // SURGE_SMOOTH_SHARE)
    centred = [i for i in plain[:-half] if i >= first]
    readings: dict[object, list[float]] = defaultdict(list)
    for i in centred:
        readings[fit.feats[i].get("hour_of_day")].append(adj[i] - smooth[i])
    shares = {hour: median(r[-SURGE_SHAPE_DAYS:]) for hour, r in readings.items() if len(r) >= SURGE_SHAPE_DAYS}
    hours = [fit.feats[i].get("hour_of_day") for i in plain[-half - 1:]]
    if any(hour not in shares for hour in hours):
        return None  # (a surge of two or three days, a long weekend's: its hours' shares unread, its level too)
    latest = median(adj[i] - shares[hour] for i, hour in zip(plain[-half - 1:], hours))
    return latest if abs(latest - level) > SURGE_LEVEL_APART * h else None


def _surge_returned(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], h: float, level_points: int,
                    after: int) -> tuple[int, int, list[float]] | None:
    """A surge (or a dip) in no calendar that has returned to the level before it: (first, last, each of its points'
    move back to that level), else None. Read on the series' own points net of their dense effects, not of the
    trend, which the climb tilts (`_dense_adjusted`), calendar days (`special`) neither breaking nor confirming a run: each point read as the
    median of its neighbours SURGE_SMOOTH_SHARE of a level window either side (the climb's shape, not its hours'
    noise), the latest `after` points or more (as many as a new level needs) sit within the band's half-width `h` of
    their median, and the run before them, of `after` points or more, sits beyond `h` of it on one side (the surge's
    core: a climb of days and its fall); the level window before that run reads within `h` of the latest points (the
    series came back to where it was), and no point of the run was accepted by its owner as a shift. A level shift
    is a step that holds: its latest points stay off the level before it, so it never returns here; a surge still at
    its height has not returned either (a drop there is read as before). Each of the run's points moves by its
    smoothed deviation (so the spread keeps the run's counting noise). Without this, the shift rule took a
    pilgrimage's climb (x1.3 to x7 over ten days) for a new level, and the hours back at the usual level read
    0.1-0.5x against it for days."""
    adj, plain, smooth = _surge_smoothed(fit, special, level_points)
    if len(plain) < level_points + 2 * after:
        return None
    now = smooth[-1]
    k = len(plain)
    while k > 0 and abs(smooth[k - 1] - now) <= h:
        k -= 1
    if len(plain) - k < after or k == 0:
        return None
    side = 1 if smooth[k - 1] > now else -1
    top = k - 1
    while top > 0 and (smooth[top - 1] - now) * side > h:
        top -= 1
    first, last = plain[top], plain[k - 1]
    before = [adj[i] for i in plain[max(0, top - level_points):top]]
    if (k - top < after or len(before) < level_points // 2
            or any(q.shift for q in pts[first:last + 1])):
        return None
    base = median(before)
    if abs(base - now) > h:
        return None
    moves = {plain[m]: base - smooth[m] for m in range(top, k)}
    return first, last, [moves.get(i, 0.0) for i in range(first, last + 1)]


def _episode_returned(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], h: float, level_points: int,
                      after: int, hard: float) -> tuple[int, int, float] | None:
    """A daily series' run of days off the level before it, in no calendar, whose latest days came back to that level:
    (first, last, the run's move back to that level in logs), else None. Read on the level as the fit has it (its
    weekday, month-turn and calendar effects out, its trend out), calendar days (`special`) neither breaking nor
    confirming a run: the latest run (`_runs_off_level`) of `after` ordinary points or more (as many as a new level
    needs), begun in the latest two level windows and ending in the latest, each (its median with its ordinary
    neighbours) off the level before it by EPISODE_RUN_SHARE of the band's half-width `h` on one side; the ordinary
    points since (one at least) nearer that level than the run's median (their median), and one of them back within
    EPISODE_RUN_SHARE of `h` of that level and off the run's median by more than `h` (a reading that fails against the
    run's level and passes against the one before: the noise of a new level strays there about once in a thousand
    days). The same days a year back held no such run (`_run_a_year_back`). The run's median lies within the hard ratio (`hard`, its log) of that level: a deeper run, a closure or a
    road cut, is `_dip_before_return`'s. No point of the run, of the level window before it or since it was accepted
    by its owner as a shift (the owner's new level is the shift rule's). A level shift is a step that holds; a run still going is the shift rule's
    and the level window's to read. Without this, a fortnight held back after a rush (a transfer tax: x0.8 for two
    weeks, then back) filled the level window, and the days back at the old level read 1.2-1.46x against it until the
    window held them alone."""
    n = len(fit.e)
    level = [e - fit.slope * tt for e, tt in zip(fit.e, fit.t)]
    # (the run is found on each ordinary day's median with its ordinary neighbours either side: a day of the episode
    # that strays back inside the band does not cut it in two; the latest day, with no neighbour after it, as it is)
    plain = [i for i in range(n) if not special[i]]
    smooth = list(level)
    for m in range(1, len(plain) - 1):
        smooth[plain[m]] = median(level[j] for j in plain[m - 1:m + 2])
    runs = _runs_off_level(smooth, special, max(level_points, n - 2 * level_points), n, EPISODE_RUN_SHARE * h,
                           level_points, after)
    if not runs:
        return None
    first, last, _ = runs[-1]
    since = [j for j in range(last + 1, n) if not special[j]]
    if last < n - level_points or not since:
        return None
    before = [j for j in range(first - 1, -1, -1) if not special[j]][:level_points]
    base = median(level[j] for j in before)
    size = median(level[j] for j in range(first, last + 1) if not special[j]) - base
    height = base + size
    back = median(level[j] for j in since)
    near = EPISODE_RUN_SHARE * h
    if abs(size) >= hard or _run_a_year_back(level, pts, special, first, last, size, near, level_points, after) \
            or abs(back - base) >= abs(back - height) \
            or not any(abs(level[j] - base) <= near < h < abs(level[j] - height) for j in since) \
            or any(q.shift for q in pts[before[-1]:]):
        return None
    return first, last, -size


def _episode_explained(pts: Sequence[Point], feats: Sequence[Mapping[str, object]], special: Sequence[bool],
                       first: int, last: int, cal: HolidayCalendar, level_points: int) -> bool:
    """Whether a run `_episode_returned` found (points `first` to `last`) is one the model reads otherwise: a day of
    the run, or of the `level_points` ordinary points before it (the level it came back to), in a calendar window
    (`cal.season`: Ramadan, a lunar new year's weeks, a break, a festival's days), whose level is the window's and
    not the series' own (the days after Ramadan, read against its level, are no run below the series'); or half the
    run's ordinary points or more on the month's turn (`_is_month_turn`), whose lift is read from a dozen turns a
    year."""
    run = [j for j in range(first, last + 1) if not special[j]]
    before = [j for j in range(first - 1, -1, -1) if not special[j]][:level_points]
    if any(cal.season(pts[j].at.date())[0] for j in [*range(first, last + 1), *before]):
        return True
    return 2 * sum(_is_month_turn(feats[j]) for j in run) >= len(run)


class YearBackLevel(NamedTuple):
    """The level's move by the rules that read the year back (`_year_back_level`): the move, the days it rests on,
    the holiday whose previous occasion it reads ("" none), and `_same_dates_so_far`'s reading where it is the one."""
    move: float
    days: int
    lagged: str
    so_far: tuple[float, int] | None


def _year_back_level(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], target: datetime,
                     cal: HolidayCalendar, level_points: int) -> YearBackLevel:
    """The level's move by the rules that read the year back, the first that reads one: `_event_ends` (a yearly
    event or a lunar season that ended here a year or a lunar year back), `_same_offset_error` (the same days around
    a holiday's previous occasion: a holiday that moves with the moon is no calendar date a year earlier), then
    `_same_dates_so_far` (the same dates a year back run as this year's so far, its move the one they missed by)."""
    move, days = _event_ends(fit, pts, special, target, level_points, cal)
    lagged = ""
    if not days:
        move, days, lagged = _same_offset_error(fit, pts, special, target, cal, level_points)
    so_far = _same_dates_so_far(fit, pts, special, target, cal, level_points) if not days else None
    if so_far is not None:
        move, days = so_far
    return YearBackLevel(move, days, lagged, so_far)


def _read_a_year_back(year_back: YearBackLevel) -> bool:
    """Whether the level rules that read the year back (`_year_back_level`) already move the level on this fit: the
    run is theirs (a season's end, Ramadan's days after), and an episode moved back as well would step the level
    twice."""
    return bool(year_back.days) or year_back.so_far is not None


def _run_a_year_back(level: Sequence[float], pts: Sequence[Point], special: Sequence[bool], first: int, last: int,
                     size: float, near: float, level_points: int, after: int) -> bool:
    """Whether the same days a year back (YEAR_DAYS earlier, the same weekdays) sat off the level before them on the
    run's side by `near` or more (their ordinary points' median against the `level_points` ordinary points before
    them, `after` of them at least): a yearly event, a sale's days or a lunar season's, whose end the year-back rules
    read (`_event_ends`, `_same_offset_error`, `_season_run_over`); moved back here too, its level stepped back twice."""
    days = [q.at.date() for q in pts]
    lo, hi = days[first] - timedelta(days=YEAR_DAYS), days[last] - timedelta(days=YEAR_DAYS)
    ago = [j for j in range(first) if lo <= days[j] <= hi and not special[j]]
    before = [j for j in range(first) if days[j] < lo and not special[j]][-level_points:]
    if len(ago) < after or len(before) < level_points // 2:
        return False
    return (median(level[j] for j in ago) - median(level[j] for j in before)) * (1 if size > 0 else -1) > near


def _season_run_over(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], target: datetime,
                     level_points: int, h: float, after: int, hard: float) -> list[tuple[int, int, float]] | None:
    """A run off the level in the latest two level windows, of SEASON_RUN_MIN_DAYS or more (a fortnight's closure at
    x0.1) and beyond the hard ratio (`hard`, its log), that the same dates a year back held too, on the same side
    and within 2x of its size, and that a year back was over by the target's date (its first two points from then on back nearer the level before that run than the run): a season,
    not a new level. Returns the (first, last, move) of each run whose points move back to the level before it: this
    year's, so the reopening reads against the level the series reopened at a year back, not the closure's (the
    shift rule took the closure for a new level: "shift 0.11 after 7", its reopening 5-100x), and the year back's,
    so the calendar days in it are not learned as the closure. A run a year back still under way on the target's
    date keeps this year's run as the level (the shift rule's), the year back's moved alone; a closure for good or a
    real level shift has no such year back."""
    n = len(fit.e)
    adj = _dense_adjusted(fit)
    days = [q.at.date() for q in pts]
    runs = _runs_off_level(adj, special, max(level_points, n - 2 * level_points), n, h, level_points, after)
    if not runs:
        return None
    first, last, size = runs[-1]
    # (a run within the hard ratio, a sale's x1.4 or a December's x1.25, is the month's effect and the year back's
    # event's (`_event_ends`) to read, each earned against the noise; moved here, it took their evidence away)
    if (days[last] - days[first]).days + 1 < SEASON_RUN_MIN_DAYS or abs(size) < hard:
        return None
    back_from, back_to = _year_ago(days[first]), _year_ago(days[last])
    ago = _year_ago(target.date())
    earlier = [j for j in range(n) if days[j] < back_from and not special[j]][-level_points:]
    run1 = [j for j in range(n) if back_from <= days[j] <= back_to and not special[j]]
    # (calendar days too: a closure's days next to a holiday are the closure's)
    later = [j for j in range(n) if ago <= days[j] < ago + timedelta(days=YEAR_BACK_REACH)][:2]
    if len(earlier) < level_points // 2 or len(run1) < after or not later:
        return None
    base1 = median(adj[j] for j in earlier)
    size1 = median(adj[j] for j in run1) - base1
    if size1 * size <= 0 or abs(size1) <= h or not 0.5 <= size1 / size <= 2:
        return None
    # the year back's run, calendar days in it too (read with their weekday's effect only): the closure's days next to
    # a holiday, learned as that holiday's neighbourhood on that one occasion, would carry the closure into this
    # year's neighbourhood on top of the level that already holds it
    side = 1 if size1 > 0 else -1
    start1 = run1[0]
    while start1 > 0 and days[start1 - 1] >= back_from - timedelta(days=YEAR_BACK_REACH) \
            and (adj[start1 - 1] - base1) * side > h:
        start1 -= 1
    end1 = run1[-1]
    while end1 + 1 < n and days[end1 + 1] < ago + timedelta(days=YEAR_BACK_REACH) and (adj[end1 + 1] - base1) * side > h:
        end1 += 1
    moves = [(start1, end1, -size1)]
    if all(abs(adj[j] - base1) < abs(adj[j] - base1 - size1) for j in later):
        moves.append((first, last, -size))  # ... and a year back it was over by the target's date: so is this year's
    return moves


def _dip_before_return(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], h: float, level_points: int,
                       after: int, hard: float) -> tuple[int, int, float] | None:
    """A run of days far below the level before it, in no calendar, that the target may end: (first, last, its depth
    in logs, positive), else None. Read on the series net of its dense effects and trend (`_dense_adjusted`), calendar
    days (`special`) neither breaking nor confirming it: the latest run off the level before it begun in the latest
    DIP_REACH_WINDOWS level windows (`_runs_off_level`, of `after` points at least), below it, over DIP_MIN_DAYS
    days or more, its median at least the hard ratio (`hard`, its log) below, and sudden: its first `after` ordinary
    points stand half its depth or more below the `after` just before it (a decline that slides down is a trend, the
    level's to follow). The ordinary points after it, where it ended, all sit nearer the level before it than the run's depth
    (back, or coming back: a return, not a new low). The level before it is the series' own, no higher than the
    median of its history before the run by `h` (a summer's peak ending drops to the year's level: no dip, and a
    doubled day after it is no return). No point of the run, after it or in the level window before it
    was accepted by its owner as a shift (an accepted step is the new level, and a spike after it stays a spike).
    Without this the level reads the run (a coast's road cut for three weeks at x0.2), and the days its rows come
    back read 2-6x against it until the level window holds them alone, two weeks on."""
    n = len(fit.e)
    adj = _dense_adjusted(fit)
    reach = max(level_points, n - DIP_REACH_WINDOWS * level_points)
    runs = _runs_off_level(adj, special, reach, n, h, level_points, after)
    if not runs:
        return None
    first, last, size = runs[-1]
    if size > -hard or (pts[last].at - pts[first].at).days + 1 < DIP_MIN_DAYS:
        return None
    before = [j for j in range(first - 1, -1, -1) if not special[j]][:level_points]
    base = median(adj[j] for j in before)
    # (sudden: its first `after` ordinary points stand half its depth or more below the `after` just before it; a
    # slide's points before its run are on their way down already)
    head = [j for j in range(first, last + 1) if not special[j]][:after]
    jump = median(adj[j] for j in before[:after]) - median(adj[j] for j in head)
    since = [j for j in range(last + 1, n) if not special[j]]
    # (the level before it is the series' own: within the band's half-width of its history's ordinary points before
    # the run, not a season's height or a surge's, which a drop back from is no dip)
    own = median(adj[j] for j in range(first) if not special[j])
    if jump < -size / 2 or base - own > h or any(adj[j] - base < size / 2 for j in since) \
            or any(q.shift for q in pts[before[-1]:]):
        return None
    return first, last, -size


def _dip_set_aside(dip: tuple[int, int, float], pts: Sequence[Point], history: Sequence[Point], target: datetime,
                   baseline: float, upper: float, hard_ratio: float, *, calendar_: HolidayCalendar | None,
                   params: ModelParams | None, own_calendar: bool) -> tuple[float, float, str]:
    """The upper edge and hard ratio (against the model's `baseline`) reaching the reading of the history with a dip
    (`_dip_before_return`: `pts`' points first to last, `depth` below the level before it) set aside, its partitions
    moved back up by its depth, as the model reads a history without an incident: a group's rows back at the level
    they held before a run of weeks far below it is a return, not a spike. The reach is upward only (a drop from the
    dip's level still fails where it did), no further than the dip's depth, and to that reading's own band and hard
    ratio: a doubled partition back at the old level still fails, and with no dip before it nothing moves."""
    first, last, depth = dip
    lo, hi = pts[first].at, pts[last].at
    moved = [replace(q, value=q.value * math.exp(depth)) if lo <= q.at <= hi and q.value > 0 else q for q in history]
    alt = _forecast(moved, target, grain="day", calendar_=calendar_, params=params, own_calendar=own_calendar)
    reach = min(alt.upper, upper * math.exp(depth))
    note = (f"a run of days in no calendar from {lo:%Y-%m-%d} to {hi:%Y-%m-%d} at x{math.exp(-depth):.2f} the level "
            f"before it may have ended: the band reaches the history read without it ({alt.upper:.1f})")
    return max(upper, reach), max(hard_ratio, alt.baseline * alt.hard_ratio / baseline), note


def _run_repeats_yesterdays_block(fit: SeriesFit, feats: Sequence[Mapping[str, object]], shift: dict | None,
                                  target_feats: Mapping[str, object], level_points: int) -> bool:
    """Whether the shift rule's run (not accepted by its owner) on an hourly series is a block of hours the days
    before held too, and ended before the target's hour: the run lies inside one local day and holds no point at
    the target's local hour of the day; on each of the BLOCK_PAST_DAYS days before, the run's same local hours sat
    off the level before the run on the run's side, their median past the midway between that level and the run's
    (`_find_shift`'s reading), and the target's hour did not (it was nearer the level). A heat wave's afternoons
    (x0.45, 12h-17h) and its late evenings (x1.5) recur day after day while the hours after them read as usual: the
    run is the days' shape, not their level, and the hour after it is read at the level (the first hour after the
    wave's afternoon read 1.9-2.5x against the afternoon's fall taken for the series' level). A run the days before
    did not hold (an outage, a step, a first day), one that runs through the night into another day, or one the
    target's hour took part in stays the shift rule's level."""
    if shift is None or shift["accepted"] or shift.get("index") is None:
        return False
    hour, day = target_feats.get("hour_of_day"), target_feats.get("day")
    start, n = int(shift["index"]), len(fit.e)
    if hour is None or day is None or len({fv.get("day") for fv in feats[start:]}) > 1 \
            or any(fv.get("hour_of_day") == hour for fv in feats[start:]):
        return False
    at = {(fv.get("day"), fv.get("hour_of_day")): j for j, fv in enumerate(feats)}
    base = median(fit.e[j] + fit.slope * (fit.t[start] - fit.t[j]) for j in range(max(0, start - level_points), start))
    depth = median(fit.e[j] + fit.slope * (fit.t[start] - fit.t[j]) for j in range(start, n)) - base

    def off(j: int) -> float:  # (a point's move off the level before the run, in the run's direction)
        return (fit.e[j] + fit.slope * (fit.t[start] - fit.t[j]) - base) * (1 if depth > 0 else -1)

    midway = abs(depth) / 2
    for back in range(1, BLOCK_PAST_DAYS + 1):
        block = [at.get((cast(int, feats[j]["day"]) - back, feats[j].get("hour_of_day"))) for j in range(start, n)]
        after = at.get((cast(int, day) - back, hour))
        if after is None or any(j is None for j in block) \
                or median(off(cast(int, j)) for j in block) <= midway or off(after) >= midway:
            return False
    return True


def _find_shift(fit: SeriesFit, pts: Sequence[Point], h: float, level_points: int, shift_after: int,
                special: Sequence[bool], by_occasions: bool = False) -> dict | None:
    """The start of the latest run of points that all sit off the level just before them, on one
    side; a new level once the run holds `shift_after` ordinary points, or at once from a partition
    accepted as a shift (the latest such partition in the level window re-baselines even when the
    run is over). A run does not start on a holiday, its neighbourhood or the first day after a
    closure (`special`): those are calendar days, not a new level. A calendar day reads the level by its
    groups' effects on earlier occasions (`_calendar_levels`): this occasion's own days pulled the fitted
    effect toward whatever level they were learned against (a holiday new to the calendar and its neighbours,
    groups of one, read a month-long excursion's level and lost the return after it). One with no earlier
    occasion neither breaks the run nor confirms it; one seen before breaks a run it does not follow (a
    feast's days after its run-up sit at the level before the run). (A daily series' only, `by_occasions`:
    elsewhere every point reads at its fitted level, as an hour's holiday groups are its hours, not occasions.)"""
    n = len(fit.e)
    reach = max(0, n - 2 * level_points)
    levels: list[float | None] = _calendar_levels(fit, special, reach) if by_occasions else list(fit.e)
    start = None
    for s in range(n - 1, reach - 1, -1):
        if levels[s] is None:
            continue
        before = [fit.e[j] + fit.slope * (fit.t[s] - fit.t[j]) for j in range(max(0, s - level_points), s)]
        if len(before) < 3:
            break
        known = [e + fit.slope * (fit.t[s] - fit.t[j]) for j in range(max(0, s - level_points), s)
                 if (e := levels[j]) is not None]
        base = median(known if len(known) >= 3 else before)
        run = [e + fit.slope * (fit.t[s] - fit.t[j]) - base for j in range(s, n) if (e := levels[j]) is not None]
        if not (all(d > h for d in run) or all(d < -h for d in run)):
            break
        start = s
    accepted = start is not None and any(q.shift for q in pts[start:])
    if start is not None and not accepted:
        while start < n and special[start]:
            start += 1
        if start == n or sum(1 for j in range(start, n) if not special[j]) < shift_after:
            start = None
    if start is not None:
        run = [fit.e[j] - fit.e[start] for j in range(start, n)]
        before = [fit.e[j] + fit.slope * (fit.t[start] - fit.t[j]) for j in range(max(0, start - level_points), start)]
        ratio = math.exp(median([fit.e[j] + fit.slope * (fit.t[start] - fit.t[j]) for j in range(start, n)]) - median(before))
        del run
        return {"index": start, "at": pts[start].at.isoformat(), "ratio": round(ratio, 4), "points": n - start,
                "accepted": accepted}
    for s in range(n - 1, max(0, n - level_points) - 1, -1):
        if pts[s].shift:
            return {"index": s, "at": pts[s].at.isoformat(), "ratio": None, "points": n - s, "accepted": True}
    return None


@dataclass(frozen=True)
class _ShapeChange:
    delta: float  # the latest change in log space (the latest regime against the one before it)
    first: int    # the index of the latest regime's first point
    count: int    # its occurrences
    moves: tuple[tuple[int, int, float], ...]  # (from, to, change): the earlier regimes' points moved to the latest


def _shape_changes(fit: SeriesFit, feats: Sequence[Mapping[str, object]], used: Sequence[str], special: Sequence[bool],
                   after: int, z: float) -> dict[tuple[str, object], _ShapeChange]:
    """Weekday (business-day) groups whose share changed for good, once or more: the group's
    ordinary occurrences split where their residuals' median moved most (in standard errors), then
    each part split again the same way (a weekend share launched and later cut back is two
    changes); a split needs at least three occurrences before it and `after` since, a move of `z`
    sd or more and the part's latest `after` occurrences all on the new side (never one occurrence:
    one is a fault as much as a new shape). Every earlier regime is moved to the latest (a
    history split once kept the oldest shape, and a holiday's neighbourhood learned it). Most groups
    of a kind moving one way at their latest change is a change of level, the shift rule's, not of
    one day's share. The effects are medians over a year of days: without this, weekend delivery
    launched reads "Sunday 1.6x" for months, and once the new Sundays are the majority the old ones
    read as a low neighbourhood of whatever holiday they fell near."""
    sd = MAD_SCALE * mad(fit.resid)
    out: dict[tuple[str, object], _ShapeChange] = {}
    if sd <= 0:
        return out
    for f in SHAPE_GROUPS:
        if f not in used:
            continue
        members: dict[object, list[int]] = defaultdict(list)
        for i, fv in enumerate(feats):
            if not special[i] and fv.get("period_end") not in ("quarter", "year"):
                members[fv[f]].append(i)
        changes: dict[object, _ShapeChange] = {}
        for value, idx in members.items():
            resid = [fit.resid[i] for i in idx]
            cuts = _regime_splits(resid, 0, len(resid), after, z * sd, SHAPE_SE * sd)
            while cuts:
                # the latest regime must hold to the end: its latest `after` occurrences all on its side
                prev, latest = median(resid[([0, *cuts])[-2]:cuts[-1]]), median(resid[cuts[-1]:])
                mid, sign = (prev + latest) / 2, 1 if latest > prev else -1
                if all((r - mid) * sign > 0 for r in resid[-after:]):
                    break
                cuts.pop()
            if not cuts:
                continue
            bounds = [0, *cuts, len(resid)]
            latest = median(resid[cuts[-1]:])
            moves = tuple((idx[a] if a else 0, idx[b], latest - median(resid[a:b]))
                          for a, b in itertools.pairwise(bounds[:-1]))
            changes[value] = _ShapeChange(latest - median(resid[bounds[-3]:cuts[-1]]), idx[cuts[-1]],
                                          len(resid) - cuts[-1], moves)
        for sign in (1, -1):
            same = {v: c for v, c in changes.items() if c.delta * sign > 0}
            if len(same) * 2 <= len(members):
                out.update({(f, v): c for v, c in same.items()})
    return out


def _season_undone(fit: SeriesFit, feats: Sequence[Mapping[str, object]], special: Sequence[bool],
                   key: tuple[str, object], change: _ShapeChange, target_day: int, after: int) -> bool:
    """Whether a group's latest share change (`_shape_changes`) is a season that was over by the target's
    day a year before: the same weeks a year earlier (from `YEAR_DAYS` before the change's first
    occurrence to the target's day a year back) held `after` occurrences or more on the new share's side
    of the midway between it and the earlier share farthest from it, and the occurrences after the last of them, the
    first on or before the target's day a year back, ran `RETURN_RUN` on the old share's side. A change
    younger than a year that the previous year showed, and undid, is a season, not a new shape: after
    a beach season's low weekends the Saturday is read on its usual share, not re-baselined on theirs
    (within the season, until its last year's end, the re-baseline holds)."""
    f, value = key
    days = [int(cast(int, fv["day"])) for fv in feats]
    first_day, ago_day = days[change.first], target_day - YEAR_DAYS
    if ago_day >= first_day or not change.moves:
        return False  # a share held a year and more is the group's own
    members = [i for i, fv in enumerate(feats) if fv.get(f) == value and not special[i]
               and fv.get("period_end") not in ("quarter", "year")]
    latest = median(fit.resid[i] for i in members if i >= change.first)
    # (the share the season replaced: the earlier regime farthest from the latest, a season split in two
    # by the shape rule holds a regime of its own next to the latest)
    before = latest - max((move for _, _, move in change.moves), key=abs)
    mid, sign = (latest + before) / 2, 1 if latest > before else -1
    year_before = [i for i in members if first_day - YEAR_DAYS <= days[i] <= ago_day]
    new_side = [i for i in year_before if (fit.resid[i] - mid) * sign > 0]
    if len(new_side) < after:
        return False
    returned = [i for i in members if new_side[-1] < i < change.first][:RETURN_RUN]
    return (len(returned) == RETURN_RUN and days[returned[0]] <= ago_day
            and all((fit.resid[i] - mid) * sign < 0 for i in returned))


def _changed_once(fit: SeriesFit, feats: Sequence[Mapping[str, object]], used: Sequence[str], special: Sequence[bool],
                  p: ModelParams) -> dict[tuple[str, object], _ShapeChange]:
    """The weekday (business-day) groups whose share at the history's start was never seen again, read
    before a season's shape is: a Sunday opening begun in the history leaves its old Sundays a stretch
    of a weekly shape of their own a year before the target, which `_seasonal_shape` would expect
    again. The group's regimes are `_shape_changes`' (each split earned by `p.shape_z` sd and
    `SHAPE_SE` standard errors, the latest holding to the end); its leading regimes are an old share
    where every one of them stands `p.shape_z` sd or more from every later one's median, the latest's
    included, and within `p.shape_z` sd of each other (the old share may split in two of its own, a
    Christmas among its weeks; a season and the weeks after it are two shares), and no
    `RETURN_RUN` later occurrences running sit on the old share's side of the midway between it and
    the later ones' median (a season seen returns, to the shape before it or this year: a run of its
    weeks, where noise crosses the midway one week at a time). Only those leading regimes move, each
    to the latest; the later ones are left to the season's and the shape rule."""
    sd = MAD_SCALE * mad(fit.resid)
    out: dict[tuple[str, object], _ShapeChange] = {}
    for (f, value), change in _shape_changes(fit, feats, used, special, p.shape_after, p.shape_z).items():
        moves = [move for _, _, move in change.moves] + [0.0]  # (the latest regime: no move)
        # (the leading regimes one share: within `p.shape_z` sd of each other, a season and the weeks
        # after it are two)
        apart = [k for k in range(1, len(moves))
                 if min(abs(a - b) for a in moves[:k] for b in moves[k:]) >= p.shape_z * sd
                 and max(moves[:k]) - min(moves[:k]) < p.shape_z * sd]
        if not apart:
            continue
        old = change.moves[:apart[-1]]
        end = old[-1][1]
        members = [i for i, fv in enumerate(feats) if fv.get(f) == value and not special[i]
                   and fv.get("period_end") not in ("quarter", "year")]
        before = median(fit.resid[i] for i in members if i < end)
        later = [fit.resid[i] for i in members if i >= end]
        mid, sign = (before + median(later)) / 2, 1 if before > median(later) else -1
        old_side = [(r - mid) * sign > 0 for r in later]
        if any(all(old_side[j:j + RETURN_RUN]) for j in range(len(old_side) - RETURN_RUN + 1)):
            continue
        out[(f, value)] = _ShapeChange(old[-1][2], end, len(later), old)
    return out


def _weekday_medians(values: np.ndarray, half: int) -> tuple[np.ndarray, np.ndarray]:
    """For every day of `values` (one a day, NaN where none): each weekday's median within `half` days
    either side and how many it rests on, a column per weekday counted from the day's own (column 0)."""
    pad = np.full(half, np.nan)
    windows = np.lib.stride_tricks.sliding_window_view(np.concatenate([pad, values, pad]), 2 * half + 1)
    offsets = np.arange(-half, half + 1)
    medians, counts = np.full((len(values), 7), np.nan), np.zeros((len(values), 7), dtype=int)
    for k in range(7):
        block = windows[:, offsets % 7 == k]
        counts[:, k] = np.sum(~np.isnan(block), axis=1)
        seen = counts[:, k] > 0
        medians[seen, k] = np.nanmedian(block[seen], axis=1)
    return medians, counts


def _seasonal_shape(t: list[float], x: list[float], feats: list[dict[str, object]], used: Sequence[str], lag: int,
                    level_points: int, target_day: int, breaks: Collection[str] = ()) -> tuple[list[float], float] | None:
    """A weekly shape of a part of the year, earned from the history: (an offset for every point, the
    target's), log space, or None where nothing is earned (the forecast is then untouched).
    A day's stretch (its weekdays' ordinary days `SEASON_SHAPE_REACH` days either side) holds a shape
    of its own where its weekday medians stand out of the year's shape (the fit's residuals, centred on
    their mean: a shape moves days within the week, a level moves them all) at `SEASON_SHAPE_P`
    (chi-square over the weekdays seen), one of them by `SEASON_SHAPE_MIN` or more. Such a day's offset
    is its weekday's median over itself and the same weekday a week and two either side, off the
    week's (of five, the day's own side of a season's edge is the majority); the target's is the same
    stretch a year earlier (`YEAR_DAYS`), read the same way on the day a year before, where that
    stretch held one, and where the latest fortnight's days sit closer to their own year-ago offsets
    than to none (last year's season is this year's, or has not begun yet). The history's points move by their offsets,
    so the year's weekday shape, its spreads and the level are learned on one shape (a summer of
    weekend bookings read as the year's noise widened every Saturday's band to the ceiling). Where the
    latest stretch holds a shape that last year's same stretch does not explain, it is a new shape,
    the shape-change rule's (`_shape_changes`): nothing is earned.
    Read on a fit without holidays' neighbourhoods (a neighbourhood seen once, an August holiday's,
    learns the season's weekday shape as its own) and on the days that are no holiday, closure, rolled
    day, quarter's close, day of a declared break or its first days back (`breaks`, the calendar's: a school's
    break flattens its week to the light days' level, an effect the break's own group carries, and regional
    breaks move from year to year, so the same weeks a year back in a break say nothing of a school week now,
    nor the reverse), nor an earned neighbourhood's day of a holiday: a feast's weekends off among its
    rush's weekdays are the feast's, and a feast that moves with the moon is weeks away from them a year on
    (a lunar new year's break read as a weekly shape of late January's weeks put a Wednesday at x1.56)."""
    fit = SeriesFit(t, x, feats, [f for f in used if f not in ("near_holiday", "near_period_end")], lag, level_points)
    sd = MAD_SCALE * mad(fit.resid)
    days = [int(cast(int, fv["day"])) for fv in feats]
    if sd <= 0 or not days or target_day - days[0] <= YEAR_DAYS:
        return None
    first = days[0]
    values = np.full(target_day - first, np.nan)
    for i, (d, fv) in enumerate(zip(days, feats)):
        if all(fv.get(f, "") in NONE for f in ("holiday", "near_holiday", "after_gap", "rolled_day")) \
                and fv.get("period_end") not in ("quarter", "year") and not _of_a_break(str(fv.get("season", "")), breaks):
            values[d - first] = fit.resid[i]
    wide, wide_n = _weekday_medians(values, SEASON_SHAPE_REACH)
    seen = wide_n >= 2
    weights = np.where(seen, wide_n, 0)
    centre = np.nansum(np.where(seen, wide * weights, 0.0), axis=1) / np.maximum(weights.sum(axis=1), 1)
    # each weekday's medians judged by its own noise (a Sunday of four rows moves by half by counting alone)
    weekday = (np.arange(len(values)) + date.fromordinal(first).weekday()) % 7
    noise = np.array([max(MAD_SCALE * mad([v for v in values[weekday == w] if not np.isnan(v)]), sd) for w in range(7)])
    column_noise = noise[(weekday[:, None] + np.arange(7)[None, :]) % 7]
    stat = np.nansum(np.where(seen, weights * (wide - centre[:, None]) ** 2 / (1.57 * column_noise ** 2), 0.0), axis=1)
    dof = seen.sum(axis=1) - 1
    spread_out = np.nanmax(np.where(seen, np.abs(wide - centre[:, None]), 0.0), axis=1)
    shaped = (dof >= 2) & (chi2.sf(stat, np.maximum(dof, 1)) < SEASON_SHAPE_P) & (spread_out >= SEASON_SHAPE_MIN)
    if not shaped.any():
        return None
    half = 7 * SEASON_SHAPE_WEEKS
    # the shape outside the seasons, against the fit's (which holds the seasons' days too): a season's
    # offset is counted from it, so its days move to the shape of the rest of the year
    rest = [values[(weekday == w) & ~shaped & ~np.isnan(values)] for w in range(7)]
    rest_shape = np.array([float(np.median(r)) if len(r) >= 3 else np.nan for r in rest])
    rest_shape = np.nan_to_num(rest_shape - np.nanmean(rest_shape)) if not np.isnan(rest_shape).all() else np.zeros(7)

    def offset(medians: np.ndarray, counts: np.ndarray, j: int) -> float | None:
        present = counts[j] > 0
        if counts[j, 0] < 2 or present.sum() < 5:
            return None
        return float(medians[j, 0] - np.mean(medians[j, present]) - rest_shape[weekday[j]])

    own, own_n = _weekday_medians(values, half)

    def year_ago(day: int) -> float | None:
        j = day - YEAR_DAYS - first
        return offset(own, own_n, j) if 0 <= j < len(values) and shaped[j] else None

    last = len(values) - 1
    # the latest fortnight's days that last year's stretch moves by more than the noise: nearer that move
    # than none (their absolute errors summed, each way around the fortnight's own level: a shape moves
    # days within the week) where the latest stretch holds a shape itself, on a week of them at least;
    # elsewhere last year's is refuted only by a week of them standing further from it than from none
    # (a season's first week is as much last year's as not)
    pairs = [(fit.resid[i], year_ago(d) or 0.0) for i, d in enumerate(days)
             if d - first > last - 2 * 7 and not np.isnan(values[d - first])]
    level_with = median([r - y for r, y in pairs]) if pairs else 0.0
    level_without = median([r for r, _ in pairs]) if pairs else 0.0
    moved = [(r, y) for r, y in pairs if abs(y) > SEASON_SHAPE_MOVED * sd]
    nearer = sum(abs(r - level_without) - abs(r - y - level_with) for r, y in moved)
    judged = len(moved) >= SEASON_SHAPE_AGREE
    if shaped[last] and not (judged and nearer > 0):
        return None
    agree = not judged or nearer >= 0
    out = []
    for d in days:
        j = d - first
        # (the latest days' own stretch is one-sided: last year's two-sided one says more of them)
        o = year_ago(d) if agree and j > last - SEASON_SHAPE_REACH else None
        if o is None and shaped[j]:
            o = offset(own, own_n, j)
        out.append(o or 0.0)
    target = year_ago(target_day) if agree else None
    if not any(out) and not target:
        return None
    return out, target or 0.0


def _of_a_break(season: str, breaks: Collection[str]) -> bool:
    """Whether a day's season is a declared break's own days, its light days (`_break_light_days`) or its first
    days back (`break_day_back`)."""
    return (season.removesuffix(BREAK_LIGHT) in breaks
            or (season.endswith(" back)") and season.rsplit(" (day ", 1)[0] in breaks))


def _break_light_days(x: Sequence[float], feats: Sequence[dict[str, object]], target_feats: dict[str, object],
                      cal: HolidayCalendar, hard_ratio: float) -> None:
    """Relabel a declared break's days on the series' light weekdays as a part of the break of their own
    (BREAK_LIGHT), in place, the target's too. A break lowers the days the series keeps open (a school's weekdays in
    its holidays at x0.06); a weekday it already keeps light (a school's weekend at x0.04) stays about as it was.
    One effect for both is learned on the break's weekdays, most of its days: put on a weekend it reads a day lower
    than any the series shows (x0.04 of x0.06), and a holiday's neighbourhood seen once on a weekend in a break
    learns the difference as its own effect. A light weekday: its median (log) over the days with no holiday,
    season or closure stands a hard ratio or more below the heaviest weekday's (a closure's distance, not a
    Friday's treat day); read from the values themselves, before any fit."""
    if not cal.breaks:
        return
    by_day: dict[object, list[float]] = defaultdict(list)
    for v, fv in zip(x, feats):
        if all(fv.get(f, "") in NONE for f in ("holiday", "season", "after_gap")):
            by_day[fv.get("weekday")].append(v)
    medians = {d: median(vs) for d, vs in by_day.items() if len(vs) >= 3}
    if len(medians) < 2:
        return
    light_below = max(medians.values()) - math.log(hard_ratio)
    for fv in (*feats, target_feats):
        season = fv.get("season", "")
        if season in cal.breaks and medians.get(fv.get("weekday"), math.inf) < light_below:
            fv["season"] = f"{season}{BREAK_LIGHT}"


def _moved_to_latest_shape(x: Sequence[float], feats: Sequence[Mapping[str, object]],
                           changes: Mapping[tuple[str, object], _ShapeChange]) -> list[float]:
    """The series with each changed group's earlier regimes moved to its latest share."""
    return [v + sum(move for (f, value), change in changes.items() if feats[i][f] == value
                    for lo, hi, move in change.moves if lo <= i < hi)
            for i, v in enumerate(x)]


def _marked_shape(fit: SeriesFit, t: list[float], x: list[float], feats: list[dict[str, object]], used: list[str],
                  special: Sequence[bool], marked: int, lag: int, level_points: int,
                  p: ModelParams) -> tuple[list[float], SeriesFit, dict[tuple[str, object], _ShapeChange]]:
    """An accepted shape change at `marked`: the history before it is first made one regime (a share
    that changed earlier, as `_shape_changes` finds it, on the points before the mark only), then each
    weekday (business-day) group's points before the mark are moved to its occurrences' since (the
    median of their residuals against the median of the earlier ones). A group with no ordinary
    occurrence since has an unknown share: count 0, nothing moved. Returns the moved series, its fit
    and the changes (no moves: the group has no point before the mark)."""
    before = [s or i >= marked for i, s in enumerate(special)]
    earlier = _shape_changes(fit, feats, used, before, p.shape_after, p.shape_z)
    if earlier:
        x = _moved_to_latest_shape(x, feats, earlier)
        fit = SeriesFit(t, x, feats, used, lag, level_points)
    changes: dict[tuple[str, object], _ShapeChange] = {}
    for f in SHAPE_GROUPS:
        if f not in used:
            continue
        old: dict[object, list[float]] = defaultdict(list)
        new: dict[object, list[float]] = defaultdict(list)
        for i, fv in enumerate(feats):
            if not special[i] and fv.get("period_end") not in ("quarter", "year"):
                (new if i >= marked else old)[fv[f]].append(fit.resid[i])
        for value in {*old, *new}:
            if not old[value]:
                changes[(f, value)] = _ShapeChange(0.0, marked, len(new[value]), ())  # a share it never had
                continue
            delta = median(new[value]) - median(old[value]) if new[value] else 0.0
            changes[(f, value)] = _ShapeChange(delta, marked, len(new[value]), ((0, marked, delta),))
    if changes:
        x = _moved_to_latest_shape(x, feats, changes)
        fit = SeriesFit(t, x, feats, used, lag, level_points)
    return x, fit, changes


def _regime_splits(resid: Sequence[float], lo: int, hi: int, after: int, min_move: float,
                   min_stat: float) -> list[int]:
    """Where resid[lo:hi] changed for good (indices, ascending): the split whose medians differ by
    the most standard errors, if it passes, then the same within each side (binary segmentation)."""
    best: tuple[float, int, float, float] | None = None
    for j in range(lo + 3, hi - after + 1):  # at least three occurrences before, `after` since
        pre, post = median(resid[lo:j]), median(resid[j:hi])
        stat = abs(post - pre) / math.sqrt(1 / (j - lo) + 1 / (hi - j))
        if best is None or stat > best[0]:
            best = (stat, j, pre, post)
    if best is None:
        return []
    stat, j, pre, post = best
    if not (abs(post - pre) >= min_move and stat >= min_stat):
        return []
    return [*_regime_splits(resid, lo, j, after, min_move, min_stat), j,
            *_regime_splits(resid, j, hi, after, min_move, min_stat)]


def _holiday_as_level(fit: SeriesFit, target_feats: Mapping[str, object], named: Sequence[str],
                      target_named: str = "") -> tuple[float, float] | None:
    """Where the series closes on its holidays, the move (log space) from the target holiday's ratio on
    its day to the holiday's level: the median of its past occasions' levels (each occasion's ratio plus
    its day's reading) less the target day's reading and the holiday's effect; and the slope that earned
    it. A day's reading is the fit's effect for it without the holiday: its weekday's, and a school
    break's or season's it fell in (a Carnival inside last year's school break is a holiday on a break
    day, not on a Monday). The history says so when its holidays (every one, pooled), each read as a
    ratio on its own day, fall with their day's reading: a least-squares slope of the ratios on the
    readings HOLIDAY_CLOSE_Z standard errors below zero and below HOLIDAY_CLOSE_SLOPE, from at least
    HOLIDAY_CLOSE_MIN_LIGHT holidays on a light day. None elsewhere (no weekday or holiday group, a target
    no holiday or one never seen, holidays that celebrate on top of the weekday or too few on light days:
    the ratio is kept). `named` is each point's holiday as the calendar named it: one whose effect was
    within the noise (a holiday on a Saturday of a closed business is a Saturday) is an ordinary day of the
    fit, its ratio its residual. `target_named`, the target's holiday as the calendar named it: one whose
    every past occasion fell on a day unlike the target's (`_seen_only_unlike`: National Day on a laundromat's
    busy Saturday, observed on the Monday) is read at the level of the holidays seen on days like the
    target's, plus its own event where it has one (`_days_like_show_holidays`); one whose every past occasion
    fell on a light day, on an open day now, at the level of the holidays seen on open days, whether the fit
    dropped it (no effect seen) or not (see `_seen_only_closed`); one the fit dropped, seen on days like the
    target's, at its level there. Holidays with an event of their own are left out of the slope
    (`_without_own_events`): a feast's exodus would hide how the calendar's other days off meet the weekday."""
    if "weekday" not in fit.used or "holiday" not in fit.used:
        return None
    name = str(target_feats.get("holiday", ""))
    holidays = fit.effects["holiday"]
    past = [(i, v) for i, v in enumerate(named) if v not in NONE]
    if len(past) < HOLIDAY_CLOSE_MIN_LIGHT + 2:
        return None
    ratio = np.array([fit.resid[i] + holidays.get(v, 0.0) for i, v in past])
    reading = np.array([_day_reading(fit, fit.feats[i]) for i, _ in past])
    target_reading = _day_reading(fit, target_feats)
    light_below = float(reading.max()) - HOLIDAY_CLOSE_Z * _noise_sd(fit)
    if int(np.sum(reading < light_below)) < HOLIDAY_CLOSE_MIN_LIGHT:
        return None
    sd = _noise_sd(fit)
    own_readings = [float(r) for (_, v), r in zip(past, reading) if v == target_named]
    unlike = _seen_only_unlike(target_named, own_readings, target_reading, sd)
    unseen_open = not unlike and target_reading >= light_below and _seen_only_closed(target_named, own_readings,
                                                                                     light_below)
    # a holiday whose effect the fit dropped (its ratios on a Monday and a Sunday cancel out within the noise),
    # seen on days like the target's: at its level on those days, where the history's holidays are levels
    own_like = [float(r + w) for (_, v), r, w in zip(past, ratio, reading)
                if v == target_named and abs(w - target_reading) <= HOLIDAY_CLOSE_Z * sd] if name in NONE else []
    if not (unseen_open or unlike or own_like) and (name in NONE or not fit.members["holiday"].get(name)):
        return None
    pooled = _without_own_events(ratio, reading, sd)
    if int(np.sum(pooled)) < HOLIDAY_CLOSE_MIN_LIGHT + 2 or int(np.sum(reading[pooled] < light_below)) < HOLIDAY_CLOSE_MIN_LIGHT:
        return None
    slope, sigma, sxx = _holiday_slope(ratio[pooled], reading[pooled], sd)
    if slope > HOLIDAY_CLOSE_SLOPE or slope > -HOLIDAY_CLOSE_Z * sigma / math.sqrt(sxx):
        return None
    if not pooled.all() and slope < HOLIDAY_LEVEL_SLOPE_MIN:
        return None
    if unlike:
        # seen only on days unlike the target's (a holiday on a Saturday last year, on a Monday now): at the
        # level of the holidays seen on days like the target's (its past day showed that day's level, not the
        # holiday's); a holiday with an event of its own (every occasion left out of the slope) moved by what
        # its occasions ran beyond the holidays on days like theirs, where such days show a holiday at all
        # (Raya's cities emptied on a Monday empty them on a Saturday too; a closed Sunday's few rows show
        # nothing of a holiday but noise)
        others = [(float(r + w), float(w), float(r)) for (_, v), r, w, keep in zip(past, ratio, reading, pooled)
                  if keep and v != target_named]
        level = _level_of_days_like(others, target_reading, sd)
        if level is None:
            own_level = _own_level_on_lighter_day(past, ratio, reading, target_named, target_reading, sd)
            return None if own_level is None else (own_level - holidays.get(name, 0.0), slope)
        own = [(float(r + w), float(w), bool(keep)) for (_, v), r, w, keep in zip(past, ratio, reading, pooled)
               if v == target_named]
        beyond = [lv - like for lv, w, _ in own
                  if _days_like_show_holidays(others, w, sd) and (like := _level_of_days_like(others, w, sd)) is not None]
        event = float(median(beyond)) if beyond and not any(keep for _, _, keep in own) else 0.0
        return level + event - target_reading - holidays.get(name, 0.0), slope
    if own_like:
        return float(median(own_like)) - target_reading, slope
    if not unseen_open:
        return _holiday_level_move(fit, target_feats, named), slope
    # never seen on an open day: at the level of the holidays that were (a light day's occasion shows the
    # day's own level, a school break's, not the holiday's)
    levels = [r + w for r, w in zip(ratio, reading) if w >= light_below]
    return float(median(levels)) - target_reading - holidays.get(name, 0.0), slope


def _own_level_on_lighter_day(past: Sequence[tuple[int, str]], ratio: np.ndarray, reading: np.ndarray, name: str,
                              target_reading: float, sd: float) -> float | None:
    """A holiday seen only on days unlike the target's, on a day lighter than any day a holiday of the history fell
    on (a business shut on Sundays, National Day on a Sunday this year): no holiday says how such a day meets one,
    and the history's line (`_holiday_as_level`) says a holiday is a level. Its own occasions' level less the
    target day's reading (the move from the day's reading to it, log space), where that level is not above the
    day's reading by HOLIDAY_CLOSE_Z noise sds or more (a holiday does not open a closed day; nor does it close it
    again on top: x0.1 put on a Sunday's x0.12 read the day 22x); else None (the ratio is kept)."""
    own = [float(r + w) for (_, v), r, w in zip(past, ratio, reading) if v == name]
    if not own or target_reading >= float(reading.min()) - HOLIDAY_CLOSE_Z * sd:
        return None
    level = float(median(own))
    return level - target_reading if level < target_reading + HOLIDAY_CLOSE_Z * sd else None


def _without_own_events(ratio: np.ndarray, reading: np.ndarray, sd: float) -> np.ndarray:
    """Which holidays draw the line of ratio on day reading (`_holiday_as_level`): every one but those standing
    HOLIDAY_OWN_EVENT_Z robust sds (MAD_SCALE times the median distance, no less than the noise `sd`) off the
    line the others draw, found again over HOLIDAY_OWN_EVENT_ROUNDS rounds. The first line is a median one
    (`_apart_pairs_slope`): a least-squares line through four feasts' days at half a working day's would lean to
    them and leave none out. A holiday with an event of its own (Raya's cities emptied, the Lunar New Year's days
    without washing) keeps its own effect in the fit; in the slope it would hide how the calendar's other days
    off meet the weekday (or fake it, on one weekend day)."""
    keep = np.ones(len(ratio), dtype=bool)
    slope = _apart_pairs_slope(ratio, reading, sd)
    centre = float(np.median(ratio - slope * reading))
    for _ in range(HOLIDAY_OWN_EVENT_ROUNDS):
        off = ratio - centre - slope * reading
        spread = max(sd, MAD_SCALE * mad([float(v) for v in off[keep]]))
        now = np.abs(off - float(np.median(off[keep]))) <= HOLIDAY_OWN_EVENT_Z * spread
        if (now == keep).all() or int(np.sum(now)) < 3 or float(np.ptp(reading[now])) == 0.0:
            break
        keep = now
        slope = _holiday_slope(ratio[keep], reading[keep], sd)[0]
        centre = float(np.mean(ratio[keep])) - slope * float(np.mean(reading[keep]))
    return keep


def _apart_pairs_slope(ratio: np.ndarray, reading: np.ndarray, sd: float) -> float:
    """The median slope over every pair of holidays whose days read HOLIDAY_CLOSE_Z noise sds or more apart (a
    Theil-Sen line; two holidays on like days give a slope of noise alone); 0 where no pair does."""
    slopes = [float((ratio[j] - ratio[i]) / (reading[j] - reading[i]))
              for i, j in itertools.combinations(range(len(ratio)), 2)
              if abs(reading[j] - reading[i]) >= HOLIDAY_CLOSE_Z * sd]
    return float(median(slopes)) if slopes else 0.0


def _holiday_slope(ratio: np.ndarray, reading: np.ndarray, sd: float) -> tuple[float, float, float]:
    """The least-squares slope of holidays' ratios on their days' readings, the residuals' sd (no less than the
    noise `sd`: they hold the holidays' own differences, so a calendar of unlike holidays earns a slope less
    readily) and the readings' sum of squares."""
    sxx = float(np.sum((reading - reading.mean()) ** 2))
    if sxx == 0.0 or len(ratio) < 3:
        return 0.0, sd, 1.0
    slope = float(np.sum((reading - reading.mean()) * (ratio - ratio.mean()))) / sxx
    resid = ratio - ratio.mean() - slope * (reading - reading.mean())
    return slope, max(sd, math.sqrt(float(np.sum(resid ** 2)) / (len(ratio) - 2))), sxx


def _level_of_days_like(holidays: Sequence[tuple[float, float, float]], reading: float, sd: float) -> float | None:
    """The median level (ratio plus day reading, log space) of the holidays whose day reads within
    HOLIDAY_CLOSE_Z noise sds of `reading` (`holidays`: each one's level, day reading and ratio); None where
    none does."""
    like = [level for level, w, _ in holidays if abs(w - reading) <= HOLIDAY_CLOSE_Z * sd]
    return float(median(like)) if like else None


def _days_like_show_holidays(holidays: Sequence[tuple[float, float, float]], reading: float, sd: float) -> bool:
    """Whether the holidays on days reading like `reading` (within HOLIDAY_CLOSE_Z noise sds) ran apart from
    their day: their median ratio HOLIDAY_CLOSE_Z noise sds or more from none. A closed Sunday shows a holiday
    as nothing (the day is closed either way), as a laundromat's busy Saturday does (a day at home either way):
    a holiday's occasion on such a day is no reading of its own event."""
    ratios = [r for _, w, r in holidays if abs(w - reading) <= HOLIDAY_CLOSE_Z * sd]
    return bool(ratios) and abs(float(median(ratios))) >= HOLIDAY_CLOSE_Z * sd


def _seen_only_unlike(name: str, readings: Sequence[float], target_reading: float, sd: float) -> bool:
    """Whether a holiday was seen only on days unlike the target's: each past occasion's reading without the
    holiday (`_day_reading`) HOLIDAY_CLOSE_Z noise sds or more from the target day's. National Day on a
    Saturday of a series busiest on Saturdays showed a Saturday (within the noise of its own day: no effect);
    observed on the Monday after, it is a day off on a working day, which the series' other holidays on such
    days say how to read (see `_holiday_as_level`)."""
    return (bool(name) and name not in NONE and bool(readings)
            and all(abs(r - target_reading) > HOLIDAY_CLOSE_Z * sd for r in readings))


def _holiday_level_move(fit: SeriesFit, target_feats: Mapping[str, object], named: Sequence[str]) -> float:
    """The move (log space) from the target holiday's ratio on its day to the holiday's level: the median of
    its past occasions' levels (each occasion's ratio plus its day's reading without the holiday,
    `_day_reading`) less the target's day reading and the holiday's effect. One reading for the closing rule
    (`_holiday_as_level`) and the closed-once prior (`_closed_once`)."""
    name = target_feats.get("holiday", "")
    holidays = fit.effects["holiday"]
    levels = [fit.resid[i] + holidays.get(v, 0.0) + _day_reading(fit, fit.feats[i])
              for i, v in enumerate(named) if v == name]
    return float(median(levels)) - _day_reading(fit, target_feats) - holidays.get(str(name), 0.0)


def _closed_once(fit: SeriesFit, target_feats: Mapping[str, object], named: Sequence[str]) -> float | None:
    """A closed day cannot close twice: where a holiday takes its days to the series' closed level (its
    level no higher than the lightest weekday's, HOLIDAY_CLOSE_Z noise sds), its ratio put on a light
    weekday (a Saturday of special reads at x0.06) would forecast a day lower than any the series shows;
    the day is read at the holiday's level instead (the move, log space, as `_holiday_as_level`'s). A prior
    for where the history cannot say (`_holiday_as_level` needs HOLIDAY_CLOSE_MIN_LIGHT holidays on light
    days): None where it holds that many, where the one it holds sits nearer the ratio than the level, on a
    weekday that is not light, or for a holiday never seen or not closing."""
    if "weekday" not in fit.used or "holiday" not in fit.used:
        return None
    name = target_feats.get("holiday", "")
    if name in NONE or not fit.members["holiday"].get(name):
        return None
    weekdays, holidays = fit.effects["weekday"], fit.effects["holiday"]
    sd = _noise_sd(fit)
    heaviest, lightest = max(weekdays.values()), min(weekdays.values())
    day = weekdays.get(target_feats.get("weekday"), 0.0)
    if day >= heaviest - HOLIDAY_CLOSE_Z * sd:
        return None  # a working day: the ratio was learned on days like it
    past = [(i, v) for i, v in enumerate(named) if v not in NONE]
    shape = {i: weekdays.get(fit.feats[i].get("weekday"), 0.0) for i, _ in past}
    ratio = {i: fit.resid[i] + holidays.get(v, 0.0) for i, v in past}
    light = [i for i, _ in past if shape[i] < heaviest - HOLIDAY_CLOSE_Z * sd]
    heavy = [i for i, _ in past if i not in light]
    if len(light) >= HOLIDAY_CLOSE_MIN_LIGHT or not heavy:
        return None  # the history's own light holidays say which reading holds (`_holiday_as_level`)
    level, on_top = median([ratio[i] + shape[i] for i in heavy]), median([ratio[i] for i in heavy])
    if any(abs(ratio[i] + shape[i] - level) > abs(ratio[i] - on_top) for i in light):
        return None  # the one holiday seen on a light day kept the ratio on top of it
    move = _holiday_level_move(fit, target_feats, named)
    if day + holidays.get(name, 0.0) + move > lightest + HOLIDAY_CLOSE_Z * sd or move < HOLIDAY_CLOSE_Z * sd:
        return None  # the holiday does not close the series, or its ratio already reads it at its level
    return move


def _day_reading(fit: SeriesFit, fv: Mapping[str, object]) -> float:
    """A day's reading by the fit without its holiday: its weekday's effect, and a break's, season's or
    month's it falls in (what the day would be, were it no holiday)."""
    return fit.effect_for({**fv, "holiday": "", "near_holiday": ""})[0]


def _seen_only_closed(name: str, readings: Sequence[float], light_below: float) -> bool:
    """Whether a holiday was seen only on light days: each past occasion's reading without the holiday
    (`readings`, see `_day_reading`) below `light_below` (HOLIDAY_CLOSE_Z noise sds under the heaviest
    holiday's day, as `_holiday_as_level` counts light days). A business closed on Sundays shows nothing
    of a holiday on a Sunday, so its one past occasion cannot say what the holiday does to a Monday
    (Argentina's 24 March on a Sunday in 2024, a Monday in 2025; a Carnival inside last year's school
    break): the occasion shows the light day's level, or noise on it (a Sunday's few rows). Such a
    holiday is read as the business reads its holidays: where it closes on them, at their level."""
    return bool(name) and name not in NONE and bool(readings) and all(r < light_below for r in readings)


def _observed_as_base(name: str, fit: SeriesFit) -> str:
    """A holiday never seen whose name is a seen holiday's with " (observed)" (the `holidays` package's
    day off for a holiday on a weekend: "Anzac Day (observed)" on the Monday, some years only) compares
    with that holiday's past, as does a week holding both ("Independence Day (observed) + Independence
    Day"). Only where the base name (or each part of it, see `_combined_holiday`) was seen: otherwise
    the name is kept, a holiday never seen."""
    members = fit.members["holiday"]
    if not name or OBSERVED not in name or members.get(name):
        return name
    join = HOLIDAY_JOIN.search(name)
    parts = list(dict.fromkeys(part.replace(OBSERVED, "") for part in holiday_parts(name)))
    based = join.group(0).join(parts) if join else parts[0]
    return based if members.get(based) or all(members.get(part) for part in parts) else name


def _break_of(part: str) -> str:
    """The declared break a week's label names, without its position ("Summer break (second week back)"
    is "Summer break")."""
    for suffix in (BREAK_FIRST, *BREAK_BACKS):
        part = part.removesuffix(suffix)
    return part


def _combined_holiday(name: str, fit: SeriesFit, drop: set[tuple[str, object]], breaks: Sequence[str] = ()) -> str:
    """A target holding two holidays that never fell together before ("Dussehra; Mahatma Gandhi's
    Birthday" in 2025) compares with each part's own past: it takes the part whose past effect is
    the strongest (two closures on one day are one closure, not the product of two); parts whose
    effects were within the noise make it an ordinary day. A part never seen leaves the whole a
    holiday never seen (expected, judged by the hard rules only), as do two declared breaks that
    never overlapped before (two school regions away at once: their effects add up, neither alone says it)."""
    if not name or fit.members["holiday"].get(name):
        return name
    parts = holiday_parts(name)
    if len(parts) < 2 or not all(fit.members["holiday"].get(part) for part in parts):
        return name
    if sum(_break_of(part) in breaks for part in parts) > 1:
        return name
    distinct = [part for part in parts if ("holiday", part) not in drop]
    if not distinct:
        return ""
    return max(distinct, key=lambda part: abs(fit.effects["holiday"].get(part, 0.0)))


def _one_ramadan(fit: SeriesFit, feats: list[dict[str, object]], target_feats: dict[str, object]) -> bool:
    """Ramadan's last ten days are a value of their own only where the history shows them apart
    from its first twenty: their effects (each a median of its days) differ by more than
    DISTINCT_Z standard errors of that difference, counted in days (a question about the shape of
    the occasions seen, each of which holds both parts). Otherwise the two are one season, merged in
    place (returns True: refit)."""
    late = [i for i, fv in enumerate(feats) if fv.get("season") == RAMADAN_LATE]
    early = [i for i, fv in enumerate(feats) if fv.get("season") == RAMADAN]
    if late and early:
        sd = _noise_sd(fit)
        se = _median_se(sd, len(late), len(early))
        if abs(fit.effects["season"][RAMADAN_LATE] - fit.effects["season"][RAMADAN]) > DISTINCT_Z["season"] * se:
            return False
    elif not late:
        if early and target_feats.get("season") == RAMADAN_LATE:
            target_feats["season"] = RAMADAN  # the first last ten days: like the days of it seen so far
        return False
    for fv in [*feats, target_feats]:
        if fv.get("season") == RAMADAN_LATE:
            fv["season"] = RAMADAN
    return True


def _festival_seen_once(fit: SeriesFit, feats: Sequence[Mapping[str, object]], target_feats: Mapping[str, object],
                        cal: HolidayCalendar) -> float:
    """The effect of the target's day of an earned festival (cal.festivals) where the history holds that day
    on fewer than FESTIVAL_CENTRE_OCCASIONS past occasions (but one at least: never seen is the unseen
    season's wide band), which the caller takes off the forecast's centre; else 0. One occasion says the
    festival's days CAN move the series, and which way, not by how much nor that they will: what earned it
    may have been that year's own event in its weeks. The history's days keep the label (the ordinary days'
    effects are not read off them), and the target its group, band width and name."""
    season, at = str(target_feats.get("season") or ""), target_feats.get("season_at")
    if "season" not in fit.used or season.rsplit(" ", 1)[0] not in cal.festivals:
        return 0.0
    occasions = {fv.get("season_at") for fv in feats if fv.get("season") == season and fv.get("season_at") != at}
    if not occasions or len(occasions) >= FESTIVAL_CENTRE_OCCASIONS:
        return 0.0
    return fit.effect_for(target_feats)[0] - fit.effect_for({**target_feats, "season": ""})[0]


def _level_window(j: int, level_points: int, special: Sequence[bool]) -> list[int]:
    """The level window before point j, as the target's level is read: its ordinary days where they are half."""
    window = list(range(max(0, j - level_points), j))
    plain = [i for i in window if not special[i]]
    return plain if len(plain) * 2 >= len(window) and len(plain) >= 3 else window


def _holiday_bases(name: str) -> set[str]:
    """The holidays a calendar day's name holds, each without " (observed)"."""
    return {part.replace(OBSERVED, "") for part in holiday_parts(name)}


def _kept_on_a_weekday(day: date, cal: HolidayCalendar) -> bool:
    """The holiday on `day` falls within WEEKDAY_RULE_DAYS of the same date the next year, under its name or
    its " (observed)" one: a holiday a weekday rule keeps (Colombia's and Japan's Monday holidays, a weekend's
    day off observed on the Monday), not a moving feast (Easter, the lunar new year and the Islamic feasts
    move eight days or more between years). Its days and their neighbourhoods carry their own effects, and
    the same dates a year back leave them out (_same_dates_a_year_back): its move says nothing of the
    weeks around it."""
    bases = _holiday_bases(cal.name(day))
    if (day.month, day.day) == (2, 29) or not bases:
        return False
    then = day.replace(year=day.year + 1)
    return any(bases & _holiday_bases(name) for k in range(-WEEKDAY_RULE_DAYS, WEEKDAY_RULE_DAYS + 1)
               if (name := cal.name(then + timedelta(days=k))))


def _same_dates_a_year_back(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], target: datetime,
                            cal: HolidayCalendar, level_points: int) -> tuple[float, int] | None:
    """How far the level fell short a year back on the target's dates (the same Gregorian dates: the
    YEAR_BACK_DAYS days of the target's kind, working or not, nearest its anniversary within YEAR_BACK_REACH):
    each day against the level window before it, as the target's level is read. Their median and how many,
    where it is above the level by YEAR_BACK_Z standard errors of the series' noise; else None. Seen once, a
    run above the level on fixed dates (a fill before a fee rises on 1 January) says those dates CAN run high,
    not by how much this year nor that they will: the caller widens the upper side, as _festival_seen_once
    does, and never moves the centre. Never the lower side: a fall a year back on those dates (the days after
    a yearly sale, a lull after a fill) is what the level's own year-back readings move it by (_event_ends,
    _same_offset_error) where it recurs, and a drop on such a day must still fail. Read only where the dates
    compare: the target no holiday, none of the days a holiday or in a season of the calendar (Ramadan, an
    earned festival's weeks, a close), and every holiday within FESTIVAL_DAYS_BEFORE of them on the same date
    this year (a moving feast's weeks a year back are another year's weeks)."""
    reading = _year_back_reading(fit, pts, special, target.date(), cal, level_points)
    if reading is None or reading[0] <= YEAR_BACK_Z * _median_se(_noise_sd(fit), reading[1]):
        return None
    return reading


def _place_a_year_back(day: date, position: int) -> date:
    """The same weekday as `day` at `position` in the same month a year earlier (`month_positions`)."""
    year = day.year - 1
    first = date(year, day.month, 1)
    nth = first + timedelta(days=(day.weekday() - first.weekday()) % WEEK_DAYS + WEEK_DAYS * (max(position, 1) - 1))
    if position > 0:
        return nth
    last = date(year, day.month, calendar.monthrange(year, day.month)[1])
    return last - timedelta(days=(last.weekday() - day.weekday()) % WEEK_DAYS)


def _same_place_a_year_back(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], target: datetime,
                            cal: HolidayCalendar, level_points: int) -> float | None:
    """How far the day at the target's place in the month a year back (the same weekday, the same place, the same
    month: the third Saturday of June) stood above the level, where it stood alone: PLACE_BACK_Z noise sds above
    the level window before it and above its own weekday the weeks either side. A yearly event dated so in no
    calendar (a museum night, a city's marathon Sunday) falls on another date each year, so the same dates a year
    back (`_same_dates_a_year_back`, three days' median) never hold it; seen once, it says the day CAN run that
    high, not that it will: the caller widens the upper side only (a drop on the day still fails). None where the
    target is a holiday or the day a year back a calendar day (its effect is its own group's), and on a weekday
    kept closed-like (`_light_weekdays`: a trading Sunday under a Sunday ban is an open occasion, a second state
    `_open_occasions` reads with its own band, where a drop still fails)."""
    day = target.date()
    if cal.name(day) or day.weekday() in _light_weekdays(pts):
        return None
    index = {q.at.date(): i for i, q in enumerate(pts)}
    adj = np.asarray(fit.e) - fit.slope * np.asarray(fit.t)
    bar = PLACE_BACK_Z * _noise_sd(fit)
    readings = []
    for position in month_positions(day):
        i = index.get(_place_a_year_back(day, position))
        # (a calendar day as the fit has it: a group `_indistinct` dropped is an ordinary day again)
        if i is None or i < level_points or _calendar_days([fit.feats[i]])[0]:
            continue
        weeks = [j for k in (-1, 1) if (j := index.get(pts[i].at.date() + timedelta(days=k * WEEK_DAYS))) is not None]
        off = _off_level(adj, i, level_points, special)
        if weeks and off > bar and all(adj[i] - adj[j] > bar for j in weeks):
            readings.append(off)
    return max(readings, default=None)


def _year_back_reading(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], day: date,
                       cal: HolidayCalendar, level_points: int) -> tuple[float, int] | None:
    """The median error the level made a year back on `day`'s dates, either side, and how many days it rests
    on (see _same_dates_a_year_back, which reads it); None where the dates do not compare."""
    if cal.name(day) or (day.month, day.day) == (2, 29):
        return None
    back = day.replace(year=day.year - 1)
    for k in range(-FESTIVAL_DAYS_BEFORE - YEAR_BACK_REACH, FESTIVAL_DAYS_BEFORE + YEAR_BACK_REACH + 1):
        d = back + timedelta(days=k)
        if cal.name(d) and ((d.month, d.day) == (2, 29) or cal.name(d.replace(year=d.year + 1)) != cal.name(d)) \
                and not _kept_on_a_weekday(d, cal):
            return None
    index = {q.at.date(): i for i, q in enumerate(pts)}
    working = cal.is_business_day(day)
    # (the days nearest the anniversary first; a day the calendar names, a holiday's neighbourhood or a season,
    # carries an effect of its own fitted on that occasion: no evidence either way)
    span = [i for d in sorted((back + timedelta(days=k) for k in range(-YEAR_BACK_REACH, YEAR_BACK_REACH + 1)),
                              key=lambda d: abs((d - back).days))
            if (i := index.get(d)) is not None and i >= level_points and _plain_day(fit, i, d, cal, working)]
    if len(span) < YEAR_BACK_DAYS:
        return None
    span = span[:YEAR_BACK_DAYS]
    adj = np.asarray(fit.e) - fit.slope * np.asarray(fit.t)  # (the trend taken out: readings at different points compare)
    return median(_off_level(adj, i, level_points, special) for i in span), len(span)


def _plain_day(fit: SeriesFit, i: int, day: date, cal: HolidayCalendar, working: bool) -> bool:
    """Point i (on `day`) is of the kind asked (working or not) and carries no effect of its own the calendar
    fitted (a holiday, its neighbourhood, a season)."""
    return (cal.is_business_day(day) == working and not cal.season(day)[0]
            and all(fit.feats[i].get(f) in NONE for f in ("holiday", "near_holiday")))


def _off_level(adj: np.ndarray, i: int, level_points: int, special: Sequence[bool]) -> float:
    """How far point i stands off the level window before it, as the target's level is read."""
    return float(adj[i] - np.median(adj[_level_window(i, level_points, special)]))


def _same_dates_so_far(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], target: datetime,
                       cal: HolidayCalendar, level_points: int) -> tuple[float, int] | None:
    """The level's move on the same Gregorian dates as a year back, where this year has so far run as that
    year did. A gym's January runs high every year and fades, its December's last fortnight low: the level
    window reads neither until it holds them, and misses them on every occasion alike. Where the same dates
    a year back missed on one side by YEAR_BACK_Z standard errors (_year_back_reading: three days, so one
    incident day cannot carry it), and the days of the target's kind this past week (YEAR_BACK_REACH) whose
    own dates a year back missed the same way missed the same way again now (their median beyond the same
    bar, and at least half of that year's on them), the occasion is under way as it was then: the level moves by
    that year's error. The first day of an occasion has no such day (it may be a drop as well as a season's
    start) and a one-off a year back none that missed again; a feast that moves with the moon misses on
    other dates this year, and they disagree. Returns (the move, the days it rests on) or None."""
    day = target.date()
    reading = _year_back_reading(fit, pts, special, day, cal, level_points)
    sd = _noise_sd(fit)
    if reading is None or abs(reading[0]) <= YEAR_BACK_Z * _median_se(sd, reading[1]):
        return None
    move, days = reading
    index = {q.at.date(): i for i, q in enumerate(pts)}
    adj = np.asarray(fit.e) - fit.slope * np.asarray(fit.t)
    working = cal.is_business_day(day)
    now, then = [], []
    for k in range(1, YEAR_BACK_REACH + 1):
        d = day - timedelta(days=k)
        i = index.get(d)
        if i is None or i < level_points or cal.name(d) or not _plain_day(fit, i, d, cal, working):
            continue
        back = _year_back_reading(fit, pts, special, d, cal, level_points)
        if back is None or back[0] * move <= 0 or abs(back[0]) <= YEAR_BACK_Z * _median_se(sd, back[1]):
            continue
        now.append(_off_level(adj, i, level_points, special))
        then.append(back[0])
    if not now:
        return None
    ran, ran_then = median(now), median(then)
    if ran * move <= 0 or abs(ran) <= YEAR_BACK_Z * _median_se(sd, len(now)) or ran / ran_then < 0.5:
        return None
    return move, days


def _season_uncertainty(fit: SeriesFit, feats: Sequence[Mapping[str, object]], target_feats: Mapping[str, object],
                        window: Sequence[int]) -> float:
    """The variance (in squared spreads) a season's effect adds to the baseline: learned from one
    occasion a year (Ramadan's thirty days are one), it is as uncertain as one point per occasion,
    as a holiday's is. Only as far as the level is read from outside the season: a level read from
    the season's own days this year (deseasonalised by the same effect) carries this year's effect
    itself, and the effect cancels."""
    season = target_feats.get("season")
    if "season" not in fit.used or season in NONE or not fit.members["season"].get(season):
        return 0.0
    own = sum(1 for j in window if feats[j].get("season") == season
              and feats[j].get("season_at") == target_feats.get("season_at"))
    outside = 1 - own / max(len(window), 1)
    return outside ** 2 * 1.57 / fit.members["season"][season]


def _month_uncertainty(fit: SeriesFit, feats: Sequence[Mapping[str, object]], target_feats: Mapping[str, object],
                       window: Sequence[int]) -> float:
    """A daily series' earned month of the year, like a season: its effect rests on one occasion a
    past year, and counts only as far as the level is read from outside this year's month (a level
    read from the month's own days carries this year's effect, and the learned one cancels)."""
    month = target_feats.get("month_of_year")
    if month in NONE or not fit.members["month_of_year"].get(month):
        return 0.0
    own = sum(1 for j in window if feats[j].get("month_of_year") == month and feats[j].get("year") == target_feats.get("year"))
    outside = 1 - own / max(len(window), 1)
    return outside ** 2 * 1.57 / fit.members["month_of_year"][month]


def _moved_month_days(adj: np.ndarray, ordinal: np.ndarray, ordinary: np.ndarray, sd: float) -> np.ndarray:
    """The days of the month occasions that stand out, by DISTINCT_Z standard errors, of the ordinary
    days within MONTH_REACH_DAYS around them (both sides together): a high December is no baseline
    for the January after it."""
    moved = np.zeros(len(ordinal), dtype=bool)
    for year, month in sorted({(d.year, d.month) for d in map(date.fromordinal, ordinal.tolist())}):
        first = date(year, month, 1).toordinal()
        last = first + calendar.monthrange(year, month)[1] - 1
        inside = ordinary & (ordinal >= first) & (ordinal <= last)
        around = ordinary & ~inside & (ordinal >= first - MONTH_REACH_DAYS) & (ordinal <= last + MONTH_REACH_DAYS)
        if inside.sum() < 8 or around.sum() < 10:
            continue
        se = _median_se(sd, inside.sum(), around.sum())
        if abs(float(np.median(adj[inside])) - float(np.median(adj[around]))) > DISTINCT_Z["month_of_year"] * se:
            moved |= inside
    return moved


def _earned_months(fit: SeriesFit, pts: Sequence[Point], feats: Sequence[Mapping[str, object]], target: datetime,
                   special: Sequence[bool]) -> set[int]:
    """The months of the year a daily (business-day) series runs higher or lower in, every year
    (settlements in December, orders in the August holidays). Each past occasion of a month is
    compared with the ordinary days within MONTH_REACH_DAYS before it and after it, trend-adjusted
    and with the calendar's other effects removed: both sides must show an effect of the same sign
    within 2x of each other, by DISTINCT_Z standard errors (a month next to a ramp or a shift shows
    it on one side only). Where the sides disagree, the days of neighbouring months that themselves
    stand out are left out of them (a low January after a high December); a side that then holds too
    few days, or one before the history's start, leaves the month with the other side alone (never
    the side after it at the history's end: a recent shift's). Two past years or more must all agree
    (within 2x); one is enough only when the whole month moved (its first and second halves alike): a
    week's event is no season."""
    adj = np.asarray(fit.e) - fit.slope * np.asarray(fit.t)
    days = [q.at.date() for q in pts]
    ordinal = np.array([d.toordinal() for d in days])
    ordinary = np.array([not s and fv.get("period_end") not in ("quarter", "year") for s, fv in zip(special, feats)])
    sd = _noise_sd(fit)
    moved: np.ndarray | None = None  # found once, the first time a month's sides disagree
    occasions: dict[int, list[tuple[float, bool] | None]] = defaultdict(list)
    for year, month in sorted({(d.year, d.month) for d in days} - {(target.year, target.month)}):
        first = date(year, month, 1).toordinal()
        last = first + calendar.monthrange(year, month)[1] - 1
        inside = ordinary & (ordinal >= first) & (ordinal <= last)
        before = ordinary & (ordinal >= first - MONTH_REACH_DAYS) & (ordinal < first)
        after = ordinary & (ordinal > last) & (ordinal <= last + MONTH_REACH_DAYS)
        day_of_month = ordinal - first
        at_start = before.sum() < 10 and ordinal[0] > first - MONTH_REACH_DAYS
        if (inside.sum() < 8 or (before.sum() < 10 and not at_start) or after.sum() < 10
                or not (ordinal <= first + 9).any() or not (ordinal >= last - 9).any()):
            continue  # a month the history does not hold whole, or without its sides: no occasion
        # (a month at the history's start has one side: never one holding a month that stands out itself)
        sides = None if at_start else _month_sides(adj, ordinal, inside, before, after, sd)
        if sides is None or not sides[2]:
            if moved is None:
                moved = _moved_month_days(adj, ordinal, ordinary, sd)
            sides = _month_sides(adj, ordinal, inside, before & ~moved, after & ~moved, sd)
        if sides is None or not sides[2]:
            occasions[month].append(None)
            continue
        effect, base, _ = sides
        halves = [inside & (day_of_month < 15), inside & (day_of_month >= 15)]
        whole = all(k.sum() >= 2 and 0.5 <= (float(np.median(adj[k])) - base) / effect <= 2 for k in halves)
        occasions[month].append((effect, whole))
    earned = set()
    for month, past in occasions.items():
        if any(o is None for o in past):
            continue
        effects = [o[0] for o in past if o is not None]
        if len(effects) >= 2:
            if all(e * effects[0] > 0 for e in effects) and max(map(abs, effects)) <= 2 * min(map(abs, effects)):
                earned.add(month)
        elif past[0] is not None and past[0][1]:
            earned.add(month)
    return earned


def _month_tail_days(fit: SeriesFit, pts: Sequence[Point], feats: Sequence[Mapping[str, object]], target: datetime,
                     special: Sequence[bool], cal: HolidayCalendar, months: Collection[int]) -> set[date]:
    """The days (the history's and the target's) read outside their month's effect: a target in an earned month
    (`_earned_months`) after one of the month's holidays reads, with its month's past days after that holiday (by the
    holiday's recurring name), without the month's effect where each past year held, after that holiday, the month's
    effect on none of its ordinary days: their median off the month's own median, against the ordinary days either
    side (`_month_sides`), by DISTINCT_Z standard errors, and nearer the days either side than the month. A year-end
    bonus's December spent by Christmas: its last days are ordinary days, where the month's effect, earned on its
    whole (its halves alike), would read them x1.5. Empty where the target's month holds no holiday before it, a past
    year does not hold the holiday or enough ordinary days after it, or a past year's days after it read the month."""
    month, day = target.month, target.date()
    if month not in months:
        return set()
    before = [d for d in _days_of_month(target.year, month) if d < day and cal.name(d)]
    if not before:
        return set()
    name = cal.identity(before[-1])
    adj = np.asarray(fit.e) - fit.slope * np.asarray(fit.t)
    days = [q.at.date() for q in pts]
    ordinal = np.array([d.toordinal() for d in days])
    ordinary = np.array([not s and fv.get("period_end") not in ("quarter", "year") for s, fv in zip(special, feats)])
    # (the days after a holiday are mostly its neighbourhood's, fitted from the one past year the history holds: read
    # with that effect put back, as the model reads them once it drops it as no evidence, `_indistinct`; the effects of
    # a day of the month and of the month's end, read on every month, stay out of them; a calendar day is none)
    near = fit.effects.get("near_holiday", {})
    after = np.array([all(fv.get(f, "") in NONE for f in ("holiday", "after_gap", "season"))
                      and fv.get("period_end") not in ("quarter", "year") for fv in feats])
    around = adj + np.array([near.get(fv.get("near_holiday", ""), 0.0) for fv in feats])
    sd = _noise_sd(fit)
    tail_days, years = {day}, 0
    for year in sorted({d.year for d in days if d.month == month} - {target.year}):
        named = [d for d in _days_of_month(year, month) if cal.identity(d) == name]
        if not named:
            return set()
        first, last = date(year, month, 1).toordinal(), named[-1].toordinal()
        end = first + calendar.monthrange(year, month)[1] - 1
        inside = ordinary & (ordinal >= first) & (ordinal <= end)
        tail = after & (ordinal > last) & (ordinal <= end)
        head = inside & (ordinal < last)
        sides = _month_sides(adj, ordinal, inside, ordinary & (ordinal >= first - MONTH_REACH_DAYS) & (ordinal < first),
                             ordinary & (ordinal > end) & (ordinal <= end + MONTH_REACH_DAYS), sd)
        if sides is None or not sides[2] or tail.sum() < MONTH_TAIL_MIN_DAYS or head.sum() < MONTH_TAIL_MIN_DAYS:
            return set()
        effect, base, _ = sides
        off = float(np.median(around[tail])) - base
        se = sd * math.sqrt(math.pi / 2 * (1 / tail.sum() + 1 / head.sum()))
        if abs(off) >= abs(off - effect) or abs(off - effect) <= DISTINCT_Z["month_of_year"] * se:
            return set()
        years += 1
        tail_days |= {d for d in days if d.year == year and d.month == month and d.toordinal() > last}
    if not years:
        return set()
    # (the target's own month's days after the holiday, before the target, read as it is)
    return tail_days | {d for d in days if d.year == target.year and d.month == month and d > before[-1]}


def _month_sides(adj: np.ndarray, ordinal: np.ndarray, inside: np.ndarray, before: np.ndarray, after: np.ndarray,
                 sd: float) -> tuple[float, float, bool] | None:
    """A month occasion against the ordinary days on each side that holds ten or more: (its effect,
    the baseline, whether it stands out); None when neither side holds enough. Against one side
    alone it must stand out by ONE_SIDE_Z standard errors, of the side's median and of the side's own
    line carried to the month: one side cannot tell a month from a ramp through it. (No test that
    the side is flat: the history's trend, removed, tilts a flat side as much as a ramp does.)"""
    m = float(np.median(adj[inside]))
    sides = [k for k in (before, after) if k.sum() >= 10]
    if not sides:
        return None
    bases = [float(np.median(adj[k])) for k in sides]
    se = sd * math.sqrt(math.pi / 2 * (1 / inside.sum() + 1 / min(k.sum() for k in sides)))
    gaps = [m - b for b in bases]
    agree = all(g * gaps[0] > 0 for g in gaps) and max(map(abs, gaps)) <= 2 * min(map(abs, gaps))
    z = DISTINCT_Z["month_of_year"]
    if len(sides) == 1:
        # the side's own line, timed from the month's middle: its intercept is where a trend through
        # the side alone puts the month, and the month must stand out of that too
        middle = float(np.median(ordinal[inside]))
        _, _, at_month = theil_sen(ordinal[sides[0]] - middle, adj[sides[0]], sd)
        gaps.append(m - at_month)
        agree = agree and gaps[1] * gaps[0] > 0
        z = ONE_SIDE_Z
    return gaps[0], bases[0] if len(sides) == 1 else sum(bases) / 2, agree and min(map(abs, gaps)) > z * se


def _as_kept(pts: Sequence[Point], target: datetime, cal: HolidayCalendar) -> HolidayCalendar:
    """The calendar with its estimated holidays (ESTIMATED: a lunar holiday's date the `holidays` package
    computed) on the days the series shows them kept: each named as in the years it was announced ("Eid
    al-Adha", so it compares with its own past, not as a holiday never seen), and moved KEPT_OFF_DAYS off its
    listed date where its days and their neighbours (KEPT_SHAPE_DAYS either side, each against its weekday)
    fit the past occasions' run shifted by that day better than unshifted, by KEPT_OFF_Z standard errors of
    the difference (see _kept_shift): Senegal's Tabaski listed on a Friday and kept on the Saturday, its
    journeys before and after a day later too. Read from the days before the target only: a holiday not seen
    moved stays on its listed date, named as in past years, but on the days it may yet fall on
    (`_kept_undecided`). A calendar that estimates every year's date keeps its names (each year compares with
    the last estimate, as before), moved only where the days show it."""
    if (not cal.country and not cal.dates) or not pts:
        return cal
    first, last = pts[0].at.date(), target.date() + timedelta(days=KEPT_SHAPE_DAYS + KEPT_OFF_DAYS)
    named = {d: n for d in (first + timedelta(days=k) for k in range((last - first).days + 1)) if (n := cal.name(d))}
    listed = {d: n for d, n in named.items() if ESTIMATED in n}
    if not listed:
        return cal
    reach = KEPT_SHAPE_DAYS + KEPT_OFF_DAYS
    skip = {d + timedelta(days=k) for d in named for k in range(-reach, reach + 1)}
    logs = {q.at.date(): math.log(q.value) for q in pts if q.value > 0}
    plain = [e for d in logs if d not in skip and (e := _weekday_excess(logs, d, skip)) is not None]
    sd = MAD_SCALE * mad(plain) if len(plain) >= 2 * WEEK_DAYS else 0.0
    kept: dict[date, str] = {}
    moved: dict[date, date] = {}  # an earlier estimated occasion's listed first day -> the day it was kept
    for day, name in listed.items():
        if named.get(day - timedelta(days=1)) == name:
            continue  # (a holiday of several days moves with its first)
        run = [day]
        while len(run) < reach and named.get(run[-1] + timedelta(days=1)) == name:
            run.append(run[-1] + timedelta(days=1))
        base = name.replace(ESTIMATED, "")
        firsts = [d for d, n in named.items() if n.replace(ESTIMATED, "") == base
                  and named.get(d - timedelta(days=1)) != n and d < day - timedelta(days=2 * reach)]
        # (the name its past occasions carry: the announced one, or the estimate where every year is one)
        as_past = base if any(named[d] == base for d in firsts) else name
        shift = _kept_shift(logs, _kept_others(named, base), day, [moved.get(d, d) for d in firsts], sd) if sd > 0 else 0
        if shift and not any(named.get(d + timedelta(days=shift)) not in (None, name) for d in run):
            kept.update({d: "" for d in run})
            kept.update({d + timedelta(days=shift): as_past for d in run})
            moved[day] = day + timedelta(days=shift)
        elif as_past != name and not _kept_undecided(day, target.date()):
            kept.update({d: as_past for d in run})
    return replace(cal, dates={**cal.dates, **kept}) if kept else cal


def _kept_undecided(day: date, target: date) -> bool:
    """Whether a target is one of the days an estimated holiday listed on `day`, not seen moved, may yet fall on
    (within KEPT_OFF_DAYS of it, the listed day not passed): read as the holiday it reads at x0.3, as its eve at
    x2.5, so it keeps its estimated name (a holiday never seen, its band as wide as either). A target further
    ahead is a day of its journeys whichever day it falls on, read at its listed offset, as is every day once
    the listed day has passed unmoved."""
    return day - timedelta(days=KEPT_OFF_DAYS) <= target <= day


def _kept_others(named: Mapping[date, str], base: str) -> dict[date, str]:
    """The named days that are not the estimated holiday `base`'s own (another holiday, or a day off observed for
    it in a year it fell on a weekend: "Eid al-Adha (observed, estimated)"), among a calendar's `named` days."""
    return {d: n for d, n in named.items() if n.replace(ESTIMATED, "") != base}


def _kept_shift(logs: Mapping[date, float], others: Mapping[date, str], day: date, past: Sequence[date],
                sd: float) -> int:
    """The days (within KEPT_OFF_DAYS) an estimated holiday listed on `day` was kept off it, as its days so far
    show: each day around it (KEPT_SHAPE_DAYS either side) against its weekday (`_weekday_excess`), fitted to
    the median of its `past` occasions' days at the same offset, or shifted; a shift is taken where its squared
    misfit is lower than the listed date's by KEPT_OFF_Z standard errors of that gain (a shift that moves the
    past run by D, in root squares, gains D^2 +- 2 sd D on noise). 0 where none does. The `others` (the days
    another holiday names, or a day off observed for this one) are no day of its run: each falls at its own
    offset from it, or only some years (`_kept_neighbour`)."""
    def excess(d: date) -> float | None:
        return _kept_neighbour(logs, others, d, sd)

    reach = KEPT_SHAPE_DAYS + KEPT_OFF_DAYS
    shape: dict[int, float] = {}
    for k in range(-reach, reach + 1):
        seen = [e for p in past if (e := excess(p + timedelta(days=k))) is not None]
        if seen:
            shape[k] = median(seen)
    now = {j: e for j in range(-KEPT_SHAPE_DAYS, KEPT_SHAPE_DAYS + 1)
           if (e := excess(day + timedelta(days=j))) is not None
           and all(j - s in shape for s in range(-KEPT_OFF_DAYS, KEPT_OFF_DAYS + 1))}
    if not now or not past:
        return 0
    # (the difference's noise: the day's own excess and the past median's, of len(past) occasions)
    noise = sd * math.sqrt(1 + 1 / len(past))
    now = _kept_explained(now, shape, noise)
    if not now:
        return 0
    best, best_z = 0, KEPT_OFF_Z
    for s in (k for k in range(-KEPT_OFF_DAYS, KEPT_OFF_DAYS + 1) if k):
        moved = math.sqrt(sum((shape[j] - shape[j - s]) ** 2 for j in now))
        if moved <= 0:
            continue
        gain = sum((e - shape[j]) ** 2 - (e - shape[j - s]) ** 2 for j, e in now.items())
        z = gain / (2 * noise * moved)
        if z > best_z:
            best, best_z = s, z
    return best


def _kept_neighbour(logs: Mapping[date, float], others: Collection[date], d: date, sd: float) -> float | None:
    """A day around an estimated holiday against its weekday (as `_weekday_excess`), read from the weekdays that
    are no holiday of the calendar's (`others`: a day off is no weekday's ordinary level), three at least where
    the history holds them (KEPT_WIDER_WEEKS out where the history's edge leaves two: the median of two is their
    mean, and an event in no calendar on one, a lockdown or a strike, is half in it); None for a day another
    holiday names (no day of this one's run), one with fewer than two such weekdays, and one with two only that
    disagree by more than KEPT_EVENT_Z standard errors (neither's level is the weekday's)."""
    if d not in logs or d in others:
        return None
    around = [logs[r] for k in EXCESS_WEEKS if (r := d + timedelta(days=k)) in logs and r not in others]
    if len(around) < KEPT_REFERENCES:
        around += [logs[r] for k in KEPT_WIDER_WEEKS if (r := d + timedelta(days=k)) in logs and r not in others]
    if len(around) < 2 or (len(around) == 2 and abs(around[0] - around[1]) > KEPT_EVENT_Z * sd * math.sqrt(2)):
        return None
    return logs[d] - median(around)


def _kept_explained(now: Mapping[int, float], shape: Mapping[int, float], noise: float) -> dict[int, float]:
    """The days around an estimated holiday (by offset, each against its weekday) that its past occasions' run
    explains on one of the days it may be kept on (within KEPT_EVENT_Z noise and KEPT_EVENT_LOG of the run's day at
    that offset, or KEPT_OFF_DAYS off it); a day far from every one of them is an event of its own (a lockdown, a strike, a load
    in no calendar), which neither day fits, and whose size alone would tip the choice. Leaves them out."""
    bar = max(KEPT_EVENT_Z * noise, KEPT_EVENT_LOG)
    return {j: e for j, e in now.items()
            if any(abs(e - shape[j - s]) <= bar for s in range(-KEPT_OFF_DAYS, KEPT_OFF_DAYS + 1))}


def _lunar_year_back(day: date, cal: HolidayCalendar) -> date | None:
    """`day` a lunar year back: its offset from the nearest holiday's first day (within LUNAR_ANCHOR_REACH days)
    whose previous occasion came a lunar year (or thirteen lunar months) earlier, put on that occasion (a day two
    weeks before Mid-Autumn is the seventh lunar month's last days in every year). None where no holiday within
    reach moves with the moon."""
    for k in sorted(range(-LUNAR_ANCHOR_REACH, LUNAR_ANCHOR_REACH + 1), key=abs):
        first = day + timedelta(days=k)
        name = cal.name(first)
        if not name or cal.name(first - timedelta(days=1)) == name:
            continue
        for lo, hi in LUNAR_YEAR_DAYS:
            for back in range(lo, hi + 1):
                earlier = first - timedelta(days=back)
                if cal.name(earlier) == name and cal.name(earlier - timedelta(days=1)) != name:
                    return earlier - timedelta(days=k)
    return None


def _event_ends(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], target: datetime,
                level_points: int, cal: HolidayCalendar | None = None) -> tuple[float, int]:
    """`_event_ends_a_year_back` on the same Gregorian dates a year back, else (where the calendar holds holidays
    that move with the moon) on the same lunar dates: a lunar season in no calendar (the seventh lunar month's
    lull) ends on a lunar date, eleven or nineteen days off the Gregorian one."""
    day = target.date()
    ago = _year_ago(day)
    found = _event_ends_a_year_back(fit, pts, special, target, level_points, ago)
    lunar = _lunar_year_back(day, cal) if cal is not None and found == (0.0, 0) else None
    if lunar is not None and abs((lunar - ago).days) > YEAR_BACK_REACH:
        found = _event_ends_a_year_back(fit, pts, special, target, level_points, lunar)
    return found


def _event_ends_a_year_back(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], target: datetime,
                            level_points: int, year_back: date) -> tuple[float, int]:
    """A yearly event ending at the target (a sale over the second half of June, a holiday month's
    dip): the level window stands out of the ordinary days before it, and a year earlier (the same
    dates) the same window stood out the same way of the days before it (where the history reaches
    that far) and the level came back in the days after it, each by DISTINCT_Z standard errors and
    within 2x of each other. Without it the level carries the event into the days after it (a sale's
    x1.35 read as the level: the first days of July at 0.7x). Returns the level's move (this year's
    step back, as far as last year's came back; 0.0 when there is no such event) and how many days
    last year's return rests on."""
    adj = np.asarray(fit.e) - fit.slope * np.asarray(fit.t)
    ordinal = np.array([q.at.date().toordinal() for q in pts])
    plain = ~np.asarray(special, dtype=bool)
    # (a year earlier, `year_back`: a sale or a season keeps its dates, a lunar one its lunar dates; the windows hold
    # whole weeks)
    day = target.date()
    ago = year_back.toordinal()
    # (the days before are read from two level windows back: a dip of three weeks is not its own before)
    now, before, gap, enough = day.toordinal(), 2 * level_points, level_points, level_points // 2

    def days(lo: int, hi: int) -> np.ndarray:
        return plain & (ordinal >= lo) & (ordinal < hi)

    window, earlier = days(now - level_points, now), days(now - level_points - gap - before, now - level_points - gap)
    window1, earlier1 = days(ago - level_points, ago), days(ago - level_points - gap - before, ago - level_points - gap)
    after1 = days(ago, ago + level_points)
    if min(int(k.sum()) for k in (window, earlier, window1, after1)) < enough:
        return 0.0, 0
    sd = _noise_sd(fit)

    def step(a: np.ndarray, b: np.ndarray) -> float | None:
        """a's median less b's, when it stands out."""
        gap_ = float(np.median(adj[a])) - float(np.median(adj[b]))
        return gap_ if abs(gap_) > DISTINCT_Z["month_of_year"] * _median_se(sd, a.sum(), b.sum()) else None

    now_step, back = step(window, earlier), step(window1, after1)
    # (last year's rise is read only where the history holds its days before: the check reads 400 days)
    up = step(window1, earlier1) if earlier1.sum() >= enough else back
    if now_step is None or back is None or up is None:
        return 0.0, 0
    sizes = [abs(now_step), abs(up), abs(back)]
    if not (now_step * up > 0 and up * back > 0) or max(sizes) > 2 * min(sizes):
        return 0.0, 0
    # ... and it had ended by that day: the day a year earlier and the next were back nearer the days after
    # than the window (an event's last day is still the event's)
    level1, after_level1 = float(np.median(adj[window1])), float(np.median(adj[after1]))
    first = [float(adj[j]) for j in np.flatnonzero((ordinal >= ago) & (ordinal <= ago + 1))]
    if not first or any(abs(v - after_level1) >= abs(v - level1) for v in first):
        return 0.0, 0
    return -now_step * min(1.0, back / up), int(after1.sum())


def _holiday_runs(day: date, cal: HolidayCalendar, reach: int) -> list[tuple[str, date, date]]:
    """The holidays whose run of days (a bayram's four, Christmas's two) `day` lies in or within `reach`
    days of, the nearest first: (its name, first day, last day)."""
    found: list[tuple[int, str, date, date]] = []
    for k in range(-reach - HOLIDAY_RUN_DAYS, reach + 1):
        first = day + timedelta(days=k)
        name = cal.name(first)
        if not name or cal.name(first - timedelta(days=1)) == name:
            continue
        last = first
        while cal.name(last + timedelta(days=1)) == name and (last - first).days < HOLIDAY_RUN_DAYS:
            last += timedelta(days=1)
        gap = max((first - day).days, (day - last).days, 0)
        if gap <= reach:
            found.append((gap, name, first, last))
    return [(name, first, last) for _, name, first, last in sorted(found)]


def _same_offset_error(fit: SeriesFit, pts: Sequence[Point], special: Sequence[bool], target: datetime,
                       cal: HolidayCalendar, level_points: int) -> tuple[float, int, str]:
    """The error the level made on the same days around a holiday's previous occasion. A day near a
    holiday is read with the level of the days before it; where the days around the holiday hold what
    the calendar does not name (three weeks of giving before a feast that moves with the moon), the
    reading misses them, and then carries them into the holiday's days and the days after it, on every
    occasion alike. That occasion's days at the target's offset (and one either side) are read as the
    target's level is (the median of the level window before each, its ordinary days where they are half
    of it); where all three missed on one side by more than DISTINCT_Z["near_holiday"] standard errors of
    their median, the level moves by their median error. The holiday is the nearest within a level
    window, on that occasion as on this one (a fixed holiday may fall inside a moving one's weeks, and
    its days then held the other's). Returns (the move, 0.0 where none; how many days it rests on; the
    holiday's name, "" where none)."""
    index = {q.at.date(): i for i, q in enumerate(pts)}
    e, t = np.asarray(fit.e), np.asarray(fit.t)
    bar = DISTINCT_Z["near_holiday"] * _median_se(_noise_sd(fit), 3)

    adj = e - fit.slope * t  # (the trend taken out: readings at different points compare)

    def carried(j: int, first: date) -> float | None:
        """How far the reading at j stands off the ordinary days from HOLIDAY_BASE_WINDOWS level windows before
        the holiday's first day back (its unnamed weeks before it no longer among them); None without them."""
        hi = first - timedelta(days=HOLIDAY_BASE_WINDOWS * level_points)
        # (its latest level window's worth of ordinary days: a month of holidays may fall between)
        base = sorted(i for d, i in index.items() if d < hi and not special[i])[-level_points:]
        if len(base) < level_points:
            return None
        return float(np.median(adj[_level_window(j, level_points, special)]) - np.median(adj[base]))

    reach = level_points  # (a day further from the holiday than a level window reads none of its days)
    runs = _holiday_runs(target.date(), cal, reach)
    if not runs:
        return 0.0, 0, ""
    name, first, _ = runs[0]
    # the previous occasion: the latest first day of the same holiday at least half a year before
    earlier = [d for d in index if d < first - timedelta(days=YEAR_DAYS // 2) and cal.name(d) == name
               and cal.name(d - timedelta(days=1)) != name]
    if not earlier:
        return 0.0, 0, ""
    offset = (target.date() - first).days
    days = [max(earlier) + timedelta(days=offset + k) for k in (-1, 0, 1)]
    # (each of them near that holiday before any other: a fixed holiday's weeks held a moving one's then)
    if any(d not in index or index[d] < level_points or [r[1] for r in _holiday_runs(d, cal, reach)][:1] != [max(earlier)]
           for d in days):
        return 0.0, 0, ""
    errors = [float(adj[index[d]] - np.median(adj[_level_window(index[d], level_points, special)])) for d in days]
    move = median(errors)
    if not (all(v > 0 for v in errors) or all(v < 0 for v in errors)) or abs(move) <= bar:
        return 0.0, 0, ""
    # a lag, not a change: the reading carries the days before the holiday away from the ordinary level,
    # against the miss and by at least half of it (on the previous occasion too, where the history reaches
    # its ordinary days before: the check reads 400 days)
    now, then = carried(len(pts), first), carried(index[days[1]], max(earlier))
    if now is None or any(c * move >= 0 or 2 * abs(c) < abs(move) for c in (now, then) if c is not None):
        return 0.0, 0, ""
    return move, len(errors), name


def _reopens_after_empty_holidays(pts: Sequence[Point], local: Mapping[datetime, datetime], target: datetime,
                                  cal: HolidayCalendar) -> str | None:
    """The holidays (named, with their count of days) an hourly series was empty on every partition of,
    the days just before the target's, where the target's day is no holiday and the history holds no
    earlier holiday the series was empty on: the first open day after a closure never seen (a market on
    a calendar of its own, closed on its holidays while its table kept the other markets' hours; its
    orders pent up). None otherwise."""
    today = local[target].date()
    if cal.name(today):
        return None
    days: dict[date, list[float]] = defaultdict(list)
    for q in pts:
        days[local[q.at].date()].append(q.value)
    empty = [d for d in sorted(days) if d < today and cal.name(d) and max(days[d]) <= 0]
    before = [d for d in sorted(days) if d < today]
    run = list(itertools.takewhile(lambda d: d in empty, reversed(before)))
    if not run or len(run) < len(empty):
        return None  # the day before was open, or an earlier closure was seen (its backlog too)
    names = sorted({cal.name(d) or "" for d in run})
    return f"{len(run)} day(s) of {', '.join(names)}"


def _night_hours(hours: Sequence[int]) -> int:
    """How many hours after midnight a night business's day runs (0 for any other series): where the open
    hours (`hours`: each positive partition's local hour) hold midnight and the day's longest closure ends at
    NIGHT_OPENS_FROM or later (a bar open 18:00-03:59, a night shift from 22:00), the hours from midnight to
    that closure are the evening's. The calendar then reads a holiday's night from its evening to its closing,
    and the eve's night (the hours after midnight of 16 November's eve of the 17th) as the eve's, not as the
    holiday's first hours. A series open every hour, or closed at midnight, keeps the date as its day."""
    open_hours = set(hours)
    if 0 not in open_hours or len(open_hours) == 24 or len(hours) < NIGHT_MIN_NIGHTS * len(open_hours):
        return 0
    closed_runs = []  # (length, first closed hour, first open hour after it)
    for first in (hour for hour in range(24) if hour not in open_hours and (hour - 1) % 24 in open_hours):
        length = next(k for k in range(1, 25) if (first + k) % 24 in open_hours)
        closed_runs.append((length, first, (first + length) % 24))
    _, first, opens = max(closed_runs)
    return first if opens >= NIGHT_OPENS_FROM and first < opens else 0


def _night_features(moment: datetime, night: int, grain: Grain, cal: HolidayCalendar,
                    span: int) -> dict[str, object]:
    """A partition's calendar groups (`features_of`) read on a night business's clock (`moment`: `night` hours
    behind the wall clock, see _night_hours): the weekday and holiday are the night's, the hour of the day
    (and of the week, and a holiday's hour) the wall clock's, as the owner reads them."""
    fv = dict(features_of(moment, grain, cal, span))
    if night and grain == "hour":
        hour = (moment.hour + night) % 24
        fv["hour_of_day"], fv["hour_of_week"] = hour, cast(int, fv["weekday"]) * 24 + hour
        if fv["holiday"]:
            fv["holiday"] = f"{cast(str, fv['holiday'])[:-3]}{hour:02d}h"
    return fv


def _is_eve(day: date, cal: HolidayCalendar) -> bool:
    """`day` is no holiday and the day after it is one."""
    return not cal.name(day) and bool(cal.name(day + timedelta(days=1)))


def _eve_as_day(feats: Sequence[Mapping[str, object]], x: Sequence[float], moments: Sequence[datetime],
                target: datetime, cal: HolidayCalendar) -> int | None:
    """The day of the week an hourly series' eves of a holiday run like: a night business opens on the eve of
    a day off as on its Friday night (a club closed on Mondays opens on the Monday before 17 November). Every
    eve is keyed so, the target's and the history's: an eve read as its own weekday would otherwise be an
    outlier, and the latest one, just before a holiday, a level shift. Read from the eves of the days before
    the target's (any holiday's, never the target day's own hours so far): each of their hours
    against the median of the same hour on each day of the week's ordinary days; the day whose hours they
    fit within EVE_DAY_FIT standard deviations (the ordinary hours' scatter around their cell's median), best,
    where their own weekday fits worse than that or never opened at those hours. None with no past eve, or
    where the eves ran as their own weekday (a series whose eves are ordinary keeps its cells)."""
    cells: dict[tuple[int, int], list[float]] = defaultdict(list)
    eves: list[tuple[int, int, float]] = []  # (weekday, hour, log value) of the past eves' hours
    for fv, at, v in zip(feats, moments, x):
        if _is_eve(at.date(), cal):
            if at.date() < target.date():
                eves.append((at.weekday(), cast(int, fv["hour_of_day"]), v))
        elif not fv.get("holiday"):
            cells[(cast(int, fv["weekday"]), cast(int, fv["hour_of_day"]))].append(v)
    centre = {cell: median(values) for cell, values in cells.items() if len(values) >= CLOSED_MIN_OCCASIONS}
    scatter = [v - centre[cell] for cell, values in cells.items() if cell in centre for v in values]
    if not eves or len(scatter) < 2:
        return None
    sd = MAD_SCALE * mad(scatter)
    bound = EVE_DAY_FIT * max(sd, 1e-9)

    def misfit(day: int) -> float:
        gaps = [v - centre[(day, hour)] for _, hour, v in eves if (day, hour) in centre]
        return math.sqrt(sum(g * g for g in gaps) / len(gaps)) if len(gaps) == len(eves) else math.inf

    own = {weekday for weekday, _, _ in eves}
    best = min(range(7), key=misfit)
    if best in own or misfit(best) > bound or any(misfit(day) <= bound for day in own):
        return None
    return best


def _bridge_days(cal: HolidayCalendar, first: date, last: date) -> dict[date, str]:
    """The bridge days from `first` to `last`: a working day (no weekend day, no holiday) just after a holiday
    whose next day is a day off too (Friday after a Thursday's Corpus Christi), named after that holiday with
    BRIDGE_LABEL. Most workers take such a day off, though no calendar lists it: on an hourly series it runs like
    the weekend's or the holiday's days, and read as its plain weekday its commuters' quiet mornings fell 0.4x
    below the band, three of them then a step, and the coast's missing Friday exodus 0.6x. Named, it is a
    holiday never seen until the history holds one, and its own hours so far tell which day it runs like
    (_holiday_so_far), as they do a holiday's. (The working day before a holiday is its eve, which the eve rules
    read from past eves: a bar's Monday before a Tuesday's holiday runs as its Friday night.)"""
    weekend = weekend_days(cal.country, cal.subdiv) if cal.country else frozenset((5, 6))

    def off(day: date) -> bool:
        return day.weekday() in weekend or bool(cal.name(day))

    out: dict[date, str] = {}
    for k in range((last - first).days + 1):
        day = first + timedelta(days=k)
        holiday = cal.name(day - timedelta(days=1))
        if holiday and not off(day) and off(day + timedelta(days=1)):
            out[day] = f"{holiday}{BRIDGE_LABEL}"
    return out


def _bridge_run_days(cal: HolidayCalendar, first: date, last: date) -> set[date]:
    """The days from `first` to `last` that lie between two holidays of the calendar at most BRIDGE_RUN_MAX_DAYS
    apart, with a working day (no weekend day) among them: a bridge run. Where the calendar closes a run of days on both sides (New Year's Day on Friday 2 January and
    Christmas on Tuesday 6 January in Armenia, Christmas and New Year, Golden Week), most take the days between off
    too, the weekend's among them (a city visiting family): the days run like the holidays around them, not like
    their weekday, though no calendar lists them; or they work as usual (Malta's working days between the Immaculate
    Conception and Republic Day). _bridge_days names a single working day between a holiday and the weekend; a run's
    days are not named (named, every run was read as a holiday never seen, from the hours of its own day and its
    first hours by the hard rules alone: a run worked as usual lost its band and its history's days their place in
    the ordinary fit, see _bridge_run_first_hours for what is read instead). A weekend between two holidays with no
    working day between (Holy Saturday and Easter Sunday between Good Friday and Easter Monday) is a long weekend: no
    run. The model reads no name of a country or a date: only the calendar's holidays and its weekend."""
    weekend = weekend_days(cal.country, cal.subdiv) if cal.country else frozenset((5, 6))
    out: set[date] = set()
    day = first - timedelta(days=BRIDGE_RUN_MAX_DAYS)
    while day <= last:
        holiday = cal.name(day)
        if holiday and not cal.name(day + timedelta(days=1)):
            between = [day + timedelta(days=k) for k in range(1, BRIDGE_RUN_MAX_DAYS)]
            end = next((k for k, d in enumerate(between) if cal.name(d)), None)
            run = between[:end] if end is not None else []
            if any(d.weekday() not in weekend for d in run):
                out.update(d for d in run if first <= d <= last)
        day += timedelta(days=1)
    return out


def _bridge_run_first_hours(fit: SeriesFit, same_day: Sequence[int], feats: Sequence[Mapping[str, object]],
                            target: datetime, cal: HolidayCalendar, level: float, t: Sequence[float],
                            t_target: float, spread: float) -> float | None:
    """A bridge run's day (_bridge_run_days) in its first hours, fewer than the NEAR_SO_FAR_MIN_HOURS from which a day
    near a holiday never seen is read from its own hours (_near_unseen_so_far): the day is read as its plain
    weekday, and a run the city takes off (Armenia's Saturday 3 January at x0.45 of a Saturday) fails its second and
    third hours though its first already showed it. Where every one of the day's hours so far (`same_day`, kept
    where the history held them on other days too, _hours_with_ordinary_past: one or two) ran below its ordinary reading by BRIDGE_RUN_FIRST_Z spreads, the lower side also
    reaches the shallowest of them (their factor against the target's reading, in logs); the centre is kept, so an
    empty hour and a doubled hour still fail, and a run that works as usual (its hours so far at its weekday's
    level) keeps its band, a drop included. None otherwise: no hour so far (the first hour of the day tells
    nothing), an hour so far within the noise, or a day in no bridge run."""
    today = target.date()
    if not same_day or today not in _bridge_run_days(cal, today, today):
        return None  # (the calendar first: every hourly target comes here, few lie in a bridge run)
    same_day = _hours_with_ordinary_past(fit, feats, same_day)
    if not same_day or len(same_day) >= NEAR_SO_FAR_MIN_HOURS:
        return None
    resid = [fit.x[i] - (level - fit.slope * (t_target - t[i])) - fit.effect_for(feats[i])[0] for i in same_day]
    shallowest = max(resid)
    return shallowest if shallowest < -BRIDGE_RUN_FIRST_Z * spread else None


def _with_bridge_days(cal: HolidayCalendar, moments: Sequence[datetime], target: datetime) -> HolidayCalendar:
    """`cal` with the bridge days of the history's local days (`moments`) named (see _bridge_days), and the
    target's own day where its hours so far are BRIDGE_SO_FAR_HOURS or more (before that it can tell nothing
    of which day it runs like, and a holiday never seen is judged by the hard rules alone: the day's first
    hours are read as its plain weekday's); the calendar itself where there are none. Dates the owner named
    keep their names."""
    today = target.date()
    so_far = sum(1 for at in moments if at.date() == today)
    last = today if so_far >= BRIDGE_SO_FAR_HOURS else today - timedelta(days=1)
    bridges = _bridge_days(cal, min((at.date() for at in moments), default=today), last)
    return replace(cal, dates={**bridges, **cal.dates}) if bridges else cal


def _as_day_before(local: Mapping[datetime, datetime], day: int,
                   target: datetime) -> tuple[datetime, dict[datetime, datetime]]:
    """The target hour's stand-in on the latest `day` of the week before it (an eve read as a Friday night: last
    Friday's same hour) and a local clock that holds it, for the rules that read a slot's past weeks (closed as
    usual: a club's Friday 19h is closed every week, its Monday's 22h too, but an eve read as Friday opens at 22h)."""
    back = timedelta(days=(local[target].weekday() - day) % 7 or 7)
    return target - back, {**local, target - back: local[target] - back}


def _eve_features(moment: datetime, night: int, eve_day: int | None, grain: Grain, cal: HolidayCalendar,
                  span: int) -> dict[str, object]:
    """`_night_features`, an eve's hour read as `eve_day`'s where one is (see _eve_as_day)."""
    fv = _night_features(moment, night, grain, cal, span)
    if eve_day is not None:
        _read_eve(fv, moment, eve_day, cal)
    return fv


def _read_eve(fv: dict[str, object], at: datetime, day: int, cal: HolidayCalendar) -> None:
    """An eve's hour keyed as `day`'s same hour (see _eve_as_day); any other hour is left as it is."""
    if _is_eve(at.date(), cal):
        fv["weekday"] = day
        if "hour_of_week" in fv:
            fv["hour_of_week"] = day * 24 + cast(int, fv["hour_of_day"])


def _usual_hour(hours: Sequence[int], min_days: int) -> int | None:
    """The hour most of these days opened (or closed) at, more than half of them, read from at least
    `min_days`; else None."""
    if len(hours) < min_days:
        return None
    usual = max(set(hours), key=hours.count)
    return usual if hours.count(usual) * 2 > len(hours) else None


def _day_hours(pts: Sequence[Point], local: Mapping[datetime, datetime]) -> dict[date, tuple[int, int]]:
    """Each local day's first and last hour with a partition."""
    out: dict[date, tuple[int, int]] = {}
    for q in pts:
        day, hour = local[q.at].date(), local[q.at].hour
        first, last = out.get(day, (hour, hour))
        out[day] = (min(first, hour), max(last, hour))
    return out


def _own_openings(days: Mapping[date, tuple[int, int]], before: date, cal: HolidayCalendar,
                  end: int = 0) -> dict[int, int]:
    """Each day of the week's usual opening hour (`end` 1: closing hour) over its past days that were no
    holiday, where CLOSED_MIN_OCCASIONS of them say so (a mall's Sundays open at 10h every week)."""
    by_weekday: dict[int, list[int]] = defaultdict(list)
    for day, hours in days.items():
        if day < before and not cal.name(day):
            by_weekday[day.weekday()].append(hours[end])
    own = {weekday: _usual_hour(hours, CLOSED_MIN_OCCASIONS) for weekday, hours in by_weekday.items()}
    return {weekday: hour for weekday, hour in own.items() if hour is not None}


def _own_hours_days(pts: Sequence[Point], local: Mapping[datetime, datetime], target: datetime,
                    cal: HolidayCalendar) -> set[int]:
    """The days of the week that keep hours of their own on an hourly series that opens and closes (a
    six-day shop's Sunday on mall hours: 10h-17h against 08h-18h): their usual opening or closing hour is
    not the series' usual one. Such a day's hours are a shape of their own, not the week's hour shape
    times the day's factor (see _earned_cells)."""
    days = _day_hours(pts, local)
    before = local[target].date()
    out: set[int] = set()
    for end in (0, 1):
        usual = _usual_hour([hours[end] for day, hours in days.items() if day < before], OPENED_LATE_MIN_DAYS)
        if usual is not None:
            out |= {weekday for weekday, hour in _own_openings(days, before, cal, end).items() if hour != usual}
    return out


def _later_than_usual(days: Mapping[date, tuple[int, int]], target_local: datetime) -> tuple[int, int] | None:
    """(today's first hour, the series' usual first hour) where the target's local day opened later than
    most past days did (OPENED_LATE_MIN_DAYS read at least), else None."""
    today = target_local.date()
    now = days[today][0] if today in days else target_local.hour
    usual = _usual_hour([hours[0] for day, hours in days.items() if day < today], OPENED_LATE_MIN_DAYS)
    return None if usual is None or now <= usual else (now, usual)


def _opened_late(pts: Sequence[Point], local: Mapping[datetime, datetime], target: datetime,
                 cal: HolidayCalendar) -> tuple[int, int] | None:
    """(today's first hour, the usual one) where the target's day, on an hourly series that opens at a
    usual hour (the first partition of most of its days), began later than that (a storm's warning that
    cancelled a morning's trading, in no calendar: the orders the closed hours would have held come
    after), else None. A series open every hour opens at midnight and is never late. A day of the week
    that keeps later hours of its own (a Sunday's mall hours: every past Sunday opened at 10h) is late
    only against its own usual opening, and a holiday that opens at the hour some day of the week
    usually opens at keeps that day's hours (`_kept_hours`): neither is a closure in no calendar, and
    neither carries a backlog."""
    today = local[target].date()
    days = _day_hours(_without_latest_empty_run(pts, local, today), local)
    if (late := _later_than_usual(days, local[target])) is None:
        return None
    now, usual = late
    own = _own_openings(days, today, cal)
    kept = own.values() if cal.name(today) else [own[today.weekday()]] if today.weekday() in own else []
    return None if any(now <= hour for hour in kept) else (now, usual)


def _without_latest_empty_run(pts: Sequence[Point], local: Mapping[datetime, datetime], today: date) -> list[Point]:
    """The history without the empty partitions that opened the target's day, where they are the end of the
    history's one run of empty partitions (a group whose branches a storm closed from one noon to the next:
    its rows absent, the other groups' making the partitions). A day opens at its first partition with rows:
    its empty morning is a closure in no calendar, and its orders come after, as a day whose first partitions
    are missing. A history with empty partitions elsewhere (a small group's quiet hours at zero) keeps them:
    there an empty hour is a count, not a closure."""
    opened = next((i for i in range(len(pts)) if local[pts[i].at].date() == today and pts[i].value > 0), None)
    if opened is None or opened == 0 or pts[opened - 1].value > 0 or local[pts[opened - 1].at].date() != today:
        return list(pts)
    start = opened
    while start > 0 and pts[start - 1].value <= 0:
        start -= 1
    if any(q.value <= 0 for q in pts[:start]) or any(q.value <= 0 for q in pts[opened:]):
        return list(pts)
    return [q for i, q in enumerate(pts) if not start <= i < opened or local[q.at].date() != today]


def _kept_hours(pts: Sequence[Point], local: Mapping[datetime, datetime], target: datetime,
                cal: HolidayCalendar) -> list[int]:
    """The days of the week whose hours a holiday keeps: it opened at the hour they usually open at,
    later than the series' usual opening (a shop whose holiday opens on its Sunday's mall hours, 10h
    against 08h). Its closed morning says which kind of day it is before any of its hours can: it is
    read as that day, not as an ordinary day. [] where the target's day is no holiday, opened at the
    series' usual hour, or at no day's own."""
    today = local[target].date()
    if not cal.name(today):
        return []
    days = _day_hours(pts, local)
    if (late := _later_than_usual(days, local[target])) is None:
        return []
    return sorted(weekday for weekday, hour in _own_openings(days, today, cal).items() if hour == late[0])


def _after_holiday(day: date, cal: HolidayCalendar) -> bool:
    """`day` is the first business day after a holiday that closed a business day (Tuesday after a
    Monday's, Monday after a Friday's; a holiday on a weekend day closes none)."""
    if not cal.is_business_day(day):
        return False
    before = day - timedelta(days=1)
    for _ in range(7):
        if cal.is_business_day(before):
            return False
        if cal.name(before) and not cal.is_weekend(before):
            return True
        before -= timedelta(days=1)
    return False


def _after_closure_days(days: Iterable[date], target: date) -> tuple[set[date], bool] | None:
    """An hourly series that closes whole days (`days`: the local days holding a partition): the open
    days that follow a closure, and whether `target` is one. A closure is a run of days without a
    partition holding a weekday the series is usually open on (a holiday on a weekday, Dashain's
    week), read from the partitions, not the calendar's weekend: a desk open on Sundays whose holidays
    close it has its backlog on the Sunday after, which a Saturday-Sunday weekend would put on the
    Monday. The first open day after is counted in open days (a closure followed by the usual weekly
    day off has its backlog after that day too). None where no usual open day was ever closed (a
    series open every day, or never closing beyond its week): the calendar's holidays are read."""
    opened = sorted(set(days))
    if len(opened) < 2:
        return None
    usual = open_weekdays(opened)
    seen = set(opened)

    def after_closure(day: date, before: date) -> bool:
        between = (before + timedelta(days=k) for k in range(1, (day - before).days))
        return any(d.weekday() in usual and d not in seen for d in between)

    after = {d for b, d in itertools.pairwise(opened) if after_closure(d, b)}
    if not after:
        return None
    earlier = [d for d in opened if d < target]
    return after, target in after if target in seen else bool(earlier) and after_closure(target, earlier[-1])


def _after_holiday_hours(feats: list[dict[str, object]], target_feats: dict[str, object],
                         moments: Sequence[datetime], target: datetime, cal: HolidayCalendar,
                         open_moments: Sequence[datetime] = ()) -> None:
    """On an hourly series whose target is the first business day after a holiday (`moments`, `target`:
    local hours), each hour of such days is a neighbourhood of its own ("a holiday 10h +1d": the
    morning's backlog, the afternoon as usual), learned across the history's past holidays and earned
    as a neighbourhood is (_indistinct), where the history holds AFTER_HOLIDAY_MIN_DAYS of them before
    the target's day (today's earlier hours keep their labels: they are the day's hours so far). A
    series that closes whole days (`open_moments`: every partition's local hour, empty ones too) has
    its closures read from its partitions (_after_closure_days), the calendar's otherwise. Any other
    target, or too few past days: nothing is labelled, the forecast is as before."""
    read = _after_closure_days([at.date() for at in open_moments], target.date()) if open_moments else None
    if read is not None:
        after, target_after = read
    else:
        target_after = _after_holiday(target.date(), cal)
        after = {d for d in {at.date() for at in moments} if _after_holiday(d, cal)} if target_after else set()
    # the minimum counts past days only: the target's own day (its earlier hours are history) is no
    # past occasion, and with it one past day would earn the target hour a group of one member
    if len({d for d in after if d < target.date()}) < AFTER_HOLIDAY_MIN_DAYS:
        return
    for fv, at in [*zip(feats, moments), (target_feats, target)]:
        if at.date() in after if fv is not target_feats else target_after:
            fv["near_holiday"] = f"a holiday {cast(int, fv.get('hour_of_day', at.hour)):02d}h +1d"  # (the wall clock's)


def _earned_closes(pts: Sequence[Point], cal: HolidayCalendar) -> tuple[str, ...]:
    """The period closes (PERIOD_CLOSES: the weeks around the calendar's fiscal quarter ends, and its year
    ends apart) whose days stand out in this series' history, read and earned as a festival's are (see
    _earned_festivals: each day against its weekday's weeks around, outside every close's reach, at
    FESTIVAL_FAMILY_P over the closes tried). A calendar's quarter ends are known on every series; only
    a history whose weeks around them move earns them (a push before the close, a quiet week after it)."""
    days = [q.at.date() for q in pts]
    if not days:
        return ()
    first, last = min(days), max(days)
    tried = {name: ends for name, _ in PERIOD_CLOSES
             if (ends := cal.period_ends(name, first, last + timedelta(days=CLOSE_DAYS_BEFORE)))}
    # (a month's close, its last PERIOD_CLOSE_DAYS + 1 business days and first PERIOD_CLOSE_DAYS, is no
    # evidence: every month holds one, and the model reads it by business day and period end already)
    edges = {d for d in days if -PERIOD_CLOSE_DAYS - 1 <= cast(int, features_of(
        datetime(d.year, d.month, d.day), "day", cal)["business_day_edge"]) <= PERIOD_CLOSE_DAYS} - \
        {d for d in days if not cal.is_business_day(d)}
    # (a close recurs: shown by one occasion alone it is that occasion's event, a December close's
    # Christmas rush)
    earned = _earned_windows(pts, cal, tried, -(CLOSE_DAYS_BEFORE - 1), CLOSE_DAYS_AFTER, edges, CLOSE_MIN_OCCASIONS)
    # (and the year's close only with its quarters': a year end alone standing out is the yearly season's,
    # a high December and a low January, which the months read)
    return earned if PERIOD_CLOSES[0][0] in earned else ()


def _earned_festivals(pts: Sequence[Point], cal: HolidayCalendar) -> tuple[str, ...]:
    """The moving festivals of other calendars (FESTIVALS, those the series' calendar lacks) whose days
    stand out in this series' history. Each day's deviation: its log against the median of the same
    weekday in the FESTIVAL_WEEKS weeks before, and after, outside every festival's reach (the smaller
    where both agree, none where they part; the weeks after alone at the history's start); a day stands out beyond FESTIVAL_Z noise sds (a robust
    spread of the ordinary days' deviations from the weeks around them). A festival is earned where
    its days that stand out (of its two weeks before and days after, each occurrence in the history)
    are FESTIVAL_MIN_SHARE of them at least and improbable at FESTIVAL_FAMILY_P over the festivals
    tried, against the counts in windows as long of ordinary days: their rate and how they cluster (a
    beta-binomial of that rate and spread: a month's step or a noisy week piles deviations up in
    ordinary windows too). The calendar's own holidays, the days next to them and its seasons
    (Ramadan) are left out (their effects are the calendar's), as are the days two festivals' reaches
    share. Each series (a group, the total) earns its own: a festival holds where its community shops."""
    dated = [q.at.date() for q in pts if q.value > 0]
    if len(dated) < 2 * 7 * FESTIVAL_WEEKS:
        return ()
    return _earned_windows(pts, cal, cal.festivals_tried(min(dated), max(dated)), -FESTIVAL_DAYS_BEFORE,
                           FESTIVAL_DAYS_AFTER)


def _earned_spans(pts: Sequence[Point], cal: HolidayCalendar) -> tuple[tuple[str, str], ...]:
    """The spans between two moving holidays of the series' calendar (`HolidayCalendar.moving_spans`: weeks
    between two feasts that move together, weeks apart between years) within which this series sat at another
    level in every year the history shows: each span it holds reads its days (but the calendar's holidays and
    their neighbourhoods) against the same weekday's median in the SPAN_AROUND_WEEKS weeks before it, and in
    those after it, where the history holds them, each a median over the span's days. A year's history (the
    check's 400 days) holds the span of this year so far, seen moving in, and last year's, seen moving back, its
    start often cut: each is an occasion. Earned where SPAN_MIN_OCCASIONS occasions at least show it, every
    reading on one side by SPAN_Z robust sds of the same readings on windows as long of the history's other
    days (a level's drift, a summer, a step: what a span's reading holds by chance). A level that moved in at
    one holiday and back at the other, in two years, is a season of the series; a group that kept its level (the
    total, where the mix moved) earns nothing. Each series earns its own."""
    logs = {q.at.date(): math.log(q.value) for q in pts if q.value > 0}
    if len(logs) < 2 * 7 * FESTIVAL_WEEKS:
        return ()
    first, last = min(logs), max(logs)
    tried = cal.moving_spans(first, last)
    if not tried:
        return ()
    reach = 7 * SPAN_AROUND_WEEKS
    own = {d + timedelta(days=k) for d in logs if cal.name(d) for k in range(-NEIGHBOURHOOD_DAYS, NEIGHBOURHOOD_DAYS + 1)}
    inside = {a + timedelta(days=k) for spans in tried.values() for a, b in spans for k in range((b - a).days + 1)}

    def reading(a: date, b: date, its: Collection[date]) -> list[float]:
        # the median of the span's days (strictly between a and b) the history holds against their weekday's weeks
        # before a, and after b, each side where the history holds its weeks and half the span's days or
        # SPAN_MIN_DAYS of them read against it (outside `its`: the days of the span's other years)
        sides: list[list[float]] = [[], []]
        days = [a + timedelta(days=k) for k in range(1, (b - a).days)]
        for d in days:
            if d not in logs or d in own:
                continue
            for side, step in enumerate((-7, 7)):
                # (the same weekday's first weeks outside the span: before its first holiday, after its last)
                weeks = abs((d - (a if side == 0 else b)).days) // 7 + 1
                around = [logs[e] for e in (d + timedelta(days=step * (weeks + j)) for j in range(SPAN_AROUND_WEEKS))
                          if e in logs and e not in own and e not in its]
                if len(around) >= FESTIVAL_MIN_WEEKS:
                    sides[side].append(logs[d] - median(around))
        return [median(v) for v in sides if v and len(v) >= min(SPAN_MIN_DAYS, (len(days) + 1) // 2)]

    earned = []
    for pair, spans in tried.items():
        its = {a + timedelta(days=k) for a, b in spans for k in range(1, (b - a).days)}
        seen = [r for a, b in spans if a < last and b > first and (r := reading(a, b, its))]
        values = [v for r in seen for v in r]
        if len(seen) < SPAN_MIN_OCCASIONS or not (all(v > 0 for v in values) or all(v < 0 for v in values)):
            continue  # (no span this series could earn: the ordinary windows below are the costly part)
        length = max((b - a).days for a, b in spans)
        # windows as long of the other days, a week apart, neither they nor their weeks around in a span tried
        ordinary: list[float] = []
        a = first + timedelta(days=reach)
        while a + timedelta(days=length + reach) <= last:
            b = a + timedelta(days=length)
            if not any(a - timedelta(days=reach) + timedelta(days=k) in inside for k in range(length + 2 * reach + 1)):
                r = reading(a, b, inside)
                if len(r) == 2:
                    ordinary += r
            a += timedelta(days=7)
        if len(ordinary) < 2 * SPAN_AROUND_WEEKS:
            continue
        sd = MAD_SCALE * mad(ordinary)
        if sd > 0 and (all(v > SPAN_Z * sd for v in values) or all(v < -SPAN_Z * sd for v in values)):
            earned.append(pair)
    return tuple(earned)


def _earned_windows(pts: Sequence[Point], cal: HolidayCalendar, tried: Mapping[str, Sequence[date]], lo: int,
                    hi: int, left_out: Collection[date] = (), min_occasions: int = 1) -> tuple[str, ...]:
    """The names of `tried` (each its anchor days) whose windows (the days `lo` to `hi` from an anchor)
    stand out of the history, as _earned_festivals reads them (`left_out`: days no evidence either way;
    `min_occasions`: windows that must each show it, a FESTIVAL_MIN_SHARE of their days standing out)."""
    logs = {q.at.date(): math.log(q.value) for q in pts if q.value > 0}
    if len(logs) < 2 * 7 * FESTIVAL_WEEKS:
        return ()
    first, last = min(logs), max(logs)
    length = hi - lo + 1
    windows = {name: {day: {day + timedelta(days=k) for k in range(lo, hi + 1)}
                      for day in days} for name, days in tried.items()}
    windows = {name: w for name, w in windows.items() if any(d in logs for days in w.values() for d in days)}
    if not windows:
        return ()
    own = {d + timedelta(days=k) for d in logs if cal.name(d)
           for k in range(-NEIGHBOURHOOD_DAYS, NEIGHBOURHOOD_DAYS + 1)} | {d for d in logs if cal.season(d)[0]} \
        | set(left_out)
    inside = {d for w in windows.values() for days in w.values() for d in days}

    def deviation(d: date) -> tuple[float, float] | None:
        # against the weeks around (the noise's spread), and against the weeks before and the weeks
        # after apart: a festival stands out of both, a day next to a change of level out of one
        # only (then 0); the nearer of the two where both agree. At the history's start the weeks
        # after alone; never the weeks before alone (a level that moved in the last weeks is a shift's)
        sides, values = [], []
        for direction in (-1, 1):
            around = [logs[e] for e in (d + timedelta(days=7 * j * direction) for j in range(1, FESTIVAL_WEEKS + 1))
                      if e in logs and e not in inside and e not in own]
            if len(around) >= FESTIVAL_MIN_WEEKS:
                sides.append(logs[d] - median(around))
                values += around
            elif direction > 0 or d - timedelta(days=7 * FESTIVAL_WEEKS) >= first:
                return None
        apart = sides[0] if len(sides) == 1 else min(sides, key=abs) if sides[0] * sides[1] > 0 else 0.0
        return logs[d] - median(values), apart

    devs = {d: v for d in logs if d not in own and (v := deviation(d)) is not None}
    ordinary = [whole for d, (whole, _) in devs.items() if d not in inside]
    if len(ordinary) < 2 * 7 * FESTIVAL_WEEKS:
        return ()
    mid = median(ordinary)
    sd = 1.4826 * median(abs(v - mid) for v in ordinary)
    if sd <= 0:
        return ()
    out = {d: abs(apart) > FESTIVAL_Z * sd for d, (_, apart) in devs.items()}
    # windows of ordinary days as long as a festival's reach: how many of their days stand out
    # (counted over running sums of the days: a window starts on each day of the history)
    days_in = (last - first).days + 1
    ordinals = [(d - first).days for d in inside if first <= d <= last]
    ins, read, stood = np.zeros(days_in, dtype=int), np.zeros(days_in, dtype=int), np.zeros(days_in, dtype=int)
    ins[ordinals] = 1
    for d, flag in out.items():
        read[(d - first).days], stood[(d - first).days] = 1, int(flag)
    starts = max(days_in - length + 1, 0)

    def running(a: np.ndarray) -> np.ndarray:
        c = np.concatenate(([0], np.cumsum(a)))
        return c[length:length + starts] - c[:starts]

    keep = running(ins) == 0
    lengths, sums = running(read)[keep], running(stood)[keep]
    kept = 2 * lengths >= length
    lengths, sums = lengths[kept], sums[kept]
    if len(lengths) < 2:
        return ()
    rate = max(int(sums.sum()) / int(lengths.sum()), 2 * float(norm.sf(FESTIVAL_Z)))
    size = float(np.mean(lengths))
    spread = float(np.var(sums))
    # (the share of a window's days that stand out together: 0 for days as independent as coins)
    together = min(max((spread / (size * rate * (1 - rate)) - 1) / max(size - 1, 1), 0.0), FESTIVAL_MAX_TOGETHER)
    earned = []
    for name, w in windows.items():
        # (a day in another festival's reach too is neither's evidence: Diwali's weeks meet Mid-Autumn's)
        others = {d for n, o in windows.items() if n != name for days in o.values() for d in days}
        days = [out[d] for span in w.values() for d in span if d in out and d not in others]
        # (on half a reach's days at least, as the ordinary windows: two days of a reach cut by the
        # history's start are no festival's evidence)
        if 2 * len(days) < length or sum(days) < FESTIVAL_MIN_SHARE * len(days):
            continue
        shown = [[out[d] for d in span if d in out and d not in others] for span in w.values()]
        if sum(1 for o in shown if o and sum(o) >= FESTIVAL_MIN_SHARE * len(o)) < min_occasions:
            continue
        if together > 0:
            a, b = rate * (1 / together - 1), (1 - rate) * (1 / together - 1)
            tail = float(betabinom.sf(sum(days) - 1, len(days), a, b))
        else:
            tail = float(binom.sf(sum(days) - 1, len(days), rate))
        if tail < FESTIVAL_FAMILY_P / len(tried):
            earned.append(name)
    return tuple(earned)


def _long_closure_eves(days: Iterable[date], target: date, cal: HolidayCalendar) -> dict[date, int] | None:
    """An hourly series that closes whole days (`days`: the local days holding a partition): its open
    days just before a long closure (one closing more than LONG_CLOSURE_DAYS - 1 of its usual open days:
    a festival's week, not a single holiday), by position counted in open days (1: the last open day
    before it), LONG_CLOSURE_EVES of them, the target's too where the calendar's holidays ahead close
    it (its closure is not yet in the partitions): people leave before the festival. Holidays ahead
    are read as closed only where the series closed most of its past holidays on usual open days.
    None where no long closure was seen (the target's alone is a closure never seen: nothing labelled)."""
    opened = sorted(set(days))
    if len(opened) < 2:
        return None
    usual = open_weekdays(opened)
    seen = set(opened)
    eves: dict[date, int] = {}
    # (the target's day ends the latest closure where it is the first open day after it)
    for k, (b, d) in enumerate(itertools.pairwise([*opened, target] if target > opened[-1] else opened)):
        closed = sum(1 for j in range(1, (d - b).days) if (b + timedelta(days=j)).weekday() in usual)
        if closed >= LONG_CLOSURE_DAYS:
            for pos in range(1, LONG_CLOSURE_EVES + 1):
                if k + 1 - pos >= 0:
                    eves.setdefault(opened[k + 1 - pos], pos)
    if not eves:
        return None
    span = [opened[0] + timedelta(days=j) for j in range((opened[-1] - opened[0]).days + 1)]
    named = [d for d in span if d.weekday() in usual and cal.name(d)]
    if named and sum(d not in seen for d in named) * 2 > len(named):
        pos, day = 0, target
        while pos < LONG_CLOSURE_EVES:  # the target is `pos + 1` open days before the closure ahead, if any
            day += timedelta(days=1)
            if day.weekday() in usual and not cal.name(day):
                pos += 1
                continue
            run, closed = day, 0
            while run.weekday() not in usual or cal.name(run):
                closed += run.weekday() in usual
                run += timedelta(days=1)
            if closed >= LONG_CLOSURE_DAYS:  # the target and the open days before it, back to the first eve
                before = [d for d in opened if d < target][::-1]
                for k, d in enumerate([target, *before][:LONG_CLOSURE_EVES - pos]):
                    eves[d] = pos + 1 + k
            break
    return eves


def _closure_eve_hours(feats: list[dict[str, object]], target_feats: dict[str, object],
                       moments: Sequence[datetime], target: datetime, cal: HolidayCalendar,
                       open_moments: Sequence[datetime]) -> None:
    """On an hourly series that had a long closure (_long_closure_eves), the open days before each are
    one neighbourhood (f"{LONG_CLOSURE_LABEL} -{LONG_CLOSURE_EVES}d": both days, so that one past closure
    is two days of evidence), learned from the history's past long closures (a Dashain a year) and
    earned as a neighbourhood is (_indistinct): not earned (one festival on a few dozen rows an hour),
    the eve is an ordinary day, whose band already holds most of such a dip (a reach to the past eves'
    effect cost 20% drops and passed no partition more). The target is labelled only where the
    calendar's holidays ahead make it an eve. A day that is also the first after a closure keeps that
    label."""
    eves = _long_closure_eves([at.date() for at in open_moments], target.date(), cal)
    if not eves:
        return
    for fv, at in [*zip(feats, moments), (target_feats, target)]:
        pos = eves.get(at.date())
        if pos and fv.get("near_holiday") in NONE:
            fv["near_holiday"] = f"{LONG_CLOSURE_LABEL} -{LONG_CLOSURE_EVES}d"


def _shut_day_eves(days: Iterable[date], target: date, cal: HolidayCalendar) -> tuple[set[date], bool] | None:
    """An hourly series shut on its calendar's holidays (`days`: the local days holding rows): the open
    days just before a holiday it was shut on (a usual open weekday, named in the calendar, no rows), and
    whether `target` is the eve of a holiday ahead (its closure not yet in the partitions). None where the
    series kept fewer than half of the named usual open days of its history shut (a business open on its
    holidays: their eves are the calendar's neighbourhoods, as before), or none was shut."""
    opened = sorted(set(days))
    if len(opened) < 2:
        return None
    usual, seen = open_weekdays(opened), set(opened)
    span = [opened[0] + timedelta(days=j) for j in range((opened[-1] - opened[0]).days + 1)]
    named = [d for d in span if d.weekday() in usual and cal.name(d)]
    shut = {d for d in named if d not in seen}
    if not shut or len(shut) * 2 < len(named):
        return None
    eves = {d - timedelta(days=1) for d in shut if d - timedelta(days=1) in seen and not cal.name(d - timedelta(days=1))}
    ahead = target + timedelta(days=1)
    return eves, not cal.name(target) and bool(cal.name(ahead)) and ahead.weekday() in usual


def _shut_day_eve_hours(feats: list[dict[str, object]], target_feats: dict[str, object],
                        moments: Sequence[datetime], target: datetime, cal: HolidayCalendar) -> None:
    """On an hourly series shut on its calendar's holidays (_shut_day_eves), each hour of the last open day
    before one is a neighbourhood of its own ("a day shut 15h -1d": the afternoon's stocking up before a day
    the shops are shut, the morning as usual), pooled over every holiday it was shut on, as a daily series pools
    its eves of days off (`_eves_of_days_off`), where the history holds AFTER_HOLIDAY_MIN_DAYS such eves before
    the target's day; earned as a neighbourhood is (_indistinct: an hour whose eves ran as usual, or apart both
    ways, is an ordinary hour). It takes the place of the calendar's own neighbourhood of that holiday (seen once
    in four weeks of hours) and of a long closure's eve (`_closure_eve_hours`) on that day. The target's eve (its
    hour and the day's earlier ones) is labelled only where the calendar's holiday ahead makes it one."""
    # (`moments`: the hours holding rows, so a day of empty partitions is a day shut too)
    read = _shut_day_eves([at.date() for at in moments], target.date(), cal)
    if read is None:
        return
    eves, target_eve = read
    if not target_eve or len({d for d in eves if d < target.date()}) < AFTER_HOLIDAY_MIN_DAYS:
        return
    # (the target day's earlier hours are the same eve's: left ordinary, its afternoon so far would read as a new
    # level to the shift rule)
    for fv, at in [*zip(feats, moments), (target_feats, target)]:
        if (at.date() in eves or at.date() == target.date()) and not fv.get("after_gap"):
            fv["near_holiday"] = f"a day shut {cast(int, fv.get('hour_of_day', at.hour)):02d}h -1d"


def _earned_cells(fit: SeriesFit, own_days: Collection[int] = (), run_hours: int = 0) -> set[object]:
    """The hours of the week (`hour_of_week` values) whose residuals over the fit's hour and weekday
    effects stand out of the series' noise (CELL_FAMILY_P over the hours tested, each half of the
    history on the same side): an interaction a few hours of the week show (Monday mornings' backlog
    on a queue too noisy for all 168 effects to pay for themselves). Ordinary points only. A day of the
    week that keeps hours of its own (`own_days`, see _own_hours_days) is tested as a whole day: four
    weeks of hours hold too few of its days for each hour's test, but its hours' departures from the
    week's hour shape, together, stand out or not (a mall's Sunday peaking at 13h where the week peaks
    at 10h); where they do, each of its hours is its own."""
    sd = _noise_sd(fit)
    resid = np.asarray(fit.resid)
    cells: dict[object, list[int]] = defaultdict(list)
    calendar_hours: dict[object, list[int]] = defaultdict(list)  # the hours of calendar days (holidays, ...)
    for i, fv in enumerate(fit.feats):
        ordinary = not any(fv.get(f, "") not in NONE for f in EARNED)
        (cells if ordinary else calendar_hours)[cast(int, fv["weekday"]) * 24 + cast(int, fv["hour_of_day"])].append(i)
    tested = {c: idx for c, idx in cells.items() if len(idx) >= CELL_MIN_WEEKS}
    if sd <= 0:
        return set()
    bar = float(norm.isf(CELL_FAMILY_P / (2 * max(len(tested), 1))))
    earned: set[object] = set()
    for cell, idx in tested.items():
        values = resid[idx]
        effect = float(np.median(values))
        if abs(effect) <= bar * _median_se(sd, len(idx)):
            continue
        halves = (values[:len(idx) // 2], values[len(idx) // 2:])
        if all(float(np.median(h)) * math.copysign(1.0, effect) > CELL_HALF_Z * _median_se(sd, len(h))
               for h in halves):
            earned.add(cell)
    for day in own_days:
        whole = {c: idx for c, idx in cells.items() if cast(int, c) // 24 == day and len(idx) >= CLOSED_MIN_OCCASIONS}
        # (against the day's own scatter where it is the wider: a day of fewer rows counts noisier)
        day_sd = max(sd, _within_sd([resid[idx] for idx in whole.values()]))
        score = sum((float(np.median(resid[idx])) / _median_se(day_sd, len(idx))) ** 2 for idx in whole.values())
        if whole and score > chi2.isf(CELL_FAMILY_P, len(whole)):
            earned |= set(whole)
    if run_hours:
        earned |= _earned_runs(cells, resid, sd, run_hours, [cast(int, fv["day"]) for fv in fit.feats],
                               calendar_hours)
    return earned


def _earned_runs(cells: Mapping[object, Sequence[int]], resid: np.ndarray, sd: float, run_hours: int,
                 days: Sequence[int] = (), calendar_hours: Mapping[object, Sequence[int]] | None = None) -> set[object]:
    """The hours of the week, seen on CELL_RUN_MIN_WEEKS past weeks or more but fewer than CELL_MIN_WEEKS, that
    lie in a run of `run_hours` or more adjacent hours of one day of the week whose every past occurrence sat on
    the same side of the hour's and weekday's effects and of that day's other hours, and whose medians together
    stand out (chi-squared at CELL_FAMILY_P over the seven days, against the wider of the series' noise and the
    run's own within-hour scatter, as a day on hours of its own is tested). A run as long as the shift rule's is
    the shape of that day's hours, seen every week, not a step: without it a weekend's three morning hours at x0.5
    (four weekends in four weeks of hours, too few for each hour's own test) read below the band and then as a new
    level carried into the next, ordinary hour. One past day (`days`: each point's day) may sit on the other side
    at every hour of the run, each `CELL_ODD_Z` noise sds beyond its hour's other weeks: an event that evening (a
    festival's night), not a doubt on the weekly shape (see _odd_day); the run is then read on its other weeks.
    Where an hour's ordinary weeks alone are too few or disagree, its calendar days' hours (`calendar_hours`: a
    holiday's, a neighbourhood's) count as weeks too, agreeing or as the one odd day: a holiday worked as its
    weekday is one more week of the shape (a holiday in four weeks of hours otherwise leaves its weekday three)."""
    earned: set[object] = set()
    for day in range(WEEK_DAYS):
        # each hour against its own day's other hours (a day off all day, which no weekday effect took, is no run)
        day_cells = [c for c in cells if cast(int, c) // 24 == day]
        if not day_cells:
            continue
        centre = float(np.median(resid[[i for c in day_cells for i in cells[c]]]))

        def side(cell: int, centre: float = centre) -> tuple[int, frozenset[int]]:
            ordinary = list(cells.get(cell, []))
            if len(ordinary) >= CELL_MIN_WEEKS:
                return 0, frozenset()
            for idx in (ordinary, [*ordinary, *(calendar_hours or {}).get(cell, [])]):
                if len(idx) < CELL_RUN_MIN_WEEKS:
                    continue
                signs = np.sign(resid[idx] - centre)
                for sign in (1, -1):
                    odd = [i for i, s in zip(idx, signs) if s != sign]
                    if not odd:
                        return sign, frozenset()
                    if len(odd) == 1 and days and _odd_day(resid, idx, odd[0], sign, sd):
                        return sign, frozenset({days[odd[0]]})
            return 0, frozenset()
        # (runs of one side each, unbroken within the day, sharing at most one odd day)
        run: list[int] = []
        run_side, run_odd = 0, frozenset[int]()
        for cell in [*range(day * 24, day * 24 + 24), None]:
            key, odd = side(cell) if cell is not None else (0, frozenset())
            if key and key == run_side and len(run_odd | odd) <= 1:
                run, run_odd = run + [cast(int, cell)], run_odd | odd
                continue
            if run_side and len(run) >= run_hours:
                groups = [np.asarray([resid[i] - centre for i in cells[c] if not days or days[i] not in run_odd])
                          for c in run]
                # an hour whose ordinary weeks were none or the odd day alone (its weeks calendar days) adds no evidence
                groups = [g for g in groups if len(g)]
                run_sd = max(sd, _within_sd(groups))
                score = sum((float(np.median(g)) / _median_se(run_sd, len(g))) ** 2 for g in groups)
                if groups and score > chi2.isf(CELL_FAMILY_P / WEEK_DAYS, len(groups)):
                    earned |= set(run)
            run, run_side, run_odd = ([cast(int, cell)], key, odd) if key else ([], 0, frozenset())
    return earned


def _odd_day(resid: np.ndarray, idx: Sequence[int], odd: int, sign: int, sd: float) -> bool:
    """Whether the point `odd` of an hour of the week (its points `idx`) stands `CELL_ODD_Z` noise sds or more
    beyond the hour's other weeks, on the side away from `sign`: an event on that day, not noise around the
    hour's shape (noise alone leaves a fourth week just across the day's centre, not that far)."""
    others = float(np.median([resid[i] for i in idx if i != odd]))
    return -sign * (float(resid[odd]) - others) >= CELL_ODD_Z * sd


def _within_sd(groups: Sequence[np.ndarray]) -> float:
    """The pooled standard deviation of values around their own group's mean (0 with no degree of freedom)."""
    dof = sum(len(g) for g in groups) - len(groups)
    return math.sqrt(sum(float(np.sum((g - g.mean()) ** 2)) for g in groups) / dof) if dof > 0 else 0.0


def _shape_beyond_counting(trial: SeriesFit, fit: SeriesFit, f: str, spread: float, trial_spread: float) -> bool:
    """A weekday shape on a daily series of a few rows (a refunds reason of nine a day, x0.6 on weekends):
    counting moves each day by about 1/sqrt(rows), which no effect explains, so the shape cuts the
    errors by less than the 20% asked of it (9 rows: 0.40 -> 0.33, 17%) and the forecast keeps the
    week's mean; a weekend's count then sits under its Poisson tail. It is earned where it helps at
    all (after paying for its effects) and one of its values stands out by COUNT_SHAPE_Z standard
    errors of the trial's own noise: a flat count of a few rows earns none (seven effects' largest
    of pure noise is some 2.5 of them)."""
    if not trial_spread * trial.dof_factor() < spread * fit.dof_factor():
        return False
    sd = _noise_sd(trial)
    return any(abs(trial.effects[f].get(v, 0.0)) > COUNT_SHAPE_Z * _median_se(sd, m)
               for v, m in trial.members[f].items() if m and v not in NONE)


def _weekday_within_weeks(fit: SeriesFit, gain: float) -> bool:
    """Whether a daily series' weekday shape cuts the errors within its weeks by `gain`: each ordinary day's
    value (less the fit's other effects) against the mean of its own full week (itself and three days either
    side, every one of them an ordinary day), before and after each weekday's median of those residuals is
    taken off (each error capped at 1, as `typical_error`'s). A week's mean holds every weekday once, so a season's
    moves (a mountain town's x0.5 to x2 in two months) hardly reach it, while the one-step errors the dense groups
    are judged by carry the level's lag through them all (a small town's Sundays at x0.7 cut them by 19%, and
    every Sunday was read against all days). At least WITHIN_WEEK_MIN_WEEKS residuals of each weekday."""
    ordinary = {int(cast(int, fv["day"])): (float(e), int(cast(int, fv["weekday"])))
                for fv, e in zip(fit.feats, fit.e) if reads_level(fv) and fv.get("period_end") not in ("quarter", "year")}
    by_weekday: dict[int, list[float]] = defaultdict(list)
    for day, (value, weekday) in ordinary.items():
        week = [ordinary[d][0] for d in range(day - 3, day + 4) if d in ordinary]
        if len(week) == WEEK_DAYS:
            by_weekday[weekday].append(value - sum(week) / WEEK_DAYS)
    if len(by_weekday) < WEEK_DAYS or min(len(r) for r in by_weekday.values()) < WITHIN_WEEK_MIN_WEEKS:
        return False
    before = [min(abs(r), 1.0) for rs in by_weekday.values() for r in rs]
    shapes = {k: median(rs) for k, rs in by_weekday.items()}
    after = [min(abs(r - shapes[k]), 1.0) for k, rs in by_weekday.items() for r in rs]
    return sum(after) < (1 - gain) * sum(before)


def _median_se(sd: float, *counts: float) -> float:
    """The standard error of a median of `counts` points of noise `sd` (of the gap between medians
    when two are given): a median costs pi/2 in variance against a mean."""
    return sd * math.sqrt(math.pi / 2 * sum(1 / n for n in counts))


def _noise_sd(fit: SeriesFit) -> float:
    """The series' noise, in log space: the robust spread of its one-step errors or of its residuals,
    whichever is wider (an effect must stand out of both)."""
    errors = [e for _, e in fit.errors] or fit.resid
    return MAD_SCALE * max(mad(errors), mad(fit.resid))


def _error_runs(errors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each error's side (+1 or -1 where it stands STEP_RUN_Z robust sds or more out, else 0), and whether it is
    in a run of STEP_RUN or more in a row on one side: at two sds three in a row come by chance about once in
    40,000 starts (2 x 0.023 cubed), so a run is the rolling level catching up on something, not noise."""
    sd = MAD_SCALE * mad(errors.tolist())
    side = np.sign(errors - np.median(errors)) * (np.abs(errors - np.median(errors)) >= STEP_RUN_Z * sd)
    caught: list[bool] = []
    for out, run in itertools.groupby(side.tolist()):
        n = len(list(run))
        caught += [out != 0 and n >= STEP_RUN] * n
    return side, np.asarray(caught, dtype=bool)


def _episode_errors(fit: SeriesFit, feats: Sequence[Mapping[str, object]], days: Sequence[date],
                    target_day: date) -> set[int]:
    """A daily series' ordinary days whose one-step errors ran in an episode (`_error_runs`: STEP_RUN or more
    days in a row, each STEP_RUN_Z robust sds out on one side), left out of the target's own group's spread
    (`_spread`). An episode in no calendar (a fill before a fee rises, a school break, a step the level
    caught up on) is one event the level lagged, not the day-to-day noise a day's band is for: a Monday's
    spread read with the three Mondays that fell in December's fill, January's lull and a February break was
    0.050, without them 0.036 (its noise), and a fifth of the days dropped 20% passed. Kept, as
    before, where the target may be in one or its level still hold one: the latest STEP_RUN - 1 errors stand
    out on one side (one more day makes an episode: one under way; a single noisy day before the target is
    not), an episode ended within EPISODE_SETTLE_DAYS (the level window still holds it, and the level or a
    ramp's line read on it may be off: a rollout's ramp overshot a week after it ended), or one of its days
    fell within YEAR_BACK_REACH days of the target's date a year back (a yearly event in no calendar, due
    again). Calendar days keep theirs (their effects are their own groups')."""
    if not fit.errors:
        return set()
    side, caught = _error_runs(np.asarray([e for _, e in fit.errors], dtype=float))
    if side[-1] != 0 and len(set(side[-(STEP_RUN - 1):].tolist())) == 1:
        return set()
    special = _calendar_days(feats)
    episode = {i for (i, _), c in zip(fit.errors, caught) if c and i < len(days) and not special[i]}
    back = target_day - timedelta(days=365)
    if any(abs((days[i] - back).days) <= YEAR_BACK_REACH or (target_day - days[i]).days <= EPISODE_SETTLE_DAYS
           for i in episode):
        return set()
    return episode


def _clipped_noise_sd(fit: SeriesFit) -> float:
    """`_noise_sd` without the one-step errors of a level step being caught up: runs of STEP_RUN or more
    errors in a row, each STEP_RUN_Z robust sds or more out on one side (an old backfill's months in
    and out, read by a rolling level), are no noise a month of the year must stand out of; a fifth to a
    third of the errors inflate even a MAD. Single outliers stay (they are the series' own tails)."""
    errors = np.asarray([e for _, e in fit.errors] or fit.resid, dtype=float)
    _, caught = _error_runs(errors)
    kept = errors[~caught]
    if len(kept) == len(errors) or len(kept) < len(errors) // 2:
        return _noise_sd(fit)
    return MAD_SCALE * max(mad(kept.tolist()), mad(fit.resid))


def _indistinct(fit: SeriesFit, used: Sequence[str], months_earned: bool = False) -> set[tuple[str, object]]:
    """The earned groups (a holiday, a day near one, a closure's length) whose past effect is within
    DISTINCT_Z standard errors of zero: their days are ordinary days, judged by the ordinary band,
    instead of a group of one or two noisy past points whose band would sit at the ceiling.
    `months_earned`: a daily series' months of the year already earned theirs (`_earned_months`)."""
    sd = _noise_sd(fit)
    # a monthly series' month of the year is read against its noise without the level's catching-up errors
    month_sd = _clipped_noise_sd(fit) if "month_of_year" in used and not months_earned else sd
    # each point's counting variance in log space (1/rows) where it has few rows (FEW_ROWS: counting
    # alone moves it by 10% or more), as far as the series' own noise shows counting: rows that
    # arrive like clockwork (a spread under 1/sqrt(rows)) scale it down
    counting_var = np.exp(-(np.asarray(fit.local) + np.asarray(fit.total)))
    if len(counting_var):
        counting_var *= min(1.0, sd ** 2 / max(float(np.median(counting_var)), 1e-12))
        counting_var[counting_var * FEW_ROWS < 1.0] = 0.0
    drop = set()
    for f in EARNED:
        if f not in used or (months_earned and f == "month_of_year"):
            continue
        points: dict[object, list[int]] = defaultdict(list)
        for i, fv in enumerate(fit.feats):
            points[fv.get(f)].append(i)
        for value, members in fit.members[f].items():
            if value in NONE or not members:
                continue
            # a rolled day's neighbour ("27 preceding -1d") earns its group as a holiday's does
            neighbour = f == "rolled_day" and str(value).endswith("d")
            if members < (ROLLED_MIN_OCCASIONS if neighbour else MIN_OCCURRENCES.get(f, 1)):
                drop.add((f, value))
                continue
            # a median of one or two points is their mean; of more, it costs pi/2 in variance
            # a past occurrence of a few rows moves by counting alone (a log-sd of 1/sqrt(rows)), more
            # than the series' typical day: a Sunday of four rows that a holiday's neighbour fell on
            # (x0.25 of a Monday of forty, drawn 1) is no effect of the neighbourhood
            own = points[value]
            # (the median of more than two occurrences is moved by its typical occurrence's counting, not by a
            # thin one's: a month's turn that fell once on a closed festival, two rows, is no noisier a group)
            typical = np.median if members > 2 else np.mean
            counting = float(typical(counting_var[own])) * members / len(own) if own else 0.0
            noise = month_sd if f == "month_of_year" else sd
            se = math.sqrt(max(noise ** 2, counting) * (math.pi / 2 if members > 2 else 1.0) / members)
            if abs(fit.effects[f].get(value, 0.0)) <= DISTINCT_Z["near_holiday" if neighbour else f] * se:
                drop.add((f, value))
    return drop


def _group_label(fv: Mapping[str, object], used: Iterable[str]) -> str:
    parts = []
    for f in used:
        v = fv[f]
        if f in SPARSE and v in NONE:
            continue
        if f == "period_end":
            parts.append(f"{v}_end")
        elif f == "weekday":
            parts.append(calendar.day_abbr[cast(int, v)])  # features_of sets ints
        elif f == "hour_of_week":
            if v == "":  # an hour of the week without an effect of its own (_earned_cells)
                continue
            parts.append(f"{calendar.day_abbr[cast(int, v) // 24]} {cast(int, v) % 24:02d}h")
        elif f == "hour_of_day":
            parts.append(f"{cast(int, v):02d}h")
        elif f == "business_day":
            parts.append(f"business_day={v}" if v != -1 else "non_business_day")
        elif f == "business_day_from_end":
            parts.append(f"business_day={v} from the end" if v else "non_business_day")
        elif f == "business_day_edge":
            parts.append(f"business_day={v} from the {'start' if cast(int, v) > 0 else 'end'}" if v
                         else "non_business_day")
        elif f in ("near_holiday", "near_period_end"):
            parts.append(f"near:{v}")
        elif f == "after_gap":
            parts.append(f"after_{v}_closed_{'hours' if 'hour_of_day' in fv else 'days'}")
        elif f == "month_of_year":
            parts.append(f"month:{calendar.month_abbr[cast(int, v)]}")
        elif f == "season":
            parts.append(f"season:{v}")
        elif f == "rolled_day":
            parts.append(f"day:{v}")
        elif f == "week_of_year":
            parts.append(f"week:{v}")
        elif f == "period_of_year":
            parts.append("period of the year" if v == 0 else f"period:{v} before the target's")
        else:
            parts.append(f"holiday:{v}")
    return ", ".join(parts) or "all"


def reads_total_as_groups_sum(groups: int, forecast: int, own_calendars: int, few_weekdays: int = 0) -> bool:
    """Whether a total is read as the sum of its groups' forecasts (`total_of_groups`): every one of its
    `groups` was `forecast` and `own_calendars` of them keep calendars of their own, or `few_weekdays` of them land
    on a few weekdays only (`rows_on_few_weekdays`: a weekly file, moved to the next business day off a holiday, so
    the total's own past seldom holds the day's mix of a moved file and a holiday). One rule for the grouped check
    and the benchmark, so the two cannot drift."""
    return groups > 0 and forecast == groups and (own_calendars > 0 or few_weekdays > 0)


def total_of_groups(total: Forecast, groups: Sequence[Forecast], params: ModelParams | None = None) -> Forecast:
    """The forecast of a total over groups that keep calendars of their own (regions' school breaks and
    holidays): the sum of the groups' forecasts, its band the groups' half-widths added in quadrature (each
    group's band is its own k standard deviations; independent errors add as variances), never tighter than
    the model's floor. The total's own past holds a day's mix of group states (which groups are on break)
    only when that mix recurred, and regional breaks move against each other from year to year; each
    group's forecast reads its own calendar, so their sum holds the mix of the target day. The total's
    hard ratio is kept; it is empty as usual only where every group is."""
    p = params or ModelParams()
    # a group closed on its own calendar's holiday adds no rows, and at most its upper side if it opens
    open_ = [g for g in groups if not g.closed]
    baseline = sum(g.baseline for g in open_)
    if groups and not open_:
        closed_note = "every group is closed on its own calendar's holiday: an empty total is expected"
        return replace(total, empty_is_normal=True, notes=[*total.notes, closed_note])
    if not groups or baseline <= 0:
        return total
    up = math.sqrt(sum((g.upper - g.baseline) ** 2 for g in open_) + sum(g.upper ** 2 for g in groups if g.closed))
    down = math.sqrt(sum((g.baseline - g.lower) ** 2 for g in open_))
    upper = max(baseline + up, baseline * math.exp(p.floor))
    lower = min(max(baseline - down, 0.0), baseline * math.exp(-p.floor))
    upper = min(upper, baseline * total.hard_ratio)
    h = max(math.log(upper / baseline), -math.log(lower / baseline) if lower > 0 else p.ceiling)
    return replace(total, baseline=baseline, lower=lower, upper=upper, half_width=h,
                   group=f"the sum of {len(groups)} groups' forecasts, each read on its own",
                   empty_is_normal=all(g.empty_is_normal for g in groups),
                   notes=[*total.notes, (f"read as the sum of its {len(groups)} groups' forecasts (each on its "
                                         f"own calendar and row days; the total's own past was {total.baseline:,.0f} "
                                         f"[{total.lower:,.0f}, {total.upper:,.0f}])")])


def band_judged(fc: Forecast, verdict: Judgement) -> tuple[float, float, float]:
    """The baseline and band (lower, upper) a verdict was read against: on a weekday kept closed that passed
    as open, its open occasions' (the verdict's ratio is to their baseline), else the forecast's own. What a
    check shows a person must be what it judged by, not the closed day's band the value was never held to."""
    if verdict.reason == "open_as_on_occasions" and fc.open_state is not None:
        return fc.open_state
    return fc.baseline, fc.lower, fc.upper


def judge(fc: Forecast, observed: float, *, accepted: bool = False, direction: str = "both") -> Judgement:
    """Hard rules first (empty; at or over `hard_ratio` x baseline), then the band, on the watched side."""
    ratio = observed / fc.baseline if fc.baseline else None
    drop, spike = direction in ("both", "drop"), direction in ("both", "spike")
    if accepted:
        return Judgement(True, "accepted", ratio)
    if observed <= 0 and fc.empty_is_normal:
        return Judgement(True, "empty_as_usual", ratio)  # this group was empty before, e.g. closed Sundays
    if fc.open_state is not None and fc.open_state[1] <= observed <= fc.open_state[2]:
        # a day of a weekday kept closed, open as on its past open occasions: judged by their band (a doubled
        # or a dropped open day falls outside it and meets the closed state's hard ratio below)
        return Judgement(True, "open_as_on_occasions", observed / fc.open_state[0])
    if observed <= 0 and drop:
        return Judgement(False, "empty", ratio)
    if ratio is not None and ratio >= fc.hard_ratio and spike:
        return Judgement(False, "hard_ratio", ratio)
    if observed < fc.lower and drop:
        return Judgement(False, "below_band", ratio)
    if observed > fc.upper and spike:
        return Judgement(False, "above_band", ratio)
    return Judgement(True, "inside", ratio)

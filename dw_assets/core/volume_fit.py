"""Robust statistics and the fitted model of a series: level, trend and calendar group effects
in log space (numpy over a few hundred aggregated points).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, insort
from collections import defaultdict
from collections.abc import Mapping, Sequence
from statistics import median
from typing import cast

import numpy as np

from dw_assets.core.volume_calendar import (
    EARNED,
    NONE,
    OBSERVED,
    SEASONS,
    SPARSE,
    holiday_parts,
    past_a_break,
    split_near,
)

MAD_SCALE = 1.4826
CARRIED = "closure_carried"  # a feature set's key: the series' loads carry their closed days (closures())
FLOOR = 0.05  # a closure's effect never takes a partition below a twentieth of its usual size
# the occasions of a calendar group's past whose residual another group seen on the very same points cannot share
# (see _shared_single_occasions): one; two occasions or more already tell two effects apart where they differ
SHARED_OCCASIONS = 1
# a series of a year of twelve partitions (month-ends) that reads months of the year: its fitted level's window
# reaches half a year either side, so the window holds every month of the year once (see months_level_half),
# where the feature sets carry this key (set by the model where that reading earns its place)
MONTHS_A_YEAR = 12
MONTHS_LEVEL_HALF = MONTHS_A_YEAR // 2
MONTHS_LEVEL = "months_level_year"
# a period end's groups (`_period_ends_alone`), and the groups whose day a period end may share: a holiday, its
# neighbourhood, the day after a closure (each fitted after the period end, see SPARSE)
PERIOD_END_KINDS = ("period_end", "near_period_end")
SHARING_KINDS = ("holiday", "near_holiday", "after_gap")
# the occasions alone a period end's effect is learned from (two past occasions at least, as every learned effect)
ALONE_OCCASIONS = 2
# the days a holiday may lie from every past occasion of a period end and be its pair: a week holds New Year's Day
# from any year's end, however the weekend and the closure fall (the store's last open day two days before it)
PAIRED_DAYS = 7
# a period end's effect learned alone replaces the one learned on all its days only where it moves it by more than
# this many standard errors of a median of its occasions alone: a median of a dozen month ends that jumps by a
# noise's worth when one member leaves it is no holiday's dip taken out of it
ALONE_MOVE_Z = 2.0
# a period end's occasions alone agree where their spread about their median (MAD-scaled) is within this many of
# the series' ordinary spreads: each occasion is one day's reading of one effect, so it scatters by a day's noise
# (two occasions of one effect, each off by a day's noise, pass more than 99 times in 100); an event in no calendar
# on one of them (a lockdown's x0.05 on a quarter's last day) scatters them by tens of spreads, and their median of
# two is then neither occasion's effect: the group keeps the effect learned on all its days
ALONE_AGREE_SPREADS = 3.0
# the occasions alone whose median outvotes one of them an event hit: of three or more the median is one of the
# others; of two it is their midpoint, so only two are asked to agree (a dozen month ends that scatter with their
# weekdays keep their median)
ALONE_OUTVOTED = 3
MEDIAN_SE = math.sqrt(math.pi / 2)  # a median's standard error, in standard deviations over the root of its count
# a period end's group left with too few occasions alone reads as the next, shorter period's at the same place
NEXT_PERIOD = (("year", "quarter"), ("quarter", "month"))
PERIODS = ("month", "quarter", "year")
NEAR_OFFSET = re.compile(r" [+-]\d+d$")  # a neighbourhood's label's offset ("Diwali -3d"; see split_near)


def mad(values: Sequence[float]) -> float:
    if not values:
        return 0.0
    m = median(values)
    return median([abs(v - m) for v in values])


def _mid(window: list[float]) -> float:
    m = len(window)
    return window[m // 2] if m % 2 else (window[m // 2 - 1] + window[m // 2]) / 2


def _rolling_median(values: Sequence[float], half: int) -> list[float]:
    """Median of values[i-half : i+half+1] for every i (the windows shrink at the edges): scipy's
    median filter for the full windows, one sorted window (O(log w) a step) for the edges."""
    values = list(values)
    n = len(values)
    width = 2 * half + 1
    if n < width + 2:
        return _rolling_median_sorted(values, half, range(n))
    # lazy: scipy costs ~0.4 s of CPU to import; the code location (loaded again by every Dagster run
    # worker) is defined without it, and only the runs that traverse a graph or fit a volume model load it
    from scipy.ndimage import median_filter

    out = median_filter(np.asarray(values), size=width, mode="nearest").tolist()
    head = _rolling_median_sorted(values, half, range(half))
    tail = _rolling_median_sorted(values[::-1], half, range(half))[::-1]
    out[:half], out[n - half:] = head, tail
    return out


def _rolling_median_sorted(values: list[float], half: int, indices: range) -> list[float]:
    """The same medians for the first `indices` positions, with one sorted window."""
    n = len(values)
    window = sorted(values[:min(n, half + 1)])
    out = []
    for i in indices:
        if i > 0:
            if i + half < n:
                insort(window, values[i + half])
            if i - half - 1 >= 0:
                del window[bisect_left(window, values[i - half - 1])]
        m = len(window)
        out.append(window[m // 2] if m % 2 else (window[m // 2 - 1] + window[m // 2]) / 2)
    return out


def _trailing_medians(values: Sequence[float], window: int, first: int) -> list[float]:
    """Median of values[max(0, i-window) : i] for every i from `first` on (one sorted window)."""
    values = list(values)
    current = sorted(values[max(0, first - window):first])
    out = []
    for i in range(first, len(values)):
        if i > first:
            insort(current, values[i - 1])
            if i - window - 1 >= 0:
                del current[bisect_left(current, values[i - window - 1])]
        out.append(_mid(current))
    return out


def _group_medians(target: np.ndarray, members: np.ndarray, codes: np.ndarray, groups: int) -> np.ndarray:
    """Median of target[members] per group code (codes[k] is the group of members[k]), in one sort."""
    out = np.zeros(groups)
    if not len(members):
        return out
    vals = target[members]
    order = np.lexsort((vals, codes))
    ordered, sorted_codes = vals[order], codes[order]
    counts = np.bincount(sorted_codes, minlength=groups)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    has = counts > 0
    lo = starts[has] + (counts[has] - 1) // 2
    hi = starts[has] + counts[has] // 2
    out[has] = (ordered[lo] + ordered[hi]) / 2
    return out


def _shared_single_occasions(order: Sequence[str], index: Mapping[str, list[np.ndarray]],
                             values: Mapping[str, list[object]], members: Mapping[str, Mapping[object, int]]
                             ) -> dict[str, set[int]]:
    """The calendar groups (their codes, per kind) seen on one occasion only whose points are exactly those of
    another group seen once and fitted before them (`order`): a year's end that fell on the Sunday of a long
    weekend, a holiday on the only quarter's end seen. One occasion holds one residual, and two effects learned on
    it split it in any proportion that sums to it (the year's end +0.48 and the long weekend -0.53 on a day that
    sat where the month's run put it): a target carrying only one of them would read half of a pair. The group
    fitted first takes the day's residual, as it would alone; the later one reads no effect of its own (its members
    kept: it was seen, once, and shares that occasion's uncertainty)."""
    taken: set[tuple[int, ...]] = set()  # the points of each group seen once, as fitted so far
    shared: dict[str, set[int]] = {}
    for f in order:
        if f not in SPARSE:
            continue
        for c, v in enumerate(values[f]):
            if v in NONE or members[f].get(v) != SHARED_OCCASIONS or not len(index[f][c]):
                continue
            key = tuple(index[f][c].tolist())
            if key in taken:
                shared.setdefault(f, set()).add(c)
            else:
                taken.add(key)
    return shared


def _shared_day_names(fv: Mapping[str, object], used: Sequence[str]) -> set[str] | None:
    """The holidays a point shares its day with (a holiday, a holiday's neighbourhood, "" for the day after a
    closure), among the groups fitted (`used`); None on a day alone."""
    names: set[str] = set()
    for f in SHARING_KINDS:
        value = fv.get(f, "")
        if f not in used or value in NONE:
            continue
        if f == "after_gap":
            names.add("")
            continue
        label = str(value)
        if f == "near_holiday" and NEAR_OFFSET.search(label):
            label = split_near(label)[0]
        names.update(part.removesuffix(OBSERVED) for part in holiday_parts(label))
    return names if names else None


def _paired_occasions(days: Sequence[int], named_days: Mapping[int, set[str]]) -> bool:
    """Whether one holiday lies within PAIRED_DAYS of every past occasion of a period end (a year's end and New
    Year's Day, a fiscal year's end beside a fixed holiday): the period end is never seen without it, so what its
    occasions show together is the pair's, and no occasion alone can tell them apart."""
    common: set[str] | None = None
    for day in days:
        near = set().union(*(named_days.get(d, set()) for d in range(day - PAIRED_DAYS, day + PAIRED_DAYS + 1)))
        common = near if common is None else common & near
        if not common:
            return False
    return bool(common)


def _period_ends_alone(feats: Sequence[Mapping[str, object]], used: Sequence[str], f: str, values: Sequence[object],
                       index: Sequence[np.ndarray]) -> dict[int, np.ndarray]:
    """Per group code of a period end's kind `f`, its members on days alone, where some of its past occasions
    shared their day with a holiday, its neighbourhood or the day after a closure and no holiday is its pair
    (`_paired_occasions`). A quarter's end seen on Easter's eve, a long weekend's Sunday and a national day takes the
    holidays' dips when fitted first (it is, see SPARSE), and the holidays, each seen once, keep what is left: an
    ordinary quarter's end then reads the dips as its own. Read on its days alone, the period end is its own effect
    and the holidays take theirs."""
    shared = [_shared_day_names(fv, used) for fv in feats]
    named_days: dict[int, set[str]] = defaultdict(set)
    for fv, names in zip(feats, shared):
        if names:
            named_days[cast(int, fv["day"])].update(n for n in names if n)
    out: dict[int, np.ndarray] = {}
    for c, v in enumerate(values):
        idx = index[c]
        if v in NONE or not any(shared[i] is not None for i in idx):
            continue
        if _paired_occasions(sorted({cast(int, feats[i]["day"]) for i in idx}), named_days):
            continue
        out[c] = np.array([i for i in idx if shared[i] is None], dtype=int)
    return out


def _next_period(value: object, values: Sequence[object]) -> int | None:
    """The code of the next, shorter period's group at the same place ("quarter" for "year", "month_end +1d" for
    "quarter_end +1d"), when the series has one."""
    label = str(value)
    for longer, shorter in NEXT_PERIOD:
        if label == longer or label.startswith(f"{longer}_end "):
            nxt = label.replace(longer, shorter, 1)
            return values.index(nxt) if nxt in values else None
    return None


def _ordinary_sd(resid: np.ndarray, ordinary: np.ndarray) -> float:
    """The spread of a fit's residuals on its ordinary points (all of them where none is), robustly."""
    r = resid[ordinary] if ordinary.any() else resid
    return MAD_SCALE * mad(r.tolist())


def _period_rank(value: object) -> int:
    """A period end's group's place from the shortest period (a month's, 0) to the longest (a year's)."""
    label = str(value)
    return next((rank for rank, period in enumerate(PERIODS) if label == period or label.startswith(f"{period}_end ")),
                len(PERIODS))


def _alone_agree(target: np.ndarray, idx: np.ndarray, feats: Sequence[Mapping[str, object]], sd: float) -> bool:
    """Whether a period end's occasions alone (`idx`, its members on days alone) read one effect: the spread of
    their days' medians about their median (MAD-scaled) is within ALONE_AGREE_SPREADS of the series' ordinary spread
    `sd`. Two occasions that disagree by tens of spreads (an ordinary quarter's end and one inside a lockdown in no
    calendar) have a median that is neither's effect."""
    days: dict[object, list[float]] = defaultdict(list)
    for i in idx:
        days[feats[i].get("day")].append(float(target[i]))
    occasions = [median(v) for v in days.values()]
    return MAD_SCALE * mad(occasions) <= ALONE_AGREE_SPREADS * sd


def _alone_effects(effect: np.ndarray, target: np.ndarray, alone: Mapping[int, np.ndarray],
                   index: Sequence[np.ndarray], values: Sequence[object], feats: Sequence[Mapping[str, object]],
                   sd: float) -> None:
    """A period end's effects (`effect`, per group code, in place) learned on its occasions alone
    (`_period_ends_alone`): a group left with ALONE_OCCASIONS or more reads their median, one left with fewer the
    next, shorter period's (`_next_period`; the shortest first, so a year's end reads a quarter's as learned alone);
    each only where it moves the group's effect by more than ALONE_MOVE_Z standard errors of a median of the
    occasions it is read from (its own alone, or all of them when it reads the next period's), and where fewer
    than ALONE_OUTVOTED occasions alone agree (`_alone_agree`): two that disagree keep the effect on all days."""
    def occasions(idx: np.ndarray) -> int:
        return len({feats[i].get("day") for i in idx})

    for c in sorted(alone, key=lambda c: _period_rank(values[c])):
        idx = alone[c]
        count = occasions(idx)
        if count >= ALONE_OCCASIONS:
            if count < ALONE_OUTVOTED and not _alone_agree(target, idx, feats, sd):
                continue
            new = float(np.median(target[idx]))
        elif (nxt := _next_period(values[c], values)) is not None:
            new, count = float(effect[nxt]), occasions(index[c])
        else:
            continue
        if abs(new - effect[c]) > ALONE_MOVE_Z * MEDIAN_SE * sd / math.sqrt(count):
            effect[c] = new


def months_level_half(lag: int, used: Sequence[str]) -> int:
    """The fitted level's half-window (in points) a series of twelve partitions a year needs to learn its months of
    the year (`month_of_year`), or 0. A season that spans several months (a dry season's September to November at
    x1.25-1.3, its neighbours' year-end close and Christmas above the level too) fills most of the level window's
    seven months, so the fitted level follows it, each month's effect is learned at a fraction of its size and the
    history's errors hold the rest of the season: the months' effects then never stand out of that noise (three
    past years at x1.3 were not earned). A window of half a year either side holds every month of the year once,
    and a year's median holds no month's effect (nor the trend, taken out first). Only the fitted level's: the
    target's level and the one-step errors are still read from the level window's latest points, and a month that
    moved once (one year's promotion) is no more distinct than before. Used where the feature sets carry
    `MONTHS_LEVEL` (the model's `_months_level_fit`: where it cuts the history's one-step errors)."""
    return MONTHS_LEVEL_HALF if lag == MONTHS_A_YEAR and "month_of_year" in used else 0


def reads_level(fv: Mapping[str, object]) -> bool:
    """Whether a point reads the level: an ordinary one, or a restart's week after a declared break
    (`past_a_break`: none of the break's days inside, its effect taken out of it as a holiday's is). A
    long break with its weeks back would otherwise leave a year fewer ordinary weeks than half, and the
    level would be read from every week, the break's x0.15 among them."""
    earned = [f for f in EARNED if fv.get(f, "") not in NONE]
    return not earned or (earned == ["holiday"] and past_a_break(str(fv["holiday"])))


class SeriesFit:
    """Level, trend and group effects fitted to log values (numpy over the few hundred points)."""

    ITERATIONS = 4  # level and effects are fitted in turn; four rounds settle them

    def __init__(self, t: list[float], x: list[float], feats: list[dict[str, object]], used: list[str],
                 lag: int, level_points: int):
        self.t, self.x, self.feats, self.used = t, x, feats, used
        n = len(x)
        tt, xx = np.asarray(t, dtype=float), np.asarray(x, dtype=float)
        self._tt = tt
        # the level is read from ordinary days only: where holidays and their neighbourhoods fill
        # most of a level window (Christmas to New Year), a level from all days dips with them and
        # every day around the holidays looks 20% "above" it, an effect that is not there
        plain = np.flatnonzero([reads_level(fv) for fv in feats])
        self._plain = plain if len(plain) >= max(3, n // 2) and len(plain) < n else None
        self.effects: dict[str, dict[object, float]] = {f: {} for f in used}
        # a series whose loads carry their closed days learns a closure's extra activity (in days of
        # the level), not a ratio: see _carried
        self.carried = bool(feats and feats[0].get(CARRIED))
        self.masses: dict[object, float] = {}
        self.members: dict[str, dict[object, int]] = {f: defaultdict(int) for f in used}
        # a weekday or hour effect is learned on ordinary points only: two Christmases on a Thursday
        # would otherwise teach "Thursdays are low" instead of "Christmas is low"
        ordinary = np.array([not any(fv.get(f, "") not in NONE for f in EARNED)
                             and fv.get("period_end") not in ("quarter", "year") for fv in feats], dtype=bool)
        codes: dict[str, np.ndarray] = {}
        values: dict[str, list[object]] = {}
        index: dict[str, list[np.ndarray]] = {}
        members: dict[str, np.ndarray] = {}       # the points each group's effect is learned on ...
        member_codes: dict[str, np.ndarray] = {}  # ... and their group
        for f in used:
            seen: dict[object, int] = {}
            code = np.array([seen.setdefault(fv[f], len(seen)) for fv in feats], dtype=int)
            codes[f], values[f] = code, list(seen)
            index[f] = []
            for c, v in enumerate(values[f]):
                idx = np.flatnonzero(code == c)
                # a calendar day's group (holiday, period end) learned from several hours of one day
                # is one occasion: its effect is as uncertain as one point's
                # (and a month of a weekly series, seen in four weeks a year, is one occasion a year)
                # (and a season's days of one year, Ramadan's thirty, are one occasion)
                occasion = "year" if f in SEASONS else "season_at" if f == "season" else "day"
                self.members[f][v] = len({feats[i].get(occasion) for i in idx}) if f in SPARSE else len(idx)
                if f not in SPARSE:
                    plain = idx[ordinary[idx]]
                    if len(plain):
                        idx = plain
                index[f].append(idx)
            members[f] = np.concatenate(index[f]) if index[f] else np.zeros(0, dtype=int)
            member_codes[f] = np.concatenate([np.full(len(i), c) for c, i in enumerate(index[f])]) \
                if index[f] else np.zeros(0, dtype=int)
        self.slope = 0.0
        self.level_points = level_points
        # the fitted level's window: the level window, but on a weekly series with seasons a
        # quarter of a year either side, so a season of several weeks (six school-summer weeks at
        # x1.6) is not read as the level and then learned as no effect at all
        self._half = max(1, level_points // 2)
        if lag == 52 and any(f in SEASONS for f in used):
            self._half = max(self._half, 13)
        if feats and feats[0].get(MONTHS_LEVEL):
            self._half = max(self._half, months_level_half(lag, used))
        per = {f: np.zeros(n) for f in used}  # each point's effect, per group kind
        total = np.zeros(n)
        order = sorted(used, key=lambda g: (g not in SPARSE, not (self.carried and g == "after_gap")))
        shared = _shared_single_occasions(order, index, values, self.members)
        alone = {f: groups for f in PERIOD_END_KINDS if f in used
                 and (groups := _period_ends_alone(feats, used, f, values[f], index[f]))}
        for _ in range(self.ITERATIONS):
            e = xx - total
            self.slope = self._slope(e, lag)
            local = self._rolling_level(e)
            # (a carried closure first: the first load back holds its closed days' activity, and a
            # holiday's or period end's neighbourhood met once with it is fitted on what that leaves)
            for f in order:
                mine = per[f]
                if f == "after_gap" and self.carried:
                    new = self._carried(xx - local, total - mine, members[f], member_codes[f], codes[f], values[f])
                    total = total + new - mine
                    per[f] = new
                    continue
                own = xx - local - total + mine  # (the points less every other group's effect: this group's to read)
                effect = _group_medians(own, members[f], member_codes[f], len(values[f]))
                if f in alone:
                    _alone_effects(effect, own, alone[f], index[f], values[f], feats,
                                   _ordinary_sd(xx - local - total, ordinary))
                for c, v in enumerate(values[f]):
                    if f in SPARSE and v in NONE or c in shared.get(f, ()):
                        effect[c] = 0.0
                    self.effects[f][v] = float(effect[c])
                new = effect[codes[f]]
                total = total + new - mine
                per[f] = new
        e = xx - total
        local = self._rolling_level(e)
        self.total, self.e, self.local = total.tolist(), e.tolist(), local.tolist()
        self.resid = (e - local).tolist()
        # honest forecast errors: each point against the level of the points before it (the
        # centred residuals above understate the spread, the point itself pulls its level)
        adj = e - self.slope * tt
        first = min(3, n - 1)
        if n > first >= 0 and n > 1:
            errs = adj[first:] - np.asarray(_trailing_medians(adj.tolist(), level_points, first))
            self.errors = list(zip(range(first, n), errs.tolist()))
        else:
            self.errors = []

    def _carried(self, size: np.ndarray, usual: np.ndarray, members: np.ndarray, member_codes: np.ndarray,
                 codes: np.ndarray, values: list[object]) -> np.ndarray:
        """Each point's closure effect on a series whose loads carry their closed days: a closure adds
        its days' activity (a mass, in days of the level: `size` and `usual` are logs against it) to
        what the partition usually holds, so the two closed days learned on a Friday (x2.2) add x1.5 to
        a Monday that already holds the weekend, not x2.2 on top of it."""
        mass = _group_medians(np.exp(size) - np.exp(usual), members, member_codes, len(values))
        for c, v in enumerate(values):
            if v in NONE:
                mass[c] = 0.0
            self.masses[v] = float(mass[c])
            self.effects["after_gap"][v] = math.log(max(1.0 + float(mass[c]), FLOOR))
        return np.log(np.maximum(1.0 + mass[codes] / np.exp(usual), FLOOR))

    def _slope(self, e: np.ndarray, lag: int) -> float:
        n = len(e)
        if n < 4:
            return 0.0
        lag = max(1, min(lag, n // 2))
        dt = self._tt[lag:] - self._tt[:-lag]
        keep = dt > 0
        slopes = (e[lag:] - e[:-lag])[keep] / dt[keep]
        if len(slopes) < 6:
            return 0.0
        # a trend only when the history shows one: a slope within two standard errors of zero is
        # noise, and extrapolating noise moves the baseline for nothing
        slope = float(np.median(slopes))
        stderr = MAD_SCALE * float(np.median(np.abs(slopes - slope))) / math.sqrt(len(slopes))
        return slope if abs(slope) > 2 * stderr else 0.0

    def _rolling_level(self, e: np.ndarray) -> np.ndarray:
        half = self._half
        adj = np.asarray(e) - self.slope * self._tt
        if self._plain is None:
            return np.asarray(_rolling_median(adj.tolist(), half)) + self.slope * self._tt
        plain = self._plain
        level = np.asarray(_rolling_median(adj[plain].tolist(), half))
        return np.interp(np.arange(len(adj)), plain, level) + self.slope * self._tt

    def dof_factor(self, honest: Sequence[str] = ()) -> float:
        """How much the in-sample errors understate the out-of-sample ones: each group effect is
        fitted on the points whose errors are then measured, so n errors carry about n - p degrees
        of freedom, p = 1.57 (a median's cost) per effect. Business day of the month has some 22
        groups: on 200 days they took a sixth off the spread (and a 3.4 sd day fell outside)."""
        # (the hour of the week spans the hour and the weekday: their effects are not counted twice)
        # (unless only a few hours of the week earned theirs, the others "": see _earned_cells)
        nested = ("hour_of_day", "weekday") if "hour_of_week" in self.used and "" not in self.effects["hour_of_week"] \
            else ()
        # (nor the kinds in `honest`, whose errors were read with each point's own effect left out)
        effects = sum(1 for f in self.used for v in self.effects[f]
                      if not (f in SPARSE and v in NONE) and f not in nested and f not in honest)
        n = max(len(self.errors), 1)
        return math.sqrt(n / max(n - 1.57 * effects, n / 2))

    def effect_for(self, fv: Mapping[str, object]) -> tuple[float, int, str | None, int]:
        """(total effect, members of the thinnest group used, an unseen holiday's name, the closed
        days before the target when no closure was ever seen before, else 0)."""
        total, thinnest, unseen, unseen_gap = 0.0, len(self.x), None, 0
        carried: float | None = None  # a carried closure's mass: added to the partition's usual size last
        for f in self.used:
            value = fv[f]
            if f == "after_gap" and self.carried and value not in NONE:
                known = {g: m for g, m in self.members[f].items() if m and g not in NONE}
                if not known:
                    unseen_gap = cast(int, value)
                    continue
                # a closure of a length never seen: the nearest one seen, its mass scaled by the days
                # closed (each closed day's activity is carried)
                near = value if value in known else min(known, key=lambda g: (abs(cast(int, g) - cast(int, value)), g))
                carried = self.masses.get(near, 0.0) * cast(int, value) / cast(int, near)
                thinnest = min(thinnest, known[near])
                continue
            if f == "period_end" and value:
                for kind in (value, "quarter", "month") if value == "year" else (value, "month"):
                    if self.members[f].get(kind):
                        value = kind
                        break
            if f == "near_period_end" and value and not self.members[f].get(value):
                # a year's close never seen: the quarter's close at the same day
                value = str(value).replace("year_end", "quarter_end")
            if f == "after_gap" and value and not self.members[f].get(value):
                # a closure of a length never seen: the longest shorter one seen (a 6-day closure
                # is judged like the 5-day one); none: its backlog is unknown
                seen = [g for g, m in self.members[f].items() if m and g not in NONE and cast(int, g) < cast(int, value)]
                if not seen:
                    unseen_gap = cast(int, value)
                    continue
                value = max(seen, key=lambda g: cast(int, g))
            if f == "holiday" and value and not self.members[f].get(value):
                unseen = str(value)
                continue
            if f in SPARSE and value in NONE:
                continue
            count = self.members[f].get(value, 0)
            if count:
                total += self.effects[f].get(value, 0.0)
                if f != "season":  # (a season's uncertainty depends on the level's window: forecast)
                    thinnest = min(thinnest, count)
        if carried is not None:
            total += math.log(max(1.0 + carried / math.exp(total), FLOOR))
        return total, thinnest, unseen, unseen_gap


def typical_error(fit: SeriesFit) -> float:
    """Mean absolute one-step error, each capped at 1 (a fault in the history counts, but not
    wildly): unlike the MAD it sees an effect that hits only some points (weekends, a cycle's edge).
    Each point is judged against the level of the points before it or of those after it, whichever
    is nearer (neither holds the point itself): a level shift in the history is explained by the
    points after it, so its weeks of transition do not drown a small group's effect (a payroll day
    after a -30% step read as 19% of the errors, not the 20% its group must cut), while an effect
    a point shows against both sides counts in full."""
    adj = (np.asarray(fit.e) - fit.slope * fit._tt).tolist()
    first = min(3, len(adj) - 1)
    ahead: dict[int, float] = {}
    if len(adj) > first + 1 >= 1:
        # the level of the points after each one: the trailing medians of the reversed series
        leading = _trailing_medians(adj[::-1], fit.level_points, first)
        n = len(adj)
        ahead = {n - 1 - j: adj[n - 1 - j] - m for j, m in zip(range(first, n), leading)}
    errors = [min(abs(err), abs(ahead.get(i, err)), 1.0) for i, err in fit.errors]
    # (no degrees-of-freedom correction here: the 20% gain a dense group must show already pays
    # for its effects, and a payroll day that is one business day in twenty-two needs the group)
    return sum(errors) / len(errors) if errors else 0.0


def theil_sen(tt: np.ndarray, y: np.ndarray, sigma: float) -> tuple[float, float, float]:
    """(slope, its standard error, intercept): the median of the pairwise slopes, robust to a few
    outliers. The error is least squares' for noise of sd `sigma` (the larger of the given and the
    residuals' own robust sd), times 1.25 for the median's cost."""
    i, j = np.triu_indices(len(tt), 1)
    dt = tt[j] - tt[i]
    keep = dt > 0
    slope = float(np.median((y[j] - y[i])[keep] / dt[keep]))
    intercept = float(np.median(y - slope * tt))
    resid = y - intercept - slope * tt
    sigma = max(sigma, MAD_SCALE * float(np.median(np.abs(resid))))
    sxx = float(np.sum((tt - tt.mean()) ** 2))
    return slope, 1.25 * sigma / math.sqrt(sxx) if sxx > 0 else math.inf, intercept

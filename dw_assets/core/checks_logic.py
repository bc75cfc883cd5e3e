"""Pure decisions of the data checks: numbers in, `CheckOutcome` out. No SQL, no Dagster.

The check modules (`checks/*.py`) gather aggregates from the warehouse and hand them here, so the
same decision serves the Dagster asset checks, `dw checks run` and the fault-injection script.
Severity: ERROR is a real anomaly (it opens an incident); WARN means the check could not decide
(too little history, no landed files) or saw something benign (an added column).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, Literal
from zoneinfo import ZoneInfo

from croniter import croniter

from dw_assets.core import stats
from dw_assets.core.approvals import parse_duration
from dw_assets.core.check_render import bar_table, table_md
from dw_assets.core.volume_calendar import Grain, HolidayCalendar, WeekDatedOn, hour_of_key
from dw_assets.core.volume_model import (
    Forecast,
    Judgement,
    ModelParams,
    Point,
    band_judged,
    forecast,
    judge,
    reads_total_as_groups_sum,
    rows_on_few_weekdays,
    total_of_groups,
    with_retired_groups,
)

Severity = Literal["WARN", "ERROR"]
Direction = Literal["both", "drop", "spike"]

VOLUME, FRESHNESS = "volume_vs_history", "freshness_sla"
LANDED_FILES, SCHEMA_DRIFT = "rows_match_landed_files", "schema_drift"


def balance_check_name(rule: str) -> str:
    return f"balance_{rule}"


@dataclass
class CheckOutcome:
    check: str
    dataset_id: str
    passed: bool
    severity: Severity
    summary: str
    metadata: dict[str, Any] = field(default_factory=dict)  # JSON-safe facts, never table rows
    markdown: dict[str, str] = field(default_factory=dict)  # charts and tables for the UI
    partition: str | None = None

    @property
    def actionable(self) -> bool:
        """A failure worth an incident (WARN results are shown, not escalated)."""
        return not self.passed and self.severity == "ERROR"

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check, "dataset": self.dataset_id, "partition": self.partition,
                "passed": self.passed, "severity": self.severity, "summary": self.summary,
                "metadata": self.metadata}


def decide_volume(dataset_id: str, partition: str, observed: float, history: Sequence[tuple[str, float]], *,
                  period: str | None = None, lower_ratio: float | None = None, upper_ratio: float | None = None,
                  mad_k: float | None = None, direction: Direction = "both", min_history: int = 3,
                  excluded: Sequence[str] = (), name: str = VOLUME, unit: str = "rows", grain: Grain = "day",
                  compare_by: Sequence[str] | None = None, holidays: HolidayCalendar | None = None,
                  params: ModelParams | None = None, accepted: Mapping[str, bool] | None = None,
                  groups: Mapping[str, tuple[float, Sequence[tuple[str, float]]]] | None = None,
                  group_holidays: Mapping[str, HolidayCalendar] | None = None,
                  timezone: str = "UTC", shapes: Collection[str] = (),
                  week_dated_on: WeekDatedOn | None = None) -> CheckOutcome:
    """`history`: (partition, value) of the comparable partitions before this one, any order (the
    SQL aggregate, past incidents' partitions already left out). `accepted`: partitions a person
    accepted as legitimate (True: as a new level); `shapes`: those of them from which the weekly
    pattern changed for good. `groups`: per `group_by` value, its (observed,
    history): each group is judged on its own series too, and a failing group fails the check
    and is named. `unit` names what was measured (rows, or a metric such as sum(net_revenue)).
    `timezone`: the zone an hourly check's keys are wall-clock hours of (its hours, weekdays and
    holidays are that zone's). `group_holidays`: the groups forecast with a calendar of their own
    (a market in another country); the total and the other groups use `holidays`. `week_dated_on`: which day a
    weekly series' keys name, as its owner declares it (unset: inferred from its holiday weeks)."""
    accepted = dict(accepted or {})
    points = sorted(history)
    label = period or "calendar"
    base_meta: dict[str, Any] = {"observed": observed, "history_points": len(points), "period": label,
                                 "grain": grain, "direction": direction, "excluded_partitions": list(excluded),
                                 "history": [{"partition": p, "rows": n} for p, n in points]}
    if timezone != "UTC":
        base_meta["timezone"] = timezone
    if len(points) < min_history:
        return CheckOutcome(name, dataset_id, False, "WARN",
                            f"too little history to judge {partition}: {len(points)} comparable {label} "
                            f"partition(s) before it, need {min_history}; {observed:,} {unit} observed",
                            base_meta, partition=partition)
    model = _params(params, lower_ratio, upper_ratio, mad_k)

    def moment(key: str) -> datetime:
        # an hourly key is a wall-clock hour of the check's zone: the model takes its UTC hour
        return hour_of_key(parse_partition_moment(key), timezone) if grain == "hour" else parse_partition_key(key)

    at = moment(partition)

    def judge_series(series: Sequence[tuple[str, float]], value: float,
                     calendar_: HolidayCalendar | None = holidays, own: bool = False) -> tuple[Forecast, Judgement]:
        pts = [Point(moment(p), float(n), p in accepted, accepted.get(p, False), shape=p in shapes and p in accepted)
               for p, n in series]
        fc = forecast(pts, at, grain=grain, calendar_=calendar_, compare_by=compare_by, params=model,
                      timezone=timezone, own_calendar=own, week_dated_on=week_dated_on)
        return fc, judge(fc, value, accepted=partition in accepted, direction=direction)

    fc, verdict = judge_series(points, observed)
    failed_groups: list[dict[str, Any]] = []
    group_rows: list[dict[str, Any]] = []
    # a group on a calendar of its own is a market closed on its holidays (forecast's `own_calendar`)
    judged = [(key, value, *judge_series(series, value, (group_holidays or {}).get(key) or holidays,
                                         key in (group_holidays or {})))
              for key, (value, series) in sorted((groups or {}).items()) if len(series) >= min_history]
    # a group re-keyed inside the history (its rows stopped as new keys began, carrying its level): shut since
    re_keyed = with_retired_groups([gfc for _, _, gfc, _ in judged],
                                   [[Point(moment(p), float(n)) for p, n in (groups or {})[key][1]]
                                    for key, _, _, _ in judged], at, model)
    judged = [(key, value, gfc, gv if gfc is old else judge(gfc, value, accepted=partition in accepted,
                                                               direction=direction))
              for (key, value, old, gv), gfc in zip(judged, re_keyed)]
    own = sum(key in (group_holidays or {}) for key in groups or {})
    few = sum(rows_on_few_weekdays([Point(moment(p), float(n)) for p, n in series], grain)
              for _, (_, series) in (groups or {}).items())
    if reads_total_as_groups_sum(len(groups or {}), len(judged), own, few):
        # groups on calendars of their own, or landing on a few weekdays (a weekly file), every one forecast: the
        # total is read as the sum of their forecasts (its own past holds a day's mix of group breaks, or of a moved
        # file and a holiday, only where that mix recurred)
        fc = total_of_groups(fc, [gfc for _, _, gfc, _ in judged], model)
        verdict = judge(fc, observed, accepted=partition in accepted, direction=direction)
    for key, value, gfc, gv in judged:
        g_base, g_low, g_high = band_judged(gfc, gv)
        row = {"group": key, "observed": value, "baseline": round(g_base, 2),
               "ratio": round(gv.ratio, 4) if gv.ratio is not None else None,
               "expected": f"[{g_low:,.0f}, {g_high:,.0f}]", "verdict": gv.reason}
        group_rows.append(row)
        if not gv.passed:
            failed_groups.append(row)
    ratio = verdict.ratio
    baseline, lower, upper = band_judged(fc, verdict)
    pct = f"{ratio:.0%} of" if ratio is not None else "vs"
    what = {"empty": "empty partition", "hard_ratio": f"at least {fc.hard_ratio}x the baseline",
            "below_band": "below the band", "above_band": "above the band",
            "open_as_on_occasions": "a day usually closed, open as on its past open occasions"}.get(verdict.reason)
    summary = (f"{partition}: {observed:,} {unit}, {pct} the baseline {baseline:,.0f} ({fc.group}, "
               f"{len(points)} partitions); expected {lower:,.0f}-{upper:,.0f}"
               + (f" ({what})" if what else ""))
    if failed_groups:
        shown = ", ".join(f"{g['group']} {g['observed']:,} ({g['verdict'].replace('_', ' ')}, expected "
                          f"{g['expected']})" for g in failed_groups[:5])
        summary += f"; {len(failed_groups)} group(s) off: {shown}" + (" ..." if len(failed_groups) > 5 else "")
    meta = {**base_meta, "baseline": round(baseline, 2),
            "ratio": round(ratio, 4) if ratio is not None else None,
            "expected_band": f"[{lower:,.0f}, {upper:,.0f}]", "expected_lower": round(lower, 2),
            "expected_upper": round(upper, 2), "verdict": verdict.reason, "comparison_group": fc.group,
            "model_groups": fc.features, "trend_per_partition": round(fc.trend_per_step, 5),
            "spread": round(fc.spread, 4), "level_shift": fc.shift, "notes": fc.notes,
            "band_rule": (f"log-space band: {model.k} x spread of {fc.group} (floor +-{math.exp(model.floor) - 1:.0%}, "
                          f"ceiling {math.exp(-model.ceiling):.2f}x), empty or >= {model.hard_ratio}x fails"
                          + (f"; owner tolerance [{model.lower_ratio}, {model.upper_ratio}]"
                             if model.lower_ratio is not None or model.upper_ratio is not None else "")),
            "accepted": partition in accepted}
    if groups is not None:
        meta.update(groups_checked=len(group_rows), failed_groups=failed_groups)
    if group_holidays:
        # which groups were forecast with their own calendar; a listed name no group has is a typo
        # or a group gone quiet, worth showing rather than silently ignoring
        meta["group_calendars"] = {g: c.country or "dates" for g, c in sorted(group_holidays.items())
                                   if g in (groups or {})}
        meta["group_calendars_unmatched"] = sorted(g for g in group_holidays if g not in (groups or {}))
    markdown = {"history_chart": _volume_chart(points, partition, observed, fc.group, (baseline, lower, upper))}
    if group_rows:
        markdown["groups"] = table_md(group_rows)
    passed = verdict.passed and not failed_groups
    return CheckOutcome(name, dataset_id, passed, "ERROR", summary, meta, markdown, partition=partition)


def _params(params: ModelParams | None, lower_ratio: float | None, upper_ratio: float | None,
            mad_k: float | None) -> ModelParams:
    model = params or ModelParams()
    if lower_ratio is not None and not 0 <= lower_ratio <= 1:
        raise ValueError(f"need 0 <= lower_ratio <= 1, got {lower_ratio}")
    if upper_ratio is not None and upper_ratio < 1:
        raise ValueError(f"need upper_ratio >= 1, got {upper_ratio}")
    if mad_k is not None and mad_k <= 0:
        raise ValueError(f"mad_k must be > 0, got {mad_k}")
    changes: dict[str, Any] = {k: v for k, v in (("lower_ratio", lower_ratio), ("upper_ratio", upper_ratio), ("k", mad_k))
               if v is not None}
    return replace(model, **changes) if changes else model


def parse_partition_key(value: str) -> datetime:
    """A partition as text: `YYYY-MM-DD` (a day) or an hour (`YYYY-MM-DDTHH`, `YYYY-MM-DD HH:MM[:SS]`)."""
    return parse_partition_moment(value).replace(tzinfo=None)


def parse_partition_moment(value: str) -> datetime:
    """As `parse_partition_key`, but an offset in the key (`2026-11-01T01:00-0500`, the repeated hour
    of a 25-hour local day) is kept: the datetime is aware."""
    text = str(value).strip()
    try:
        if len(text) == 13 and text[10] in "T ":
            text += ":00"
        return datetime.fromisoformat(text)
    except ValueError as exc:
        raise ValueError(f"partition {value!r} is neither a day (YYYY-MM-DD) nor an hour "
                         f"(YYYY-MM-DDTHH or YYYY-MM-DD HH:00)") from exc


def _volume_chart(points: Sequence[tuple[str, float]], partition: str, observed: float, group: str,
                  band: tuple[float, float, float]) -> str:
    """`band`: the baseline, lower and upper the verdict was read against (`band_judged`)."""
    baseline, lower, upper = band
    shown = points[-24:]  # the chart stays readable; the metadata keeps every point
    rows = [(p, n, "") for p, n in shown]
    verdict = "inside band" if lower <= observed <= upper else "OUTSIDE band"
    rows.append((f"**{partition}** (checked)", observed, verdict))
    spark = stats.sparkline([n for _, n in shown] + [observed])
    header = f"History `{spark}` — baseline {baseline:,.0f} ({group}), band {lower:,.0f}–{upper:,.0f}\n\n"
    return header + bar_table(rows, scale=max(upper, observed, 1), baseline=baseline)


def decide_freshness(dataset_id: str, latest: datetime | None, now: datetime, *, max_age: str | None,
                     deadline_cron: str | None, timezone: str = "UTC") -> CheckOutcome:
    """Naive `latest` timestamps are read in the dataset's timezone. With a deadline cron, the data
    is fresh when its newest row is later than the deadline before the most recent one (data for
    the period that ended at the most recent deadline has landed)."""
    if not max_age and not deadline_cron:
        raise ValueError(f"freshness check on {dataset_id} needs max_age or deadline_cron")
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    tz = ZoneInfo(timezone)
    now_local = now.astimezone(tz)
    meta: dict[str, Any] = {"now": now_local.isoformat(), "timezone": timezone, "max_age": max_age,
                            "deadline_cron": deadline_cron}
    if latest is None:
        return CheckOutcome(FRESHNESS, dataset_id, False, "ERROR", f"{dataset_id} has no rows with a timestamp",
                            {**meta, "latest": None})
    latest_local = (latest.replace(tzinfo=tz) if latest.tzinfo is None else latest).astimezone(tz)
    age = now_local - latest_local
    meta.update(latest=latest_local.isoformat(), age_hours=round(age.total_seconds() / 3600, 2))
    problems = []
    if max_age:
        limit = parse_duration(max_age)
        if age > limit:
            problems.append(f"newest row is {_human(age)} old, over the {max_age} limit")
    if deadline_cron:
        deadline, previous = _last_two_ticks(deadline_cron, now_local)
        meta.update(deadline=deadline.isoformat(), previous_deadline=previous.isoformat())
        if latest_local <= previous:
            problems.append(f"nothing landed after {previous:%Y-%m-%d %H:%M %Z}, so the data due by "
                            f"{deadline:%Y-%m-%d %H:%M %Z} is missing")
    if problems:
        return CheckOutcome(FRESHNESS, dataset_id, False, "ERROR", f"{dataset_id} is stale: " + "; ".join(problems),
                            meta)
    return CheckOutcome(FRESHNESS, dataset_id, True, "ERROR",
                        f"{dataset_id} is fresh: newest row {_human(age)} old ({latest_local:%Y-%m-%d %H:%M %Z})",
                        meta)


def _last_two_ticks(cron: str, now_local: datetime) -> tuple[datetime, datetime]:
    if not croniter.is_valid(cron):
        raise ValueError(f"deadline_cron {cron!r} is not a valid cron expression")
    itr = croniter(cron, now_local)
    deadline = itr.get_prev(datetime)
    return deadline, itr.get_prev(datetime)


def _human(delta: timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours:.1f}h" if abs(hours) < 72 else f"{hours / 24:.1f}d"


def decide_balance(dataset_id: str, rule: str, condition: str, group_by: Sequence[str], *,
                   broken: Sequence[dict[str, Any]], broken_count: int, groups_checked: int,
                   partition: str | None = None) -> CheckOutcome:
    """`broken`: the first few groups that break `condition`, each with its group values and sums."""
    name = balance_check_name(rule)
    meta: dict[str, Any] = {"rule": rule, "condition": condition, "group_by": list(group_by),
                            "groups_checked": groups_checked, "broken_groups_count": broken_count,
                            "broken_groups": [_json_safe(g) for g in broken]}
    where = f" in partition {partition}" if partition else ""
    if groups_checked == 0:
        return CheckOutcome(name, dataset_id, False, "WARN", f"no groups to check{where}: {dataset_id} is empty",
                            meta, partition=partition)
    if broken_count == 0:
        return CheckOutcome(name, dataset_id, True, "ERROR",
                            f"all {groups_checked} group(s) by {', '.join(group_by)} satisfy {condition}{where}",
                            meta, partition=partition)
    shown = ", ".join(str({k: g[k] for k in group_by}) for g in broken[:3])
    summary = (f"{broken_count} of {groups_checked} group(s) break {condition}{where}: {shown}"
               + (" ..." if broken_count > 3 else ""))
    return CheckOutcome(name, dataset_id, False, "ERROR", summary, meta,
                        {"broken_groups": table_md([_json_safe(g) for g in broken])}, partition=partition)


def _json_safe(row: dict[str, Any]) -> dict[str, Any]:
    def conv(v: Any) -> Any:
        if isinstance(v, Decimal):
            return float(v)
        if hasattr(v, "isoformat"):
            return v.isoformat()
        return v

    return {k: conv(v) for k, v in row.items()}

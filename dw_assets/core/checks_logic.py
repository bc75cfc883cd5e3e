"""Pure decisions of the data checks: numbers in, `CheckOutcome` out. No SQL, no Dagster.

The check modules (`checks/*.py`) gather aggregates from the warehouse and hand them here, so the
same decision serves the Dagster asset checks, `dw checks run` and the fault-injection script.
Severity: ERROR is a real anomaly (it opens an incident); WARN means the check could not decide
(too little history, no landed files) or saw something benign (an added column).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from dw_assets.core import stats
from dw_assets.core.approvals import parse_duration
from dw_assets.core.check_render import bar_table, table_md

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


def decide_volume(dataset_id: str, partition: str, observed: int, history: Sequence[tuple[str, int]], *,
                  period: str, lower_ratio: float, upper_ratio: float, mad_k: float,
                  direction: Direction = "both", min_history: int = 3,
                  excluded: Sequence[str] = (), name: str = VOLUME, unit: str = "rows") -> CheckOutcome:
    """`history`: (partition, rows) of the comparable partitions, any order. `unit` names what was
    measured (rows, or a metric such as sum(net_revenue)) in the summary."""
    points = sorted(history)
    base_meta: dict[str, Any] = {"observed": observed, "history_points": len(points), "period": period,
                                 "direction": direction, "excluded_partitions": list(excluded),
                                 "history": [{"partition": p, "rows": n} for p, n in points]}
    if len(points) < min_history:
        return CheckOutcome(name, dataset_id, False, "WARN",
                            f"too little history to judge {partition}: {len(points)} comparable {period} "
                            f"partition(s) before it, need {min_history}; {observed:,} {unit} observed",
                            base_meta, partition=partition)
    band = stats.expected_band([n for _, n in points], lower_ratio=lower_ratio, upper_ratio=upper_ratio,
                               mad_k=mad_k)
    ratio = observed / band.baseline if band.baseline else None
    low, high = observed < band.lower, observed > band.upper
    failed = (low and direction in ("both", "drop")) or (high and direction in ("both", "spike"))
    pct = f"{ratio:.0%} of" if ratio is not None else "vs"
    summary = (f"{partition}: {observed:,} {unit}, {pct} the baseline {band.baseline:,.0f} (median of "
               f"{len(points)} {period} partitions); expected {band.lower:,.0f}-{band.upper:,.0f}")
    meta = {**base_meta, "baseline": band.baseline, "ratio": round(ratio, 4) if ratio is not None else None,
            "expected_band": f"[{band.lower:,.0f}, {band.upper:,.0f}]", "expected_lower": round(band.lower, 2),
            "expected_upper": round(band.upper, 2), "mad": band.mad,
            "band_rule": f"wider of ratio [{lower_ratio}, {upper_ratio}] and {mad_k}*MAD "
                         f"(lower from {band.lower_source}, upper from {band.upper_source})"}
    chart = _volume_chart(points, partition, observed, band)
    return CheckOutcome(name, dataset_id, not failed, "ERROR", summary, meta, {"history_chart": chart},
                        partition=partition)


def _volume_chart(points: Sequence[tuple[str, int]], partition: str, observed: int, band: stats.Band) -> str:
    rows = [(p, n, "") for p, n in points]
    verdict = "inside band" if band.contains(observed) else "OUTSIDE band"
    rows.append((f"**{partition}** (checked)", observed, verdict))
    spark = stats.sparkline([n for _, n in points] + [observed])
    header = (f"History `{spark}` — baseline {band.baseline:,.0f}, "
              f"band {band.lower:,.0f}–{band.upper:,.0f}\n\n")
    return header + bar_table(rows, scale=max(band.upper, observed, 1), baseline=band.baseline)


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
    from croniter import croniter

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
    from decimal import Decimal

    def conv(v: Any) -> Any:
        if isinstance(v, Decimal):
            return float(v)
        if hasattr(v, "isoformat"):
            return v.isoformat()
        return v

    return {k: conv(v) for k, v in row.items()}

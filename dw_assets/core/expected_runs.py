"""Runs that did not happen: the run a DAG's schedule says should have started by now, or a run that
has been going far longer than the DAG's runs usually take.

Pure: the caller reads each DAG's schedule and recent runs (Airflow REST API) and asks
`missed_or_stuck`. Schedules are read as Airflow writes them in its API: a cron expression, a preset
(`@daily`, `@hourly`...), or an interval; anything else (asset/dataset-triggered, `None`, `@once`,
a custom timetable) has no clock to miss and is skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median
from typing import Any

from croniter import croniter

PRESETS = {"@hourly": "0 * * * *", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@weekly": "0 0 * * 0",
           "@monthly": "0 0 1 * *", "@quarterly": "0 0 1 */3 *", "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *"}
_INTERVAL = re.compile(r"^(?:(?P<days>\d+) days?,? )?(?P<h>\d+):(?P<m>\d\d):(?P<s>\d\d)$")


@dataclass(frozen=True)
class RunSeen:
    run_id: str
    state: str  # queued | running | success | failed
    start: datetime | None
    end: datetime | None
    scheduled_for: datetime | None = None  # run_after (Airflow 3) or the data interval's end


@dataclass(frozen=True)
class MissedRun:
    dag_id: str
    kind: str  # "missed" | "stuck"
    expected_at: datetime  # when the run should have started (missed) or finished by (stuck)
    schedule: str
    summary: str
    last_run: RunSeen | None = None
    paused: bool = False
    paused_by: str | None = None  # who paused it and when, when Airflow's event log tells
    paused_at: datetime | None = None

    @property
    def cause(self) -> str:
        if self.kind != "missed":
            return "the load did not finish"
        return "the load did not run: the DAG is paused" + self.paused_note() if self.paused else "the load did not run"

    def paused_note(self) -> str:
        who = f" by {self.paused_by}" if self.paused_by else ""
        when = f" at {self.paused_at:%Y-%m-%d %H:%M %Z}" if self.paused_at else ""
        return f" (paused{who}{when})" if who or when else ""

    def details(self) -> dict[str, Any]:
        last = self.last_run
        return {"dag_id": self.dag_id, "kind": self.kind, "expected_at": self.expected_at.isoformat(),
                "schedule": self.schedule, "cause": self.cause, "paused": self.paused,
                **({"paused_by": self.paused_by} if self.paused_by else {}),
                **({"paused_at": self.paused_at.isoformat()} if self.paused_at else {}),
                "last_run": {"run_id": last.run_id, "state": last.state,
                             "start": last.start.isoformat() if last.start else None,
                             "end": last.end.isoformat() if last.end else None} if last else None}


def interval_of(schedule: str) -> timedelta | None:
    match = _INTERVAL.match(schedule.strip())
    if not match:
        return None
    return timedelta(days=int(match.group("days") or 0), hours=int(match.group("h")), minutes=int(match.group("m")),
                     seconds=int(match.group("s")))


def last_fire(schedule: str | None, before: datetime) -> datetime | None:
    """The latest time at or before `before` when the schedule fires; None for schedules with no clock."""
    text = (schedule or "").strip()
    cron = PRESETS.get(text.lower(), text)
    if cron and croniter.is_valid(cron):
        return croniter(cron, before + timedelta(microseconds=1)).get_prev(datetime)
    return None


def missed_or_stuck(dag_id: str, schedule: str | None, runs: list[RunSeen], now: datetime, *,
                    grace: timedelta = timedelta(minutes=30), stuck_after: timedelta | None = None,
                    stuck_factor: float = 3.0, stuck_min: timedelta = timedelta(hours=1),
                    paused: bool | None = None) -> MissedRun | None:
    """A missed run: the schedule fired more than `grace` ago and no run started since (a paused DAG
    too: it is the reason, not an excuse). A stuck run: the newest run is still queued/running after
    `stuck_after` (default: `stuck_factor` x the median duration of the recent finished runs, at
    least `stuck_min`)."""
    interval = interval_of(schedule or "")
    latest_start = max((t for r in runs if (t := r.start or r.scheduled_for)), default=None)
    if interval is not None:
        fire = (latest_start + interval) if latest_start else None
        fire = fire if fire and fire <= now - grace else None
    else:
        fire = last_fire(schedule, now - grace)
    if fire is None and interval is None and last_fire(schedule, now) is None:
        return None  # no clock: asset-triggered, manual, custom timetable
    newest = max(runs, key=lambda r: r.start or r.scheduled_for or datetime.min.replace(tzinfo=now.tzinfo),
                 default=None)
    if fire is not None and not any((r.start and r.start >= fire) or (r.scheduled_for and r.scheduled_for >= fire)
                                    for r in runs):
        why = " (the DAG is paused)" if paused else ""
        return MissedRun(dag_id, "missed", fire, schedule or "", f"{dag_id} should have run at {fire:%Y-%m-%d %H:%M %Z}"
                         f" ({schedule}) and did not{why}", newest, paused=bool(paused))
    if newest and newest.state in ("queued", "running") and newest.start:
        durations = [(r.end - r.start) for r in runs if r.end and r.start and r.state == "success"]
        # median over seconds: statistics' types take numbers, not timedeltas
        typical = timedelta(seconds=median(d.total_seconds() for d in durations)) if durations else None
        limit = stuck_after or max(stuck_min, stuck_factor * typical if typical else stuck_min)
        if now - newest.start > limit:
            return MissedRun(dag_id, "stuck", newest.start + limit, schedule or "",
                             f"{dag_id} run {newest.run_id} has been {newest.state} since "
                             f"{newest.start:%Y-%m-%d %H:%M %Z}, longer than {limit}", newest)
    return None

"""The logic behind the Airflow runs sensor, without Dagster: which runs are new, what they mean.

Cursor: a high-water mark on run end time plus the keys of runs already reported whose end time is
inside the overlap window. Each poll asks Airflow once (all DAGs, `~`) for runs that finished since
`high_water - overlap`, ordered by end time, so a tick costs one paged list plus one task-instance
request per newly finished run. The overlap catches runs that become visible late (an earlier end
time committed after a later one, or runs that finish out of order); the reported keys make a run
seen twice count once. A run's key includes its end time, so a cleared and re-run DAG run is a new
outcome and is reported again. The high-water mark only moves with what was reported, and only
when the whole poll succeeded: a failed poll leaves the cursor where it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

from dw_assets.connectors.airflow.models import FINISHED_STATES, DagRun, TaskInstance, parse_time
from dw_assets.core.identity import canonical_dataset_id
from dw_assets.core.signals import Signal

DEFAULT_OVERLAP = timedelta(minutes=10)
DEFAULT_LOOKBACK = timedelta(days=1)


class RunSource(Protocol):
    """What a poll needs from a client (an `AirflowClient`, or a fake in tests)."""

    name: str

    def iter_dag_runs(self, dag_id: str = "~", *, updated_since: datetime | None = None,
                      end_date_since: datetime | None = None, states: Iterable[str] | None = None,
                      order_by: str = "end_date") -> Iterator[DagRun]: ...

    def list_task_instances(self, dag_id: str, run_id: str) -> list[TaskInstance]: ...

    def ui_url(self, dag_id: str, run_id: str) -> str: ...


def run_key(run: DagRun) -> str:
    assert run.end_date is not None
    return f"{run.dag_id}/{run.run_id}@{run.end_date.isoformat()}"


@dataclass(frozen=True)
class FeedCursor:
    high_water: datetime | None = None
    reported: dict[str, str] = field(default_factory=dict)  # run key -> end time (ISO)

    def to_json(self) -> str:
        hw = self.high_water.isoformat() if self.high_water else None
        return json.dumps({"version": 1, "high_water": hw, "reported": self.reported}, sort_keys=True)

    @classmethod
    def from_json(cls, raw: str | None) -> FeedCursor:
        if not raw:
            return cls()
        try:
            data = json.loads(raw)
            return cls(parse_time(data.get("high_water")), {str(k): str(v) for k, v in data["reported"].items()})
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"Airflow runs cursor {raw[:80]!r} is not valid ({exc}): reset the sensor's "
                             "cursor in the Dagster UI (runs inside the overlap window are reported again)") from exc

    def window_start(self, *, now: datetime, overlap: timedelta, lookback: timedelta) -> datetime:
        return now - lookback if self.high_water is None else self.high_water - overlap

    def advance(self, reported: list[DagRun], *, overlap: timedelta) -> FeedCursor:
        ends = [r.end_date for r in reported if r.end_date is not None]
        if not ends:
            return self
        high = max([*ends, *([self.high_water] if self.high_water else [])])
        keys = {**self.reported, **{run_key(r): r.end_date.isoformat() for r in reported if r.end_date}}
        floor = high - overlap
        # keys older than the window can never be listed again, so they need not be remembered
        return FeedCursor(high, {k: v for k, v in keys.items() if datetime.fromisoformat(v) >= floor})


@dataclass(frozen=True)
class FinishedRun:
    instance: str
    run: DagRun
    task_instances: list[TaskInstance]
    ui_url: str | None = None


@dataclass(frozen=True)
class PollResult:
    finished: list[FinishedRun]
    cursor: FeedCursor


def poll(source: RunSource, cursor: FeedCursor, *, now: datetime, overlap: timedelta = DEFAULT_OVERLAP,
         lookback: timedelta = DEFAULT_LOOKBACK, max_runs: int = 200) -> PollResult:
    """Finished runs not reported yet (oldest first, at most `max_runs`) and the cursor after them."""
    since = cursor.window_start(now=now, overlap=overlap, lookback=lookback)
    new: dict[str, DagRun] = {}
    for run in source.iter_dag_runs("~", end_date_since=since, states=FINISHED_STATES, order_by="end_date"):
        if not run.finished or run_key(run) in cursor.reported:
            continue
        new.setdefault(run_key(run), run)
        if len(new) >= max_runs:  # the rest end later and are picked up by the next poll
            break
    finished = [FinishedRun(source.name, run, source.list_task_instances(run.dag_id, run.run_id),
                            source.ui_url(run.dag_id, run.run_id)) for run in new.values()]
    return PollResult(finished, cursor.advance(list(new.values()), overlap=overlap))


@dataclass(frozen=True)
class DatasetEvent:
    """One dataset touched by one task of a finished run: materialized (task succeeded) or observed."""

    kind: Literal["materialization", "observation"]
    dataset_id: str
    task_id: str
    task_state: str | None
    metadata: dict[str, Any]

    @property
    def asset_key(self) -> list[str]:
        return self.dataset_id.split(".")


_WORST_FIRST = ("failed", "upstream_failed", "up_for_retry", "removed", "skipped")


def _task_states(tis: list[TaskInstance]) -> dict[str, tuple[str | None, list[TaskInstance]]]:
    """One state per task (with its instances): a mapped task succeeded only if every index did."""
    grouped: dict[str, list[TaskInstance]] = {}
    for ti in tis:
        grouped.setdefault(ti.task_id, []).append(ti)
    return {task_id: (_combined_state(group), group) for task_id, group in grouped.items()}


def _combined_state(group: list[TaskInstance]) -> str | None:
    states = {ti.state for ti in group}
    if states == {"success"}:
        return "success"
    return next((s for s in _WORST_FIRST if s in states), group[0].state)


def run_metadata(fr: FinishedRun) -> dict[str, Any]:
    run = fr.run
    values = {"airflow_instance": fr.instance, "dag_id": run.dag_id, "run_id": run.run_id,
              "run_state": run.state, "conf": run.conf, "run_type": run.run_type,
              "triggered_by": run.triggered_by, "duration_s": run.duration_s, "airflow_url": fr.ui_url,
              **{k: getattr(run, k).isoformat() for k in ("logical_date", "run_after", "start_date", "end_date")
                 if getattr(run, k)}}
    return {k: v for k, v in values.items() if v is not None}


def dataset_events(fr: FinishedRun, task_outputs: dict[str, list[str]],
                   canonical: Callable[[str], str] = canonical_dataset_id) -> list[DatasetEvent]:
    events = []
    for task_id, (state, group) in _task_states(fr.task_instances).items():
        for dataset in task_outputs.get(f"{fr.run.dag_id}.{task_id}", []):
            meta = {**run_metadata(fr), "task_id": task_id, "task_state": state,
                    "try_number": max(ti.try_number for ti in group)}
            kind: Literal["materialization", "observation"] = "materialization" if state == "success" else "observation"
            events.append(DatasetEvent(kind, canonical(dataset), task_id, state, meta))
    return events


def failure_signals(fr: FinishedRun, task_outputs: dict[str, list[str]],
                    canonical: Callable[[str], str] = canonical_dataset_id) -> list[Signal]:
    """What incident intake hears about a failed run: one signal per dataset its unfinished tasks write."""
    run = fr.run
    if run.state != "failed":
        return []
    states = _task_states(fr.task_instances)
    failed = sorted(t for t, (s, _) in states.items() if s != "success" and s != "skipped")
    datasets = sorted({canonical(d) for t in failed for d in task_outputs.get(f"{run.dag_id}.{t}", [])})
    details = {**run_metadata(fr), "failed_tasks": {t: states[t][0] for t in failed}}
    what = ", ".join(f"{t} {states[t][0]}" for t in failed) or "no task failed"
    base_key = f"airflow:{fr.instance}:{run_key(run)}"
    assert run.end_date is not None
    targets: list[str | None] = [*datasets] or [None]  # a failed run with no known output still signals
    return [Signal(kind="airflow_run_failed", dataset_id=ds, observed_at=run.end_date, source=f"airflow:{fr.instance}",
                   summary=f"Airflow run {run.dag_id} {run.run_id} failed ({what})", details=details,
                   severity="high", dedupe_key=f"{base_key}:{ds}" if ds else base_key)
            for ds in targets]

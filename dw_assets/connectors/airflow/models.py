"""Airflow's REST payloads normalized across API versions (v1 = Airflow 2, v2 = Airflow 3).

v1 calls the logical date `execution_date` and has no `run_after` or `triggered_by`; v2 may return
a null `logical_date` (runs triggered without one). Dates become timezone-aware datetimes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from dw_assets.connectors.airflow.errors import AirflowResponseError

FINISHED_STATES = ("success", "failed")


def parse_time(value: Any) -> datetime | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise TypeError(f"expected an ISO date-time string, got {value!r}")
    return datetime.fromisoformat(value)


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


@dataclass(frozen=True)
class TaskInstance:
    task_id: str
    state: str | None
    try_number: int
    start_date: datetime | None
    end_date: datetime | None
    duration: float | None
    operator: str | None
    map_index: int = -1

    @classmethod
    def from_api(cls, payload: dict[str, Any]) -> TaskInstance:
        return cls(
            task_id=payload["task_id"],
            state=payload.get("state"),
            try_number=int(payload.get("try_number") or 0),
            start_date=parse_time(payload.get("start_date")),
            end_date=parse_time(payload.get("end_date")),
            duration=payload.get("duration"),
            operator=payload.get("operator"),
            map_index=-1 if payload.get("map_index") is None else int(payload["map_index"]),
        )

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["start_date"], out["end_date"] = _iso(self.start_date), _iso(self.end_date)
        return out


@dataclass(frozen=True)
class DagRun:
    dag_id: str
    run_id: str
    state: str | None
    logical_date: datetime | None
    run_after: datetime | None
    start_date: datetime | None
    end_date: datetime | None
    conf: dict[str, Any] = field(default_factory=dict)
    run_type: str | None = None
    triggered_by: str | None = None
    updated_at: datetime | None = None  # neither API version returns it today; kept when present

    @classmethod
    def from_api(cls, payload: dict[str, Any]) -> DagRun:
        return cls(
            dag_id=payload["dag_id"],
            run_id=payload["dag_run_id"],
            state=payload.get("state"),
            logical_date=parse_time(payload.get("logical_date") or payload.get("execution_date")),
            run_after=parse_time(payload.get("run_after")),
            start_date=parse_time(payload.get("start_date")),
            end_date=parse_time(payload.get("end_date")),
            conf=payload.get("conf") or {},
            run_type=payload.get("run_type"),
            triggered_by=payload.get("triggered_by"),
            updated_at=parse_time(payload.get("updated_at")),
        )

    @property
    def finished(self) -> bool:
        return self.state in FINISHED_STATES and self.end_date is not None

    @property
    def duration_s(self) -> float | None:
        if self.start_date and self.end_date:
            return (self.end_date - self.start_date).total_seconds()
        return None

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("logical_date", "run_after", "start_date", "end_date", "updated_at"):
            out[key] = _iso(getattr(self, key))
        out["duration_s"] = self.duration_s
        return out


@dataclass(frozen=True)
class Dag:
    dag_id: str
    is_paused: bool | None
    owners: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    schedule: str | None = None  # cron, preset or interval ("1 day, 0:00:00"); None when not on a clock
    fileloc: str | None = None

    @classmethod
    def from_api(cls, payload: dict[str, Any]) -> Dag:
        return cls(
            dag_id=payload["dag_id"],
            is_paused=payload.get("is_paused"),
            owners=tuple(payload.get("owners") or ()),
            tags=tuple(t["name"] if isinstance(t, dict) else str(t) for t in payload.get("tags") or ()),
            schedule=_schedule(payload),
            fileloc=payload.get("fileloc"),
        )


def _schedule(payload: dict[str, Any]) -> str | None:
    """Airflow 3 `timetable_summary` ("0 6 * * *", "@daily", "Asset", "None"); Airflow 2 `schedule_interval`
    ({"__type": "CronExpression", "value": ...} or a TimeDelta), else its `timetable_summary`."""
    interval = payload.get("schedule_interval")
    if isinstance(interval, dict):
        if interval.get("__type") == "CronExpression":
            return str(interval.get("value"))
        if interval.get("__type") == "TimeDelta":
            total = int(interval.get("days") or 0) * 86400 + int(interval.get("seconds") or 0)
            days, rest = divmod(total, 86400)
            return (f"{days} day{'s' if days != 1 else ''}, " if days else "") + \
                f"{rest // 3600}:{rest % 3600 // 60:02d}:{rest % 60:02d}"
    summary = payload.get("timetable_summary")
    if isinstance(summary, str) and summary and summary.lower() not in ("none", "null"):
        return summary
    return None


Model = TypeVar("Model", TaskInstance, DagRun, Dag)


def parse_items(kind: type[Model], items: list[Any], what: str) -> list[Model]:
    """Build models from a page of items; a malformed item is an AirflowResponseError, not a KeyError."""
    try:
        return [kind.from_api(item) for item in items]
    except (KeyError, TypeError, ValueError) as exc:
        raise AirflowResponseError(f"{what}: an item is not a valid {kind.__name__} ({exc!r})") from exc

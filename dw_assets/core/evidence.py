"""What diagnosis reasons over: plain, immutable facts gathered from the estate's systems.

Collectors (`dw_assets.diagnosis.collect`) fill an `EvidenceBundle` from the connectors and stores;
the ranking (`dw_assets.core.diagnosis`) and the fixes (`dw_assets.core.fixes`) read only this
model, so every cause can be tested from facts written by hand. Facts are scrubbed: counts, dates,
types, run ids, file names and error text, never table rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

SymptomKind = Literal["failure", "volume_low", "volume_high", "stale", "duplicates", "check_failed"]
ErrorKind = Literal["conversion", "missing_column", "permission_denied", "timeout", "other"]
SchemaChangeKind = Literal["type_changed", "dropped", "added", "renamed"]


@dataclass(frozen=True)
class Symptom:
    """What the incident saw: a failed run or a check that flagged a dataset."""

    kind: SymptomKind
    dataset_id: str | None
    observed_at: datetime
    summary: str = ""
    partition: str | None = None  # e.g. "2026-09-30" for a partitioned check
    job: str | None = None  # the failing job: "dag.task" or an OpenLineage job name
    error_message: str | None = None
    metrics: dict[str, Any] = field(default_factory=dict)  # e.g. {"ratio": 0.58}


@dataclass(frozen=True)
class GraphNode:
    """A node upstream of the symptom (depth >= 1) or the symptom itself (depth 0)."""

    node_id: str
    kind: str  # dataset | task | dbt_model | exposure | file | ...
    system: str  # airflow | dbt | warehouse | app | landing | openlineage | bi
    depth: int
    file_path: str | None = None  # repo-relative source of a dbt model or DAG file, when known
    owner: str | None = None
    feeds: tuple[str, ...] = ()  # the nodes in scope it has an edge to (what a task writes)


@dataclass(frozen=True)
class Hop:
    """One edge of the path from a cause to the symptom and on to its readers."""

    source: str
    target: str
    system: str
    provenance: str  # note | openlineage | dbt_manifest | airflow | config
    detail: str = ""


@dataclass(frozen=True)
class Reader:
    """A downstream asset that reads what the cause touched (blast radius)."""

    node_id: str
    kind: str
    depth: int
    owner: str | None = None
    label: str | None = None
    severity: str | None = None


@dataclass(frozen=True)
class SchemaChange:
    dataset_id: str
    column: str
    change: SchemaChangeKind
    observed_at: datetime
    old_type: str | None = None
    new_type: str | None = None
    new_name: str | None = None  # for a rename
    source: str = "openlineage"
    run_id: str | None = None


@dataclass(frozen=True)
class DatasetSchema:
    """The current columns of a dataset, read from a database or the latest schema facet."""

    dataset_id: str
    columns: dict[str, str]  # column -> type
    source: str = "warehouse"


@dataclass(frozen=True)
class TaskRun:
    """One task instance (Airflow) or job run (OpenLineage); `outputs` are canonical dataset ids."""

    system: str
    dag_id: str
    task_id: str | None
    run_id: str
    state: str  # success | failed | upstream_failed | running | skipped | ...
    start: datetime | None
    end: datetime | None
    try_number: int = 1
    max_tries: int | None = None
    conf: dict[str, Any] = field(default_factory=dict)
    outputs: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()
    error_message: str | None = None

    @property
    def job(self) -> str:
        return f"{self.dag_id}.{self.task_id}" if self.task_id else self.dag_id


@dataclass(frozen=True)
class LandedFile:
    """A file in the landing zone for the symptom's partition; `arrived_at` is its mtime."""

    name: str
    arrived_at: datetime
    rows: int | None = None
    date_ranges: dict[str, tuple[date, date]] = field(default_factory=dict)
    is_marker: bool = False
    dataset_id: str | None = None  # the dataset the landing glob feeds
    partition: str | None = None
    glob: str | None = None  # the landing glob it matched, as configured (`landed_files.file_glob`)


@dataclass(frozen=True)
class PartitionProfile:
    """A partition's own shape, computed in SQL by the warehouse (nothing pulled into memory)."""

    dataset_id: str
    partition_column: str
    partition: str
    rows: int
    rows_by_source_file: dict[str, int] = field(default_factory=dict)
    date_ranges: dict[str, tuple[date, date]] = field(default_factory=dict)
    expected_range: tuple[date, date] | None = None  # the dates the period should cover
    key_column: str | None = None
    duplicate_keys: int = 0  # rows beyond the first per key value
    history_rows: tuple[int, ...] = ()  # rows of the previous partitions of the same period
    non_castable: dict[str, tuple[str, ...]] = field(default_factory=dict)  # column -> odd values


@dataclass(frozen=True)
class ErrorClassification:
    kind: ErrorKind
    column: str | None = None
    value: str | None = None
    target_type: str | None = None
    obj: str | None = None  # the object refused, for a permission error


@dataclass(frozen=True)
class FailureEvent:
    """A FAIL event (OpenLineage) or failed task with its error message."""

    job: str
    run_id: str
    event_time: datetime
    message: str
    outputs: tuple[str, ...] = ()
    source: str = "openlineage"

    @property
    def classification(self) -> ErrorClassification:
        return classify_error(self.message)


@dataclass(frozen=True)
class Commit:
    repo: str
    sha: str
    author: str
    authored_at: datetime
    message: str
    paths: tuple[str, ...]
    changed_lines: tuple[str, ...] = ()  # added/removed lines of the touched asset files, bounded


@dataclass(frozen=True)
class ModelSource:
    """A dbt model's SQL as written in the repo (from the manifest's original_file_path)."""

    node_id: str  # canonical dataset id of the model's relation
    name: str
    file_path: str  # repo-relative
    sql: str
    depth: int = 0


@dataclass(frozen=True)
class Note:
    subject: str
    text: str
    author: str | None = None
    source: str | None = None


@dataclass(frozen=True)
class EvidenceBundle:
    symptom: Symptom
    window: tuple[datetime, datetime]
    upstream: tuple[GraphNode, ...] = ()
    schema_changes: tuple[SchemaChange, ...] = ()
    schemas: tuple[DatasetSchema, ...] = ()
    task_runs: tuple[TaskRun, ...] = ()
    landed_files: tuple[LandedFile, ...] = ()
    profiles: tuple[PartitionProfile, ...] = ()
    failures: tuple[FailureEvent, ...] = ()
    commits: tuple[Commit, ...] = ()
    models: tuple[ModelSource, ...] = ()
    notes: tuple[Note, ...] = ()
    gaps: tuple[str, ...] = ()  # evidence that could not be collected, and why

    def depth_of(self, node_id: str) -> int | None:
        if node_id == self.symptom.dataset_id:
            return 0
        return next((n.depth for n in self.upstream if n.node_id == node_id), None)

    def node(self, node_id: str) -> GraphNode | None:
        return next((n for n in self.upstream if n.node_id == node_id), None)

    def producers_of(self, dataset_id: str) -> list[TaskRun]:
        return [r for r in self.task_runs if dataset_id in r.outputs]

    def symptom_error(self) -> ErrorClassification | None:
        message = self.symptom.error_message or next((f.message for f in self._symptom_failures()), None)
        return classify_error(message) if message else None

    def _symptom_failures(self) -> list[FailureEvent]:
        sym = self.symptom
        return [f for f in self.failures if (sym.job and f.job == sym.job) or (sym.dataset_id in f.outputs)]


_CONVERSION = [
    # DuckDB: Could not convert string "N/A" to DECIMAL(18,2) when casting from source column discount
    re.compile(r"could not convert string ['\"](?P<value>[^'\"]*)['\"] to (?P<type>[A-Z0-9_]+(?:\([0-9, ]+\))?)"
               r"(?:.*?source column (?P<column>[\w.\"]+))?", re.IGNORECASE | re.DOTALL),
    # PostgreSQL: invalid input syntax for type numeric: "N/A"
    re.compile(r"invalid input syntax for (?:type )?(?P<type>[\w ]+): ['\"](?P<value>[^'\"]*)['\"]", re.IGNORECASE),
    # Spark: The value 'N/A' of the type "STRING" cannot be cast to "DECIMAL(18,2)"
    re.compile(r"value ['\"](?P<value>[^'\"]*)['\"] of the type \"?\w+\"? cannot be cast to \"?(?P<type>[\w(), ]+?)\"?"
               r"(?:\s|$|\.)", re.IGNORECASE),
    # Snowflake: Numeric value 'N/A' is not recognized; BigQuery: Bad numeric value: N/A
    re.compile(r"(?P<type>numeric|double|int\w*|decimal|date|timestamp) value:? ['\"]?(?P<value>[^'\"\s]+)['\"]?"
               r"(?: is not recognized)?", re.IGNORECASE),
    re.compile(r"conversion error|cast_invalid_input|invalid_cast|cannot cast", re.IGNORECASE),
]
_MISSING_COLUMN = [
    re.compile(r"referenced column ['\"](?P<column>[^'\"]+)['\"] not found", re.IGNORECASE),
    re.compile(r"column ['\"]?(?P<column>[\w.]+)['\"]? does not exist", re.IGNORECASE),
    re.compile(r"does not have a column named ['\"](?P<column>[^'\"]+)['\"]", re.IGNORECASE),
    re.compile(r"invalid identifier ['\"](?P<column>[^'\"]+)['\"]", re.IGNORECASE),
    re.compile(r"with name [`'\"](?P<column>[^`'\"]+)[`'\"] cannot be resolved", re.IGNORECASE),
    re.compile(r"unrecognized name: (?P<column>\w+)", re.IGNORECASE),
    re.compile(r"no such column:? ['\"]?(?P<column>[\w.]+)", re.IGNORECASE),
    # DuckDB, when the select list defines an alias of the missing column's name
    re.compile(r"binder error:.*?column ['\"](?P<column>[^'\"]+)['\"] referenced", re.IGNORECASE | re.DOTALL),
]
_PERMISSION = re.compile(
    r"permission denied(?: for (?:table|relation|schema|database) (?P<obj>[\w.\"]+))?|insufficient privileges?"
    r"|access denied|not authorized|unauthori[sz]ed|forbidden|\b403\b|must be owner of"
    r"|attached in read-only mode|Permission Error", re.IGNORECASE)
_TIMEOUT = re.compile(r"time(?:d)? ?out|timeout|deadline exceeded|execution_timeout|AirflowTaskTimeout"
                      r"|canceling statement due to statement timeout", re.IGNORECASE)


def classify_error(message: str) -> ErrorClassification:
    """Sort an error message into conversion / missing column / permission / timeout / other."""
    if not message:
        return ErrorClassification("other")
    for pattern in _CONVERSION:
        match = pattern.search(message)
        if match:
            groups = match.groupdict()
            column = groups.get("column")
            return ErrorClassification("conversion", column=_bare(column) if column else None,
                                       value=groups.get("value"), target_type=groups.get("type"))
    for pattern in _MISSING_COLUMN:
        match = pattern.search(message)
        if match:
            return ErrorClassification("missing_column", column=_bare(match.group("column")))
    match = _PERMISSION.search(message)
    if match:
        return ErrorClassification("permission_denied", obj=(match.groupdict().get("obj") or "").strip('"') or None)
    if _TIMEOUT.search(message):
        return ErrorClassification("timeout")
    return ErrorClassification("other")


def _bare(column: str) -> str:
    """`o."discount"` -> `discount`: errors qualify columns in many ways."""
    return column.replace('"', "").replace("`", "").split(".")[-1].lower()


_NUMERIC = re.compile(r"^(decimal|numeric|number|int|integer|bigint|smallint|tinyint|hugeint|int\d+|uint\d+"
                      r"|double|float\d*|real|money)\b", re.IGNORECASE)
_STRING = re.compile(r"^(varchar|text|string|char|character|nvarchar|bpchar|character varying)\b", re.IGNORECASE)
_TEMPORAL = re.compile(r"^(date|timestamp\w*|time\w*|datetime)\b", re.IGNORECASE)


def type_family(type_name: str | None) -> str:
    """numeric | string | temporal | boolean | other: type names differ per system, families do not."""
    name = (type_name or "").strip().lower()
    if _NUMERIC.match(name):
        return "numeric"
    if _STRING.match(name):
        return "string"
    if _TEMPORAL.match(name):
        return "temporal"
    if name.startswith("bool"):
        return "boolean"
    return "other"

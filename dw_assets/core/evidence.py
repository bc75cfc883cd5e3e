"""What diagnosis reasons over: plain, immutable facts gathered from the estate's systems.

Collectors (`dw_assets.diagnosis.collect`) fill an `EvidenceBundle` from the connectors and stores;
the ranking (`dw_assets.core.diagnosis`) and the fixes (`dw_assets.core.fixes`) read only this
model, so every cause can be tested from facts written by hand. Facts are scrubbed: counts, dates,
types, run ids, file names and error text, never table rows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

from dw_assets.core.notes import Note

SymptomKind = Literal["failure", "volume_low", "volume_high", "stale", "duplicates", "check_failed"]
ErrorKind = Literal["conversion", "missing_column", "schema_mismatch", "missing_input", "duplicate_key",
                    "out_of_memory", "permission_denied", "connection", "quota", "timeout", "upstream_failed",
                    "bad_code", "other"]
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

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "target": self.target, "system": self.system,
                "provenance": self.provenance, "detail": self.detail}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | Hop) -> Hop:
        if isinstance(data, Hop):
            return data
        return cls(str(data.get("source") or ""), str(data.get("target") or ""), str(data.get("system") or ""),
                   str(data.get("provenance") or ""), str(data.get("detail") or ""))


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
    log_lines: tuple[str, ...] = ()  # the failed try's error lines, from its log (bounded)

    @property
    def job(self) -> str:
        return f"{self.dag_id}.{self.task_id}" if self.task_id else self.dag_id


@dataclass(frozen=True)
class LandedFile:
    """A file in a landing zone, as the landed-files check and the diagnosis list it (one record for
    both): `arrived_at` is its mtime (None where the store gives none), `rows` its data rows (header
    excluded; None where not counted), `path` the full path or URL it was listed at."""

    name: str
    arrived_at: datetime | None
    rows: int | None = None
    date_ranges: dict[str, tuple[date, date]] = field(default_factory=dict)
    is_marker: bool = False
    dataset_id: str | None = None  # the dataset the landing glob feeds
    partition: str | None = None
    glob: str | None = None  # the landing glob it matched, as configured (`landed_files.file_glob`)
    path: str | None = None
    size: int | None = None  # bytes


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
    notes: tuple[Note, ...] = ()  # the team notes on edges in scope
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
        """The symptom's own error: its message, else its FAIL event's, else its failed try's log."""
        message = self.symptom.error_message or next((f.message for f in self._symptom_failures() if f.message),
                                                     None)
        if message and classify_error(message).kind != "other":
            return classify_error(message)
        logged = next((r.error_message for r in self.symptom_runs() if r.state == "failed" and r.error_message), None)
        if logged and classify_error(logged).kind != "other":
            return classify_error(logged)
        return classify_error(message) if message else None

    def symptom_runs(self) -> list[TaskRun]:
        """The runs of the symptom's own job (or, for a failure, the runs that write its dataset)."""
        sym = self.symptom
        return [r for r in self.task_runs if (sym.job and r.job == sym.job)
                or (sym.kind == "failure" and sym.dataset_id and sym.dataset_id in r.outputs)]

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
    r"|access denied|not authorized|unauthori[sz]ed|forbidden|(?<![\d.:+-])403(?![\d.:+-])|must be owner of"
    r"|attached in read-only mode|Permission Error", re.IGNORECASE)
_TIMEOUT = re.compile(r"time(?:d)? ?out|timeout|deadline exceeded|execution_timeout|AirflowTaskTimeout"
                      r"|canceling statement due to statement timeout", re.IGNORECASE)


# The classes below are phrased by the engines and runtimes the estates run on (DuckDB, PostgreSQL,
# Snowflake, BigQuery, Spark, Python, Airflow, Kubernetes); each names what failed, not who.
_SCHEMA_MISMATCH = re.compile(
    r"table \S+ has \d+ columns but \d+ values were supplied|has \d+ columns? but \d+ (?:values|columns)"
    r"|INSERT has more (?:expressions|target columns) than|column count (?:doesn't|does not) match"
    r"|schema mismatch|does not match the (?:table )?schema|mismatch(?:ed)? (?:type|schema)"
    r"|number of columns", re.IGNORECASE)
_MISSING_INPUT = re.compile(
    r"no files? found(?: that match(?:es)? the pattern ['\"]?(?P<obj>[^'\"\s]+))?|FileNotFoundError(?:: .*?['\"]"
    r"(?P<path>[^'\"]+)['\"])?|No such file or directory(?:: ['\"](?P<path2>[^'\"]+))?|NoSuchKey"
    r"|file (?:does not|doesn't) exist|path does not exist|input (?:file|path) .*?not found"
    r"|(?:table|relation) ['\"]?(?P<table>[\w.\"]+)['\"]? does not exist|Table with name (?P<table2>[\w.]+) does not exist"
    , re.IGNORECASE)
_DUPLICATE_KEY = re.compile(
    r"duplicate key(?: value violates unique constraint ['\"]?(?P<obj>[\w.]+))?|Duplicate entry"
    r"|violates (?:primary key|unique) constraint|PRIMARY KEY or UNIQUE constraint violat"
    r"|UNIQUE constraint failed|Constraint Error: Duplicate", re.IGNORECASE)
_OOM = re.compile(
    r"out of memory|MemoryError|OOMKilled|Cannot allocate memory|memory limit exceeded|Java heap space"
    r"|return code -9|Negsignal\.SIGKILL|\bSIGKILL\b|exit code 137|\bKilled\b", re.IGNORECASE)
_CONNECTION = re.compile(
    r"connection refused|could not connect to server|Name or service not known|Temporary failure in name resolution"
    r"|nodename nor servname|getaddrinfo failed|could not translate host name|Could not resolve host"
    r"|No route to host|Network is unreachable|Connection reset by peer|ConnectError|ConnectionError"
    r"|Max retries exceeded with url|server closed the connection unexpectedly", re.IGNORECASE)
_CREDENTIALS = re.compile(
    r"password authentication failed|authentication failed|invalid credentials|invalid_grant|expired token"
    r"|token (?:has )?expired|InvalidAccessKeyId|SignatureDoesNotMatch|ExpiredToken|could not be authenticated",
    re.IGNORECASE)
_QUOTA = re.compile(
    r"quota exceeded|exceeded (?:your |the )?quota|rate limit|Too Many Requests|\b429\b|resources exceeded"
    r"|No space left on device|Disk quota|ResourceExhausted|RESOURCE_EXHAUSTED|credits? (?:exhausted|exceeded)",
    re.IGNORECASE)
_UPSTREAM_FAILED = re.compile(r"upstream_failed|upstream task\(?s?\)? failed|dependencies? failed", re.IGNORECASE)
_BAD_CODE = re.compile(
    r"(?P<exc>SyntaxError|IndentationError|ModuleNotFoundError|ImportError|NameError|AttributeError"
    r"|Broken DAG|DAG import error|Parser Error|syntax error at or near|Compilation Error)"
    r"(?::? (?:No module named |name |cannot import name |module |at or near )?['\"]?(?P<obj>[\w.]+)['\"]?)?",
    re.IGNORECASE)
_PY_CONVERSION = re.compile(
    r"could not convert string to (?P<type1>\w+): ['\"](?P<value>[^'\"]*)['\"]|invalid literal for (?P<type>\w+)\(\)"
    r"(?: with base \d+)?: ['\"](?P<value2>[^'\"]*)['\"]", re.IGNORECASE)


def classify_error(message: str) -> ErrorClassification:
    """Sort an error message into one class (conversion, missing column, schema mismatch, missing input,
    duplicate key, out of memory, permission/credentials, connection/DNS, quota, timeout, upstream
    failed, bad code) or `other`. More specific classes are tried first."""
    if not message:
        return ErrorClassification("other")
    match = _PY_CONVERSION.search(message)
    if match:
        return ErrorClassification("conversion", value=match.group("value") or match.group("value2"),
                                   target_type=match.group("type1") or match.group("type"))
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
    if _SCHEMA_MISMATCH.search(message):
        return ErrorClassification("schema_mismatch")
    match = _DUPLICATE_KEY.search(message)
    if match:
        return ErrorClassification("duplicate_key", obj=match.groupdict().get("obj"))
    match = _MISSING_INPUT.search(message)
    if match:
        found = next((v for k, v in match.groupdict().items() if v), None)
        return ErrorClassification("missing_input", obj=found.strip('"') if found else None)
    if _QUOTA.search(message):
        return ErrorClassification("quota")
    match = _PERMISSION.search(message) or _CREDENTIALS.search(message)
    if match:
        return ErrorClassification("permission_denied", obj=(match.groupdict().get("obj") or "").strip('"') or None)
    if _CONNECTION.search(message):
        return ErrorClassification("connection")
    if _OOM.search(message):
        return ErrorClassification("out_of_memory")
    if _TIMEOUT.search(message):
        return ErrorClassification("timeout")
    match = _BAD_CODE.search(message)
    if match:
        return ErrorClassification("bad_code", obj=match.group("obj"), value=match.group("exc"))
    if _UPSTREAM_FAILED.search(message):
        return ErrorClassification("upstream_failed")
    return ErrorClassification("other")


_ERROR_LINE = re.compile(r"\bERROR\b|\bCRITICAL\b|Error\b|Exception\b|Traceback|\bFAIL(?:ED|URE)?\b|Killed"
                         r"|SIGKILL|return code|exit code|No files found|does not exist|refused|denied", re.IGNORECASE)


def error_lines(log_text: str, max_lines: int = 12, max_line: int = 400) -> tuple[str, ...]:
    """The lines of a task log that say what failed, last ones first in weight: a classified line from
    the end of the log, then the other error-looking lines before it (bounded)."""
    lines = [ln.strip() for ln in (log_text or "").splitlines() if ln.strip()]
    picked = [ln[:max_line] for ln in lines if _ERROR_LINE.search(ln) or classify_error(ln).kind != "other"]
    return tuple(dict.fromkeys(picked[-max_lines:]))


def classify_log(lines: tuple[str, ...] | list[str]) -> tuple[ErrorClassification, str | None]:
    """The class of a failed try from its error lines: the last line with a known class wins (the
    final exception is the root; earlier lines are often retries or wrappers)."""
    for line in reversed(list(lines)):
        found = classify_error(line)
        if found.kind != "other":
            return found, line
    joined = "\n".join(lines)
    found = classify_error(joined)
    return found, (lines[-1] if lines else None)


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

"""Data Workers' own verification runs, reported as OpenLineage RunEvents through openlineage-python.

Writes: START, then COMPLETE (every check passed) or FAIL (a check failed, or the verification
errored), to the transport in `openlineage.emit_transport` (an openlineage-python transport config:
http, file, console...; `${ENV}` references resolved when the emitter is built). Job
`data_workers.verify.<dataset>` in `openlineage.emit_namespace`; inputs are the datasets checked,
named as dbt-ol and the estate name them (`duckdb://<file>` + `catalog.schema.table`), each with a
dataQualityAssertions input facet (one assertion per check); facets parent (the run verified, e.g.
the Airflow rerun), jobType (BATCH / DATA_WORKERS / VERIFICATION) and processing_engine.
A backend that is down never fails a verification: each event is retried with backoff (the shared
policy in `connectors.retry`, under a 60 s deadline), then
logged and appended to `$DW_HOME/lineage/spool/verification-events.ndjson`; `flush_spool` resends.
Reads nothing from the estate; raises only `ConfigError` for a transport config it cannot build.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from dw_assets.config import ConfigError, Settings, dw_home, resolve_env
from dw_assets.connectors import retry
from dw_assets.core.identity import split_relation

log = logging.getLogger(__name__)
_PRODUCER_BASE = "https://github.com/data-workers/data-workers-dagster/tree/"


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "0+unknown"


PRODUCER = f"{_PRODUCER_BASE}v{_version('data-workers-dagster')}"


@dataclass(frozen=True)
class Assertion:
    """One check's outcome on one dataset; `assertion` names the kind (volume, balance, ...)."""

    dataset_id: str
    assertion: str
    success: bool
    column: str | None = None
    name: str | None = None
    severity: str | None = None  # error | warn
    expected: str | None = None
    actual: str | None = None


@dataclass(frozen=True)
class ParentRun:
    """The run being verified: the OpenLineage run id Airflow's provider gave it when known
    (`LineageEventStore.provider_dag_run_id`); else an Airflow run id, mapped to a stable
    uuid5(URL, "<namespace>/<job_name>/<run_id>")."""

    namespace: str
    job_name: str
    run_id: str

    @property
    def run_uuid(self) -> str:
        try:
            return str(uuid.UUID(self.run_id))
        except ValueError:
            return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{self.namespace}/{self.job_name}/{self.run_id}"))


@dataclass
class VerificationRun:
    dataset_id: str
    datasets: list[str]
    parent: ParentRun | None
    run_id: str = field(default_factory=lambda: str(uuid.uuid4()))


@dataclass(frozen=True)
class EmitOutcome:
    event_type: str
    delivered: bool
    attempts: int
    error: str | None = None
    spooled_to: Path | None = None


def resolve_transport_config(value: Any) -> Any:
    """Resolve `${ENV}` references in every string of a transport config."""
    if isinstance(value, str):
        return resolve_env(value, what="openlineage.emit_transport")
    if isinstance(value, dict):
        return {k: resolve_transport_config(v) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_transport_config(v) for v in value]
    return value


def build_client(transport: dict[str, Any] | None) -> Any:
    """An OpenLineageClient for a transport config; None when no transport is configured. The HTTP
    transport's own retries are off unless configured: the emitter retries with its own backoff."""
    if not transport:
        return None
    # lazy: openlineage-python takes about a second to import; only an emitting deployment needs it
    from openlineage.client import OpenLineageClient
    from openlineage.client.transport import get_default_factory

    config = resolve_transport_config(dict(transport))
    if config.get("type") == "http":
        config.setdefault("retry", {"total": 0, "connect": 0, "read": 0})
    if config.get("type") == "file" and config.get("log_file_path"):
        Path(config["log_file_path"]).expanduser().parent.mkdir(parents=True, exist_ok=True)
    try:
        return OpenLineageClient(transport=get_default_factory().create(config))
    except (KeyError, TypeError, ValueError, RuntimeError) as exc:
        raise ConfigError(f"openlineage.emit_transport cannot be used: {exc}") from exc


def ol_dataset_name(settings: Settings, dataset_id: str) -> tuple[str, str]:
    """(namespace, name) of a canonical dataset id as dbt-ol names it: `duckdb://<file>` and
    `catalog.schema.table` when the catalog is a configured DuckDB file, else the emit namespace."""
    parts = split_relation(dataset_id)
    if len(parts) == 2:
        parts = [parts[0], "main", parts[1]]
    catalogs = {name.lower(): path for name, path in settings.warehouse.attach.items()}
    url = settings.warehouse.url
    if url.startswith("duckdb:///"):
        path = url.removeprefix("duckdb:///")
        catalogs.setdefault(Path(path).stem.lower(), path)
    if len(parts) == 3 and parts[0] in catalogs:
        file = settings.resolve_path(catalogs[parts[0]], what=f"warehouse catalog {parts[0]}")
        return f"duckdb://{file}", ".".join(parts)
    return settings.openlineage.emit_namespace, dataset_id


class VerificationEmitter:
    """START / COMPLETE|FAIL events for one verification at a time; see the module docstring."""

    def __init__(self, settings: Settings, *, client: Any = None, retries: int = 3, backoff_s: float = 0.5,
                 spool_path: Path | None = None, sleep: Callable[[float], None] = time.sleep):
        self.settings = settings
        self.namespace = settings.openlineage.emit_namespace
        self._client = client if client is not None else build_client(settings.openlineage.emit_transport)
        self.retries = retries
        self.backoff_s = backoff_s
        self.policy = retry.RetryPolicy(attempts=retries + 1, backoff_s=backoff_s, max_backoff_s=8.0, deadline_s=60.0)
        self.spool_path = spool_path or dw_home() / "lineage" / "spool" / "verification-events.ndjson"
        self._sleep = sleep

    @staticmethod
    def job_name(dataset_id: str) -> str:
        return f"data_workers.verify.{dataset_id}"

    def start(self, dataset_id: str, *, datasets: Sequence[str] | None = None, parent: ParentRun | None = None,
              run_id: str | None = None) -> tuple[VerificationRun, EmitOutcome]:
        run = VerificationRun(dataset_id, list(datasets or [dataset_id]), parent)
        if run_id:
            run.run_id = str(uuid.UUID(run_id))
        return run, self._emit(self.build_event(run, "START"))

    def finish(self, run: VerificationRun, results: Sequence[Assertion], *,
               error: str | None = None) -> EmitOutcome:
        """COMPLETE when every check passed and nothing errored, else FAIL with an errorMessage."""
        failed = [r for r in results if not r.success]
        if error is None and failed:
            error = "verification failed: " + "; ".join(
                f"{r.dataset_id} {r.name or r.assertion}" + (f" ({r.column})" if r.column else "") for r in failed)
        state = "FAIL" if error else "COMPLETE"
        return self._emit(self.build_event(run, state, results, error=error))

    def build_event(self, run: VerificationRun, state: str, results: Sequence[Assertion] = (), *,
                    error: str | None = None, event_time: datetime | None = None) -> Any:
        # lazy: openlineage-python takes about a second to import; only an emitting deployment needs it
        from openlineage.client.event_v2 import Job, Run, RunEvent, RunState
        from openlineage.client.facet_v2 import job_type_job

        job_type = job_type_job.JobTypeJobFacet(processingType="BATCH", integration="DATA_WORKERS",
                                                jobType="VERIFICATION", producer=PRODUCER)
        job_facets: dict[str, Any] = {"jobType": job_type}
        return RunEvent(eventType=RunState[state], eventTime=(event_time or datetime.now(UTC)).isoformat(),
                        producer=PRODUCER, run=Run(runId=run.run_id, facets=self._run_facets(run, error)),
                        job=Job(namespace=self.namespace, name=self.job_name(run.dataset_id), facets=job_facets),
                        inputs=self._inputs(run, results), outputs=[])

    @staticmethod
    def _run_facets(run: VerificationRun, error: str | None) -> dict[str, Any]:
        # lazy: openlineage-python takes about a second to import; only an emitting deployment needs it
        from openlineage.client.facet_v2 import error_message_run, parent_run, processing_engine_run

        facets: dict[str, Any] = {"processing_engine": processing_engine_run.ProcessingEngineRunFacet(
            version=_version("data-workers-dagster"), name="data-workers",
            openlineageAdapterVersion=_version("openlineage-python"), producer=PRODUCER)}
        if run.parent is not None:
            facets["parent"] = parent_run.ParentRunFacet(
                run=parent_run.Run(runId=run.parent.run_uuid),
                job=parent_run.Job(namespace=run.parent.namespace, name=run.parent.job_name), producer=PRODUCER)
        if error:
            facets["errorMessage"] = error_message_run.ErrorMessageRunFacet(
                message=error, programmingLanguage="PYTHON", producer=PRODUCER)
        return facets

    def _inputs(self, run: VerificationRun, results: Sequence[Assertion]) -> list[Any]:
        """Each dataset checked, with one dataQualityAssertions entry per check on it."""
        # lazy: openlineage-python takes about a second to import; only an emitting deployment needs it
        from openlineage.client.event_v2 import InputDataset
        from openlineage.client.facet_v2 import data_quality_assertions_dataset as dqa

        inputs = []
        for dataset_id in run.datasets:
            namespace, name = ol_dataset_name(self.settings, dataset_id)
            assertions = [dqa.Assertion(assertion=r.assertion, success=r.success, column=r.column, name=r.name,
                                        severity=r.severity, expected=r.expected, actual=r.actual)
                          for r in results if r.dataset_id == dataset_id]
            facets: dict[str, Any] = {"dataQualityAssertions": dqa.DataQualityAssertionsDatasetFacet(
                assertions=assertions, producer=PRODUCER)} if assertions else {}
            inputs.append(InputDataset(namespace=namespace, name=name, inputFacets=facets))
        return inputs

    def _emit(self, event: Any) -> EmitOutcome:
        state = event.eventType.value
        if self._client is None:
            return EmitOutcome(state, delivered=False, attempts=0, error="no openlineage.emit_transport configured")
        tries: list[int] = []

        def send() -> None:
            tries.append(1)
            self._client.emit(event)

        try:
            # any transport failure is retried (the verification goes on either way), under the deadline
            retry.call(send, system="OpenLineage emit_transport", endpoint=f"emit {state} {event.job.name}",
                       hint=f"the event is spooled to {self.spool_path} and resent by the next flush",
                       policy=self.policy, classify=retry.describe, sleep=self._sleep)
            return EmitOutcome(state, delivered=True, attempts=len(tries))
        except retry.ServiceUnavailable as exc:
            error = exc.last_error
        log.warning("OpenLineage %s event for %s not delivered after %d attempts (%s): spooled to %s",
                    state, event.job.name, len(tries), error, self.spool_path)
        self._spool(event)
        return EmitOutcome(state, delivered=False, attempts=len(tries), error=error, spooled_to=self.spool_path)

    def _spool(self, event: Any) -> None:
        # lazy: openlineage-python takes about a second to import; only an emitting deployment needs it
        from openlineage.client.serde import Serde

        self.spool_path.parent.mkdir(parents=True, exist_ok=True)
        with self.spool_path.open("a") as fh:
            fh.write(Serde.to_json(event) + "\n")

    def flush_spool(self) -> int:
        """Resend spooled events in order; those still failing stay spooled. Returns the number sent."""
        if self._client is None or not self.spool_path.exists():
            return 0
        lines = [line for line in self.spool_path.read_text().splitlines() if line.strip()]
        sent, kept = 0, []
        for line in lines:
            try:
                self._client.transport.emit(json.loads(line))
                sent += 1
            except Exception as exc:  # noqa: BLE001 - stays spooled for the next flush
                log.info("spooled OpenLineage event still not delivered: %s", exc)
                kept.append(line)
        tmp = self.spool_path.with_suffix(".tmp")
        tmp.write_text("".join(f"{line}\n" for line in kept))
        tmp.replace(self.spool_path)
        return sent

"""Sensor: runs that did not happen. Nothing else notices them: checks run when a run finishes, so a
load that never ran opens nothing. On a clock of its own, this sensor reads each scheduled DAG's
recent runs (Airflow REST API, read-only) and each freshness SLA (`checks[].freshness`), and sends a
missed or stuck run to incident intake with the cause "the load did not run" and the run that
should have happened; a stale dataset goes in through its freshness check as usual.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from fnmatch import fnmatch
from typing import Any

import dagster as dg

from dw_assets.checks.freshness import evaluate_freshness
from dw_assets.checks.runner import record_failure
from dw_assets.config import Settings
from dw_assets.connectors.airflow import clients_from_settings
from dw_assets.connectors.airflow.api import AirflowApi
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.core.approvals import parse_duration
from dw_assets.core.expected_runs import MissedRun, RunSeen, missed_or_stuck
from dw_assets.core.identity import canonical_dataset_id
from dw_assets.core.signals import Signal
from dw_assets.incidents import intake_signal
from dw_assets.store import Store, open_state

SENSOR_NAME = "dw_missed_runs"
log = logging.getLogger(__name__)


def dag_outputs(settings: Settings, dag_id: str) -> list[str]:
    """The datasets a DAG's tasks write (`airflow.task_outputs`), canonical."""
    found = [canonical_dataset_id(d, aliases=settings.aliases) for job, datasets in settings.airflow.task_outputs.items()
             if job.split(".", 1)[0] == dag_id for d in datasets]
    return sorted(set(found))


def missed_run_signal(settings: Settings, instance: str, missed: MissedRun, now: datetime) -> Signal:
    outputs = dag_outputs(settings, missed.dag_id)
    details = {**missed.details(), "instance": instance, "outputs": outputs, "job": missed.dag_id}
    return Signal(kind="run_missed", dataset_id=outputs[0] if outputs else None, observed_at=now,
                  source=f"airflow:{instance}:schedule", summary=missed.summary, details=details, severity="high",
                  dedupe_key=f"run_missed:{instance}:{missed.dag_id}:{missed.kind}:{missed.expected_at.isoformat()}")


def evaluate(settings: Settings, clients: Mapping[str, AirflowApi], intake: Callable[[Signal], Any], *,
             now: datetime | None = None) -> list[dict[str, Any]]:
    """One pass over every instance's scheduled DAGs (`missed_runs` in dw.yaml sets the limits and the
    DAGs to ignore); returns what was found (and any instance that could not be read, which never
    stops the others). A paused DAG is not skipped: its missed run says it is paused, and who paused
    it and when if Airflow's audit log tells."""
    now = now or datetime.now(UTC)
    cfg = settings.missed_runs
    grace, lookback = parse_duration(cfg.grace), parse_duration(cfg.lookback)
    stuck_after = parse_duration(cfg.stuck_after) if cfg.stuck_after else None
    found: list[dict[str, Any]] = []
    for name, client in clients.items():
        try:
            dags = [d for d in client.list_dags()
                    if d.schedule and not any(fnmatch(d.dag_id, pattern) for pattern in cfg.ignore)]
        except Exception as exc:  # noqa: BLE001  one instance down: say so, read the next
            found.append({"instance": name, "error": f"{type(exc).__name__}: {str(exc)[:300]}"})
            continue
        for dag in dags:
            try:
                runs = [RunSeen(r.run_id, r.state or "", r.start_date, r.end_date, r.run_after)
                        for r in client.list_dag_runs(dag.dag_id, updated_since=now - lookback)]
                runs += [RunSeen(r.run_id, r.state or "", r.start_date, r.end_date, r.run_after)
                         for r in client.list_dag_runs(dag.dag_id, states=["queued", "running"])
                         if r.run_id not in {x.run_id for x in runs}]
                missed = missed_or_stuck(dag.dag_id, dag.schedule, runs, now, grace=grace, stuck_after=stuck_after,
                                         stuck_factor=cfg.stuck_factor, stuck_min=parse_duration(cfg.stuck_min),
                                         paused=dag.is_paused)
                if missed and missed.paused:
                    missed = _with_pause_record(client, missed)
            except Exception as exc:  # noqa: BLE001  one DAG's odd schedule or runs: record it, go on
                found.append({"instance": name, "dag_id": dag.dag_id, "error": f"{type(exc).__name__}: {exc}"})
                continue
            if missed:
                intake(missed_run_signal(settings, name, missed, now))
                found.append({"instance": name, **missed.details()})
    return found


def _with_pause_record(client: AirflowApi, missed: MissedRun) -> MissedRun:
    """Who paused the DAG and when, from the audit log; without it (no permission, pruned) the cause
    still says the DAG is paused."""
    try:
        record = client.pause_event(missed.dag_id)
    except Exception as exc:  # noqa: BLE001  the audit log is a detail: the paused state is the cause
        log.info("missed runs: no audit log for %s: %s", missed.dag_id, exc)
        return missed
    if not record:
        return missed
    missed = replace(missed, paused_by=record[0], paused_at=record[1])
    return replace(missed, summary=missed.summary + missed.paused_note())


def paused_writer_signals(settings: Settings, clients: Mapping[str, AirflowApi], dataset: str, now: datetime) -> list[Signal]:
    """A stale dataset whose writing DAG (`airflow.task_outputs`) is paused: the pause is why it is stale,
    scheduled or not (an asset-triggered or manual DAG has no clock of its own to miss). One signal per
    paused writer and day, joining the dataset's freshness incident and naming the pause as its cause."""
    writers = {job.split(".", 1)[0] for job, datasets in settings.airflow.task_outputs.items()
               if dataset in {canonical_dataset_id(d, aliases=settings.aliases) for d in datasets}}
    out: list[Signal] = []
    for name, client in clients.items():
        for dag in [d for d in client.list_dags() if d.dag_id in writers and d.is_paused]:
            missed = _with_pause_record(client, MissedRun(
                dag.dag_id, "missed", now, dag.schedule or "", f"{dataset} is stale and its writer {dag.dag_id} "
                f"is paused", paused=True))
            signal = missed_run_signal(settings, name, missed, now)
            out.append(replace(signal, dataset_id=dataset, dedupe_key=f"run_missed:{name}:{dag.dag_id}:paused:"
                                                                      f"{dataset}:{now:%Y-%m-%d}"))
    return out


def check_freshness(settings: Settings, store: Store, now: datetime,
                    clients: Mapping[str, AirflowApi] | None = None) -> list[dict[str, Any]]:
    """Every freshness SLA, evaluated now; a stale dataset is recorded through its check as usual, and
    when its writing DAG is paused (read from `clients`) the incident says so."""
    out: list[dict[str, Any]] = []
    entries = [(c, sla) for c in settings.checks if (sla := c.freshness)]
    if not entries:
        return out
    try:
        warehouse = Warehouse.from_settings(settings)
    except Exception as exc:  # noqa: BLE001  no warehouse: the schedules were still checked
        return [{"warehouse": settings.warehouse.url, "error": f"{type(exc).__name__}: {str(exc)[:300]}"}]
    for entry, sla in entries:
        try:
            outcome = evaluate_freshness(warehouse, store, entry.dataset, sla, now=now)
            incident = record_failure(settings, store, outcome, now=now)
        except Exception as exc:  # noqa: BLE001  one unreadable table: record it, check the rest
            out.append({"dataset": entry.dataset, "error": f"{type(exc).__name__}: {str(exc)[:300]}"})
            continue
        if incident:
            out.append({"dataset": entry.dataset, "stale": outcome.summary, "incident": incident})
            out += _paused_writers(settings, store, clients or {}, entry.dataset, now)
    return out


def _paused_writers(settings: Settings, store: Store, clients: Mapping[str, AirflowApi], dataset: str,
                    now: datetime) -> list[dict[str, Any]]:
    try:
        signals = paused_writer_signals(settings, clients, dataset, now)
    except Exception as exc:  # noqa: BLE001  Airflow down: the stale dataset's incident stands on its own
        return [{"dataset": dataset, "error": f"paused writers not read: {type(exc).__name__}: {str(exc)[:300]}"}]
    for signal in signals:
        intake_signal(settings, store, signal, now=now)
    return [{"dataset": dataset, "paused_writer": s.details["dag_id"], "cause": s.details["cause"]} for s in signals]


def build_definitions(settings: Settings) -> dg.Definitions:
    @dg.sensor(name=SENSOR_NAME, minimum_interval_seconds=300, default_status=dg.DefaultSensorStatus.RUNNING,
               description="Runs that did not happen: scheduled DAGs with no run since their last due time, runs "
                           "stuck far past their usual duration, and freshness SLAs, on a clock of their own.")
    def dw_missed_runs(context: dg.SensorEvaluationContext) -> dg.SkipReason:
        store = open_state(settings)
        now = datetime.now(UTC)
        clients = clients_from_settings(settings)
        try:
            found = evaluate(settings, clients, lambda signal: intake_signal(settings, store, signal), now=now)
            found += check_freshness(settings, store, now, clients)
        finally:
            for client in clients.values():
                client.close()
        for item in found:
            (context.log.warning if "error" in item else context.log.info)(f"missed runs: {item}")
        return dg.SkipReason(f"{len([f for f in found if 'error' not in f])} missed/stuck run(s) or stale dataset(s)"
                             if found else "every scheduled run happened")

    return dg.Definitions(sensors=[dw_missed_runs])

"""Dagster sensors reporting finished Airflow DAG runs: one sensor per configured instance.

Thin wiring over `dw_assets.connectors.airflow.run_feed` (cursor, dedupe, run -> events). Each tick:
finished runs -> `AssetMaterialization` (task succeeded) or `AssetObservation` (task failed) of the
datasets their tasks write (`airflow.task_outputs`), a `RunRequest` for the asset checks of the
materialized datasets (one per partition written, the newest partition in the warehouse, tagged
`dagster/partition` so each check evaluation names it), and for failed runs a `Signal` to incident intake. If Airflow is down or
answers badly the tick raises: Dagster shows it failed and the cursor stays where it was. Each tick
retries transient faults under a deadline that fits inside Dagster's sensor timeout; when nothing
listens at the instance's URL at all (a stopped demo Airflow, a wrong port) the tick is skipped with
that reason instead of failing every interval.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import dagster as dg
import httpx

from dw_assets.checks.partitions import latest_partition_key
from dw_assets.config import AirflowInstanceConfig, Settings
from dw_assets.connectors.airflow import AirflowClient, AirflowUnavailableError
from dw_assets.connectors.airflow.run_feed import (
    DEFAULT_LOOKBACK,
    DEFAULT_OVERLAP,
    FeedCursor,
    FinishedRun,
    RunSource,
    dataset_events,
    failure_signals,
    poll,
    run_key,
)
from dw_assets.connectors.warehouse import WarehouseError
from dw_assets.core.identity import canonical_dataset_id
from dw_assets.core.signals import Signal
from dw_assets.dagster_defs.partitions import PARTITION_TAG, partitions_for
from dw_assets.incidents import intake_signal
from dw_assets.store import open_state

CheckKeysFor = Callable[[str], Sequence[dg.AssetCheckKey]]
PartitionFor = Callable[[str], "str | None"]
# Dagster ends a sensor evaluation after 60 s by default: a tick's retries stop well before that,
# and the next tick starts again from the same cursor.
SENSOR_DEADLINE_S = 40.0
log = logging.getLogger(__name__)
CHECKS_JOB = "dw_estate_checks"
# A named job as the sensors' target: the UI shows its name (an asset selection shows as a Python repr)
estate_checks_job = dg.define_asset_job(CHECKS_JOB, selection=dg.AssetSelection.all_asset_checks(),
                                        description="The estate's asset checks; each run is the subset a finished "
                                                    "Airflow run calls for.")


def sensor_name(instance: str) -> str:
    return "airflow_runs_" + re.sub(r"[^A-Za-z0-9_]", "_", instance)


def canonical_for(settings: Settings) -> Callable[[str], str]:
    """Dataset ids in `task_outputs` through the identity rule and the config's aliases."""
    return lambda value: canonical_dataset_id(value, aliases=settings.aliases)


def _checks_in_repository(context: dg.SensorEvaluationContext) -> CheckKeysFor:
    repo = context.repository_def
    keys = list(repo.asset_graph.asset_check_keys) if repo is not None else []

    def check_keys_for(dataset_id: str) -> list[dg.AssetCheckKey]:
        asset_key = dg.AssetKey(dataset_id.split("."))
        return sorted((k for k in keys if k.asset_key == asset_key), key=lambda k: k.name)

    return check_keys_for


def intake_into_incidents(settings: Settings) -> Callable[[Signal], None]:
    """Hand a signal to incident intake."""

    def intake(signal: Signal) -> None:
        intake_signal(settings, open_state(settings), signal)

    return intake


def _asset_event(event: Any, partition: str | None = None) -> dg.AssetMaterialization | dg.AssetObservation:
    description = f"Airflow {event.metadata['dag_id']}.{event.task_id}: {event.task_state}"
    if event.kind == "materialization":
        return dg.AssetMaterialization(asset_key=event.asset_key, metadata=event.metadata, partition=partition,
                                       description=description)
    return dg.AssetObservation(asset_key=event.asset_key, metadata=event.metadata, description=description)


def _check_requests(fr: FinishedRun, datasets: dict[str, str | None],
                    check_keys_for: CheckKeysFor) -> list[dg.RunRequest]:
    """One run of the checks per partition the run wrote (datasets -> partition key, None for an
    unpartitioned dataset); the partition rides as the `dagster/partition` tag."""
    by_partition: dict[str | None, set[dg.AssetCheckKey]] = {}
    for dataset, partition in datasets.items():
        by_partition.setdefault(partition, set()).update(check_keys_for(dataset))
    tags = {"dw/source": f"airflow:{fr.instance}", "dw/airflow_dag_id": fr.run.dag_id,
            "dw/airflow_run_id": fr.run.run_id}
    requests = []
    for partition, keys in sorted(by_partition.items(), key=lambda item: item[0] or ""):
        if not keys:
            continue
        suffix = f":{partition}" if partition else ""
        requests.append(dg.RunRequest(
            run_key=f"airflow:{fr.instance}:{run_key(fr.run)}{suffix}", job_name=CHECKS_JOB, asset_selection=[],
            asset_check_keys=sorted(keys, key=lambda k: k.to_user_string()),
            tags={**tags, PARTITION_TAG: partition} if partition else tags))
    return requests


def partitions_from_warehouse(settings: Settings) -> PartitionFor:
    """Dataset id -> the partition its checks evaluate now (the newest in the warehouse), None for
    an unpartitioned dataset. A warehouse error leaves the partition unnamed (the checks then find
    the newest themselves) rather than failing the tick that reports the Airflow run."""
    entries = {canonical_dataset_id(e.dataset): e for e in settings.checks}

    def partition_for(dataset_id: str) -> str | None:
        entry = entries.get(dataset_id)
        if entry is None or partitions_for(entry) is None:
            return None
        try:
            return latest_partition_key(settings, entry)
        except WarehouseError as exc:
            log.warning("partition of %s not found in the warehouse (%s): its checks pick it themselves",
                        dataset_id, exc)
            return None

    return partition_for


def evaluate(settings: Settings, source: RunSource, cursor: str | None, *, check_keys_for: CheckKeysFor,
             intake: Callable[[Signal], None], overlap: timedelta = DEFAULT_OVERLAP,
             lookback: timedelta = DEFAULT_LOOKBACK, now: datetime | None = None,
             partition_for: PartitionFor = lambda _dataset: None) -> dg.SensorResult:
    """One tick for one instance (everything but the Dagster decorator, for tests and reuse)."""
    result = poll(source, FeedCursor.from_json(cursor), now=now or datetime.now(UTC),
                  overlap=overlap, lookback=lookback)
    canonical, outputs = canonical_for(settings), settings.airflow.task_outputs
    asset_events: list[Any] = []
    run_requests = []
    for fr in result.finished:
        events = dataset_events(fr, outputs, canonical)
        written = {e.dataset_id: partition_for(e.dataset_id) for e in events if e.kind == "materialization"}
        asset_events.extend(_asset_event(e, written.get(e.dataset_id)) for e in events)
        run_requests.extend(_check_requests(fr, written, check_keys_for))
        for signal in failure_signals(fr, outputs, canonical):
            intake(signal)
    return dg.SensorResult(asset_events=asset_events, run_requests=run_requests, cursor=result.cursor.to_json())


def build_airflow_runs_sensors(
    settings: Settings, *, check_keys_for: CheckKeysFor | None = None, partition_for: PartitionFor | None = None,
    client_factory: Callable[[AirflowInstanceConfig], RunSource] = AirflowClient,
    intake: Callable[[Signal], None] | None = None, minimum_interval_seconds: int = 30,
    overlap: timedelta = DEFAULT_OVERLAP, lookback: timedelta = DEFAULT_LOOKBACK,
) -> list[dg.SensorDefinition]:
    """A sensor per `airflow.instances` entry. Clients are built at the first tick, not at load."""
    return [_sensor_for(settings, inst.name, check_keys_for=check_keys_for, partition_for=partition_for,
                        client_factory=client_factory,
                        intake=intake or intake_into_incidents(settings), interval=minimum_interval_seconds,
                        overlap=overlap, lookback=lookback)
            for inst in settings.airflow.instances]


def _sensor_for(settings: Settings, instance: str, *, check_keys_for: CheckKeysFor | None,
                partition_for: PartitionFor | None,
                client_factory: Callable[[AirflowInstanceConfig], RunSource],
                intake: Callable[[Signal], None], interval: int, overlap: timedelta,
                lookback: timedelta) -> dg.SensorDefinition:
    clients: dict[str, RunSource] = {}

    @dg.sensor(name=sensor_name(instance), minimum_interval_seconds=interval,
               target=estate_checks_job, default_status=dg.DefaultSensorStatus.RUNNING,
               description=f"Reports finished DAG runs of Airflow instance {instance!r} as asset events, "
                           "runs the checks of the datasets they wrote, and sends failures to incident intake.")
    def airflow_runs(context: dg.SensorEvaluationContext) -> dg.SensorResult | dg.SkipReason:
        config = settings.airflow_instance(instance)
        if instance not in clients:
            clients[instance] = client_factory(
                config.model_copy(update={"deadline_s": min(config.deadline_s, SENSOR_DEADLINE_S)}))
        try:
            result = evaluate(settings, clients[instance], context.cursor,
                              check_keys_for=check_keys_for or _checks_in_repository(context),
                              intake=intake, overlap=overlap, lookback=lookback,
                              partition_for=partition_for or partitions_from_warehouse(settings))
        except AirflowUnavailableError as exc:
            if not isinstance(exc.__cause__, httpx.ConnectError):
                raise
            return dg.SkipReason(f"nothing listens at Airflow instance {instance!r} ({exc}); the cursor stays. "
                                 f"Start that Airflow, or set airflow.instances[{instance}].url to where it runs")
        context.log.info(f"{len(result.asset_events)} asset event(s), {len(result.run_requests or [])} check run(s)")
        return result

    return airflow_runs


def build_definitions(settings: Settings) -> dg.Definitions:
    return dg.Definitions(sensors=build_airflow_runs_sensors(settings), jobs=[estate_checks_job])

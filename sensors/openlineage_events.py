"""Dagster sensor for OpenLineage events: thin wiring over `process_new_events`.

Each tick ingests the configured sources (file folder, Marquez) into the state store, then acts on
the new events (context-graph tables, schema changes, FAIL -> incident intake) and reports what they
say about the code location's assets as `AssetObservation`s (asset key = canonical id split on '.';
datasets that are not assets here are skipped). A dbt model, seed or snapshot that a dbt run rebuilt
(dbt-ol's COMPLETE event) is reported as an `AssetMaterialization` instead, with the dbt invocation,
the run id, rows and seconds where known: once per dbt invocation and model, even if events are
replayed (the key's latest materialization names the run it came from). The consumer cursor lives in the state store and
advances only when the pass succeeded; the Dagster cursor mirrors it for display. A failing pass
raises, so Dagster shows the tick failed and the next tick retries the same events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import dagster as dg

from dw_assets.config import Settings
from dw_assets.incidents import intake_signal
from dw_assets.lineage.processing import (
    DatasetObservation,
    ProcessResult,
    collector_paused,
    process_new_events,
)
from dw_assets.store import Store, open_state

SENSOR_NAME = "openlineage_events"


# short labels: the asset page lays metadata keys out in a narrow column beside the timestamp
LABELS = {"openlineage_namespace": "namespace", "openlineage_name": "name", "event_time": "event time",
          "job": "job", "run_id": "run id", "event_type": "event", "row_count": "rows",
          "dbt_invocation_id": "dbt invocation", "seconds": "seconds"}
RUN_LABEL = LABELS["run_id"]
Event = dg.AssetObservation | dg.AssetMaterialization


def _metadata(obs: DatasetObservation) -> dict[str, Any]:
    meta: dict[str, Any] = {LABELS.get(k, k): v for k, v in obs.metadata.items() if k != "columns"}
    if "columns" in obs.metadata:
        meta["columns"] = dg.MetadataValue.json(obs.metadata["columns"])
    return meta


def observation_events(observations: Iterable[DatasetObservation], known: Callable[[dg.AssetKey], bool],
                       reported_run: Callable[[dg.AssetKey], str | None] = lambda _key: None) -> list[Event]:
    events: list[Event] = []
    seen: set[tuple[dg.AssetKey, str]] = set()
    for obs in observations:
        key = dg.AssetKey(obs.dataset_id.split("."))
        if not known(key):
            continue
        meta = _metadata(obs)
        producer = obs.metadata.get("job") or "a producer"
        if obs.materialized:
            run = str(obs.metadata.get("run_id"))
            if (key, run) in seen or reported_run(key) == run:
                continue  # this dbt invocation's build of the model is already recorded
            seen.add((key, run))
            events.append(dg.AssetMaterialization(asset_key=key, metadata=meta, description=f"dbt build ({producer})"))
            continue
        what = obs.metadata.get("event_type") or "dataset event"
        events.append(dg.AssetObservation(asset_key=key, metadata=meta, description=f"OpenLineage {what} from {producer}"))
    return events


def reported_runs(instance: dg.DagsterInstance) -> Callable[[dg.AssetKey], str | None]:
    """The OpenLineage run a key's latest materialization came from (None: none, or not from us)."""

    def reported(key: dg.AssetKey) -> str | None:
        event = instance.get_latest_materialization_event(key)
        mat = event.asset_materialization if event is not None else None
        value = mat.metadata.get(RUN_LABEL) if mat is not None else None
        return str(value.value) if value is not None else None

    return reported


def _known_keys(context: dg.SensorEvaluationContext) -> Callable[[dg.AssetKey], bool]:
    repo = context.repository_def
    if repo is None:
        return lambda _key: True
    keys = set(repo.asset_graph.get_all_asset_keys())
    return keys.__contains__


def evaluate(settings: Settings, store: Store, known: Callable[[dg.AssetKey], bool],
             reported_run: Callable[[dg.AssetKey], str | None] = lambda _key: None
             ) -> tuple[dg.SensorResult, ProcessResult]:
    with collector_paused():  # the observations too: thousands of Dagster records per tick
        result = process_new_events(settings, store, intake=intake_signal)
        sensor_result = dg.SensorResult(asset_events=observation_events(result.observations, known, reported_run),
                                        cursor=str(result.cursor_after))
    return sensor_result, result


def build_openlineage_sensor(settings: Settings, *, minimum_interval_seconds: int = 30,
                             store: Store | None = None) -> dg.SensorDefinition:
    @dg.sensor(name=SENSOR_NAME, minimum_interval_seconds=minimum_interval_seconds,
               default_status=dg.DefaultSensorStatus.RUNNING,
               description="Reads OpenLineage events (receiver, file folder, Marquez): lineage into the context "
                           "graph, schema changes, FAIL events into incident intake, observations of assets.")
    def openlineage_events(context: dg.SensorEvaluationContext) -> dg.SensorResult:
        state = store or open_state(settings)
        sensor_result, result = evaluate(settings, state, _known_keys(context), reported_runs(context.instance))
        for error in result.ingest.errors if result.ingest else []:
            context.log.warning(f"OpenLineage source not read this tick: {error}")
        context.log.info(
            f"{result.events} new event(s) after #{result.cursor_before}; {len(result.schema_changes)} schema "
            f"change(s); {len(result.signals)} FAIL signal(s); {len(sensor_result.asset_events)} asset event(s)")
        return sensor_result

    return openlineage_events


def build_definitions(settings: Settings) -> dg.Definitions:
    return dg.Definitions(sensors=[build_openlineage_sensor(settings)])

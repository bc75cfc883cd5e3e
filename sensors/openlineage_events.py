"""Dagster sensor for OpenLineage events: thin wiring over `process_new_events`.

Each tick ingests the configured sources (file folder, Marquez) into the state store, then acts on
the new events (context-graph tables, schema changes, FAIL -> incident intake) and reports what they
say about the code location's assets as `AssetObservation`s (asset key = canonical id split on '.';
datasets that are not assets here are skipped). The consumer cursor lives in the state store and
advances only when the pass succeeded; the Dagster cursor mirrors it for display. A failing pass
raises, so Dagster shows the tick failed and the next tick retries the same events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import dagster as dg

from dw_assets.config import Settings
from dw_assets.incidents import intake_signal
from dw_assets.lineage.processing import DatasetObservation, ProcessResult, process_new_events
from dw_assets.store import Store, open_state

SENSOR_NAME = "openlineage_events"


def observation_events(observations: Iterable[DatasetObservation],
                       known: Callable[[dg.AssetKey], bool]) -> list[dg.AssetObservation]:
    events = []
    for obs in observations:
        key = dg.AssetKey(obs.dataset_id.split("."))
        if not known(key):
            continue
        meta: dict[str, Any] = {f"openlineage/{k}": v for k, v in obs.metadata.items() if k != "columns"}
        if "columns" in obs.metadata:
            meta["openlineage/columns"] = dg.MetadataValue.json(obs.metadata["columns"])
        what = obs.metadata.get("event_type") or "dataset event"
        events.append(dg.AssetObservation(asset_key=key, metadata=meta,
                                          description=f"OpenLineage {what} from {obs.metadata.get('job') or 'a producer'}"))
    return events


def _known_keys(context: dg.SensorEvaluationContext) -> Callable[[dg.AssetKey], bool]:
    repo = context.repository_def
    if repo is None:
        return lambda _key: True
    keys = set(repo.asset_graph.get_all_asset_keys())
    return keys.__contains__


def evaluate(settings: Settings, store: Store, known: Callable[[dg.AssetKey], bool]) -> tuple[dg.SensorResult,
                                                                                              ProcessResult]:
    result = process_new_events(settings, store, intake=intake_signal)
    sensor_result = dg.SensorResult(asset_events=observation_events(result.observations, known),
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
        sensor_result, result = evaluate(settings, state, _known_keys(context))
        for error in result.ingest.errors if result.ingest else []:
            context.log.warning(f"OpenLineage source not read this tick: {error}")
        context.log.info(
            f"{result.events} new event(s) after #{result.cursor_before}; {len(result.schema_changes)} schema "
            f"change(s); {len(result.signals)} FAIL signal(s); {len(sensor_result.asset_events)} observation(s)")
        return sensor_result

    return openlineage_events


def build_definitions(settings: Settings) -> dg.Definitions:
    return dg.Definitions(sensors=[build_openlineage_sensor(settings)])

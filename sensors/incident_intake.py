"""Sensor: adds a partition of the `incident` asset per new incident and reports each new or changed
incident as a materialization of its partition (`dagster_defs.incident_assets` says what it
carries). Reads the incident event log past its cursor; a replayed tick reports nothing twice."""

from __future__ import annotations

import dagster as dg

from dw_assets.config import Settings
from dw_assets.dagster_defs.incident_assets import (
    INCIDENT_PARTITIONS,
    incident_materialization,
    reported_seq,
)
from dw_assets.incidents import IncidentStore
from dw_assets.store import open_state

SENSOR_NAME = "incident_intake_sensor"


def build_definitions(settings: Settings) -> dg.Definitions:
    @dg.sensor(name=SENSOR_NAME, minimum_interval_seconds=30, default_status=dg.DefaultSensorStatus.RUNNING,
               description="Adds a partition of `incident` per new incident and reports new or changed ones.")
    def incident_intake_sensor(context) -> dg.SensorResult:
        cursor = int(context.cursor or 0)
        store = open_state(settings)
        events = IncidentStore(store).events_since(cursor)
        if not events:
            return dg.SensorResult(skip_reason="no incident changes", cursor=str(cursor))
        latest: dict[str, int] = {}
        for event in events:
            latest[event["incident_id"]] = event["seq"]
        known = set(context.instance.get_dynamic_partitions(INCIDENT_PARTITIONS.name))
        new = sorted(i for i in latest if i not in known)
        reports = [incident_materialization(settings, store, i, seq) for i, seq in sorted(latest.items())
                   if i in new or reported_seq(context.instance, i) < seq]
        partitions = [INCIDENT_PARTITIONS.build_add_request(new)] if new else []
        return dg.SensorResult(asset_events=reports, dynamic_partitions_requests=partitions,
                               cursor=str(events[-1]["seq"]))

    return dg.Definitions(sensors=[incident_intake_sensor])

"""Incidents in the Dagster UI: one partition of the `incident` asset per incident.

`incident_intake_sensor` reads the incident event log (`dw_incident_events`) past its cursor, adds
a dynamic partition for each incident it has not seen, and requests one materialization per new
or changed incident (run key = incident id + event seq, so a replayed tick never runs twice). The
asset reads the incident from the state store and records its status, trigger, evidence and the
rest as metadata: the incident's history is the asset's materialization history.
"""

from __future__ import annotations

from typing import Any

import dagster as dg

from dw_assets.config import Settings, resolve_env
from dw_assets.core.check_render import table_md
from dw_assets.core.incidents import Incident
from dw_assets.incidents import IncidentStore
from dw_assets.store import open_store

INCIDENT_PARTITIONS = dg.DynamicPartitionsDefinition(name="incidents")
INCIDENT_KEY = dg.AssetKey(["incident"])
SENSOR_NAME = "incident_intake_sensor"


def incident_metadata(incident: Incident) -> dict[str, Any]:
    md = dg.MetadataValue
    meta: dict[str, Any] = {
        "status": incident.status, "severity": incident.severity, "trigger": incident.trigger_kind,
        "title": md.text(incident.title), "dataset": incident.dataset_id or "",
        "owner": incident.owner or "", "domain": incident.domain or "",
        "window": f"{incident.window_start.isoformat()} .. {incident.window_end.isoformat()}",
        "signals": len(incident.signals), "evidence": md.json(incident.evidence),
        "links": md.json(incident.run_links),
        "history": md.md(table_md([t.to_dict() for t in incident.history],
                                  ["at", "from_status", "to_status", "actor", "note"])),
    }
    if incident.dataset_id:
        meta["dataset_asset"] = md.asset(dg.AssetKey(incident.dataset_id.split(".")))
    for key in ("causes", "path", "blast_radius", "proposed_fixes"):
        value = getattr(incident, key)
        if value:
            meta[key] = md.json(value)
    if incident.plan_id:
        meta["plan_id"] = incident.plan_id
    return meta


def build_definitions(settings: Settings) -> dg.Definitions:
    def incidents() -> IncidentStore:
        return IncidentStore(open_store(resolve_env(settings.state.url, what="state.url")))

    @dg.asset(key=INCIDENT_KEY, partitions_def=INCIDENT_PARTITIONS, group_name="data_workers",
              description="One partition per incident: its status, trigger, evidence, causes and links.")
    def incident(context) -> dg.MaterializeResult:  # unannotated: postponed annotations confuse dagster
        record = incidents().get(context.partition_key)
        context.log.info(f"{record.id} [{record.status}] {record.title}")
        return dg.MaterializeResult(metadata=incident_metadata(record))

    @dg.sensor(name=SENSOR_NAME, asset_selection=[INCIDENT_KEY], minimum_interval_seconds=30,
               default_status=dg.DefaultSensorStatus.RUNNING,
               description="Adds a partition per new incident and materializes new or changed ones.")
    def incident_intake_sensor(context) -> dg.SensorResult:
        cursor = int(context.cursor or 0)
        events = incidents().events_since(cursor)
        if not events:
            return dg.SensorResult(skip_reason="no incident changes", cursor=str(cursor))
        latest: dict[str, int] = {}
        for event in events:
            latest[event["incident_id"]] = event["seq"]
        known = set(context.instance.get_dynamic_partitions(INCIDENT_PARTITIONS.name))
        new = sorted(i for i in latest if i not in known)
        requests = [dg.RunRequest(partition_key=i, run_key=f"{i}:{seq}", asset_selection=[INCIDENT_KEY],
                                  tags={"dw/incident": i}) for i, seq in sorted(latest.items())]
        partitions = [INCIDENT_PARTITIONS.build_add_request(new)] if new else []
        return dg.SensorResult(run_requests=requests, dynamic_partitions_requests=partitions,
                               cursor=str(events[-1]["seq"]))

    return dg.Definitions(assets=[incident], sensors=[incident_intake_sensor])

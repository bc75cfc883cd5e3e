"""Incidents in the Dagster UI: one partition of the `incident` asset per incident.

`incident` is an external asset: nothing in Dagster computes it, so the UI offers no "Materialize"
for it (and "Materialize all" leaves it out). `incident_intake_sensor` (`sensors.incident_intake`,
built on `incident_materialization` and `reported_seq` here) reads the incident event log
(`dw_incident_events`) past its cursor, adds a dynamic partition for each incident it has not seen,
and reports one `AssetMaterialization` per new or changed incident, carrying the incident as a
report (status, causes, path, blast radius, plan, history) in its metadata: the incident's history
is the asset's materialization history. Each one records the event seq it reflects, so a replayed
tick (a lost cursor) reports nothing twice.
"""

from __future__ import annotations

from typing import Any

import dagster as dg

from dw_assets.config import Settings
from dw_assets.core import incident_report as report
from dw_assets.core.identity import canonical_dataset_id
from dw_assets.core.incidents import Incident
from dw_assets.dagster_defs.plan_view import PlanView, plan_metadata, plan_view, table
from dw_assets.incidents import IncidentStore
from dw_assets.store import Store

INCIDENT_PARTITIONS = dg.DynamicPartitionsDefinition(name="incidents")
INCIDENT_KEY = dg.AssetKey(["incident"])
CONTEXT_GRAPH_KEY = dg.AssetKey(["dw", "context_graph"])
MAX_CAUSES, MAX_FIXES = 3, 3
SEQ_KEY = "dw/event_seq"  # the incident event a materialization reflects


def incident_metadata(incident: Incident, plan: PlanView | None = None) -> dict[str, Any]:
    """The incident as a report: the facts on top, then causes, path, blast radius, fixes, the plan
    and how to approve it, then the history; Markdown and tables, JSON only for the raw evidence.
    Keys stay short words: the asset page lays them out in a narrow column beside the values."""
    md = dg.MetadataValue
    meta: dict[str, Any] = {
        "status": incident.status, "severity": incident.severity,
        "title": md.text(incident.title), "owner": incident.owner or "", "domain": incident.domain or "",
    }
    if incident.dataset_id:
        meta["asset"] = md.asset(dg.AssetKey(incident.dataset_id.split(".")))
    meta.update({
        "dataset": incident.dataset_id or "", "trigger": incident.trigger_kind,
        "window": f"{incident.window_start.isoformat()} .. {incident.window_end.isoformat()}",
        "signals": len(incident.signals),
    })
    for rank, cause in enumerate(incident.causes[:MAX_CAUSES], start=1):
        meta[f"cause {rank}"] = md.md(report.cause_md(rank, cause))
    if incident.path:
        meta["path"] = table(report.path_rows(incident.path))
    if incident.blast_radius:
        meta["blast radius"] = md.text(report.blast_summary(incident.blast_radius))
        meta["readers"] = table(report.blast_rows(incident.blast_radius))
    for rank, fix in enumerate(incident.proposed_fixes[:MAX_FIXES], start=1):
        meta[f"fix {rank}"] = md.md(report.fix_md(rank, fix))
    if incident.plan_id:
        meta["plan_id"] = incident.plan_id
    if plan is not None:
        meta.update(plan_metadata(plan))
    if incident.run_links:
        meta["runs"] = table([{k: str(v) for k, v in link.items()} for link in incident.run_links])
    meta["history"] = table([{"at": t.at.isoformat(timespec="seconds"), "from": t.from_status or "",
                              "to": t.to_status, "actor": t.actor, "note": t.note} for t in incident.history],
                            ["at", "from", "to", "actor", "note"])
    meta["evidence"] = md.json(incident.evidence)
    return meta


def watched_dataset_deps(settings: Settings) -> list[dg.AssetDep]:
    """The datasets incidents are about: every checked dataset and every Airflow task output, so
    the asset graph draws dataset -> incident (each incident partition depends on all of them)."""
    ids = {canonical_dataset_id(c.dataset) for c in settings.checks}  # the keys estate_assets declares
    ids |= {canonical_dataset_id(d) for outputs in settings.airflow.task_outputs.values() for d in outputs}
    # an incident is about some partition of a dataset, which only its evidence says
    return [dg.AssetDep(dg.AssetKey(i.split(".")), partition_mapping=dg.AllPartitionMapping()) for i in sorted(ids)]


def incident_materialization(settings: Settings, store: Store, incident_id: str,
                             seq: int | None = None) -> dg.AssetMaterialization:
    """The incident's partition as the UI shows it, read from the state store."""
    record = IncidentStore(store).get(incident_id)
    plan = plan_view(settings, store, record.plan_id) if record.plan_id else None
    metadata = incident_metadata(record, plan)
    if seq is not None:
        metadata[SEQ_KEY] = seq
    return dg.AssetMaterialization(asset_key=INCIDENT_KEY, partition=record.id, metadata=metadata,
                                   description=f"[{record.status}] {record.title}")


def reported_seq(instance: dg.DagsterInstance, incident_id: str) -> int:
    """The event seq the partition's latest materialization reflects (0: none yet)."""
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=INCIDENT_KEY, asset_partitions=[incident_id]), limit=1).records
    if not records or records[0].asset_materialization is None:
        return 0
    value = records[0].asset_materialization.metadata.get(SEQ_KEY)
    return int(str(value.value)) if value is not None else 0


def build_definitions(settings: Settings) -> dg.Definitions:
    incident = dg.AssetSpec(
        INCIDENT_KEY, partitions_def=INCIDENT_PARTITIONS, group_name="data_workers",
        deps=[*watched_dataset_deps(settings), CONTEXT_GRAPH_KEY],
        description="One partition per incident on the datasets it depends on (checks, Airflow task outputs), "
                    "diagnosed over the context graph. Reported by incident_intake_sensor whenever an incident "
                    "changes; not materializable by hand (the state store is the record).")
    return dg.Definitions(assets=[incident])

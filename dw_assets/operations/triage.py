"""Triage: what Data Workers does with an incident once it is open, within the domain's autonomy,
and `propose_for_incident`, the one way an incident gets a plan (triage, `dw`, MCP).

L0 records only; L1 diagnoses (read-only: ranked causes, path, blast radius, proposed fixes);
L2 and above also propose a remediation plan and request its approval. Nothing here runs anything
in the estate: dispatch belongs to the gated rerun job.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from dw_assets.config import Settings
from dw_assets.connectors.airflow import AirflowClient, ClientFor
from dw_assets.context_graph import cached_context_graph
from dw_assets.core.autonomy import AutonomyLevel
from dw_assets.core.graph import ContextGraph
from dw_assets.core.incidents import utcnow
from dw_assets.core.plans import Plan
from dw_assets.diagnosis.service import diagnose_incident
from dw_assets.governance.workflow import Governance
from dw_assets.incidents import IncidentStore
from dw_assets.operations.remediation import PROPOSER, NoInstanceError, propose_plan
from dw_assets.store import Store

log = logging.getLogger(__name__)
ACTIVE = ("open", "diagnosed")
TRIAGE_FAILED = "triage_failed"  # the key in an incident's evidence while its triage keeps failing
RETRY_BASE = timedelta(minutes=1)
RETRY_MAX = timedelta(hours=1)


def instance_for(settings: Settings, dataset_id: str | None) -> str:
    """The Airflow instance a plan for this dataset reruns on: its domain's, else the first configured."""
    domain = settings.domain_for(dataset_id) if dataset_id else None
    if domain and domain.airflow_instance:
        return domain.airflow_instance
    if not settings.airflow.instances:
        raise NoInstanceError(f"no Airflow instance is configured in {settings.path}: a plan reruns on one")
    return settings.airflow.instances[0].name


def propose_for_incident(settings: Settings, store: Store, incident_id: str, *, governance: Governance,
                         graph: ContextGraph | None = None, client_for: ClientFor | None = None,
                         actor: str = PROPOSER, note: str = "") -> Plan:
    """Plan the incident's remediation and record it: diagnosed first when it has no causes yet
    (recorded on the incident), planned against the context graph and the Airflow runs of the
    instance its domain names, proposed in the governance ledger, linked from the incident. Nothing
    runs. Used by triage, `dw` and the MCP tool alike; raises `PlanningError`, `AirflowError`."""
    incidents = IncidentStore(store)
    incident = incidents.get(incident_id)
    graph = graph or cached_context_graph(settings, store=store)
    if not incident.causes:
        diagnose_incident(settings, store, incident_id, graph=graph)
        incident = incidents.get(incident_id)
    instance = instance_for(settings, incident.dataset_id)
    if client_for is not None:
        plan = propose_plan(settings, incident, graph=graph, client=client_for(instance), instance=instance,
                            now=governance.now())
    else:
        with AirflowClient(settings.airflow_instance(instance)) as client:
            plan = propose_plan(settings, incident, graph=graph, client=client, instance=instance,
                                now=governance.now())
    governance.propose(plan)
    incidents.update(incident_id, actor=actor, note=f"plan {plan.id} proposed{note}", plan_id=plan.id)
    return plan


def triage_incident(settings: Settings, store: Store, incident_id: str, *, governance: Governance | None = None,
                    client_for: ClientFor | None = None) -> dict[str, Any]:
    """Advance one incident as far as its domain's autonomy allows; returns what was done."""
    incidents = IncidentStore(store)
    incident = incidents.get(incident_id)
    domain = settings.domain_for(incident.dataset_id) if incident.dataset_id else None
    level = settings.autonomy_of(domain)
    done: dict[str, Any] = {"incident_id": incident_id, "autonomy": level.name, "actions": []}
    if level == AutonomyLevel.L0:
        return done
    if incident.status == "open":
        diagnosis = diagnose_incident(settings, store, incident_id)
        done["actions"].append("diagnosed")
        done["top_cause"] = diagnosis.top.title
        incident = incidents.get(incident_id)
    if level < AutonomyLevel.L2 or incident.status != "diagnosed" or incident.plan_id:
        return done
    gov = governance or Governance(settings, store=store)
    plan = propose_for_incident(settings, store, incident_id, governance=gov, client_for=client_for)
    request = gov.request_approval(plan.id)
    done["actions"] += ["plan_proposed", "approval_requested"]
    done.update(plan_id=plan.id, approve_command=request.get("approve_command"))
    return done


def retry_delay(attempts: int) -> timedelta:
    """Backoff after the n-th failed triage: 1, 2, 4 ... minutes, at most an hour."""
    return min(RETRY_BASE * (2 ** max(attempts - 1, 0)), RETRY_MAX)


def triage_open_incidents(settings: Settings, store: Store, *, now: datetime | None = None,
                          **kwargs: Any) -> list[dict[str, Any]]:
    """Triage every open or diagnosed-but-unplanned incident. An error on one incident never stops the
    others: it is recorded on that incident as `evidence.triage_failed` (reason, attempts, retry_at)
    and retried with backoff; a later success clears it."""
    incidents = IncidentStore(store)
    now = now or utcnow()
    results: list[dict[str, Any]] = []
    for incident in incidents.list(status=ACTIVE):
        if incident.status == "diagnosed" and incident.plan_id:
            continue
        failed = (incident.evidence or {}).get(TRIAGE_FAILED) or {}
        if failed.get("retry_at") and datetime.fromisoformat(failed["retry_at"]) > now:
            results.append({"incident_id": incident.id, "skipped": f"triage failed; retry at {failed['retry_at']}"})
            continue
        try:
            result = triage_incident(settings, store, incident.id, **kwargs)
        except Exception as exc:  # one incident's failure is recorded on it, never the tick's
            log.exception("triage of %s failed", incident.id)
            reason = f"{type(exc).__name__}: {str(exc).splitlines()[0][:500] if str(exc) else ''}"
            attempts = int(failed.get("attempts") or 0) + 1
            record = {"reason": reason, "attempts": attempts, "at": now.isoformat(),
                      "retry_at": (now + retry_delay(attempts)).isoformat()}
            _record(incidents, incident.id, {TRIAGE_FAILED: record}, f"triage failed ({reason}); retry at "
                    f"{record['retry_at']}")
            results.append({"incident_id": incident.id, "error": reason, TRIAGE_FAILED: record})
            continue
        if failed:
            _record(incidents, incident.id, {TRIAGE_FAILED: None}, "triage succeeded after "
                    f"{failed.get('attempts')} failed attempt(s)")
        results.append(result)
    return results


def _record(incidents: IncidentStore, incident_id: str, changes: dict[str, Any], note: str) -> None:
    """Merge into the incident's evidence (None removes a key); a store error here is only logged."""
    try:
        evidence = dict(incidents.get(incident_id).evidence or {})
        for key, value in changes.items():
            if value is None:
                evidence.pop(key, None)
            else:
                evidence[key] = value
        incidents.update(incident_id, actor="data-workers", note=note, evidence=evidence)
    except Exception:  # the store itself failing: the next tick tries again
        log.exception("could not record the triage outcome on %s", incident_id)

"""A remediation plan for an incident, arranged from its diagnosis (the MCP tool's adapter).

Nothing here ranks a cause or writes a fix: causes and fixes are diagnosis's
(`dw_assets.diagnosis`), the plan and its storage are governance's (`core.plans`,
`Governance.propose`). This only arranges them: a rerun step when the top cause names the DAG and
conf that loaded the data, the fixes whose diff `git apply --check` accepted, the blast radius, and
the configured checks that prove the plan worked. The undo is written into the plan before anything
runs; nothing runs here.
"""

from __future__ import annotations

from typing import Any

from dw_assets.config import Settings
from dw_assets.core.plans import DownstreamWait, Plan, PlanDiff, PlanStep, PlanUndo, VerificationRef
from dw_assets.mcp.context import AGENT, ToolFailure

_UNDO = {
    "split_export_early_release": "{dag} replaces partition {partition} of {dataset} with the files in the landing "
                                  "zone; to undo, set aside the late part(s) {late} and rerun {dag} with conf {conf}, "
                                  "which restores the partition as it is now",
    "late_upstream": "{dag} replaces partition {partition} of {dataset}; to undo, rerun {dag} with conf {conf} "
                     "against the files that were present at the first load",
    "failed_upstream_run": "the rerun writes what the failed run of {dag} should have written to {dataset}; to "
                           "undo, restore {dataset} {partition} from before the rerun (warehouse backup or time travel)",
}


def build_plan(settings: Settings, incident: Any, diagnosis: Any, graph: Any) -> tuple[Plan | None, list[str]]:
    """(plan or None, notes saying what was left out and why)."""
    notes: list[str] = []
    if not diagnosis.causes:
        return None, ["diagnosis found no cause: nothing to plan"]
    top = diagnosis.top
    domain = _domain(settings, incident)
    dataset = top.details.get("dataset") or incident.dataset_id
    steps, undo = _rerun(settings, domain, top, dataset, graph, notes)
    diffs = tuple(PlanDiff(repo=str(f.repo), path=", ".join(f.paths), diff=f.diff, owner=_owner(graph, f.target_asset))
                  for f in diagnosis.fixes if f.kind == "diff" and f.diff and f.verified)
    skipped = [f.title for f in diagnosis.fixes if f.kind == "diff" and not f.verified]
    if skipped:
        notes.append(f"diffs left out because `git apply --check` did not accept them: {', '.join(skipped)}")
    if not steps and not diffs:
        notes.append("no rerun and no checked diff: follow the recommendations by hand")
        return None, notes
    summary = "; ".join(filter(None, [
        f"rerun {steps[0].dag_id} with {steps[0].conf} to reload {dataset}" if steps else "",
        f"apply {len(diffs)} reviewed diff(s) so it does not happen again" if diffs else ""]))
    plan = Plan(domain=domain.name, plan_class="reload_partition" if steps else "code_fix", proposer=AGENT,
                summary=summary, incident_id=incident.id, cause=top.title,
                trigger=f"{incident.trigger_kind} on {incident.dataset_id}: {incident.title}",
                steps=steps, undo=undo, reversible=False, diffs=diffs,
                blast_radius=_radius(graph, dataset), verification=_verification(settings, incident, graph, dataset,
                                                                                 top.details.get("partition")))
    return plan, notes


def _domain(settings: Settings, incident: Any) -> Any:
    name = incident.domain or (d.name if (d := settings.domain_for(incident.dataset_id or "")) else None)
    domain = next((d for d in settings.domains if d.name == name), None)
    if domain is None:
        raise ToolFailure("no_domain", f"incident {incident.id} ({incident.dataset_id}) belongs to no configured "
                                       f"domain: add its dataset under domains[].datasets in {settings.path}")
    return domain


def _rerun(settings: Settings, domain: Any, cause: Any, dataset: str | None, graph: Any,
           notes: list[str]) -> tuple[tuple[PlanStep, ...], PlanUndo | None]:
    dag, conf = cause.details.get("dag_id"), cause.details.get("conf") or {}
    if cause.kind not in _UNDO or not dag or not conf:
        notes.append(f"no rerun step: the top cause ({cause.kind}) names no DAG run with the conf to repeat")
        return (), None
    instance = domain.airflow_instance or _only_instance(settings)
    waits = tuple(DownstreamWait(dag_id=d, via=f"reads {dataset}") for d in _downstream_dags(graph, dataset, dag))
    step = PlanStep(order=1, airflow_instance=instance, dag_id=dag, conf=conf, wait_for=waits,
                    description=f"reload {dataset} {cause.details.get('partition') or ''}".strip())
    text = _UNDO[cause.kind].format(dag=dag, conf=conf, dataset=dataset, partition=cause.details.get("partition"),
                                    late=", ".join(cause.details.get("late_parts") or []) or "(none)")
    return (step,), PlanUndo(description=text)


def _only_instance(settings: Settings) -> str:
    names = [i.name for i in settings.airflow.instances]
    if len(names) != 1:
        raise ToolFailure("no_instance", f"set domains[].airflow_instance: {len(names)} Airflow instances "
                                         f"configured ({', '.join(names) or 'none'})")
    return names[0]


def _downstream_dags(graph: Any, dataset: str | None, dag: str) -> list[str]:
    """Airflow DAGs whose tasks sit downstream of the reloaded dataset (they rerun on its event)."""
    if graph is None or not dataset:
        return []
    try:
        radius = graph.blast_radius(dataset, max_depth=2)
    except LookupError:
        return []
    dags = {node.split(":", 1)[1].split(".", 1)[0] for node in radius.orchestration if node.startswith("airflow:")}
    return sorted(dags - {dag})


def _owner(graph: Any, asset: str | None) -> str | None:
    try:
        return graph.node(graph.resolve(asset)).owner if graph is not None and asset else None
    except LookupError:
        return None


def _radius(graph: Any, dataset: str | None) -> dict[str, Any]:
    try:
        radius = graph.blast_radius(dataset)
    except (LookupError, AttributeError, TypeError):
        return {}
    return {"root": radius.root, "severity": radius.severity, "owners": radius.owners(),
            "affected": [{"id": a.id, "kind": a.kind, "owner": a.owner, "severity": a.severity}
                         for a in radius.affected]}


def _verification(settings: Settings, incident: Any, graph: Any, dataset: str | None,
                  partition: str | None) -> tuple[VerificationRef, ...]:
    """Every configured check of the dataset and of the datasets downstream of it."""
    from checks.runner import runners

    scope = [dataset or incident.dataset_id] + [a["id"] for a in _radius(graph, dataset).get("affected", [])]
    refs = []
    for entry in settings.checks:
        if entry.dataset in scope:
            own = entry.dataset == scope[0]
            refs += [VerificationRef(dataset=entry.dataset, check=name, partition=partition if own else None,
                                     expect="passes after the plan") for name in runners(settings, entry)]
    return tuple(refs)

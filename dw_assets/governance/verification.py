"""Proving a plan worked: rerun the checks that flagged the incident plus the plan's own, compare
before and after, report the verification run to OpenLineage, then resolve or escalate.

Verification never reruns anything: a failed verification escalates the incident to a person (the
domain's first escalation contact, else its owner) and records why. The checks themselves are
executed by the `checks_runner(dataset, check)` callable it is given (the asset-check functions),
so the same code verifies in Dagster, from the CLI and in tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dw_assets.config import Settings
from dw_assets.connectors.openlineage.emitter import (
    Assertion,
    EmitOutcome,
    ParentRun,
    VerificationEmitter,
    VerificationRun,
)
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.core.checks_logic import CheckOutcome
from dw_assets.core.incidents import Incident
from dw_assets.core.plans import Plan
from dw_assets.governance.workflow import Governance
from dw_assets.store import Store

# (dataset, check name, partition or None) -> the check's outcome
ChecksRunner = Callable[[str, str, "str | None"], CheckOutcome]
JOB_NAME = "verify_remediation"


@dataclass(frozen=True)
class CheckToRun:
    dataset: str
    check: str
    origin: str  # "incident" (the check that flagged it) | "plan" (the plan's own)
    partition: str | None = None
    before: Any = None
    expect: str = ""


@dataclass
class CheckResult:
    dataset: str
    check: str
    origin: str
    partition: str | None
    passed: bool
    before: Any
    after: Any
    summary: str

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class VerificationResult:
    plan_id: str
    incident_id: str | None
    passed: bool
    outcome: str  # "resolved" | "escalated"
    ol_run_id: str
    checks: list[CheckResult] = field(default_factory=list)
    escalated_to: str | None = None
    incident_note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"plan_id": self.plan_id, "incident_id": self.incident_id, "passed": self.passed,
                "outcome": self.outcome, "ol_run_id": self.ol_run_id, "escalated_to": self.escalated_to,
                "checks": [c.as_dict() for c in self.checks], "incident_note": self.incident_note}


def checks_to_run(plan: Plan, incident: Incident | None) -> list[CheckToRun]:
    """The incident's flagged checks (with their before values) first, then the plan's own; no repeats.

    Flagged checks come from the incident's `check_failed` signals, and from its evidence keyed
    `check:<name>` (the latest facts per source) for the incident's dataset.
    """
    wanted: list[CheckToRun] = []
    evidence = (incident.evidence if incident else None) or {}
    for signal in incident.signals if incident else []:
        if signal.get("kind") != "check_failed" or not signal.get("dataset_id"):
            continue
        source = str(signal.get("source") or "")
        details = signal.get("details") or {}
        check = details.get("check") or source.removeprefix("check:")
        before = evidence.get(source, details)
        partition = details.get("partition") or evidence.get("partition")
        wanted.append(CheckToRun(signal["dataset_id"], check, "incident", partition, before=_facts(before)))
    dataset = incident.dataset_id if incident else None
    for source, details in evidence.items():
        if dataset and source.startswith("check:") and isinstance(details, Mapping):
            # a joined symptom's check belongs to its own dataset (e.g. a downstream balance rule)
            owner_dataset = details.get("dataset") or details.get("dataset_id") or dataset
            partition = details.get("partition") or (evidence.get("partition") if owner_dataset == dataset else None)
            wanted.append(CheckToRun(owner_dataset, details.get("check") or source.removeprefix("check:"),
                                     "incident", partition, before=_facts(details)))
    for ref in plan.verification:
        wanted.append(CheckToRun(ref.dataset, ref.check, "plan", ref.partition, expect=ref.expect))
    seen: set[tuple[str, str]] = set()
    unique = []
    for item in wanted:
        if (item.dataset, item.check) not in seen:
            seen.add((item.dataset, item.check))
            unique.append(item)
    return unique


def _facts(value: CheckOutcome | Mapping[str, Any] | str | None) -> dict[str, Any] | str | None:
    """What a check outcome (or the facts recorded with a signal) says in numbers (its metadata),
    never its rendered tables."""
    if value is None:
        return None
    if isinstance(value, CheckOutcome):
        return dict(value.metadata)
    if isinstance(value, Mapping):
        return dict(value["metadata"]) if value.get("metadata") is not None else dict(value)
    return str(value)


def run_checks(items: list[CheckToRun], checks_runner: ChecksRunner) -> list[CheckResult]:
    results = []
    for item in items:
        try:
            outcome = checks_runner(item.dataset, item.check, item.partition)
            passed, summary, after = outcome.passed, outcome.summary, _facts(outcome)
        except Exception as exc:  # noqa: BLE001 - a check that cannot run fails the verification, with why
            passed, summary, after = False, f"check could not run: {type(exc).__name__}: {exc}", None
        results.append(CheckResult(item.dataset, item.check, item.origin, item.partition, passed, item.before,
                                   after, summary))
    return results


def verify_plan(settings: Settings, plan: Plan, incident: Incident | None, checks_runner: ChecksRunner, emitter: VerificationEmitter | None, *,
                gov: Governance | None = None, parent: Mapping[str, Any] | None = None,
                actor: str = "dw-verify") -> VerificationResult:
    """Run the checks, report the run to OpenLineage, record the receipt, resolve or escalate.

    `emitter` is a `VerificationEmitter` (or None to report nothing); `parent` names the Airflow
    run verified ({instance, dag_id, run_id}), by default the last rerun observed for the plan.
    """
    gov = gov or Governance(settings)
    incident_id = (incident.id if incident else None) or plan.incident_id
    items = checks_to_run(plan, incident)
    parent = dict(parent) if parent else _last_rerun(gov, plan.id)
    primary = (incident.dataset_id if incident else None) or (items[0].dataset if items else plan.domain)
    ol_run, started = _ol_start(emitter, primary, sorted({i.dataset for i in items} | {primary}), parent, gov.store)
    results = run_checks(items, checks_runner)
    passed = bool(results) and all(r.passed for r in results)
    finished = _ol_finish(emitter, ol_run, results, None if results else "no checks to run")
    ol_run_id = ol_run.run_id if ol_run is not None else ""
    result = _conclude(gov, plan, incident_id, results, passed, ol_run_id, actor)
    gov.record("verification", subject=plan.id, actor=actor, body={
        "incident_id": incident_id, "passed": passed, "outcome": result.outcome, "escalated_to": result.escalated_to,
        "checks": [r.as_dict() for r in results], "parent_run": parent, "cause": plan.cause,
        "undo": plan.undo.model_dump() if plan.undo else None,
        "openlineage": {"run_id": ol_run_id, "start": _outcome(started), "finish": _outcome(finished)}})
    return result


def _ol_start(emitter: VerificationEmitter | None, primary: str, datasets: list[str], parent: dict[str, Any] | None,
              store: Store | None = None) -> tuple[VerificationRun | None, EmitOutcome | None]:
    if emitter is None:
        return None, None

    parent_run = None
    if parent:
        namespace = f"airflow://{parent['instance']}"
        # the run id Airflow's OpenLineage provider gave the rerun, so our run hangs under its events
        found = LineageEventStore(store).provider_dag_run_id(namespace, parent["dag_id"], parent["run_id"]) \
            if store else None
        parent_run = ParentRun(namespace=namespace, job_name=parent["dag_id"], run_id=found or parent["run_id"])
    return emitter.start(primary, datasets=datasets, parent=parent_run)


def _ol_finish(emitter: VerificationEmitter | None, run: VerificationRun | None, results: list[CheckResult],
               error: str | None) -> EmitOutcome | None:
    if emitter is None or run is None:
        return None

    return emitter.finish(run, [Assertion(dataset_id=r.dataset, assertion=r.check, success=r.passed, name=r.check,
                                        severity="error", actual=r.summary[:500] or None) for r in results],
                          error=error)


def _outcome(emit: Any) -> dict[str, Any] | None:
    if emit is None:
        return None
    return {"event": emit.event_type, "delivered": emit.delivered, "error": emit.error}


def _conclude(gov: Governance, plan: Plan, incident_id: str | None, results: list[CheckResult], passed: bool,
              ol_run_id: str, actor: str) -> VerificationResult:
    now = gov.now()
    if passed:
        gov.ledger.set_plan_status(plan.id, "verified", now=now)
        note = gov.move_incident(incident_id, "resolved", actor=actor,
                                 note=f"{plan.id} verified: {len(results)} check(s) passed")
        return VerificationResult(plan.id, incident_id, True, "resolved", ol_run_id, results, incident_note=note)
    domain = gov.domain(plan.domain)
    contact = (domain.escalation[0] if domain and domain.escalation else (domain.owner if domain else None))
    gov.ledger.set_plan_status(plan.id, "verification_failed", now=now)
    failing = ", ".join(f"{r.dataset} {r.check}" for r in results if not r.passed) or "no checks ran"
    note = gov.move_incident(incident_id, "escalated", actor=actor,
                             note=f"{plan.id} verification failed ({failing}); escalated to {contact}")
    if domain is not None:
        gov.notify(domain, f"Verification of {plan.id} failed ({failing}). Nothing was rerun. "
                           f"Escalated to {contact or 'nobody listed'} (incident {incident_id}).")
    return VerificationResult(plan.id, incident_id, False, "escalated", ol_run_id, results, contact, note)


def _last_rerun(gov: Governance, plan_id: str) -> dict[str, Any] | None:
    """The Airflow run this verification follows: the last rerun observed for the plan."""
    observed = [r for r in gov.receipts.list(action="run_observed", subject=plan_id)
                if r.record["body"].get("role") == "rerun"]
    if not observed:
        return None
    body = observed[-1].record["body"]
    return {"instance": body["path"]["instance"], "dag_id": body["path"]["dag_id"], "run_id": body["airflow_run_id"]}

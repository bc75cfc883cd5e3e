"""Verification: flagged checks plus the plan's own, before/after values, OpenLineage START and
COMPLETE/FAIL with the rerun as parent, then the incident is resolved or escalated (never rerun)."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import dagster as dg
import pytest
import sqlalchemy as sa
from gov_fakes import night1_plan

from dw_assets.connectors.openlineage.emitter import VerificationEmitter
from dw_assets.core.checks_logic import CheckOutcome
from dw_assets.core.incidents import open_incident
from dw_assets.core.signals import Signal
from dw_assets.dagster_defs.rerun import (
    GovernanceRuntime,
    dagster_anchor,
    verification,
    verification_partitions,
)
from dw_assets.governance.verification import checks_to_run, verify_plan
from dw_assets.incidents.store import IncidentStore

VOLUME_BEFORE = {"observed": 61234, "baseline_median": 105000, "ratio": 0.58, "partition": "2026-09-30"}


class Capture:
    def __init__(self):
        self.events = []

    def emit(self, event):
        self.events.append(event)


class FakeChecks:
    """Answers checks by name; records what it was asked."""

    def __init__(self, failing: set[str] = frozenset(), broken: set[str] = frozenset()):
        self.failing, self.broken, self.calls = failing, broken, []

    def __call__(self, dataset, check, partition):
        self.calls.append((dataset, check, partition))
        if check in self.broken:
            raise RuntimeError("warehouse locked")
        passed = check not in self.failing
        return CheckOutcome(check, dataset, passed, "ERROR", f"{check} {'ok' if passed else 'still wrong'}",
                            {"observed": 105500 if passed else 61234, "partition": partition})


@pytest.fixture
def incident(gov, plan):
    signal = Signal(kind="check_failed", dataset_id="finance.bronze.gl_entries", observed_at=gov.now(),
                    source="check:volume_vs_history", summary="gl_entries 2026-09-30 holds 58% of its usual rows",
                    details={**VOLUME_BEFORE, "check": "volume_vs_history"}, dedupe_key="volume:2026-09-30")
    created = IncidentStore(gov.store).create(open_incident(signal, id="INC-20261001-0001", owner="maria.chen",
                                                            domain="finance", window=timedelta(hours=24), now=gov.now()))
    return created


@pytest.fixture
def linked_plan(gov, incident):
    plan = night1_plan().model_copy(update={"incident_id": incident.id})
    gov.propose(plan)
    gov.move_incident(incident.id, "verifying", actor="test")
    gov.record("run_observed", subject=plan.id, actor="dw-rerun-job", body={
        "role": "rerun", "path": {"instance": "local", "dag_id": "gl_landing"},
        "airflow_run_id": "manual__2026-10-01T06:10:00+00:00", "state": "success"})
    return plan


def test_checks_to_run_are_the_flagged_ones_then_the_plans_own(incident, linked_plan):
    items = checks_to_run(linked_plan, incident)
    assert [(i.dataset, i.check, i.origin, i.partition) for i in items] == [
        ("finance.bronze.gl_entries", "volume_vs_history", "incident", "2026-09-30"),
        ("finance.bronze.gl_entries", "rows_match_landed_files", "plan", "2026-09-30"),
        ("analytics.fct_trial_balance", "balance_debits_equal_credits", "plan", None)]
    assert items[0].before["observed"] == 61234


def test_a_passing_verification_resolves_the_incident_and_reports_start_and_complete(settings, gov, incident,
                                                                                    linked_plan):
    capture = Capture()
    checks = FakeChecks()
    result = verify_plan(settings, linked_plan, IncidentStore(gov.store).get(incident.id), checks,
                         VerificationEmitter(settings, client=capture), gov=gov)
    assert result.passed and result.outcome == "resolved"
    assert IncidentStore(gov.store).get(incident.id).status == "resolved"
    assert gov.ledger.plan_row(linked_plan.id)["status"] == "verified"
    assert [e.eventType.value for e in capture.events] == ["START", "COMPLETE"]
    parent = capture.events[0].run.facets["parent"]
    expected = uuid.uuid5(uuid.NAMESPACE_URL, "airflow://local/gl_landing/manual__2026-10-01T06:10:00+00:00")
    assert parent.run.runId == str(expected) and parent.job.name == "gl_landing"
    assert capture.events[0].run.runId == capture.events[1].run.runId == result.ol_run_id
    body = gov.receipts.list(action="verification")[-1].record["body"]
    volume = body["checks"][0]
    assert volume["before"]["observed"] == 61234 and volume["after"]["observed"] == 105500
    assert body["undo"]["snapshot"] and body["cause"] and body["openlineage"]["finish"]["event"] == "COMPLETE"
    assert gov.receipts.verify().ok


def test_a_failing_verification_escalates_to_a_person_and_never_reruns(settings, gov, incident, linked_plan,
                                                                       httpserver, monkeypatch):
    httpserver.expect_request("/hook").respond_with_data("ok")
    monkeypatch.setenv("DW_TEST_FINANCE_WEBHOOK", httpserver.url_for("/hook"))
    capture = Capture()
    receipts_before = {r.action for r in gov.receipts.list()}
    result = verify_plan(settings, linked_plan, IncidentStore(gov.store).get(incident.id),
                         FakeChecks(failing={"balance_debits_equal_credits"}),
                         VerificationEmitter(settings, client=capture), gov=gov)
    assert not result.passed and result.outcome == "escalated" and result.escalated_to == "omar.haddad"
    assert IncidentStore(gov.store).get(incident.id).status == "escalated"
    assert gov.ledger.plan_row(linked_plan.id)["status"] == "verification_failed"
    assert [e.eventType.value for e in capture.events] == ["START", "FAIL"]
    assert "balance_debits_equal_credits" in capture.events[1].run.facets["errorMessage"].message
    new_actions = {r.action for r in gov.receipts.list()} - receipts_before
    assert new_actions == {"verification"}
    (request, _), = httpserver.log
    assert "Escalated to omar.haddad" in json.loads(request.data)["text"]


def test_a_check_that_cannot_run_fails_the_verification(settings, gov, incident, linked_plan):
    result = verify_plan(settings, linked_plan, incident, FakeChecks(broken={"rows_match_landed_files"}), None, gov=gov)
    failed = [c for c in result.checks if not c.passed]
    assert not result.passed and failed[0].check == "rows_match_landed_files"
    assert "warehouse locked" in failed[0].summary


def test_the_verification_asset_materializes_per_plan_with_check_metadata(settings, gov, incident, linked_plan):
    runtime = GovernanceRuntime(settings, governance=gov, checks_runner=FakeChecks(),
                                emitter=VerificationEmitter(settings, client=Capture()))
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions(verification_partitions.name, [linked_plan.id])
        result = dg.materialize([verification], partition_key=linked_plan.id, instance=instance,
                                resources={"dw_governance": runtime})
        assert result.success
        (mat,) = result.asset_materializations_for_node("dw__verification")
        anchor = dagster_anchor(instance)
    assert anchor is not None and (anchor.seq, anchor.head_hash) == (gov.receipts.head().count,
                                                                      gov.receipts.head().head_hash)
    assert gov.receipts.verify([anchor]).ok
    head = gov.receipts.head()
    with gov.store.engine.begin() as conn:  # total deletion: the Dagster anchor alone names what is missing
        conn.execute(sa.text("DELETE FROM dw_receipts"))
        conn.execute(sa.text("DELETE FROM dw_receipt_head"))
    gov.receipts.witness = None
    report = gov.receipts.verify([anchor])
    assert not report.ok and "Dagster event log" in report.problem and f"had {head.count} records" in report.problem
    assert mat.partition == linked_plan.id and mat.metadata["passed"].value is True
    assert mat.metadata["outcome"].value == "resolved"
    assert mat.metadata["checks passed"].value.endswith(f"of {len(mat.metadata['before and after'].value.records)}")
    rows = {r.data["check"]: r.data for r in mat.metadata["before and after"].value.records}
    assert rows["balance_debits_equal_credits"]["result"] == "passed" and "after" in rows["balance_debits_equal_credits"]
    assert mat.metadata["incident"].value.startswith(f"[{incident.id}](/assets/incident?")

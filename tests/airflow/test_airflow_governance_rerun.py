"""Governance against a real Airflow 3 and 2 (C2's harness, `airflow` fixture): an approved plan
reruns `gl_landing` for a prior month-end and follows `month_end_close` on the asset event; a
refused plan sends Airflow nothing.

Airflow 3 (draft mode): the test plays the DAG owner and sends exactly the drafted request.
Airflow 2: Data Workers triggers the run itself (the v1 API has no draft flow).
"""

from __future__ import annotations

import threading
import time

import pytest

from dw_assets.config import (
    AirflowConfig,
    AirflowInstanceConfig,
    AuthConfig,
    DomainConfig,
    GovernanceConfig,
    Settings,
)
from dw_assets.connectors.airflow import AirflowClient
from dw_assets.core.approvals import Refusal
from dw_assets.core.plans import DownstreamWait, Plan, PlanStep, PlanUndo
from dw_assets.governance.dispatch import PlanRun
from dw_assets.governance.workflow import Governance
from dw_assets.store import Store
from tests.support.settings import build_settings

pytestmark = pytest.mark.airflow

EXPORT_DATE = "2026-08-31"  # a prior month-end whose export is in landing/: the load rewrites the same rows


def settings_for(harness, tmp_path, *, read_only: bool = False) -> Settings:
    auth = AuthConfig(type="jwt" if harness.major == 3 else "basic", username=harness.username,
                      password=harness.password)
    instance = AirflowInstanceConfig(name="estate", url=harness.url, auth=auth, read_only=read_only,
                                     trigger_mode="draft", timeout_s=30, retries=2)
    finance = DomainConfig(name="finance", autonomy="L2", approvers=["maria.chen"], escalation=["omar.haddad"])
    return build_settings(tmp_path, airflow=AirflowConfig(instances=[instance]),
                          domains=[finance], governance=GovernanceConfig(signing_key_file=str(tmp_path / "signing.key"), demo_key=True,
                                                witness_file=str(tmp_path / "receipts.witness")))


def reload_plan() -> Plan:
    return Plan(domain="finance", plan_class="reload_partition", proposer="data-workers",
                summary=f"Reload GL export {EXPORT_DATE}",
                steps=(PlanStep(order=1, airflow_instance="estate", dag_id="gl_landing",
                                conf={"export_date": EXPORT_DATE},
                                wait_for=(DownstreamWait(dag_id="month_end_close", via="asset gl_entries"),)),),
                undo=PlanUndo(description="restore the partition from its snapshot"), reversible=True)


def approved(gov: Governance, plan: Plan) -> str:
    gov.propose(plan)
    gov.request_approval(plan.id)
    return gov.approve(plan.id, "maria.chen", "integration test").approval_id


def test_a_refused_plan_sends_airflow_nothing(airflow, tmp_path):
    settings = settings_for(airflow, tmp_path, read_only=True)
    gov = Governance(settings, store=Store(settings.state.url))
    plan = reload_plan()
    approval_id = approved(gov, plan)
    client = AirflowClient(settings.airflow.instances[0])
    for approval in (None, approval_id):
        runner = PlanRun(gov=gov, client_for=lambda _name: client, plan_id=plan.id, approval_id=approval,
                         run_id="it-refused")
        with pytest.raises(Refusal):
            runner.authorize()
    assert client.requests_sent == 0


def test_an_approved_plan_reruns_and_follows_the_downstream_run(airflow, tmp_path):
    settings = settings_for(airflow, tmp_path)
    gov = Governance(settings, store=Store(settings.state.url))
    plan = reload_plan()
    approval_id = approved(gov, plan)
    client = AirflowClient(settings.airflow.instances[0])
    runner = PlanRun(gov=gov, client_for=lambda _name: client, plan_id=plan.id, approval_id=approval_id,
                     run_id="it-approved", poll_interval_s=3, wait_timeout_s=600)
    runner.authorize()
    outcome: dict = {}
    worker = threading.Thread(target=lambda: outcome.update(steps=runner.run_all()), daemon=True)
    worker.start()
    if airflow.major == 3:
        draft = _wait_for_draft(gov, plan.id)
        with airflow.http() as http:  # the DAG owner sends exactly the drafted request
            resp = http.post(f"{airflow.api_prefix}/dags/gl_landing/dagRuns",
                             json={"logical_date": None, "conf": draft["conf"]})
            assert resp.status_code < 300, resp.text
    worker.join(timeout=900)
    assert not worker.is_alive(), "the rerun did not finish in time"
    [step] = outcome["steps"]
    assert step.mode == ("drafted" if airflow.major == 3 else "triggered") and step.state == "success"
    assert step.downstream[0]["dag_id"] == "month_end_close" and step.downstream[0]["state"] == "success"
    assert gov.ledger.plan_row(plan.id)["status"] == "verifying"
    assert gov.receipts.verify().ok


def _wait_for_draft(gov: Governance, plan_id: str, timeout: float = 120.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        drafted = gov.receipts.list(action="rerun_drafted", subject=plan_id)
        if drafted:
            body = drafted[-1].record["body"]
            assert '"logical_date": null' in body["api_call"] and body["ui_path"] == "/dags/gl_landing/trigger"
            return body
        time.sleep(1)
    raise AssertionError("no rerun_drafted receipt within the deadline")

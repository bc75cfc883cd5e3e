"""The write tools over stdio, and every refusal of trigger_airflow_dag: each refusal reaches Airflow
with ZERO requests (the fake Airflow records everything it receives)."""

from __future__ import annotations

import anyio
import pytest
import sqlalchemy as sa
import yaml
from mcp_client import call, ok, refused, stdio_client
from mcp_estate import EXPORT_DATE

from dw_assets.governance.workflow import Governance

pytestmark = pytest.mark.dbt

CONF = {"export_date": EXPORT_DATE}
TRIGGER = "/api/v2/dags/gl_landing/dagRuns"


async def _refused_without_airflow(client, estate, arguments: dict, code: str) -> dict:
    before = list(estate.airflow_requests())
    data = await refused(client, "trigger_airflow_dag", arguments)
    assert data["error"] == code, data
    assert estate.airflow_requests() == before, f"{code}: Airflow was contacted"
    return data


def _set_config_stop(estate, on: bool) -> None:
    raw = yaml.safe_load(estate.config.read_text())
    raw["governance"]["stop"] = on
    estate.config.write_text(yaml.safe_dump(raw, sort_keys=False))


def test_plan_approval_and_every_gate_refusal(mcp_estate) -> None:
    estate = mcp_estate
    gov = Governance(estate.settings)
    state: dict = {}

    async def propose_and_request(client):
        plan = await ok(client, "propose_remediation", {"incidentId": estate.incident_id})
        state["plan"] = plan
        state["request"] = await ok(client, "request_approval", {"planId": plan["plan_id"]})
        state["again"] = await ok(client, "propose_remediation", {"incidentId": estate.incident_id})
        step = {"instance": "local", "dagId": "gl_landing", "conf": CONF}
        state["no_approval"] = await _refused_without_airflow(client, estate, {**step, "planId": plan["plan_id"]},
                                                              "no_approval")
        state["no_plan"] = await _refused_without_airflow(client, estate, step, "no_approval")
        state["unknown"] = await _refused_without_airflow(client, estate, {**step, "approvalId": "apr-0000000000000000"},
                                                          "unknown_approval")
        state["approve_tool"] = await call(client, "approve", {"planId": plan["plan_id"]})

    async def after_approval(client, approval_id: str):
        step = {"instance": "local", "dagId": "gl_landing", "conf": CONF, "approvalId": approval_id}
        await _refused_without_airflow(client, estate, {**step, "instance": "pinned"}, "read_only")
        await _refused_without_airflow(client, estate, {**step, "conf": {"export_date": "2026-08-31"}}, "not_in_plan")
        # a database writer's approval row, with no signed decision behind it
        with gov.store.engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO dw_gov_approvals (approval_id, plan_id, approver, decision, note, "
                                 "decided_at, expires_at) SELECT 'apr-insider0000002', plan_id, 'omar.haddad', "
                                 "decision, '', decided_at, expires_at FROM dw_gov_approvals WHERE approval_id = :a"),
                         {"a": approval_id})
        await _refused_without_airflow(client, estate, {**step, "approvalId": "apr-insider0000002"},
                                       "unknown_approval")
        gov.stop(by="omar.haddad", reason="test: org-wide stop")
        await _refused_without_airflow(client, estate, step, "stopped")
        gov.resume(by="omar.haddad")
        _set_config_stop(estate, True)
        await _refused_without_airflow(client, estate, step, "stopped")
        _set_config_stop(estate, False)
        state["triggered"] = await ok(client, "trigger_airflow_dag", step)
        state["after_trigger"] = list(estate.airflow_requests())
        await _refused_without_airflow(client, estate, step, "already_used")
        state["slack"] = await ok(client, "send_slack_alert", {"channel": "finance", "message": "GL reload started",
                                                               "severity": "high"})
        state["receipt"] = await ok(client, "get_receipt", {"seq": 1})
        state["by_hash"] = await ok(client, "get_receipt", {"receiptId": state["receipt"]["hash"][:12]})
        state["verify"] = await ok(client, "verify_receipts")

    async def scenario():
        async with stdio_client(estate.env) as client:
            await propose_and_request(client)
            approval = await anyio.to_thread.run_sync(gov.approve, state["plan"]["plan_id"], "maria.chen",
                                                      "finance on-call: reload with both parts")
            await after_approval(client, approval.approval_id)

    anyio.run(scenario)
    plan = state["plan"]["plan"]
    assert [(s["airflow_instance"], s["dag_id"], s["conf"]) for s in plan["steps"]] == [("local", "gl_landing", CONF)]
    assert plan["undo"]["description"] and plan["proposer"] == "data-workers"
    assert any(v["check"] == "rows_match_landed_files" for v in plan["verification"])
    fixes = state["plan"]["proposed_fixes"]  # the DAG fix is a second proposal, for the DAG's owner
    assert any(f["kind"] == "diff" and f["verified"] and f["paths"][0].endswith("gl_landing.py") for f in fixes), fixes
    assert state["request"]["delivery"]["delivered"] is True
    assert state["again"]["plan_id"] == state["plan"]["plan_id"] and state["again"]["status"] == "approval_requested"
    assert state["no_approval"]["reason"].startswith("no approval id given for " + state["plan"]["plan_id"])
    assert state["approve_tool"][0] is True and state["approve_tool"][1]["error"] == "unknown_tool"

    triggered = state["triggered"]
    assert triggered["mode"] == "triggered" and triggered["airflow_run_id"] == "manual__from_mcp"
    assert triggered["approver"] == "maria.chen"
    assert [r for r in state["after_trigger"] if r == ("POST", TRIGGER)] == [("POST", TRIGGER)]
    assert [r for r in estate.airflow_requests() if r[0] == "POST"] == [("POST", TRIGGER)]

    hooks = [request.path for request, _ in estate.slack.log]
    assert hooks.count("/hooks/finance") == 2  # the approval request and the alert
    assert state["slack"]["delivered"] is True
    assert state["by_hash"]["seq"] == 1 == state["receipt"]["seq"]
    assert state["verify"]["ok"] is True and state["verify"]["count"] > 5
    refusals = {r["code"] for r in gov.ledger.list_refusals(state["plan"]["plan_id"])}
    assert refusals >= {"no_approval", "read_only", "not_in_plan", "stopped", "already_used"}

"""Verified identities: approvals from Slack interactive messages whose request signature is checked
with slack-sdk's SignatureVerifier, against a real local endpoint (uvicorn on a free port)."""

from __future__ import annotations

import json
import socket
import threading
import time
from urllib.parse import urlencode

import httpx
import pytest
import uvicorn
from gov_fakes import CountingAirflow, make_settings, night1_plan
from slack_sdk.signature import SignatureVerifier

from dw_assets.config import SlackConfig
from dw_assets.connectors.slack_actions import PATH, build_app
from dw_assets.core.approvals import Refusal
from dw_assets.governance.dispatch import PlanRun
from dw_assets.governance.workflow import Governance
from dw_assets.store import Store

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


@pytest.fixture
def gov(tmp_path, clock, monkeypatch):
    monkeypatch.setenv("DW_TEST_SLACK_SECRET", SECRET)
    base = make_settings(tmp_path)
    slack = SlackConfig(signing_secret="${DW_TEST_SLACK_SECRET}",
                        users={"U0MARIA": "maria.chen", "U0AGENT": "data-workers"})
    finance = base.domains[0].model_copy(update={"slack": slack, "require_verified_approval": True})
    settings = base.model_copy(update={"domains": [finance, base.domains[1]]})
    return Governance(settings, store=Store(settings.state.url), clock=clock)


@pytest.fixture
def endpoint(gov):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(build_app(lambda: gov), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the Slack endpoint did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}{PATH}"
    server.should_exit = True
    thread.join(timeout=30)


def _post(url, plan_id, user, *, secret=SECRET, signed=True, age_s=0, action="dw_approve"):
    payload = {"type": "block_actions", "user": {"id": user},
               "actions": [{"action_id": action, "value": plan_id}]}
    body = urlencode({"payload": json.dumps(payload)})
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if signed:
        timestamp = str(int(time.time()) - age_s)
        headers["X-Slack-Request-Timestamp"] = timestamp
        headers["X-Slack-Signature"] = SignatureVerifier(secret).generate_signature(timestamp=timestamp, body=body)
    return httpx.post(url, content=body, headers=headers, timeout=30)


def _requested(gov):
    plan = night1_plan()
    gov.propose(plan)
    gov.request_approval(plan.id)
    return plan


def test_unsigned_forged_and_stale_requests_decide_nothing(gov, endpoint):
    plan = _requested(gov)
    for kwargs in ({"signed": False}, {"secret": "not-the-apps-secret"}, {"age_s": 600}):
        answer = _post(endpoint, plan.id, "U0MARIA", **kwargs)
        assert answer.status_code == 401, (kwargs, answer.text)
        assert "signature" in answer.json()["error"]
    assert gov.ledger.list_approvals() == []
    assert _post(endpoint, plan.id, "U0SOMEONE").status_code == 403


def test_a_signed_approval_is_verified_and_runs(gov, endpoint):
    plan = _requested(gov)
    answer = _post(endpoint, plan.id, "U0MARIA")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["approver"] == "maria.chen" and body["identity"] == "verified (slack U0MARIA)"
    receipt = gov.receipts.list(action="approval_approved")[-1]
    assert receipt.record["body"]["identity"] == "verified (slack U0MARIA)"
    airflow = CountingAirflow(clock=gov._clock, downstream={"gl_landing": ["month_end_close"]}, owner_triggers=True)
    airflow.expect_owner_run("gl_landing", {"export_date": "2026-09-30"})
    runner = PlanRun(gov=gov, client_for=lambda _n: airflow, plan_id=plan.id, approval_id=body["approval_id"],
                     run_id="run-1", poll_interval_s=5, wait_timeout_s=600, sleep=gov._clock.advance)
    runner.authorize()
    runner.run_all()
    assert airflow.requests
    used = gov.receipts.list(action="dispatch_authorized")[-1]
    assert used.record["body"]["identity"] == "verified (slack U0MARIA)"


def test_the_rules_still_apply_to_a_verified_user(gov, endpoint):
    plan = _requested(gov)
    answer = _post(endpoint, plan.id, "U0AGENT")  # mapped, but the agent identity (and the proposer)
    assert answer.status_code == 409 and answer.json()["code"] == "agent_identity"


def test_a_domain_that_requires_verified_approvals_refuses_a_cli_approval(gov):
    plan = _requested(gov)
    record = gov.approve(plan.id, "maria.chen", "typed --as")
    assert gov.receipts.list(action="approval_approved")[-1].record["body"]["identity"] == "asserted (cli)"
    airflow = CountingAirflow(clock=gov._clock, owner_triggers=True)
    runner = PlanRun(gov=gov, client_for=lambda _n: airflow, plan_id=plan.id, approval_id=record.approval_id,
                     run_id="run-1", poll_interval_s=5, wait_timeout_s=600, sleep=gov._clock.advance)
    with pytest.raises(Refusal) as info:
        runner.authorize()
    assert info.value.code == "unverified_identity" and "asserted (cli)" in info.value.reason
    assert airflow.requests == []

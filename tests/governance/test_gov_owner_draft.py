"""The Airflow 3 draft reaches its owner: the conf, the UI link, the API call and how to get a token
go to the domain's Slack channel and onto the incident; the wait is `governance.owner_draft_wait`,
and when it runs out the expiry is posted to the escalation contacts and the incident escalated."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from gov_fakes import CountingAirflow, key_settings, make_settings, night1_plan

from dw_assets.config import GovernanceConfig
from dw_assets.core.incidents import open_incident
from dw_assets.core.signals import Signal
from dw_assets.governance.dispatch import DispatchError, PlanRun
from dw_assets.governance.launches import approvals_tick, dispatch_in_tick
from dw_assets.governance.workflow import Governance
from dw_assets.incidents.store import IncidentStore
from dw_assets.store import Store


@pytest.fixture
def webhook(httpserver, monkeypatch):
    httpserver.expect_request("/hook", method="POST").respond_with_data("ok")
    monkeypatch.setenv("DW_TEST_FINANCE_WEBHOOK", httpserver.url_for("/hook"))
    return httpserver


def _approved_plan(gov: Governance, clock):
    signal = Signal(kind="check_failed", dataset_id="finance.bronze.gl_entries", observed_at=clock(),
                    source="check:volume_vs_history", summary="gl_entries short", details={"partition": "2026-09-30"})
    incidents = IncidentStore(gov.store)
    incident = incidents.create(open_incident(signal, id="INC-20261001-00D1", owner="maria.chen", domain="finance",
                                              window=timedelta(hours=24), now=clock()))
    plan = night1_plan().model_copy(update={"incident_id": incident.id})
    gov.propose(plan)
    gov.request_approval(plan.id)
    approval = gov.approve(plan.id, "maria.chen", "both parts landed")
    return plan, approval, incidents, incident.id


def _texts(server) -> list[str]:
    return [json.loads(request.data)["text"] for request, _ in server.log]


def test_the_draft_goes_to_the_channel_and_onto_the_incident(gov, airflow, clock, webhook):
    plan, approval, incidents, incident_id = _approved_plan(gov, clock)
    run = PlanRun(gov, lambda _n: airflow, plan.id, approval.approval_id, run_id="run-1", sleep=clock.advance,
                  poll_interval_s=5.0)
    run.authorize()
    run.run_all()
    draft_text = _texts(webhook)[-1]
    assert "ready for you to trigger" in draft_text and "DAG gl_landing" in draft_text
    assert '{"export_date":"2026-09-30"}' in draft_text and "/dags/gl_landing/trigger" in draft_text
    assert "curl -X POST" in draft_text and "$AIRFLOW_TOKEN" in draft_text
    assert "export AIRFLOW_TOKEN=$(curl" in draft_text and "/auth/token" in draft_text
    assert "Waiting 6 h" in draft_text and "omar.haddad, finance-controller" in draft_text
    [link] = [link for link in incidents.get(incident_id).run_links if link["role"] == "owner_draft"]
    assert link["conf"] == {"export_date": "2026-09-30"} and "/auth/token" in link["token_help"]
    assert link["api_call"].startswith("curl -X POST") and link["ui_url"].endswith("/dags/gl_landing/trigger")
    [drafted] = gov.receipts.list(action="rerun_drafted", subject=plan.id)
    assert drafted.record["body"]["delivery"]["delivered"] and drafted.record["body"]["wait_s"] == 6 * 3600


def test_a_draft_nobody_triggers_is_escalated_when_the_configured_wait_ends(tmp_path, clock, webhook):
    settings = make_settings(tmp_path, governance=GovernanceConfig(approval_ttl="4h", **key_settings(tmp_path),
                                                                   owner_draft_wait="30m"))
    gov = Governance(settings, store=Store(settings.state.url), clock=clock)
    plan, approval, incidents, incident_id = _approved_plan(gov, clock)
    nobody = CountingAirflow(clock=clock, owner_triggers=False)
    run = PlanRun(gov, lambda _n: nobody, plan.id, approval.approval_id, run_id="run-2", sleep=clock.advance,
                  poll_interval_s=60.0)
    run.authorize()
    started = clock()
    with pytest.raises(DispatchError, match="timed out after 1800s waiting for a run of gl_landing"):
        run.run_all()
    assert timedelta(minutes=30) <= clock() - started < timedelta(minutes=32)
    escalation = _texts(webhook)[-1]
    assert escalation.startswith("Escalated to omar.haddad, finance-controller") and "30 min" in escalation
    assert "Nothing was run" in escalation and nobody.writes == []
    [expired] = gov.receipts.list(action="rerun_draft_expired", subject=plan.id)
    assert expired.record["body"]["escalated_to"] == "omar.haddad, finance-controller"
    assert incidents.get(incident_id).status == "escalated"
    assert gov.receipts.verify().ok


class Restarting:
    """An Airflow that is down for its first `down` calls (as while it restarts), then the fake."""

    def __init__(self, inner: CountingAirflow, down: int):
        self.inner, self.down, self.refused = inner, down, 0

    def __getattr__(self, name):
        attr = getattr(self.inner, name)
        if name in ("api_version",):
            self._maybe_down()
            return attr
        if not callable(attr):
            return attr

        def call(*args, **kwargs):
            self._maybe_down()
            return attr(*args, **kwargs)

        return call

    def _maybe_down(self):
        from dw_assets.connectors.airflow import AirflowUnavailableError

        if self.refused < self.down:
            self.refused += 1
            raise AirflowUnavailableError("airflow instance 'local': GET /api/v2/version failed after 4 attempt(s) "
                                          "(last error: cannot connect)")


def test_an_airflow_restart_during_the_rerun_does_not_end_it(gov, airflow, clock):
    plan, approval, incidents, incident_id = _approved_plan(gov, clock)
    restarting = Restarting(airflow, down=6)
    logs = []
    run = PlanRun(gov, lambda _n: restarting, plan.id, approval.approval_id, run_id="run-3", sleep=clock.advance,
                  poll_interval_s=5.0, log=logs.append)
    run.authorize()
    [outcome] = run.run_all()
    assert outcome.state == "success" and restarting.refused == 6
    assert sum("trying again in 5s" in line for line in logs) == 6
    assert incidents.get(incident_id).status == "verifying"


class _Died(BaseException):
    """The tick's process ending mid-dispatch: not an error the tick catches and records."""


def test_a_tick_that_died_after_telling_the_owner_does_not_tell_them_again(gov, airflow, clock, webhook,
                                                                           monkeypatch):
    plan, approval, incidents, incident_id = _approved_plan(gov, clock)
    record = gov.record

    def dies_before_recording_the_draft(action, **kwargs):
        if action == "rerun_drafted":
            raise _Died()
        return record(action, **kwargs)

    monkeypatch.setattr(gov, "record", dies_before_recording_the_draft)
    [launch] = approvals_tick(gov).launches
    with pytest.raises(_Died):
        dispatch_in_tick(gov, launch, client_for=lambda _n: airflow)
    assert len([t for t in _texts(webhook) if "ready for you to trigger" in t]) == 1, "the tick told the owner"
    assert gov.receipts.list(action="rerun_drafted", subject=plan.id) == []
    monkeypatch.setattr(gov, "record", record)

    [pending] = approvals_tick(gov).pending  # the next tick: launch the run only
    assert pending.approval_id == approval.approval_id
    run = PlanRun(gov, lambda _n: airflow, plan.id, approval.approval_id, run_id="dagster-run-1",
                  sleep=clock.advance, poll_interval_s=5.0)
    run.authorize()
    [outcome] = run.run_all()
    assert outcome.mode == "drafted" and outcome.state == "success"
    drafts = [t for t in _texts(webhook) if "ready for you to trigger" in t]
    assert len(drafts) == 1, f"the owner was told {len(drafts)} times"
    [drafted] = gov.receipts.list(action="rerun_drafted", subject=plan.id)
    delivery = drafted.record["body"]["delivery"]
    assert delivery["via"] == "earlier" and delivery["delivered"] is True, delivery
    assert "via webhook" in delivery["detail"]
    assert [link for link in incidents.get(incident_id).run_links if link["role"] == "owner_draft"]
    assert gov.receipts.verify().ok


def test_two_drafts_of_one_step_for_different_approvals_each_reach_the_owner(gov, airflow, clock, webhook):
    plan, approval, _incidents, _incident_id = _approved_plan(gov, clock)
    first = PlanRun(gov, lambda _n: airflow, plan.id, approval.approval_id, run_id="run-1", sleep=clock.advance,
                    poll_interval_s=5.0, draft_wait_s=60)
    first.authorize()
    airflow.owner_triggers = False  # nobody triggers it: the wait expires and the plan fails
    with pytest.raises(DispatchError):
        first.run_all()
    gov.request_approval(plan.id)
    again = gov.approve(plan.id, "maria.chen", "second try")
    airflow.owner_triggers = True
    second = PlanRun(gov, lambda _n: airflow, plan.id, again.approval_id, run_id="run-2", sleep=clock.advance,
                     poll_interval_s=5.0)
    second.authorize()
    second.run_all()
    assert len([t for t in _texts(webhook) if "ready for you to trigger" in t]) == 2

"""Who may approve, what an approval binds to, and expiry: every decision and refusal is recorded."""

from __future__ import annotations

from datetime import timedelta

import pytest
from gov_fakes import night1_plan

from dw_assets.core.approvals import Refusal, is_agent_identity, parse_duration


def _refused(gov, fn, *args, code: str):
    before = len(gov.ledger.list_refusals())
    with pytest.raises(Refusal) as info:
        fn(*args)
    assert info.value.code == code, info.value.reason
    refusals = gov.ledger.list_refusals()
    assert len(refusals) == before + 1 and refusals[-1]["code"] == code
    last = gov.receipts.list(action="refusal")[-1]
    assert last.record["body"]["code"] == code
    return info.value


@pytest.fixture
def requested(gov, plan):
    gov.propose(plan)
    return gov.request_approval(plan.id)


def test_a_listed_approver_approves_and_the_approval_binds_to_the_plan_hash(gov, plan, requested):
    assert requested["approve_command"].startswith(f"dw approve {plan.id} --as")
    record = gov.approve(plan.id, "maria.chen", "both parts landed")
    assert record.approval_id.startswith("apr-") and record.plan_id == plan.id and record.decision == "approved"
    assert record.expires_at == record.decided_at + timedelta(hours=4)
    assert gov.ledger.plan_row(plan.id)["status"] == "approved"
    assert gov.ledger.list_requests()[0]["status"] == "approved"
    body = gov.receipts.list(action="approval_approved")[-1].record["body"]
    assert body["approver"] == "maria.chen" and body["plan_hash"] == plan.id
    assert gov.receipts.verify().ok


def test_the_proposer_cannot_approve_its_own_plan(gov, tmp_path):
    own = night1_plan(proposer="omar.haddad")
    gov.propose(own)
    gov.request_approval(own.id)
    _refused(gov, gov.approve, own.id, "omar.haddad", code="self_approval")
    assert gov.ledger.list_approvals() == []


def test_someone_not_listed_cannot_approve(gov, plan, requested):
    _refused(gov, gov.approve, plan.id, "priya.raman", code="not_an_approver")


@pytest.mark.parametrize("name", ["data-workers", "deploy-bot", "svc-airflow", "system:serviceaccount:dw", "dw-agent",
                                  "DATA-WORKERS"])
def test_agents_and_service_identities_never_approve_even_when_listed(gov, plan, requested, name):
    _refused(gov, gov.approve, plan.id, name, code="agent_identity")
    assert gov.ledger.list_approvals() == []


def test_agent_identity_patterns():
    agents = ["data-workers"]
    assert is_agent_identity("renovate[bot]", agents) and is_agent_identity("svc_x", agents)
    assert not is_agent_identity("maria.chen", agents) and not is_agent_identity("robert", agents)


def test_approving_without_an_open_request_is_refused(gov, plan):
    gov.propose(plan)
    _refused(gov, gov.approve, plan.id, "maria.chen", code="no_open_request")


def test_an_unknown_plan_cannot_be_approved(gov):
    _refused(gov, gov.approve, "plan-0000000000000000", "maria.chen", code="unknown_plan")


def test_expiry_escalates_in_order_and_never_grants(gov, plan, clock, requested):
    clock.advance(4 * 3600 + 1)
    expired = gov.expire_due()
    assert [e["escalated_to"] for e in expired] == ["omar.haddad"]
    assert gov.ledger.list_approvals() == [] and gov.ledger.launchable_approvals(clock()) == []
    assert gov.ledger.plan_row(plan.id)["status"] == "expired"
    _refused(gov, gov.approve, plan.id, "maria.chen", code="no_open_request")
    gov.request_approval(plan.id)
    clock.advance(5 * 3600)
    assert [e["escalated_to"] for e in gov.expire_due()] == ["finance-controller"]
    assert gov.expire_due() == []
    actions = [r.action for r in gov.receipts.list()]
    assert actions.count("approval_expired") == 2 and "approval_approved" not in actions


def test_approving_an_overdue_request_before_the_sensor_expires_it_is_refused_and_escalates(gov, plan, clock,
                                                                                          requested):
    clock.advance(4 * 3600)
    _refused(gov, gov.approve, plan.id, "maria.chen", code="expired")
    assert gov.ledger.list_requests()[0]["status"] == "expired"
    assert gov.ledger.list_requests()[0]["escalated_to"] == "omar.haddad"
    assert gov.ledger.list_approvals() == []


def test_a_rejection_is_recorded_and_closes_the_request(gov, plan, requested):
    record = gov.reject(plan.id, "omar.haddad", "wait for the done marker")
    assert record.decision == "rejected" and gov.ledger.plan_row(plan.id)["status"] == "rejected"
    assert gov.ledger.launchable_approvals(gov.now()) == []
    _refused(gov, gov.approve, plan.id, "maria.chen", code="no_open_request")


def test_an_approval_request_in_an_l1_domain_is_refused(gov):
    observe = night1_plan(domain="revenue")
    gov.propose(observe)
    _refused(gov, gov.request_approval, observe.id, code="autonomy_too_low")
    assert gov.ledger.list_requests() == []


def test_requesting_twice_reuses_the_open_request(gov, plan, requested):
    again = gov.request_approval(plan.id)
    assert again["reused"] and again["request_id"] == requested["request_id"]


def test_durations():
    assert parse_duration("4h") == timedelta(hours=4) and parse_duration("1h30m") == timedelta(minutes=90)
    for bad in ("", "4 hours", "0s", "h"):
        with pytest.raises(ValueError):
            parse_duration(bad)

"""Approval requests and escalations reach Slack: a local webhook receiver stands in for Slack."""

from __future__ import annotations

import json

import pytest

from dw_assets.config import SlackConfig
from dw_assets.connectors.slack import SlackError, SlackNotifier, approval_blocks
from dw_assets.connectors.slack_actions import ACTIONS


@pytest.fixture
def webhook(httpserver, monkeypatch):
    """Point the finance domain's `${DW_TEST_FINANCE_WEBHOOK}` at a local receiver."""
    httpserver.expect_request("/services/T000/B000/finance", method="POST").respond_with_data("ok")
    monkeypatch.setenv("DW_TEST_FINANCE_WEBHOOK", httpserver.url_for("/services/T000/B000/finance"))
    return httpserver


def _texts(server) -> list[str]:
    return [json.loads(request.data)["text"] for request, _ in server.log]


def test_an_approval_request_reaches_the_domains_webhook_with_the_exact_command(gov, plan, webhook):
    gov.propose(plan)
    request = gov.request_approval(plan.id)
    assert request["delivery"] == {"delivered": True, "via": "webhook", "detail": "HTTP 200"}
    (text,) = _texts(webhook)
    assert f'dw approve {plan.id} --as <your-name> --note "<why>"' in text
    assert "gl_landing" in text and '{"export_date":"2026-09-30"}' in text and "maria.chen, omar.haddad" in text
    assert "never turns into an approval" in text
    receipt = gov.receipts.list(action="approval_requested")[-1].record["body"]
    assert receipt["delivery"]["delivered"] and "T000" not in json.dumps(receipt)


def test_the_approval_request_carries_approve_and_reject_buttons_the_endpoint_answers(gov, plan, webhook):
    gov.propose(plan)
    gov.request_approval(plan.id)
    (request, _), = webhook.log
    blocks = json.loads(request.data)["blocks"]
    assert f"dw approve {plan.id}" in blocks[0]["text"]["text"]
    buttons = {b["action_id"]: b["value"] for b in blocks[1]["elements"]}
    # the interactive endpoint acts on exactly these ids, with the plan id as the value
    assert buttons == {"dw_approve": plan.id, "dw_reject": plan.id}
    assert set(buttons) == set(ACTIONS)


def test_token_posting_sends_the_blocks_too(httpserver):
    httpserver.expect_request("/api/chat.postMessage", method="POST").respond_with_json({"ok": True, "ts": "1.2"})
    blocks = approval_blocks("approve plan-x?", "plan-x")
    delivery = SlackNotifier(web_api_base_url=httpserver.url_for("/api/")).post(
        SlackConfig(token="xoxb-test", channel="#finance-data"), "approve plan-x?", blocks=blocks)
    assert delivery.delivered
    (request, _), = httpserver.log
    sent = request.get_json() if request.is_json else {k: v for k, v in request.form.items()}
    sent_blocks = sent["blocks"] if isinstance(sent["blocks"], list) else json.loads(sent["blocks"])
    assert [e["value"] for e in sent_blocks[1]["elements"]] == ["plan-x", "plan-x"]


def test_expiry_escalation_is_posted_too(gov, plan, clock, webhook):
    gov.propose(plan)
    gov.request_approval(plan.id)
    clock.advance(5 * 3600)
    gov.expire_due()
    texts = _texts(webhook)
    assert len(texts) == 2 and "expired unanswered" in texts[1] and "Escalated to omar.haddad" in texts[1]
    assert "Nothing was run" in texts[1]


def test_without_a_webhook_the_request_is_kept_and_says_it_was_not_sent(gov, plan):
    gov.propose(plan)
    request = gov.request_approval(plan.id)
    assert request["delivery"]["delivered"] is False and request["status"] == "open"


def test_a_failing_webhook_does_not_lose_the_request(gov, plan, httpserver, monkeypatch):
    httpserver.expect_request("/hook").respond_with_data("no_service", status=404)
    monkeypatch.setenv("DW_TEST_FINANCE_WEBHOOK", httpserver.url_for("/hook"))
    gov.propose(plan)
    request = gov.request_approval(plan.id)
    assert request["delivery"]["via"] == "error" and "404" in request["delivery"]["detail"]
    assert gov.ledger.open_request_for(plan.id) is not None


def test_token_and_channel_post_through_chat_post_message(httpserver):
    httpserver.expect_request("/api/chat.postMessage", method="POST").respond_with_json(
        {"ok": True, "channel": "C1", "ts": "1700000000.000100"})
    notifier = SlackNotifier(web_api_base_url=httpserver.url_for("/api/"))
    delivery = notifier.post(SlackConfig(token="xoxb-test", channel="#finance-oncall"), "hello")
    assert delivery.delivered and delivery.via == "chat.postMessage"
    (request, _), = httpserver.log
    assert request.headers["Authorization"] == "Bearer xoxb-test"
    assert request.form.get("channel") == "#finance-oncall" or json.loads(request.data)["channel"] == "#finance-oncall"


def test_slack_api_errors_are_named(httpserver):
    httpserver.expect_request("/api/chat.postMessage").respond_with_json({"ok": False, "error": "channel_not_found"})
    notifier = SlackNotifier(web_api_base_url=httpserver.url_for("/api/"))
    with pytest.raises(SlackError, match="channel_not_found"):
        notifier.post(SlackConfig(token="xoxb-test", channel="#nope"), "hello")


def test_unresolved_env_reference_is_a_clear_error():
    from dw_assets.config import ConfigError

    with pytest.raises(ConfigError, match="DW_NOT_SET_ANYWHERE"):
        SlackNotifier().post(SlackConfig(webhook_url="${DW_NOT_SET_ANYWHERE}"), "x")


def test_a_webhook_answering_503_then_200_is_delivered_by_the_retry(httpserver):
    from dw_assets.connectors.retry import RetryPolicy

    for status in (503, 503, 200):
        httpserver.expect_ordered_request("/hook", method="POST").respond_with_data("x", status=status)
    notifier = SlackNotifier(policy=RetryPolicy(attempts=4, backoff_s=0.01))
    assert notifier.post(SlackConfig(webhook_url=httpserver.url_for("/hook")), "hello").delivered
    assert len(httpserver.log) == 3


def test_slack_down_for_good_names_the_endpoint_and_what_to_do(httpserver):
    from dw_assets.connectors.retry import RetryPolicy

    httpserver.expect_request("/api/chat.postMessage").respond_with_json({"ok": False, "error": "ratelimited"},
                                                                         status=429)
    notifier = SlackNotifier(web_api_base_url=httpserver.url_for("/api/"), policy=RetryPolicy(attempts=3, backoff_s=0.01))
    with pytest.raises(SlackError, match=r"Slack: chat.postMessage to #finance .* after 3 attempt.*answered 429.*dw approve"):
        notifier.post(SlackConfig(token="xoxb-test", channel="#finance"), "hello")
    assert len(httpserver.log) == 3

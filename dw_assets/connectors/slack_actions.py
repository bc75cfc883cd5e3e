"""Slack interactive approvals: an HTTP endpoint for the buttons on an approval request.

Slack signs every interaction request with the app's signing secret; the signature is checked
with slack-sdk's `SignatureVerifier` (timestamp within five minutes, HMAC over the raw body)
before anything in the body is believed. The clicking user's Slack id is then mapped to a named
approver through `domains[].slack.users` (`U…: maria.chen`), so the approval's identity is
`verified (slack U…)`, not a typed `--as` name. The usual rules still apply (listed approver, not
the proposer, open request); a domain with `require_verified_approval: true` accepts only these.

Reads: the plan (for its domain). Writes: the decision, through `Governance` (ledger + signed
receipt). Interaction payload: `block_actions` with an action `dw_approve` or `dw_reject` whose
`value` is the plan id. Answers: 200 decided, 401 bad or missing signature, 403 unknown Slack
user, 409 refused by a rule (code and reason in the JSON), 400 malformed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

from slack_sdk.signature import SignatureVerifier
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from dw_assets.config import ConfigError, resolve_env
from dw_assets.connectors.slack import APPROVE_ACTION, REJECT_ACTION
from dw_assets.core.approvals import Refusal
from dw_assets.core.plans import PlanError

ACTIONS = {APPROVE_ACTION: "approved", REJECT_ACTION: "rejected"}
PATH = "/slack/actions"


def _payload(body: bytes) -> dict[str, Any]:
    form = parse_qs(body.decode("utf-8"))
    return json.loads(form["payload"][0])


def decide_from_slack(gov: Any, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    """Verify one interaction request and apply it; (HTTP status, JSON answer)."""
    try:
        payload = _payload(body)
        action = payload["actions"][0]
        verb, plan_id, user_id = ACTIONS[action["action_id"]], str(action["value"]), str(payload["user"]["id"])
    except (KeyError, IndexError, TypeError, ValueError, UnicodeDecodeError):
        return 400, {"ok": False, "error": "not a Data Workers approval interaction (block_actions with dw_approve "
                                          "or dw_reject whose value is a plan id)"}
    try:
        plan = gov.ledger.get_plan(plan_id)
    except PlanError as exc:
        return 400, {"ok": False, "error": str(exc)}
    domain = gov.domain(plan.domain)
    slack = domain.slack if domain else None
    try:
        secret = resolve_env(slack.signing_secret, what=f"domains[{plan.domain}].slack.signing_secret") \
            if slack and slack.signing_secret else ""
    except ConfigError as exc:
        return 401, {"ok": False, "error": str(exc)}
    if not secret:
        return 401, {"ok": False, "error": f"domain {plan.domain!r} has no slack.signing_secret: Slack approvals "
                                           "cannot be verified, so none are accepted"}
    if not SignatureVerifier(secret).is_valid_request(body, headers):
        return 401, {"ok": False, "error": "the request's Slack signature is missing, stale or wrong"}
    person = (slack.users or {}).get(user_id) if slack else None
    if not person:
        return 403, {"ok": False, "error": f"Slack user {user_id} is not mapped to an approver of {plan.domain!r} "
                                           f"(domains[{plan.domain}].slack.users)"}
    identity = f"verified (slack {user_id})"
    note = f"{verb} in Slack by {user_id}"
    try:
        decide = gov.approve if verb == "approved" else gov.reject
        record = decide(plan_id, person, note, identity=identity)
    except Refusal as refusal:
        return 409, {"ok": False, "code": refusal.code, "reason": refusal.reason}
    return 200, {"ok": True, "approval_id": record.approval_id, "decision": record.decision,
                 "approver": record.approver, "identity": identity,
                 "text": f"{record.decision} {plan_id} as {record.approver} ({identity}): {record.approval_id}"}


def build_app(governance: Callable[[], Any]) -> Starlette:
    """The endpoint as an ASGI app; `governance()` gives the `Governance` to act through."""

    async def actions(request: Request) -> JSONResponse:
        body = await request.body()
        headers = {k.lower(): v for k, v in request.headers.items()}
        status, answer = await run_in_threadpool(decide_from_slack, governance(), body, headers)
        return JSONResponse(answer, status_code=status)

    return Starlette(routes=[Route(PATH, actions, methods=["POST"])])

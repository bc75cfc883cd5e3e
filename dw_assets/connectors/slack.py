"""Slack: where approval requests, expiries and escalations are announced.

Reads: nothing. Writes: one message per call, to the channel a domain configures
(`domains[].slack`): an incoming webhook (`webhook_url`, through `slack_sdk.webhook.WebhookClient`)
or a bot token plus channel (`token` + `channel`, through `WebClient.chat_postMessage`). `${ENV}`
references are resolved at send time, so loading the config never needs the secret.
Read-only: it never touches the estate; a domain with no Slack settings (or settings that resolve
to empty strings) sends nothing and says so in the returned `Delivery`, so a missing webhook never
blocks an approval request: the request is in the ledger and its `dw approve` command is printed.
Errors: `SlackError` when Slack (or the configured URL) answers with an error, or cannot be reached
after the shared retry policy (`connectors.retry`: timeouts, connection errors, 5xx and 429 are
retried with backoff under a total deadline). A repeated post may show a message twice; a lost one
would leave an approver uninformed, so posts are treated as repeatable.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.webhook import WebhookClient

from dw_assets.config import SlackConfig, resolve_env
from dw_assets.connectors import retry
from dw_assets.connectors.retry import RetryPolicy, Transient

SLACK_POLICY = RetryPolicy(attempts=4, backoff_s=1.0, max_backoff_s=8.0, deadline_s=60.0)


class SlackError(RuntimeError):
    """Slack refused or could not receive a message; the text says which endpoint and why."""


@dataclass(frozen=True)
class Delivery:
    delivered: bool
    via: str  # "webhook" | "chat.postMessage" | "none"
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# The interactive endpoint (connectors/slack_actions.py) answers these two action ids; the value is the plan id.
APPROVE_ACTION, REJECT_ACTION = "dw_approve", "dw_reject"


def approval_blocks(text: str, plan_id: str) -> list[dict[str, Any]]:
    """Block Kit for an approval request: the request text and Approve / Reject buttons.

    A click reaches `dw approvals serve-slack`, which verifies Slack's request signature and maps the
    clicking user to a listed approver; the text keeps the `dw approve` command for those without it.
    """
    return [
        {"type": "section", "text": {"type": "mrkdwn", "text": text[:2900]}},  # Slack caps a section at 3,000
        {"type": "actions", "block_id": f"dw_plan_{plan_id}"[:255], "elements": [
            {"type": "button", "action_id": APPROVE_ACTION, "value": plan_id, "style": "primary",
             "text": {"type": "plain_text", "text": "Approve"}},
            {"type": "button", "action_id": REJECT_ACTION, "value": plan_id, "style": "danger",
             "text": {"type": "plain_text", "text": "Reject"}},
        ]},
    ]


class SlackNotifier:
    """Posts messages (text, optionally Block Kit blocks) for one domain's Slack settings."""

    def __init__(self, *, timeout_s: int = 10, web_api_base_url: str = "https://slack.com/api/",
                 policy: RetryPolicy = SLACK_POLICY):
        self.timeout_s = timeout_s
        self.web_api_base_url = web_api_base_url
        self.policy = policy

    def post(self, slack: SlackConfig | None, text: str, *, channel: str | None = None,
             blocks: list[dict[str, Any]] | None = None) -> Delivery:
        """Send `text` (and `blocks`, with `text` as the notification fallback); `channel` overrides the
        configured channel for token-based posting."""
        if slack is None:
            return Delivery(False, "none", "no slack settings for this domain")
        webhook = resolve_env(slack.webhook_url, what="slack.webhook_url") if slack.webhook_url else ""
        if webhook:
            return self._post_webhook(webhook, text, blocks)
        token = resolve_env(slack.token, what="slack.token") if slack.token else ""
        target = channel or (resolve_env(slack.channel, what="slack.channel") if slack.channel else "")
        if token and target:
            return self._post_chat(token, target, text, blocks)
        return Delivery(False, "none", "slack webhook_url or token+channel resolve to nothing: message not sent")

    def _post_webhook(self, url: str, text: str, blocks: list[dict[str, Any]] | None) -> Delivery:
        def send() -> Any:
            response = WebhookClient(url, timeout=self.timeout_s).send(text=text, blocks=blocks)
            if response.status_code in retry.RETRY_STATUSES:
                raise Transient(f"answered {response.status_code}: {str(response.body)[:200]}")
            return response

        response = self._retrying(send, f"POST webhook {_redact(url)}")
        if response.status_code != 200:
            raise SlackError(f"Slack webhook {_redact(url)} answered {response.status_code}: {response.body[:200]}")
        return Delivery(True, "webhook", f"HTTP {response.status_code}")

    def _post_chat(self, token: str, channel: str, text: str, blocks: list[dict[str, Any]] | None) -> Delivery:
        client = WebClient(token=token, base_url=self.web_api_base_url, timeout=self.timeout_s)

        def send() -> Any:
            try:
                return client.chat_postMessage(channel=channel, text=text, blocks=blocks)
            except SlackApiError as exc:
                if exc.response.status_code in retry.RETRY_STATUSES:  # rate limited or Slack is down
                    raise Transient(f"answered {exc.response.status_code}: {exc.response.get('error')}") from exc
                raise SlackError(f"Slack chat.postMessage to {channel} failed: {exc.response.get('error')}") from exc

        response = self._retrying(send, f"chat.postMessage to {channel} at {self.web_api_base_url}")
        return Delivery(True, "chat.postMessage", f"ts {response.get('ts')}")

    def _retrying(self, send: Any, endpoint: str) -> Any:
        return retry.call(send, system="Slack", endpoint=endpoint, policy=self.policy, error=SlackError,
                          hint="check the network path to Slack and the webhook / token; the request stays in "
                               "the ledger and `dw approve` works without Slack")


def _redact(url: str) -> str:
    """Webhook URLs are secrets: keep the host, drop the path."""
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}/..." if rest else "(webhook)"

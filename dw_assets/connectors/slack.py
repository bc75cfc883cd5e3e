"""Slack: where approval requests, expiries and escalations are announced.

Reads: nothing. Writes: one message per call, to the channel a domain configures
(`domains[].slack`): an incoming webhook (`webhook_url`, through `slack_sdk.webhook.WebhookClient`)
or a bot token plus channel (`token` + `channel`, through `WebClient.chat_postMessage`). `${ENV}`
references are resolved at send time, so loading the config never needs the secret.
Read-only: it never touches the estate; a domain with no Slack settings (or settings that resolve
to empty strings) sends nothing and says so in the returned `Delivery`, so a missing webhook never
blocks an approval request: the request is in the ledger and its `dw approve` command is printed.
Errors: `SlackError` when Slack (or the configured URL) answers with an error or cannot be reached.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from dw_assets.config import SlackConfig, resolve_env


class SlackError(RuntimeError):
    """Slack refused or could not receive a message; the text says which endpoint and why."""


@dataclass(frozen=True)
class Delivery:
    delivered: bool
    via: str  # "webhook" | "chat.postMessage" | "none"
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class SlackNotifier:
    """Posts plain-text messages for one domain's Slack settings."""

    def __init__(self, *, timeout_s: int = 10, web_api_base_url: str = "https://slack.com/api/"):
        self.timeout_s = timeout_s
        self.web_api_base_url = web_api_base_url

    def post(self, slack: SlackConfig | None, text: str, *, channel: str | None = None) -> Delivery:
        """Send `text`; `channel` overrides the configured channel for token-based posting."""
        if slack is None:
            return Delivery(False, "none", "no slack settings for this domain")
        webhook = resolve_env(slack.webhook_url, what="slack.webhook_url") if slack.webhook_url else ""
        if webhook:
            return self._post_webhook(webhook, text)
        token = resolve_env(slack.token, what="slack.token") if slack.token else ""
        target = channel or (resolve_env(slack.channel, what="slack.channel") if slack.channel else "")
        if token and target:
            return self._post_chat(token, target, text)
        return Delivery(False, "none", "slack webhook_url or token+channel resolve to nothing: message not sent")

    def _post_webhook(self, url: str, text: str) -> Delivery:
        from slack_sdk.webhook import WebhookClient

        try:
            response = WebhookClient(url, timeout=self.timeout_s).send(text=text)
        except Exception as exc:  # urllib raises URLError/OSError subclasses; name the endpoint either way
            raise SlackError(f"Slack webhook {_redact(url)} unreachable: {exc}") from exc
        if response.status_code != 200:
            raise SlackError(f"Slack webhook {_redact(url)} answered {response.status_code}: {response.body[:200]}")
        return Delivery(True, "webhook", f"HTTP {response.status_code}")

    def _post_chat(self, token: str, channel: str, text: str) -> Delivery:
        from slack_sdk import WebClient
        from slack_sdk.errors import SlackApiError

        client = WebClient(token=token, base_url=self.web_api_base_url, timeout=self.timeout_s)
        try:
            response = client.chat_postMessage(channel=channel, text=text)
        except SlackApiError as exc:
            raise SlackError(f"Slack chat.postMessage to {channel} failed: {exc.response.get('error')}") from exc
        except Exception as exc:
            raise SlackError(f"Slack API {self.web_api_base_url} unreachable: {exc}") from exc
        return Delivery(True, "chat.postMessage", f"ts {response.get('ts')}")


def _redact(url: str) -> str:
    """Webhook URLs are secrets: keep the host, drop the path."""
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}/..." if rest else "(webhook)"

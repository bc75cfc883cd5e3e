"""How one call is validated and how every failure becomes an MCP tool error (no subprocess)."""

from __future__ import annotations

import anyio
import pytest

from dw_assets.core.approvals import Refusal
from dw_assets.core.identity import UnknownAssetError
from dw_assets.mcp.context import ToolFailure, ToolSpec
from dw_assets.mcp.server import ApiKeyVerifier, McpStartError, http_app, run_tool, tools_for

SCHEMA = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"],
          "additionalProperties": False}


def spec_raising(exc: Exception | None) -> ToolSpec:
    def handler(_ctx, n: int) -> dict:
        if exc is not None:
            raise exc
        return {"n": n}

    return ToolSpec("t", "T", "test tool", SCHEMA, handler)


@pytest.mark.parametrize(("exc", "code"), [
    pytest.param(Refusal("read_only", "pinned"), "read_only", id="refusal"),
    pytest.param(ToolFailure("not_found", "gone"), "not_found", id="tool-failure"),
    pytest.param(UnknownAssetError("x", ["y"]), "unknown_asset", id="unknown-asset"),
    pytest.param(KeyError("boom"), "internal_error", id="anything-else"),
])
def test_failures_become_tool_errors_with_their_reason(exc: Exception, code: str) -> None:
    result = run_tool(spec_raising(exc), {"n": 1}, None)
    assert result.is_error and result.structured_content["error"] == code
    assert result.content[0].text.startswith(f"{code}: ")


@pytest.mark.parametrize(("arguments", "where"), [
    pytest.param({}, "arguments", id="missing"),
    pytest.param({"n": 0}, "n", id="too-small"),
    pytest.param({"n": 1, "extra": True}, "arguments", id="unknown-key"),
])
def test_arguments_are_checked_against_the_schema(arguments: dict, where: str) -> None:
    result = run_tool(spec_raising(None), arguments, None)
    assert result.is_error and result.structured_content["error"] == "invalid_arguments"
    assert result.structured_content["reason"].startswith(f"{where}: ")


def test_success_is_structured_and_text() -> None:
    result = run_tool(spec_raising(None), {"n": 3}, None)
    assert not result.is_error and result.structured_content == {"n": 3} and '"n": 3' in result.content[0].text


def test_read_only_lists_no_write_tool_and_the_key_is_required() -> None:
    assert all(not t.writes for t in tools_for(read_only=True))
    assert {t.name for t in tools_for(read_only=False) if t.writes} == {
        "propose_remediation", "request_approval", "send_slack_alert", "trigger_airflow_dag"}
    for key in (None, "", "short"):
        with pytest.raises(McpStartError):
            http_app(None, api_key=key, host="127.0.0.1", port=1)
    verifier = ApiKeyVerifier("k" * 20)
    assert anyio.run(verifier.verify_token, "k" * 20) is not None
    assert anyio.run(verifier.verify_token, "k" * 19) is None

"""The MCP SDK's own client, pointed at `dw mcp` as an agent would run it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

DW = str(Path(sys.executable).parent / "dw")
CALL_TIMEOUT_S = 240.0
READ_TOOLS = {"trace_cross_platform_lineage", "blast_radius_analysis", "diagnose_incident", "list_incidents",
              "get_incident", "monitor_metrics", "get_receipt", "verify_receipts"}
WRITE_TOOLS = {"propose_remediation", "request_approval", "send_slack_alert", "trigger_airflow_dag"}  # a first call may run `dbt parse` and read the warehouse on 2 busy cores


def stdio_client(env: dict[str, str], *args: str) -> Client:
    params = StdioServerParameters(command=DW, args=["mcp", *args], env=env)
    return Client(params, read_timeout_seconds=CALL_TIMEOUT_S)


async def call(client: Client, name: str, arguments: dict[str, Any] | None = None) -> tuple[bool, dict[str, Any]]:
    """(is_error, the result's JSON)."""
    result = await client.call_tool(name, arguments or {}, read_timeout_seconds=CALL_TIMEOUT_S)
    data = result.structured_content if result.structured_content is not None else json.loads(result.content[0].text)
    return bool(result.is_error), data


async def ok(client: Client, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    is_error, data = await call(client, name, arguments)
    assert not is_error, f"{name} failed: {data}"
    return data


async def refused(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    is_error, data = await call(client, name, arguments)
    assert is_error, f"{name} was expected to be refused, got {data}"
    assert data["error"] and data["reason"]
    return data

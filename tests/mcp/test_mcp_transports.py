"""`--read-only` hides the write tools; streamable HTTP needs the API key (401 without it)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time

import anyio
import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_client import CALL_TIMEOUT_S, DW, READ_TOOLS, call, ok, stdio_client
from mcp_estate import API_KEY, EXPORT_DATE

pytestmark = pytest.mark.dbt


def test_read_only_server_hides_write_tools(mcp_estate) -> None:
    before = list(mcp_estate.airflow_requests())

    async def scenario():
        async with stdio_client(mcp_estate.env, "--read-only") as client:
            tools = (await client.list_tools()).tools
            trigger = await call(client, "trigger_airflow_dag", {"instance": "local", "dagId": "gl_landing",
                                                                 "conf": {"export_date": EXPORT_DATE}})
            verified = await ok(client, "verify_receipts")
            return tools, trigger, verified

    tools, (is_error, data), verified = anyio.run(scenario)
    assert {t.name for t in tools} == READ_TOOLS
    assert all(t.annotations.read_only_hint for t in tools)
    assert is_error and data["error"] == "unknown_tool" and "--read-only" in data["reason"]
    assert mcp_estate.airflow_requests() == before
    assert verified["ok"] is True


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def http_server(mcp_estate):
    port = _free_port()
    env = {**os.environ, **mcp_estate.env, "DW_MCP_API_KEY": API_KEY}
    proc = subprocess.Popen([DW, "mcp", "--transport", "http", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.monotonic() + 120
    try:
        while True:
            try:
                httpx.post(url, timeout=2)
                break
            except httpx.TransportError:
                if proc.poll() is not None:
                    pytest.fail(f"dw mcp --transport http exited: {proc.stderr.read().decode()[-2000:]}")
                if time.monotonic() > deadline:
                    pytest.fail("dw mcp --transport http did not listen within 120 s")
                time.sleep(0.3)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def test_http_rejects_missing_or_wrong_key_and_serves_the_right_one(http_server) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    assert httpx.post(http_server, json=body, headers=headers, timeout=10).status_code == 401
    wrong = {**headers, "Authorization": "Bearer not-the-key-at-all-000000"}
    assert httpx.post(http_server, json=body, headers=wrong, timeout=10).status_code == 401

    async def scenario():
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {API_KEY}"})
        async with http, Client(streamable_http_client(http_server, http_client=http),
                                read_timeout_seconds=CALL_TIMEOUT_S) as client:
            tools = (await client.list_tools()).tools
            radius = await ok(client, "blast_radius_analysis", {"assetId": "close_trial_balance"})
            return tools, radius

    tools, radius = anyio.run(scenario)
    assert "trigger_airflow_dag" in {t.name for t in tools}
    assert radius["root"] == "exposure:close_trial_balance"


def test_http_refuses_to_start_without_a_key(mcp_estate) -> None:
    env = {**os.environ, **mcp_estate.env, "DW_MCP_API_KEY": ""}
    done = subprocess.run([DW, "mcp", "--transport", "http", "--port", str(_free_port())], env=env, check=False,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "without an API key" in done.stderr
    short = subprocess.run([DW, "mcp", "--transport", "http", "--api-key", "short"], env=env, check=False,
                           capture_output=True, text=True, timeout=120)
    assert short.returncode != 0 and "at least 16" in short.stderr

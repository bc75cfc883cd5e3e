"""The MCP server on the official SDK's low-level `Server`: explicit JSON Schemas, stdio or HTTP.

Every call: the arguments are validated against the tool's schema (jsonschema, Draft 2020-12),
then the handler runs in a worker thread (the estate's I/O is blocking). A refusal or failure comes
back as an MCP tool error (`isError`) whose text is `code: reason` and whose structured content is
`{"error": code, "reason": ...}`; the server itself never stops over one bad call.

Streamable HTTP binds to `host:port` (127.0.0.1 by default) and requires `Authorization: Bearer
<key>` on every request through the SDK's bearer middleware (401 otherwise); it refuses to start
without a key.
"""

from __future__ import annotations

import hmac
import json
from functools import partial
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import anyio
import jsonschema
import mcp_types as types
import uvicorn
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from pydantic import AnyHttpUrl

from dw_assets.config import ConfigError
from dw_assets.core.approvals import Refusal
from dw_assets.core.identity import AmbiguousAssetError, UnknownAssetError
from dw_assets.incidents import IncidentNotFound
from dw_assets.mcp.context import ToolContext, ToolFailure, ToolSpec
from dw_assets.mcp.read_tools import READ_TOOLS
from dw_assets.mcp.write_tools import WRITE_TOOLS
from dw_assets.pr_impact import PrImpactError

TOOLS: list[ToolSpec] = [*READ_TOOLS, *WRITE_TOOLS]
MIN_API_KEY_LENGTH = 16
INSTRUCTIONS = (
    "Data Workers for Dagster: trace lineage across dbt, Airflow and OpenLineage, analyse blast radius, "
    "diagnose incidents, propose remediation plans. Reruns need a named person's approval (`dw approve`); "
    "no tool can approve, and trigger_airflow_dag passes the same gate as the rerun job.")


class McpStartError(RuntimeError):
    """The server cannot start as asked (no API key for HTTP, a bad option); the message says why."""


def tools_for(read_only: bool) -> list[ToolSpec]:
    return [t for t in TOOLS if not (read_only and t.writes)]


def build_server(config_path: str | None, *, read_only: bool = False) -> Server:
    specs = {t.name: t for t in tools_for(read_only)}
    listed = [types.Tool(name=t.name, title=t.title, description=t.description, input_schema=t.input_schema,
                         annotations=types.ToolAnnotations(**t.annotations())) for t in specs.values()]

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        spec = specs.get(params.name)
        if spec is None:
            hidden = params.name in {t.name for t in TOOLS}
            return _error("unknown_tool", f"{params.name!r} is a write tool and this server runs --read-only"
                          if hidden else f"no tool named {params.name!r}")
        call = partial(run_tool, spec, dict(params.arguments or {}), config_path)
        return await anyio.to_thread.run_sync(call)

    return Server("data-workers", version=_version(), instructions=INSTRUCTIONS, on_list_tools=list_tools,
                  on_call_tool=call_tool,
                  get_tool_input_schema=lambda name: specs[name].input_schema if name in specs else None)


def run_tool(spec: ToolSpec, arguments: dict[str, Any], config_path: str | None) -> types.CallToolResult:
    """Validate, run, and wrap one call; every failure becomes a tool error with its reason."""
    try:
        jsonschema.Draft202012Validator(spec.input_schema).validate(arguments)
        result = spec.handler(ToolContext(config_path), **arguments)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "arguments"
        return _error("invalid_arguments", f"{where}: {exc.message}")
    except ToolFailure as exc:
        return _error(exc.code, exc.reason)
    except Exception as exc:  # noqa: BLE001 - every error reaches the agent as a reason, never a crash
        return _error(*_classify(exc))
    data = json.loads(json.dumps(result, default=str))
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(data, indent=2))],
                                structured_content=data)


def _classify(exc: Exception) -> tuple[str, str]:
    if isinstance(exc, Refusal):
        return exc.code, exc.reason
    if isinstance(exc, UnknownAssetError | AmbiguousAssetError):
        return ("unknown_asset" if isinstance(exc, UnknownAssetError) else "ambiguous_asset"), str(exc)
    if isinstance(exc, IncidentNotFound):
        return "not_found", str(exc)
    if isinstance(exc, ConfigError):
        return "config_error", str(exc)
    if isinstance(exc, ValueError | PrImpactError):
        return "invalid_arguments", str(exc)
    return "internal_error", f"{type(exc).__name__}: {exc}"


def _error(code: str, reason: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"{code}: {reason}")],
                                structured_content={"error": code, "reason": reason}, is_error=True)


def _version() -> str:
    try:
        return version("data-workers-dagster")
    except PackageNotFoundError:
        return "0"


def serve_stdio(config_path: str | None, *, read_only: bool = False) -> None:
    server = build_server(config_path, read_only=read_only)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


class ApiKeyVerifier:
    """A TokenVerifier for one static API key, compared in constant time."""

    def __init__(self, api_key: str):
        self._key = api_key.encode()

    async def verify_token(self, token: str) -> AccessToken | None:
        if hmac.compare_digest(token.encode(), self._key):
            return AccessToken(token="api-key", client_id="dw-mcp-client", scopes=[])
        return None


def http_app(config_path: str | None, *, api_key: str | None, host: str, port: int, read_only: bool = False) -> Any:
    """The Starlette app for streamable HTTP at `/mcp`, bearer-key protected."""
    if not api_key:
        raise McpStartError("refusing to serve MCP over HTTP without an API key: set DW_MCP_API_KEY or pass "
                            "--api-key (clients send it as `Authorization: Bearer <key>`)")
    if len(api_key) < MIN_API_KEY_LENGTH:
        raise McpStartError(f"the API key is {len(api_key)} characters: use at least {MIN_API_KEY_LENGTH} "
                            "(e.g. `python -c 'import secrets; print(secrets.token_urlsafe(32))'`)")
    server = build_server(config_path, read_only=read_only)
    auth = AuthSettings(issuer_url=AnyHttpUrl(f"http://{host}:{port}"), resource_server_url=None)
    return server.streamable_http_app(host=host, auth=auth, token_verifier=ApiKeyVerifier(api_key))


def run_http(app: Any, *, host: str, port: int) -> None:
    uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning")).run()

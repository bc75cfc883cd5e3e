"""dw commands: tools_cmds."""

from __future__ import annotations

from datetime import UTC, datetime

import click

from dw_assets import pr_impact as impact
from dw_assets.cli.context import emit_json, pass_dw
from dw_assets.diagnosis.report import build_report, render

commands: list = []


def _report_command():
    @click.command("report")
    @click.option("--since", required=True, help="Start of the window: YYYY-MM-DD or an ISO timestamp (UTC if naive).")
    @click.option("--until", default=None, help="End of the window (default: now).")
    @click.option("--format", "fmt", type=click.Choice(["md", "html", "json"]), default="md", show_default=True)
    @click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
    @pass_dw
    def report(dw, since: str, until: str | None, fmt: str, as_json: bool) -> None:
        """Every failed or flagged run since DATE with its cause, blast radius and the fix that
        would have been proposed. Read-only: writes nothing anywhere."""
        result = build_report(dw.settings, _when(since, "--since"), until=_when(until, "--until") if until else None)
        click.echo(render(result, "json" if as_json else fmt), nl=False)

    return report


def _when(value: str, option: str):
    try:
        moment = datetime.fromisoformat(value)
    except ValueError as exc:
        raise click.BadParameter(f"{value!r} is not a date (YYYY-MM-DD) or ISO timestamp", param_hint=option) from exc
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


commands.append(_report_command())


def _mcp_command():
    @click.command("mcp")
    @click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True)
    @click.option("--host", default="127.0.0.1", show_default=True, help="HTTP only: the address to bind.")
    @click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="HTTP only.")
    @click.option("--api-key", envvar="DW_MCP_API_KEY", default=None,
                  help="HTTP only: clients must send `Authorization: Bearer <key>` (default: $DW_MCP_API_KEY).")
    @click.option("--read-only", is_flag=True, help="Serve only the read tools (no plan, approval request, "
                                                    "Slack message or Airflow run can be started).")
    @pass_dw
    def mcp(dw, transport: str, host: str, port: int, api_key: str | None, read_only: bool) -> None:
        """Serve Data Workers' tools over MCP (stdio for a coding agent, or streamable HTTP)."""
        # lazy: the MCP SDK takes seconds to import; the other `dw` commands start without it
        from dw_assets.mcp.server import McpStartError, http_app, run_http, serve_stdio

        _ = dw.settings  # a broken config fails here, before a client connects
        if transport == "stdio":
            serve_stdio(dw.config_path, read_only=read_only)
            return
        try:
            app = http_app(dw.config_path, api_key=api_key, host=host, port=port, read_only=read_only)
        except McpStartError as exc:
            raise click.ClickException(str(exc)) from exc
        click.echo(f"dw mcp: streamable HTTP on http://{host}:{port}/mcp" + (" (read-only)" if read_only else ""),
                   err=True)
        run_http(app, host=host, port=port)

    return mcp


def _pr_impact_command():
    @click.command("pr-impact")
    @click.option("--base", required=True, help="The ref the pull request merges into (e.g. origin/main).")
    @click.option("--head", required=True, help="The pull request's ref (checked out in --repo).")
    @click.option("--repo", default=".", show_default=True, type=click.Path(exists=True, file_okay=False),
                  help="The git repository holding the dbt project.")
    @click.option("--max-depth", type=click.IntRange(min=0), default=10, show_default=True)
    @click.option("--format", "fmt", type=click.Choice(["md", "json"]), default="md", show_default=True)
    @click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
    @pass_dw
    def pr_impact(dw, base: str, head: str, repo: str, max_depth: int, fmt: str, as_json: bool) -> None:
        """The comment a reviewer sees: changed dbt assets and columns, and every downstream reader
        with owner and severity. Read-only (git reads, `dbt parse`)."""
        settings = dw.settings
        try:
            report = impact.for_refs(settings, repo, base, head, max_depth=max_depth,
                                     store=impact.graph_store(settings))
        except impact.PrImpactError as exc:
            raise click.ClickException(str(exc)) from exc
        if as_json or fmt == "json":
            emit_json(report)
        else:
            click.echo(impact.render_markdown(report), nl=False)

    return pr_impact


commands.append(_mcp_command())
commands.append(_pr_impact_command())

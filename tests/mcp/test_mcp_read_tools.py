"""`dw mcp` over stdio, through the SDK's client: the tool list and every read tool."""

from __future__ import annotations

import difflib

import anyio
import pytest
from mcp_client import READ_TOOLS, WRITE_TOOLS, call, ok, refused, stdio_client
from mcp_estate import EXPORT_DATE, REPO

pytestmark = pytest.mark.dbt

CLOSE = {"analytics.stg_gl_entries": "maria.chen", "analytics.int_gl_by_entity": "maria.chen",
         "analytics.fct_trial_balance": "maria.chen", "exposure:close_trial_balance": "maria.chen",
         "exposure:close_entity_variance": "maria.chen", "exposure:close_review_0900": "finance-controller"}


def test_tools_have_schemas_and_read_write_marks(mcp_estate) -> None:
    async def scenario():
        async with stdio_client(mcp_estate.env) as client:
            return (await client.list_tools()).tools

    tools = {t.name: t for t in anyio.run(scenario)}
    assert set(tools) == READ_TOOLS | WRITE_TOOLS
    for name, tool in tools.items():
        assert tool.input_schema["type"] == "object" and "properties" in tool.input_schema, name
        assert tool.description and tool.annotations is not None, name
        assert tool.annotations.read_only_hint is (name in READ_TOOLS), name
    assert tools["trigger_airflow_dag"].annotations.destructive_hint is True
    assert not any(tools[n].annotations.destructive_hint for n in READ_TOOLS)
    assert tools["blast_radius_analysis"].input_schema["properties"]["changeType"]["enum"]
    assert not [n for n in tools if n.startswith(("approve", "reject", "grant"))], "no tool may approve"


def test_lineage_and_blast_radius(mcp_estate) -> None:
    async def scenario():
        async with stdio_client(mcp_estate.env) as client:
            radius = await ok(client, "blast_radius_analysis", {"assetId": "finance.bronze.gl_entries"})
            trace = await ok(client, "trace_cross_platform_lineage",
                             {"assetId": "fct_trial_balance", "direction": "upstream", "maxDepth": 5})
            unknown = await refused(client, "trace_cross_platform_lineage", {"assetId": "no_such_table"})
            bad = await refused(client, "trace_cross_platform_lineage", {"assetId": "x", "direction": "sideways"})
            column = await ok(client, "blast_radius_analysis", {"assetId": "analytics.int_gl_by_entity",
                                                                "changeType": "column_removed",
                                                                "columnName": "total_debit"})
            missing = await refused(client, "blast_radius_analysis", {"assetId": "analytics.int_gl_by_entity",
                                                                      "changeType": "column_renamed"})
            diff = await ok(client, "blast_radius_analysis", {"prDiff": _rename_line_count_diff()})
            return radius, trace, unknown, bad, column, missing, diff

    radius, trace, unknown, bad, column, missing, diff = anyio.run(scenario)
    assert {a["id"]: a["owner"] for a in radius["affected"]} == CLOSE
    assert radius["severity"] == "critical" and radius["reader_count"] == 3
    assert {n["id"] for n in trace["nodes"]} >= {"analytics.int_gl_by_entity", "finance.bronze.gl_entries"}
    assert all(e["provenance"] for e in trace["edges"])
    assert unknown["error"] == "unknown_asset" and "no_such_table" in unknown["reason"]
    assert bad["error"] == "invalid_arguments" and "sideways" in bad["reason"]
    assert column["change"]["breaking"] is True
    assert column["column_readers"] == {"analytics.fct_trial_balance": ["total_debit"]}
    assert set(column["narrowed"]) == {"analytics.fct_trial_balance", "exposure:close_trial_balance",
                                       "exposure:close_review_0900"}
    assert missing["error"] == "invalid_arguments"
    (asset,) = diff["assets"]
    assert asset["id"] == "analytics.int_gl_by_entity"
    assert asset["columns"]["renamed"] == [{"from": "line_count", "to": "entry_count"}]
    assert {d["id"]: d["reads_columns"] for d in asset["downstream"]}["analytics.fct_trial_balance"] == ["line_count"]
    assert "fct_trial_balance" in diff["comment_markdown"]


def _rename_line_count_diff() -> str:
    path = "dbt_project/models/intermediate/int_gl_by_entity.sql"
    before = (REPO / path).read_text()
    after = before.replace("count(*) as line_count", "count(*) as entry_count")
    assert after != before
    body = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{path}", f"b/{path}"))
    return f"diff --git a/{path} b/{path}\n{body}"


def test_incidents_diagnosis_and_metrics(mcp_estate) -> None:
    incident = mcp_estate.incident_id

    async def scenario():
        async with stdio_client(mcp_estate.env) as client:
            listed = await ok(client, "list_incidents", {"status": "open"})
            shown = await ok(client, "get_incident", {"incidentId": incident})
            missing = await refused(client, "get_incident", {"incidentId": "INC-19990101-0000"})
            diagnosis = await ok(client, "diagnose_incident", {"incidentId": incident})
            by_dataset = await ok(client, "diagnose_incident", {"datasetId": "gl_entries"})
            neither = await call(client, "diagnose_incident", {})
            volume = await ok(client, "monitor_metrics", {"datasetId": "finance.bronze.gl_entries"})
            short = await ok(client, "monitor_metrics", {"datasetId": "gl_entries", "window": 3})
            fresh = await ok(client, "monitor_metrics", {"datasetId": "gl_entries", "metric": "freshness"})
            unconfigured = await refused(client, "monitor_metrics", {"datasetId": "analytics.fct_trial_balance"})
            return listed, shown, missing, diagnosis, by_dataset, neither, volume, short, fresh, unconfigured

    listed, shown, missing, diagnosis, by_dataset, neither, volume, short, fresh, unconfigured = anyio.run(scenario)
    assert incident in [i["id"] for i in listed["incidents"]]
    assert shown["dataset_id"] == "finance.bronze.gl_entries" and shown["owner"] == "maria.chen"
    assert missing["error"] == "not_found"
    top = diagnosis["causes"][0]
    assert top["kind"] == "split_export_early_release", diagnosis["causes"][:2]
    assert top["details"]["dag_id"] == "gl_landing" and top["details"]["conf"] == {"export_date": EXPORT_DATE}
    assert by_dataset["incident_id"] == incident
    assert neither[0] is True and neither[1]["error"] == "invalid_arguments"
    assert volume["partition"] == EXPORT_DATE and volume["passed"] is False
    assert len(volume["history"]) == 6 and volume["band"]["lower"] < volume["baseline"] < volume["band"]["upper"]
    assert volume["observed"] < volume["band"]["lower"] and 0.5 < volume["ratio"] < 0.65
    assert len(short["history"]) == 3
    assert fresh["metric"] == "freshness" and fresh["check"] == "freshness_sla"
    assert unconfigured["error"] == "not_configured"
    # read tools leave the incident as it was: diagnosis is returned, not recorded
    assert shown["status"] == "open" and not shown["causes"]

"""The Dagster UI as the product's dashboard: after the month-end night, the webserver on the
demo's instance shows the code location, the incident partition, the failed-then-passing checks
and the gated rerun job with its approval tags (GraphQL), and a real browser renders the pages."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from dagster_graphql import DagsterGraphQLClient
from demo_runs import run_demo

from dw_assets.harness.dagster_ui import DagsterWebserver

pytestmark = [pytest.mark.ui, pytest.mark.e2e, pytest.mark.airflow]
GL = {"path": ["finance", "bronze", "gl_entries"]}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def ui(tmp_path_factory):
    summary = run_demo(tmp_path_factory.mktemp("e2e"), "both", "3", approve_as="omar.haddad")
    assert summary["ok"], summary["_stderr_tail"]
    home = Path(summary["_dw_home"])
    with DagsterWebserver(home / "dagster", env={"DW_HOME": str(home)}) as web:
        yield web, DagsterGraphQLClient("127.0.0.1", port_number=web.port), summary


def test_code_location_loads_with_the_gated_job(ui):
    _, client, _ = ui
    data = client._execute("""query { workspaceOrError { ... on Workspace { locationEntries { name loadStatus
        locationOrLoadError { __typename ... on RepositoryLocation { repositories { jobs { name } } } } } } } }""")
    entry = data["workspaceOrError"]["locationEntries"][0]
    assert entry["name"] == "data_workers" and entry["loadStatus"] == "LOADED"
    assert entry["locationOrLoadError"]["__typename"] == "RepositoryLocation"
    jobs = {j["name"] for r in entry["locationOrLoadError"]["repositories"] for j in r["jobs"]}
    assert {"rerun_airflow_dag", "verify_remediation"} <= jobs


def test_incidents_are_partitions(ui):
    _, client, summary = ui
    data = client._execute("""query($k: AssetKeyInput!) { assetNodeOrError(assetKey: $k) {
        ... on AssetNode { partitionKeys } } }""", {"k": {"path": ["incident"]}})
    keys = set(data["assetNodeOrError"]["partitionKeys"])
    for night in summary["nights"]:
        assert set(night["incident_ids"]) <= keys


def test_volume_check_failed_then_passed(ui):
    _, client, _ = ui
    data = client._execute("""query($k: AssetKeyInput!, $c: String!) {
        assetCheckExecutions(assetKey: $k, checkName: $c, limit: 10) { status evaluation { success } } }""",
                           {"k": GL, "c": "volume_vs_history"})
    outcomes = [e["evaluation"]["success"] for e in data["assetCheckExecutions"]]  # newest first
    assert outcomes[0] is True and False in outcomes[1:], outcomes


def test_rerun_runs_carry_the_approval_tags(ui):
    _, client, summary = ui
    data = client._execute("""query { runsOrError(filter: {pipelineName: "rerun_airflow_dag"}) {
        ... on Runs { results { status tags { key value } } } } }""")
    runs = data["runsOrError"]["results"]
    approvals = {n["approval"]["id"] for n in summary["nights"]}
    tagged = {t["value"] for r in runs for t in r["tags"] if t["key"] == "dw/approval_id"}
    assert approvals <= tagged and all(r["status"] == "SUCCESS" for r in runs)


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed (scripts/test.sh installs it)")
def test_browser_renders_the_asset_and_checks_pages(ui):
    from playwright.sync_api import sync_playwright

    web, _, _ = ui
    ARTIFACTS.mkdir(exist_ok=True)
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=flags)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"{web.url}/assets/finance/bronze/gl_entries", timeout=120_000)
        page.get_by_text("gl_entries").first.wait_for(timeout=120_000)
        page.screenshot(path=str(ARTIFACTS / "ui-asset-gl_entries.png"), full_page=True)
        page.goto(f"{web.url}/assets/finance/bronze/gl_entries?view=checks", timeout=120_000)
        page.get_by_text("volume_vs_history").first.wait_for(timeout=120_000)
        page.screenshot(path=str(ARTIFACTS / "ui-checks-gl_entries.png"), full_page=True)
        browser.close()
    assert (ARTIFACTS / "ui-checks-gl_entries.png").stat().st_size > 10_000

"""The Dagster UI as the product's dashboard: after the month-end night, the webserver on the
demo's instance shows the code location, the incident partition, the failed-then-passing checks
and the gated rerun job with its approval tags (GraphQL), and a real browser renders the pages."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from dagster_graphql import DagsterGraphQLClient
from demo_runs import run_demo

from dw_assets.config import load_settings
from dw_assets.harness.dagster_ui import DagsterWebserver
from dw_assets.incidents import IncidentStore
from dw_assets.store import open_state

pytestmark = [pytest.mark.ui, pytest.mark.e2e, pytest.mark.airflow]
GL = {"path": ["finance", "bronze", "gl_entries"]}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def ui(tmp_path_factory):
    summary = run_demo(tmp_path_factory.mktemp("e2e"), "both", "3", approve_as="omar.haddad")
    assert summary["ok"], summary["_stderr_tail"]
    home = Path(summary["_dw_home"])
    # no daemon here (`dw ui` runs `dagster dev`, which has one): the webserver launches runs itself
    with open(home / "dagster" / "dagster.yaml", "a") as config:
        config.write("\nrun_coordinator:\n  module: dagster.core.run_coordinator\n  class: DefaultRunCoordinator\n")
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


def _incident(summary: dict, incident_id: str, monkeypatch):
    """The incident as the demo's state store holds it: what the page must show."""
    monkeypatch.setenv("DW_HOME", summary["_dw_home"])
    settings = load_settings()
    return IncidentStore(open_state(settings)).get(incident_id)


@pytest.fixture(scope="module")
def browser_page(ui):
    if shutil.which("chromium") is None:
        pytest.fail("Debian's chromium is not installed (scripts/test.sh installs it)")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=flags)
        # tall: the UI scrolls inside its own panes, so a screenshot shows what fits the viewport
        page = browser.new_page(viewport={"width": 1920, "height": 2600})
        page.set_default_timeout(120_000)
        # the first-visit community dialog can open at any moment and cover the page: dismiss it whenever it does
        page.add_locator_handler(page.get_by_role("button", name="Skip"), lambda skip: skip.click())
        yield page
        browser.close()


def _open(page, url: str, ready_text: str) -> str:
    page.goto(url)
    page.get_by_text(ready_text).first.wait_for()
    page.wait_for_timeout(1500)  # let the rest of the page settle before reading or shooting it
    return page.inner_text("body")


def test_incident_page_reads_as_an_incident_report(ui, browser_page, monkeypatch):
    web, _, summary = ui
    night = summary["nights"][0]
    incident = _incident(summary, night["incident_ids"][0], monkeypatch)
    page = browser_page
    text = _open(page, f"{web.url}/assets/incident?view=partitions&partition={incident.id}", "cause 1")
    page.screenshot(path=str(ARTIFACTS / "ui-incident.png"))
    flat = " ".join(text.split())
    assert incident.causes[0]["title"] in flat
    hop = incident.path[0]
    assert f"{hop['source']} {hop['target']} {hop['system']}" in flat  # a path row: from, to, system
    owners = {r["owner"] for r in incident.blast_radius if r.get("owner")}
    assert any(owner in flat for owner in owners) and "readers" in flat
    assert f"dw approve {incident.plan_id} --as <your-name>" in flat
    assert "dw/approval_id=" in flat and "[Show JSON]" in flat  # only the raw evidence stays JSON
    assert flat.count("[Show Markdown]") == 0


def test_launchpad_launches_a_gated_run_from_the_plan_partition(ui, browser_page):
    web, client, summary = ui
    plan_id = summary["nights"][0]["approval"]["plan_id"]
    page = browser_page
    _open(page, f"{web.url}/locations/data_workers/jobs/rerun_airflow_dag/playground", "Launch Run")
    assert "Missing required config entry" not in page.inner_text("body")
    page.get_by_placeholder("Partition").first.click()
    page.get_by_text(plan_id).first.click()
    page.get_by_text(f"dw/plan_id: {plan_id}").first.wait_for()  # the partition's tags, filled in
    page.get_by_text(f"plan_id: '{plan_id}'").first.wait_for()  # and its run config
    page.screenshot(path=str(ARTIFACTS / "ui-launchpad.png"))
    page.get_by_role("button", name="Launch Run").first.click()
    page.wait_for_url("**/runs/**")
    run_id = page.url.rstrip("/").split("/runs/")[1].split("?")[0]
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        status = client.get_run_status(run_id)
        if status.value in ("SUCCESS", "FAILURE", "CANCELED"):
            break
        time.sleep(2)
    data = client._execute("""query($id: ID!) { runOrError(runId: $id) { ... on Run { status tags { key value }
        runConfigYaml } } }""", {"id": run_id})["runOrError"]
    tags = {t["key"]: t["value"] for t in data["tags"]}
    assert tags["dw/plan_id"] == plan_id and tags["dagster/partition"] == plan_id
    assert plan_id in data["runConfigYaml"]
    # the demo's approval was used by its own rerun: the gate refuses this launch, before Airflow
    assert data["status"] == "FAILURE", data
    refusals = client._execute("""query($id: ID!) { logsForRun(runId: $id) { ... on EventConnection { events {
        ... on ExecutionStepFailureEvent { error { message } } } } } }""", {"id": run_id})
    messages = [e["error"]["message"] for e in refusals["logsForRun"]["events"] if e.get("error")]
    assert any("refused (no_approval)" in m for m in messages), messages


def test_check_page_shows_partition_incident_and_failed_then_passed_history(ui, browser_page):
    web, client, summary = ui
    incident_id = summary["nights"][0]["incident_ids"][0]
    page = browser_page
    base = f"{web.url}/assets/finance/bronze/gl_entries?view=checks&checkDetail=volume_vs_history"
    text = " ".join(_open(page, base, "Latest execution").split())
    assert "partition 2026-09-30" in text and "History" in text and "vs baseline" in text  # the chart, inline
    more = page.get_by_text("Show more")
    if more.count():
        more.first.click()  # the description is folded at 260 px
        page.mouse.move(0, 0)  # no tooltip over the chart
    page.screenshot(path=str(ARTIFACTS / "ui-check.png"), clip={"x": 0, "y": 0, "width": 1920, "height": 1250})
    page.get_by_text("Execution history").first.click()
    page.get_by_text("Failed").first.wait_for()
    history = page.inner_text("body")
    assert "Failed" in history and "Succeeded" in history
    page.screenshot(path=str(ARTIFACTS / "ui-check-history.png"))
    data = client._execute("""query($k: AssetKeyInput!, $c: String!) {
        assetCheckExecutions(assetKey: $k, checkName: $c, limit: 10) { evaluation { success description } } }""",
                           {"k": GL, "c": "volume_vs_history"})
    failed = [e["evaluation"] for e in data["assetCheckExecutions"] if e["evaluation"]["success"] is False]
    assert failed and f"[{incident_id}](/assets/incident?view=partitions&partition={incident_id})" in \
        failed[-1]["description"]

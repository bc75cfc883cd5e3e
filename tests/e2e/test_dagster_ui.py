"""The Dagster UI as the product's dashboard: after the month-end night, the webserver on the
demo's instance shows the code location, the incident partition, the failed-then-passing checks
and the gated rerun job with its approval tags (GraphQL), and a real browser renders the pages:
the incident report, a gated rerun launched from the Launchpad that reaches the demo's real
Airflow 3, the check page with its partition, and dbt models with the builds dbt-ol reported."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from dagster_graphql import DagsterGraphQLClient
from demo_runs import restart_demo_airflow, run_demo
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from dw_assets.config import load_settings
from dw_assets.demo.estate_actor import EstateActor
from dw_assets.governance.ledger import GovernanceLedger
from dw_assets.governance.receipt_log import ReceiptLog
from dw_assets.harness.dagster_ui import DagsterWebserver
from dw_assets.incidents import IncidentStore
from dw_assets.store import open_state

pytestmark = [pytest.mark.ui, pytest.mark.e2e, pytest.mark.airflow]
GL = {"path": ["finance", "bronze", "gl_entries"]}
NIGHT_PARTITION = "2026-09-30"
MAX_KEY = 20  # characters of a metadata key that fit the asset page's key column
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def ui(tmp_path_factory):
    summary = run_demo(tmp_path_factory.mktemp("e2e"), "both", "3", approve_as="omar.haddad")
    assert summary["ok"], summary["_stderr_tail"]
    home = Path(summary["_dw_home"])
    # no daemon here (`dw ui` runs `dagster dev`, which has one): the webserver launches runs itself
    with open(home / "dagster" / "dagster.yaml", "a") as config:
        config.write("\nrun_coordinator:\n  module: dagster.core.run_coordinator\n  class: DefaultRunCoordinator\n")
    # as `dw ui` on the demo's home: its own config (Airflow URL and password written in), not the
    # repo default the test session points DW_CONFIG at
    with DagsterWebserver(home / "dagster", env={"DW_HOME": str(home), "DW_CONFIG": str(home / "dw.yaml")}) as web:
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


def test_incidents_cannot_be_materialized_by_hand(ui):
    """`incident` is external: no Materialize button, and "Materialize all" (every materializable
    asset) leaves it out; its partitions are materialized by the intake sensor only."""
    _, client, _ = ui
    data = client._execute("""query { assetNodes { assetKey { path } isMaterializable isExecutable } }""")
    nodes = {tuple(n["assetKey"]["path"]): n for n in data["assetNodes"]}
    assert nodes[("incident",)]["isMaterializable"] is False and nodes[("incident",)]["isExecutable"] is False
    assert any(n["isMaterializable"] for n in nodes.values())  # the context graph, verification still are
    events = client._execute("""query { assetOrError(assetKey: {path: ["incident"]}) { ... on Asset {
        assetMaterializations(limit: 5) { partition runId } } } }""")["assetOrError"]["assetMaterializations"]
    assert events and all(e["partition"] for e in events)


def test_metadata_keys_fit_the_key_column(ui):
    _, client, _ = ui
    long_keys = {}
    for path in (["incident"], ["dw", "verification"], ["dw", "approvals"]):
        data = client._execute("""query($k: AssetKeyInput!) { assetOrError(assetKey: $k) { ... on Asset {
            assetMaterializations(limit: 3) { metadataEntries { label } } assetObservations(limit: 3) {
            metadataEntries { label } } } } }""", {"k": {"path": path}})["assetOrError"]
        events = data["assetMaterializations"] + data["assetObservations"]
        assert events, path
        long_keys.update({e["label"]: "/".join(path) for ev in events for e in ev["metadataEntries"]
                          if len(e["label"]) > MAX_KEY})
    assert not long_keys, long_keys


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
    monkeypatch.setenv("DW_CONFIG", str(Path(summary["_dw_home"]) / "dw.yaml"))
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


def _shoot(page, name: str, **kwargs) -> None:
    """A screenshot without the first-visit dialog: its locator handler only runs before an
    action, so act on the button (the handler clicks it; the click then finds nothing to click)."""
    skip = page.get_by_role("button", name="Skip")
    if skip.count() and skip.first.is_visible():
        try:
            skip.first.click(timeout=5_000)
        except PlaywrightTimeout:
            pass  # the handler dismissed it first
        skip.first.wait_for(state="hidden")
        page.wait_for_timeout(500)
    page.screenshot(path=str(ARTIFACTS / name), **kwargs)


def _dw(home: str, *args: str) -> str:
    env = {**os.environ, "DW_HOME": home}
    env.pop("DW_CONFIG", None)
    done = subprocess.run([str(Path(sys.executable).parent / "dw"), *args], env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, f"dw {' '.join(args)}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
    return done.stdout


def test_incident_page_reads_as_an_incident_report(ui, browser_page, monkeypatch):
    web, _, summary = ui
    night = summary["nights"][0]
    incident = _incident(summary, night["incident_ids"][0], monkeypatch)
    page = browser_page
    text = _open(page, f"{web.url}/assets/incident?view=partitions&partition={incident.id}", "cause 1")
    _shoot(page, "ui-incident.png")
    flat = " ".join(text.split())
    assert incident.causes[0].title in flat
    hop = incident.path[0]
    assert f"{hop.source} {hop.target} {hop.system}" in flat  # a path row: from, to, system
    owners = {entry.owner for entry in incident.blast_radius if entry.owner}
    assert any(owner in flat for owner in owners) and "readers" in flat
    assert f"dw approve {incident.plan_id} --as <your-name>" in flat
    assert "dw/approval_id=" in flat and "[Show JSON]" in flat  # only the raw evidence stays JSON
    assert flat.count("[Show Markdown]") == 0


@pytest.fixture
def demo_airflow(ui):
    """The demo's Airflow 3, started again for the launch (the demo stopped it when it ended)."""
    harness = restart_demo_airflow(ui[2])
    yield harness
    harness.stop()


def _play_owner(harness, receipts: ReceiptLog, plan_id: str, after: int, stop: threading.Event) -> list[str]:
    """Airflow 3's default is a draft: the DAG's owner triggers exactly the drafted run."""
    triggered: list[str] = []
    actor = EstateActor(harness)
    while not stop.is_set():
        for receipt in receipts.list(action="rerun_drafted", subject=plan_id):
            if receipt.seq > after and receipt.seq not in triggered:
                triggered.append(receipt.seq)
                body = receipt.record["body"]
                actor.trigger(body["path"]["dag_id"], body["conf"])
        stop.wait(1.0)
    return triggered


def test_launchpad_launches_an_approved_rerun_that_reaches_airflow(ui, browser_page, demo_airflow, monkeypatch):
    web, client, summary = ui
    plan_id = summary["nights"][0]["approval"]["plan_id"]
    home = summary["_dw_home"]
    # the demo's approval was used by its own rerun: the on-call asks again and an approver approves
    _dw(home, "plans", "request", plan_id)
    approval_id = json.loads(_dw(home, "approve", plan_id, "--as", "omar.haddad", "--note", "UI test", "--json"))[
        "approval_id"]
    monkeypatch.setenv("DW_HOME", home)
    monkeypatch.setenv("DW_CONFIG", str(Path(home) / "dw.yaml"))
    settings = load_settings()
    store = open_state(settings)
    receipts = ReceiptLog.from_settings(store, settings)
    before = max((r.seq for r in receipts.list(subject=plan_id)), default=0)

    page = browser_page
    _open(page, f"{web.url}/locations/data_workers/jobs/rerun_airflow_dag/playground", "Launch Run")
    assert "Missing required config entry" not in page.inner_text("body")
    page.get_by_placeholder("Partition").first.click()
    page.get_by_text(plan_id).first.click()
    page.get_by_text(f"dw/plan_id: {plan_id}").first.wait_for()  # the partition's tags, filled in
    page.get_by_text(f"dw/approval_id: {approval_id}").first.wait_for()  # with the granted approval
    _shoot(page, "ui-launchpad.png")
    stop = threading.Event()
    owner = threading.Thread(target=_play_owner, args=(demo_airflow, receipts, plan_id, before, stop), daemon=True)
    owner.start()
    try:
        page.get_by_role("button", name="Launch Run").first.click()
        page.wait_for_url("**/runs/**")
        run_id = page.url.rstrip("/").split("/runs/")[1].split("?")[0]
        deadline = time.monotonic() + 900  # the rerun waits for gl_landing and month_end_close in Airflow
        status = None
        while time.monotonic() < deadline:
            status = client.get_run_status(run_id)
            if status.value in ("SUCCESS", "FAILURE", "CANCELED"):
                break
            time.sleep(3)
    finally:
        stop.set()
        owner.join(10)
    data = client._execute("""query($id: ID!) { runOrError(runId: $id) { ... on Run { status tags { key value }
        runConfigYaml } } }""", {"id": run_id})["runOrError"]
    errors = client._execute("""query($id: ID!) { logsForRun(runId: $id) { ... on EventConnection { events {
        ... on ExecutionStepFailureEvent { error { message } } } } } }""", {"id": run_id})
    messages = [e["error"]["message"] for e in errors["logsForRun"]["events"] if e.get("error")]
    assert data["status"] == "SUCCESS", (data["status"], messages, demo_airflow.log_tail(20))
    tags = {t["key"]: t["value"] for t in data["tags"]}
    assert tags["dw/plan_id"] == plan_id and tags["dagster/partition"] == plan_id
    assert tags["dw/approval_id"] == approval_id and "plan_id" not in data["runConfigYaml"]  # the tag carries it
    # the gate consumed that approval for this run, and the run saw its Airflow runs finish
    assert GovernanceLedger(store).get_approval(approval_id).used_by == run_id
    observed = [r.record["body"] for r in receipts.list(action="run_observed", subject=plan_id) if r.seq > before]
    assert observed and all(o["state"] == "success" for o in observed), observed
    page.goto(f"{web.url}/runs/{run_id}")
    page.get_by_text("dispatch_plan_steps").first.wait_for()
    _shoot(page, "ui-launchpad-run.png")


def test_check_page_shows_partition_incident_and_failed_then_passed_history(ui, browser_page):
    web, client, summary = ui
    incident_id = summary["nights"][0]["incident_ids"][0]
    data = client._execute("""query($k: AssetKeyInput!, $c: String!) {
        assetCheckExecutions(assetKey: $k, checkName: $c, limit: 10) { partition evaluation { success description } } }""",
                           {"k": GL, "c": "volume_vs_history"})
    executions = data["assetCheckExecutions"]
    assert executions[0]["partition"] == NIGHT_PARTITION  # the Partition column's source
    failed = [e["evaluation"] for e in executions if e["evaluation"]["success"] is False]
    assert failed and f"[{incident_id}](/assets/incident?view=partitions&partition={incident_id})" in \
        failed[-1]["description"]

    page = browser_page
    base = f"{web.url}/assets/finance/bronze/gl_entries?view=checks&checkDetail=volume_vs_history"
    text = " ".join(_open(page, base, "Latest execution").split())
    assert f"partition {NIGHT_PARTITION}" in text and "History" in text and "vs baseline" in text  # the chart, inline
    # the evaluation's own row: result, timestamp, target materialization, then the partition (not "—")
    row = page.get_by_text("Target materialization", exact=True).first.locator("xpath=../..")
    assert re.search(r"Partition\s+.*" + NIGHT_PARTITION, " ".join(row.inner_text().split())), row.inner_text()
    more = page.get_by_text("Show more")
    if more.count():
        more.first.click()  # the description is folded at 260 px
        page.mouse.move(0, 0)  # no tooltip over the chart
    _shoot(page, "ui-check.png", clip={"x": 0, "y": 0, "width": 1920, "height": 1250})
    page.get_by_text("Execution history").first.click()
    page.get_by_text("Failed").first.wait_for()
    history = page.inner_text("body")
    assert "Failed" in history and "Succeeded" in history and NIGHT_PARTITION in history
    _shoot(page, "ui-check-history.png")


def test_dbt_models_show_the_builds_dbt_reported(ui, browser_page):
    """dbt runs inside Airflow; dbt-ol's COMPLETE events become materializations of the models."""
    web, client, _ = ui
    model = ["analytics", "stg_gl_entries"]
    data = client._execute("""query($k: AssetKeyInput!) { assetOrError(assetKey: $k) { ... on Asset {
        assetMaterializations(limit: 20) { description metadataEntries { label
        ... on TextMetadataEntry { text } } } } } }""", {"k": {"path": model}})["assetOrError"]
    builds = [m for m in data["assetMaterializations"] if (m["description"] or "").startswith("dbt build")]
    assert builds, data
    labels = {e["label"]: e.get("text") for e in builds[0]["metadataEntries"]}
    assert labels.get("dbt invocation") and labels.get("run id") and "seconds" in labels
    invocations = [{e["label"]: e.get("text") for e in b["metadataEntries"]}["dbt invocation"] for b in builds]
    assert len(invocations) == len(set(invocations))  # one per dbt invocation
    page = browser_page
    text = " ".join(_open(page, f"{web.url}/assets/{'/'.join(model)}?view=events", "dbt build").split())
    assert "dbt invocation" in text and labels["dbt invocation"] in text
    _shoot(page, "ui-dbt-model.png")

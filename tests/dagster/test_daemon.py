"""The code location under a real `dagster-daemon`, as a deployment runs it: a failed dbt run reported
through OpenLineage's file transport is picked up by the `openlineage_events` sensor on its own tick,
becomes an incident, and `incident_intake_sensor` records the materialization of its partition of the
(external) `incident` asset. Nothing is evaluated in this process; the test only reads the state store
and the Dagster instance, with generous deadlines."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from dw_assets.store import Store
from tests.support.dagster_processes import free_port, start, stop, wait_for_materialized_incident

pytestmark = [pytest.mark.dbt, pytest.mark.e2e]

REPO = Path(__file__).resolve().parents[2]
DEADLINE_S = 420  # daemon start, two sensor ticks and a run worker loading the code location


def _emit_failed_dbt_run(folder: Path) -> str:
    """A FAIL event for fct_revenue with its error message, written by openlineage-python's file transport."""
    from openlineage.client import OpenLineageClient
    from openlineage.client.event_v2 import InputDataset, Job, OutputDataset, Run, RunEvent, RunState
    from openlineage.client.facet_v2 import error_message_run
    from openlineage.client.transport.file import FileConfig, FileTransport
    from openlineage.client.uuid import generate_new_uuid

    folder.mkdir(parents=True)
    client = OpenLineageClient(transport=FileTransport(FileConfig(log_file_path=str(folder / "dbt.ndjson"),
                                                                  append=True)))
    run_id = str(generate_new_uuid())
    analytics = "duckdb:///warehouse/analytics.duckdb"
    client.emit(RunEvent(
        eventType=RunState.FAIL, eventTime="2026-10-02T06:20:00+00:00",
        run=Run(runId=run_id, facets={"errorMessage": error_message_run.ErrorMessageRunFacet(
            message='Conversion Error: Could not convert string "N/A" to DECIMAL(18,2)', programmingLanguage="sql")}),
        job=Job(namespace="dbt", name="model.dw_demo.fct_revenue"),
        inputs=[InputDataset(namespace=analytics, name="analytics.main.stg_orders")],
        outputs=[OutputDataset(namespace=analytics, name="analytics.main.fct_revenue")]))
    return run_id


def test_the_daemon_turns_a_failed_run_into_an_incident_and_materializes_it(tmp_path: Path) -> None:
    dw_home, dagster_home = tmp_path / "dw", tmp_path / "dagster"
    dagster_home.mkdir(parents=True)
    (dagster_home / "dagster.yaml").write_text(
        "telemetry:\n  enabled: false\nsensors:\n  use_threads: true\n  num_workers: 4\n")
    run_id = _emit_failed_dbt_run(dw_home / "lineage" / "events")
    env = {**os.environ, "DW_HOME": str(dw_home), "DAGSTER_HOME": str(dagster_home),
           "DW_AIRFLOW_URL": f"http://127.0.0.1:{free_port()}"}  # nothing listens: the Airflow sensor skips its ticks
    env.pop("DW_CONFIG", None)  # the embedded default: the demo estate's config
    log = tmp_path / "daemon.log"
    proc = start([str(Path(sys.executable).parent / "dagster-daemon"), "run", "-w", "workspace.yaml"],
                 cwd=REPO, env=env, log=log)
    store = Store(f"sqlite:///{dw_home}/state.db")
    try:
        incident, materialization = wait_for_materialized_incident(
            store, dagster_home, "analytics.fct_revenue", deadline_s=DEADLINE_S, alive=lambda: proc.poll() is None,
            state_ready=(dw_home / "state.db").exists)
    finally:
        stop(proc)
        store.dispose()
    tail = log.read_text(errors="replace")[-4000:]
    assert incident is not None, f"no incident from the FAIL event within {DEADLINE_S} s; daemon log:\n{tail}"
    assert incident.trigger_kind == "lineage_fail"
    assert run_id in str(incident.signals)  # the FAIL event's run is the incident's evidence
    assert materialization is not None, f"the incident's partition was not materialized; daemon log:\n{tail}"
    metadata = materialization.asset_materialization.metadata
    assert metadata["dataset"].value == "analytics.fct_revenue"
    assert metadata["trigger"].value == "lineage_fail"

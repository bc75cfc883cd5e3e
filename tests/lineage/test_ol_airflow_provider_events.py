"""The estate's own nights as Airflow's OpenLineage provider and dbt-ol really reported them.

`data/airflow{3,2}_provider_events.ndjson` were captured from real runs of the estate's DAGs (Airflow 3.3
and 2.11, apache-airflow-providers-openlineage 2.20, dbt-ol 1.54) posting to `dw lineage serve`:
gl_landing (first export part) and the asset-triggered month_end_close, then orders_daily green and
again after the application's discount turned to text. Kept: every provider event (DAG runs with
airflowDagRun / airflowState facets, tasks with airflow and parent facets), dbt-ol's `dbt-run-*` and
model events; the home path replaced by /srv/airflow<major>/dw_home. The real-Airflow tests in
tests/airflow check the same against a live run; these check the sensor pass on them fast.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from dw_assets.config import DEFAULT_CONFIG
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.connectors.openlineage.validation import EventValidator
from dw_assets.core.graph import ContextGraph
from dw_assets.harness.lineage_receiver import LineageReceiver
from dw_assets.incidents import intake_signal
from dw_assets.lineage.graph_feed import feed_graph
from dw_assets.lineage.processing import process_new_events
from dw_assets.store import Store
from tests.support.ol_samples import make_settings

DATA = Path(__file__).parent / "data"


def captured(major: int) -> list[dict[str, Any]]:
    path = DATA / f"airflow{major}_provider_events.ndjson"
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(params=[3, 2], ids=["airflow3", "airflow2"])
def night(request: pytest.FixtureRequest, dw_home: Path, store: Store) -> tuple[Any, list[dict[str, Any]]]:
    events = captured(request.param)
    folder = dw_home / "lineage" / "events"
    folder.mkdir(parents=True)
    (folder / "airflow.ndjson").write_text("".join(json.dumps(e) + "\n" for e in events))
    # no airflow.task_outputs: the provider names what each task wrote
    settings = make_settings(dw_home, sources=[{"type": "file", "path": str(folder)}])
    return settings, events


def test_the_provider_events_are_valid_openlineage(night, spec_dir: Path) -> None:
    _, events = night
    validator = EventValidator(spec_dir, strict=True)
    for event in events:
        validator.validate(event)


def test_the_graph_comes_from_the_providers_dag_and_task_events(night, store: Store) -> None:
    settings, events = night
    result = process_new_events(settings, store, intake=intake_signal)
    assert result.ingest.reports[0].rejected == 0 and result.events == len(events)
    graph = ContextGraph()
    feed_graph(graph, settings, store)
    edges = {(e.src, e.dst, e.relation) for e in graph.edges()}
    for dag, tasks in {"gl_landing": ("wait_for_export", "load"), "month_end_close": ("dbt_build",),
                       "orders_daily": ("orders_clean", "dbt_revenue")}.items():
        assert graph.node(f"airflow:{dag}").kind == "dag"
        for task in tasks:
            assert (f"airflow:{dag}", f"airflow:{dag}.{task}", "contains") in edges
            assert graph.node(f"airflow:{dag}.{task}").kind == "task"
    # the DAG-run events give the DAG node, not a job of their own
    assert not [n for n in graph.nodes() if n.id.startswith("openlineage:airflow://local/") and
                n.name in ("gl_landing", "month_end_close", "orders_daily")]
    assert ("airflow:gl_landing.load", "finance.bronze.gl_entries", "writes") in edges
    assert any(src.endswith(".csv") and dst == "airflow:gl_landing.load" and rel == "reads"
               for src, dst, rel in edges)
    assert ("airflow:orders_daily.orders_clean", "lake.orders_clean", "writes") in edges
    assert ("app.orders", "airflow:orders_daily.orders_clean", "reads") in edges
    # dbt-ol's models run under the provider's task run: the DAG (their root) contains them
    assert ("airflow:month_end_close", "openlineage:airflow://local/model.dw_demo.fct_trial_balance",
            "contains") in edges


def test_the_schema_change_and_the_one_failure_come_from_the_providers_events(night, store: Store) -> None:
    settings, _ = night
    result = process_new_events(settings, store, intake=intake_signal)
    assert [(c["dataset_id"], c["column"], c["change"], c["old_type"], c["new_type"], c["job"])
            for c in result.schema_changes if c["dataset_id"] == "lake.orders_clean"] == [
        ("lake.orders_clean", "discount", "type_changed", "DECIMAL(18,2)", "VARCHAR",
         "airflow://local/orders_daily.orders_clean")]
    # dbt's model, dbt-ol's run, the Airflow task and the DAG run all failed: one signal, on the model,
    # with dbt's error; the others are covered (same root: the DAG run), the DAG run's lists its task
    [signal] = result.signals
    assert signal.kind == "lineage_fail" and signal.dataset_id == "analytics.fct_revenue"
    assert 'Could not convert string "N/A"' in signal.details["error_message"]
    assert signal.details["root_run_id"] != signal.details["run_id"]


def test_a_failed_task_without_outputs_is_a_signal_with_the_tasks_error(night, store: Store, dw_home: Path) -> None:
    """Only the provider's events of the failed run, without dbt-ol's: the Airflow task's FAIL is the
    signal, carrying the task's error; the DAG run's FAIL (its airflowState lists the failed task) is not."""
    settings, events = night
    failed = [e for e in events if e["eventType"] == "FAIL" and e["producer"].startswith("https://github.com/apache")]
    assert {e["job"]["name"] for e in failed} == {"orders_daily", "orders_daily.dbt_revenue"}
    (dw_home / "lineage" / "events" / "airflow.ndjson").write_text("".join(json.dumps(e) + "\n" for e in failed))
    [signal] = process_new_events(settings, store, intake=intake_signal).signals
    assert signal.details["job_name"] == "orders_daily.dbt_revenue"
    broken_run = next(e for e in failed if e["job"]["name"] == "orders_daily")
    assert (signal.details["airflow_dag_id"], signal.details["airflow_run_id"]) == (
        "orders_daily", broken_run["run"]["facets"]["airflowDagRun"]["dagRun"]["run_id"])
    assert "non-zero exit code 1" in signal.details["error_message"]
    assert signal.summary.startswith("orders_daily.dbt_revenue failed: Bash command failed")


def test_an_airflow_run_id_names_the_providers_dag_run(night, store: Store) -> None:
    """What verification needs to hang its run under the rerun the provider reported."""
    settings, events = night
    process_new_events(settings, store, intake=intake_signal)
    dag_runs = {(e["job"]["name"], e["run"]["facets"]["airflowDagRun"]["dagRun"]["run_id"]): e["run"]["runId"]
                for e in events if "airflowDagRun" in e["run"]["facets"]}
    assert len(dag_runs) == 4  # gl_landing, month_end_close, orders_daily twice
    for (dag_id, airflow_run_id), ol_run_id in dag_runs.items():
        assert LineageEventStore(store).provider_dag_run_id("airflow://local", dag_id, airflow_run_id) == ol_run_id
    assert LineageEventStore(store).provider_dag_run_id("airflow://local", "orders_daily", "manual__never") is None



def test_the_receiver_process_the_harness_posts_to_stores_the_events_and_stops(dw_home: Path, tmp_path: Path) -> None:
    """`LineageReceiver`: `dw lineage serve` as the demo and the Airflow test pool run it."""
    events = captured(3)[:5]
    receiver = LineageReceiver(DEFAULT_CONFIG, dw_home, tmp_path / "receiver.log")
    with receiver:
        for event in events:
            assert httpx.post(f"{receiver.url}/api/v1/lineage", json=event, timeout=30).status_code == 201
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{receiver.url}/api/v1/health", timeout=5)
    store = Store(f"sqlite:///{dw_home}/state.db")
    try:
        assert [s.event for s in LineageEventStore(store).read_after(0)] == events
    finally:
        store.dispose()

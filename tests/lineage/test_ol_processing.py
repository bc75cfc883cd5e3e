"""One sensor pass: schema changes, FAIL -> incident intake, graph feed, observations, the cursor."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import pytest

from dw_assets.core.graph import ContextGraph
from dw_assets.incidents import intake_signal
from dw_assets.lineage import schema_history
from dw_assets.lineage.graph_feed import airflow_dag_of_parent, feed_graph
from dw_assets.lineage.processing import CONSUMER, process_new_events
from dw_assets.lineage.schema_history import SchemaHistory
from dw_assets.store import Store
from sensors.openlineage_events import build_definitions, build_openlineage_sensor
from tests.support.ol_samples import make_settings

LAKE = "duckdb:///estate/warehouse/lake.duckdb"
APP = "duckdb:///estate/app/app.duckdb"
ANALYTICS = "duckdb:///estate/warehouse/analytics.duckdb"
DAG_RUN = "5f0c4d1e-1b1a-5d55-9f3e-4a2b8c0d9e11"
ORDERS_CLEAN = [("order_id", "VARCHAR"), ("order_date", "DATE"), ("customer_id", "VARCHAR"),
                ("amount", "DECIMAL(18,2)"), ("discount", "DECIMAL(18,2)"), ("status", "VARCHAR")]


class Estate:
    """Emits the night's events with openlineage-python's file transport (NDJSON, as the estate does)."""

    def __init__(self, folder: Path):
        from openlineage.client import OpenLineageClient
        from openlineage.client.transport.file import FileConfig, FileTransport

        folder.mkdir(parents=True, exist_ok=True)
        self.client = OpenLineageClient(transport=FileTransport(FileConfig(
            log_file_path=str(folder / "airflow.ndjson"), append=True)))

    def orders_clean(self, when: str, discount_type: str, state: str = "COMPLETE") -> str:
        from openlineage.client.event_v2 import InputDataset, Job, OutputDataset, Run, RunEvent, RunState
        from openlineage.client.facet_v2 import column_lineage_dataset as cl
        from openlineage.client.facet_v2 import job_type_job, parent_run, schema_dataset
        from openlineage.client.uuid import generate_new_uuid

        columns = [(n, discount_type if n == "discount" else t) for n, t in ORDERS_CLEAN]
        schema = schema_dataset.SchemaDatasetFacet(
            fields=[schema_dataset.SchemaDatasetFacetFields(name=n, type=t) for n, t in columns])
        lineage = cl.ColumnLineageDatasetFacet(fields={"discount": cl.Fields(
            inputFields=[cl.InputField(namespace=APP, name="app.main.orders", field="discount")])})
        run_id = str(generate_new_uuid())
        self.client.emit(RunEvent(
            eventType=RunState[state], eventTime=when,
            run=Run(runId=run_id, facets={"parent": parent_run.ParentRunFacet(
                run=parent_run.Run(runId=DAG_RUN), job=parent_run.Job(namespace="airflow://local",
                                                                       name="orders_daily"))}),
            job=Job(namespace="airflow://local", name="orders_daily.orders_clean",
                    facets={"jobType": job_type_job.JobTypeJobFacet(processingType="BATCH", integration="AIRFLOW",
                                                                    jobType="TASK")}),
            inputs=[InputDataset(namespace=APP, name="app.main.orders")],
            outputs=[OutputDataset(namespace=LAKE, name="lake.main.orders_clean",
                                   facets={"schema": schema, "columnLineage": lineage})]))
        return run_id

    def fct_revenue_fails(self, when: str) -> str:
        from openlineage.client.event_v2 import InputDataset, Job, OutputDataset, Run, RunEvent, RunState
        from openlineage.client.facet_v2 import error_message_run
        from openlineage.client.uuid import generate_new_uuid

        run_id = str(generate_new_uuid())
        message = 'Conversion Error: Could not convert string "N/A" to DECIMAL(18,2)'
        self.client.emit(RunEvent(
            eventType=RunState.FAIL, eventTime=when,
            run=Run(runId=run_id, facets={"errorMessage": error_message_run.ErrorMessageRunFacet(
                message=message, programmingLanguage="sql")}),
            job=Job(namespace="dbt", name="model.dw_demo.fct_revenue"),
            inputs=[InputDataset(namespace=ANALYTICS, name="analytics.main.stg_orders")],
            outputs=[OutputDataset(namespace=ANALYTICS, name="analytics.main.fct_revenue")]))
        return run_id


@pytest.fixture
def night(dw_home: Path):
    settings = make_settings(dw_home, sources=[{"type": "file", "path": "${DW_HOME}/lineage/events"}])
    return settings, Estate(dw_home / "lineage" / "events")


@pytest.mark.openlineage
def test_a_column_type_change_is_found_between_two_real_events(night, store: Store) -> None:
    settings, estate = night
    estate.orders_clean("2026-09-01T06:10:00+00:00", "DECIMAL(18,2)")
    first = process_new_events(settings, store, intake=intake_signal)
    assert first.events == 1 and first.schema_changes == []
    night2 = estate.orders_clean("2026-09-02T06:10:00+00:00", "VARCHAR")
    second = process_new_events(settings, store, intake=intake_signal)
    assert [(c["dataset_id"], c["column"], c["change"], c["old_type"], c["new_type"])
            for c in second.schema_changes] == [("lake.orders_clean", "discount", "type_changed",
                                                 "DECIMAL(18,2)", "VARCHAR")]
    [recorded] = SchemaHistory(store).changes("lake.orders_clean")
    assert recorded["run_id"] == night2 and recorded["job"] == "airflow://local/orders_daily.orders_clean"
    assert recorded["event_time"].isoformat() == "2026-09-02T06:10:00+00:00"
    assert SchemaHistory(store).latest("lake.orders_clean")["columns"]["discount"] == "VARCHAR"
    assert process_new_events(settings, store, intake=intake_signal).events == 0  # nothing new, nothing recorded twice
    assert len(SchemaHistory(store).changes()) == 1


@pytest.mark.openlineage
def test_a_fail_event_reaches_incident_intake(night, store: Store) -> None:
    from dw_assets.incidents import IncidentStore

    settings, estate = night
    run_id = estate.fct_revenue_fails("2026-09-02T06:20:00+00:00")
    result = process_new_events(settings, store, intake=intake_signal)
    [signal] = result.signals
    assert signal.kind == "lineage_fail" and signal.dataset_id == "analytics.fct_revenue"
    assert signal.details["error_message"].startswith("Conversion Error") and signal.details["run_id"] == run_id
    assert result.signals_delivered == 1
    [incident] = IncidentStore(store).list(dataset_id="analytics.fct_revenue")
    assert incident.trigger_kind == "lineage_fail"
    process_new_events(settings, store, intake=intake_signal, ingest=False)
    assert len(IncidentStore(store).list(dataset_id="analytics.fct_revenue")) == 1


@pytest.mark.openlineage
def test_a_failing_pass_leaves_the_cursor_for_the_next(night, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    settings, estate = night
    estate.orders_clean("2026-09-01T06:10:00+00:00", "DECIMAL(18,2)")
    estate.orders_clean("2026-09-02T06:10:00+00:00", "VARCHAR")

    def broken(self, observations):
        raise RuntimeError("store unavailable")

    monkeypatch.setattr(schema_history.SchemaHistory, "observe_many", broken)
    with pytest.raises(RuntimeError):
        process_new_events(settings, store, intake=intake_signal)
    assert store.get_cursor(CONSUMER) is None
    monkeypatch.undo()
    retried = process_new_events(settings, store, intake=intake_signal)
    assert retried.events == 2 and len(retried.schema_changes) == 1
    assert store.get_cursor(CONSUMER) == str(retried.cursor_after)


@pytest.mark.openlineage
def test_the_graph_feed_links_dag_task_datasets_and_columns(night, store: Store) -> None:
    settings, estate = night
    estate.orders_clean("2026-09-01T06:10:00+00:00", "DECIMAL(18,2)")
    estate.fct_revenue_fails("2026-09-01T06:20:00+00:00")
    process_new_events(settings, store, intake=intake_signal)
    graph = ContextGraph()
    feed_graph(graph, settings, store)
    edges = {(e.src, e.dst, e.relation) for e in graph.edges()}
    task = "airflow:orders_daily.orders_clean"
    assert {("airflow:orders_daily", task, "contains"), ("app.orders", task, "reads"),
            (task, "lake.orders_clean", "writes"), ("app.orders", "lake.orders_clean", "feeds"),
            ("analytics.stg_orders", "openlineage:dbt/model.dw_demo.fct_revenue", "reads"),
            ("openlineage:dbt/model.dw_demo.fct_revenue", "analytics.fct_revenue", "writes")} <= edges
    assert graph.node(task).kind == "task" and graph.node("airflow:orders_daily").kind == "dag"
    assert graph.node("lake.orders_clean").attrs["column_lineage"] == {"discount": ["app.orders.discount"]}
    [edge] = [e for e in graph.edges() if e.dst == "lake.orders_clean" and e.relation == "writes"]
    assert edge.provenance[0].origin == "openlineage"
    assert edge.provenance[0].source == "airflow://local/orders_daily.orders_clean"
    assert graph.trace("analytics.fct_revenue").nodes  # the core traversal walks what the feed added


@pytest.mark.parametrize(("parent", "dag"), [
    ({"job": {"namespace": "airflow://local", "name": "orders_daily"}}, "orders_daily"),
    ({"job": {"namespace": "airflow", "name": "orders_daily.orders_clean",
              "facets": {"jobType": {"integration": "AIRFLOW", "jobType": "TASK"}}}}, "orders_daily"),
    ({"job": {"namespace": "prod", "name": "my_dag.my_task"}, "root": {"job": {"namespace": "x", "name": "my_dag"}}},
     None),
    ({"job": {"namespace": "default", "name": "month_end_close"}}, "month_end_close"),  # a known DAG id
    ({"job": {"namespace": "dbt", "name": "dbt-job-name"}}, None),
], ids=["airflow-namespace", "airflow-task-parent", "not-airflow", "known-dag", "dbt-parent"])
def test_which_parents_are_airflow_dags(parent: dict, dag: str | None) -> None:
    assert airflow_dag_of_parent(parent, known_dags={"month_end_close"}) == dag


@pytest.mark.openlineage
def test_the_sensor_reports_observations_of_known_assets(night, store: Store) -> None:
    settings, estate = night
    estate.orders_clean("2026-09-01T06:10:00+00:00", "DECIMAL(18,2)")
    sensor = build_openlineage_sensor(settings, store=store)
    defs = dg.Definitions(assets=[dg.AssetSpec(["lake", "orders_clean"])], sensors=[sensor])
    with dg.instance_for_test() as instance:
        context = dg.build_sensor_context(instance=instance, definitions=defs)
        result = sensor(context)
    [obs] = result.asset_events  # app.orders is not an asset of this location: skipped
    assert obs.asset_key == dg.AssetKey(["lake", "orders_clean"])
    assert obs.metadata["job"].value == "airflow://local/orders_daily.orders_clean"
    assert json.loads(result.cursor) >= 1
    assert build_definitions(settings).sensors[0].name == "openlineage_events"


@pytest.mark.openlineage
def test_our_own_verification_events_are_stored_but_not_acted_on(night, store: Store, dw_home: Path) -> None:
    from dw_assets.connectors.openlineage.emitter import Assertion, VerificationEmitter

    settings, _ = night
    own = settings.model_copy(update={"openlineage": settings.openlineage.model_copy(update={"emit_transport": {
        "type": "file", "log_file_path": str(dw_home / "lineage" / "events" / "data-workers.ndjson"),
        "append": True}})})
    emitter = VerificationEmitter(own)
    run, _ = emitter.start("lake.orders_clean")
    assert emitter.finish(run, [Assertion("lake.orders_clean", "volume", False)]).event_type == "FAIL"
    result = process_new_events(own, store, intake=intake_signal)
    assert result.events == 2 and result.signals == [] and result.graph_edges == 0
    graph = ContextGraph()
    feed_graph(graph, own, store)
    assert not any("data_workers.verify" in node.id for node in graph.nodes())


@pytest.mark.postgres
@pytest.mark.openlineage
def test_the_whole_pass_works_on_postgresql(night, pg_store: Store) -> None:
    from dw_assets.incidents import IncidentStore

    settings, estate = night
    estate.orders_clean("2026-09-01T06:10:00+00:00", "DECIMAL(18,2)")
    estate.orders_clean("2026-09-02T06:10:00+00:00", "VARCHAR")
    estate.fct_revenue_fails("2026-09-02T06:20:00+00:00")
    result = process_new_events(settings, pg_store, intake=intake_signal)
    assert result.events == 3 and [c["column"] for c in result.schema_changes] == ["discount"]
    assert len(IncidentStore(pg_store).list(dataset_id="analytics.fct_revenue")) == 1
    assert process_new_events(settings, pg_store, intake=intake_signal).events == 0
    graph = ContextGraph()
    feed_graph(graph, settings, pg_store)
    assert ("airflow:orders_daily.orders_clean", "lake.orders_clean", "writes") in {
        (e.src, e.dst, e.relation) for e in graph.edges()}


def test_a_dataless_parent_fail_is_covered_by_its_failed_child():
    """dbt-ol sends FAIL for the model (with its output) and for the `dbt-run-*` parent (none)."""
    from datetime import UTC, datetime

    from dw_assets.core.signals import Signal
    from dw_assets.lineage.processing import without_covered_parents

    at = datetime(2026, 10, 1, tzinfo=UTC)
    parent = Signal("lineage_fail", None, at, "openlineage", "dbt-run failed", {"run_id": "p1"})
    child = Signal("lineage_fail", "analytics.fct_revenue", at, "openlineage", "fct_revenue failed",
                   {"run_id": "c1", "parent_run_id": "p1"})
    statement = Signal("lineage_fail", None, at, "openlineage", "fct_revenue.sql.2 failed",
                       {"run_id": "s1", "parent_run_id": "c1"})
    lonely = Signal("lineage_fail", None, at, "openlineage", "other job failed", {"run_id": "x9"})
    assert without_covered_parents([parent, child, statement, lonely]) == [child, lonely]


def test_dbt_test_jobs_add_nothing_to_the_graph():
    """dbt-ol reports each data test as a job writing an audit relation: not lineage anyone reads."""
    from dw_assets.lineage.graph_feed import lineage_of_event

    event = {"job": {"namespace": "airflow://local", "name": "test.dw_demo.not_null_x",
                     "facets": {"jobType": {"jobType": "TEST", "integration": "DBT", "processingType": "BATCH"}}},
             "run": {"runId": "01a22c72-8bf0-7e25-9ecc-72d9faa98213", "facets": {}},
             "inputs": [{"namespace": "duckdb:///w.duckdb", "name": "analytics.main.x"}],
             "outputs": [{"namespace": "duckdb:///w.duckdb", "name": "analytics.main_dbt_test__audit.not_null_x"}]}
    assert lineage_of_event(event, lambda ns, name: name) == ([], [])


@pytest.mark.openlineage
def test_the_cyclic_collector_is_off_during_a_pass_and_restored_after(night, store: Store,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A pass runs with Python's cyclic GC off (its rescans of a large process were a quarter of a
    tick) and leaves it as it found it, after a failure too."""
    import gc

    settings, estate = night
    estate.orders_clean("2026-09-01T06:10:00+00:00", "DECIMAL(18,2)")
    seen: list[bool] = []
    real = schema_history.SchemaHistory.observe_many

    def watching(self, observations):
        seen.append(gc.isenabled())
        if len(seen) == 1:  # the first pass fails
            raise RuntimeError("store unavailable")
        return real(self, observations)

    monkeypatch.setattr(schema_history.SchemaHistory, "observe_many", watching)
    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        process_new_events(settings, store, intake=intake_signal)
    assert gc.isenabled()
    assert process_new_events(settings, store, intake=intake_signal).events == 1
    assert seen == [False, False] and gc.isenabled()
    estate.orders_clean("2026-09-02T06:10:00+00:00", "VARCHAR")
    gc.disable()
    try:
        assert len(process_new_events(settings, store, intake=intake_signal).schema_changes) == 1
        assert not gc.isenabled()  # a caller that had it off keeps it off
    finally:
        gc.enable()


def test_one_resolver_per_alias_table_keeps_its_cache_across_passes() -> None:
    from dw_assets.connectors.openlineage.intake import dataset_id_resolver

    aliases = {"gl_entries": "finance.bronze.gl_entries"}
    resolve = dataset_id_resolver(aliases)
    assert dataset_id_resolver(dict(aliases)) is resolve
    assert resolve("", "gl_entries") == "finance.bronze.gl_entries"
    assert dataset_id_resolver({"gl_entries": "finance.silver.gl"})("", "gl_entries") == "finance.silver.gl"
    assert dataset_id_resolver()("", "gl_entries") == "gl_entries"

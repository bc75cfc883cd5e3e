"""One fault, one incident: a FAIL event without outputs maps to the dataset its job writes
(`airflow.task_outputs`, then the graph), so it joins the incident on that dataset."""

from __future__ import annotations

from dw_assets.config import AirflowConfig
from dw_assets.core.graph import ContextGraph, Provenance
from dw_assets.incidents import IncidentStore, intake_signal, with_dataset
from tests.support.settings import build_settings


def _fail(make_signal, job: str, key: str):
    return make_signal(dataset=None, kind="lineage_fail", source="openlineage", key=key,
                       job=f"airflow://local/{job}", job_name=job, error_message="IO Error: No files found")


def test_fail_event_without_outputs_joins_the_incident_on_the_tasks_dataset(settings, store, make_signal):
    settings = build_settings(**{**settings.model_dump(), "airflow": AirflowConfig(
        task_outputs={"ingest_events.load_events": ["finance.raw.events"]})})
    check, _ = intake_signal(settings, store, make_signal(dataset="finance.raw.events", key="check"))
    joined, created = intake_signal(settings, store, _fail(make_signal, "ingest_events.load_events", "fail"))
    assert not created and joined.id == check.id
    assert [s["kind"] for s in joined.signals] == ["check_failed", "lineage_fail"]
    assert joined.signals[1]["details"]["dataset_from_job"] == "ingest_events.load_events"
    assert len(IncidentStore(store).list(status="open")) == 1
    # an unmapped job keeps its source subject (nothing invented)
    other, created = intake_signal(settings, store, _fail(make_signal, "misc.cleanup", "x"))
    assert created and other.dataset_id is None and other.subject == "source:openlineage"


def test_the_graph_maps_a_task_to_what_it_writes(settings, make_signal):
    graph = ContextGraph()
    graph.add_node("airflow:clicks.ingest", "task", "airflow")
    graph.add_node("raw.clicks", "dataset", "warehouse")
    graph.add_edge("airflow:clicks.ingest", "raw.clicks", "writes", Provenance("airflow"))
    signal = with_dataset(settings, _fail(make_signal, "clicks.ingest", "k"), graph=graph)
    assert signal.dataset_id == "raw.clicks" and signal.details["job_outputs"] == ["raw.clicks"]


def test_one_failed_run_writing_two_unrelated_datasets_is_one_incident(settings, store, make_signal):
    def failed(dataset, key):
        return make_signal(dataset=dataset, kind="airflow_run_failed", source="airflow:local", key=key,
                           dag_id="exports", run_id="scheduled__2026-09-30", failed_tasks={"push": "failed"})

    first, _ = intake_signal(settings, store, failed("finance.out.gl_export", "a"))
    second, created = intake_signal(settings, store, failed("lake.orders_export", "b"))
    assert not created and second.id == first.id and len(second.signals) == 2
    other = make_signal(dataset="lake.orders_export", kind="airflow_run_failed", source="airflow:local", key="c",
                        dag_id="exports", run_id="scheduled__2026-10-01", failed_tasks={"push": "failed"})
    assert intake_signal(settings, store, other)[1]  # another run of the same DAG is another fault

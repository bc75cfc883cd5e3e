"""Incident intake and the store: dedupe, the window, concurrency, updates, exclusions."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from dw_assets.core.blast_radius import BlastEntry
from dw_assets.core.causes import Cause
from dw_assets.core.evidence import Hop
from dw_assets.core.incidents import IllegalTransition
from dw_assets.incidents import IncidentNotFound, IncidentStore, intake_signal
from dw_assets.store import Store


def test_repeated_ticks_make_one_incident(settings, store, make_signal):
    results = [intake_signal(settings, store, make_signal()) for _ in range(5)]
    assert [created for _, created in results] == [True, False, False, False, False]
    (only,) = IncidentStore(store).list()
    assert len(only.signals) == 1  # the same dedupe_key is stored once
    assert only.owner == "maria.chen" and only.domain == "finance" and only.severity == "high"


def test_other_signals_for_the_dataset_join_within_the_window(settings, store, make_signal, t0):
    first, _ = intake_signal(settings, store, make_signal())
    joined, created = intake_signal(settings, store, make_signal(at=t0 + timedelta(hours=5), key="ol-run-1",
                                                                 kind="lineage_fail", source="openlineage"))
    later, created_later = intake_signal(settings, store, make_signal(at=t0 + timedelta(hours=40), key="ol-run-2"))
    assert not created and joined.id == first.id and len(joined.signals) == 2
    assert created_later and later.id != first.id


def test_other_datasets_and_closed_incidents_get_new_incidents(settings, store, make_signal):
    first, _ = intake_signal(settings, store, make_signal())
    lake, created = intake_signal(settings, store, make_signal(dataset="lake.orders_clean", key="k-lake"))
    assert created and lake.owner == "priya.raman"
    IncidentStore(store).transition(first.id, "dismissed", actor="maria.chen", note="expected low volume")
    again, created_again = intake_signal(settings, store, make_signal(key="k-new"))
    assert created_again and again.id != first.id


def test_signals_without_a_dataset_group_by_source(settings, store, make_signal):
    a, _ = intake_signal(settings, store, make_signal(dataset=None, key="run-1", source="airflow:local",
                                                      kind="airflow_run_failed"))
    b, created = intake_signal(settings, store, make_signal(dataset=None, key="run-2", source="airflow:local",
                                                            kind="airflow_run_failed"))
    assert not created and a.id == b.id and a.subject == "source:airflow:local" and a.owner is None


def test_concurrent_intake_of_one_occurrence_makes_one_incident(settings, dw_home, make_signal):
    stores = [Store(settings.state.url) for _ in range(6)]
    IncidentStore(stores[0])  # create the schema once, as a deployment would
    outcomes, errors = [], []
    barrier = threading.Barrier(len(stores))

    def worker(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            key = "same-key" if i % 2 == 0 else f"key-{i}"
            outcomes.append(intake_signal(settings, stores[i], make_signal(key=key)))
        except Exception as exc:  # noqa: BLE001 - any failure in a thread is surfaced by the assert below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(stores))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors
    assert sum(created for _, created in outcomes) == 1
    assert len({inc.id for inc, _ in outcomes}) == 1
    (only,) = IncidentStore(stores[0]).list()
    assert sorted(s["dedupe_key"] for s in only.signals) == ["key-1", "key-3", "key-5", "same-key"]
    for st in stores:
        st.dispose()


def test_store_updates_fields_and_keeps_history(settings, store, make_signal, t0):
    inc, _ = intake_signal(settings, store, make_signal())
    incidents = IncidentStore(store)
    causes = [{"kind": "split_export_early_release", "confidence": 0.86, "confirmed": False}]
    incidents.update(inc.id, causes=causes, path=[{"source": "a", "target": "b"}], plan_id="plan-1",
                     blast_radius=[{"node_id": "exposure:close_trial_balance", "owner": "maria.chen"}])
    incidents.transition(inc.id, "diagnosed", actor="data-workers", note="ranked 5 causes")
    incidents.add_run_link(inc.id, {"system": "airflow", "run_id": "manual__1"})
    incidents.add_run_link(inc.id, {"system": "airflow", "run_id": "manual__1"})
    got = incidents.get(inc.id)
    assert got.causes == [Cause.from_dict(causes[0])] and got.plan_id == "plan-1" and got.status == "diagnosed"
    assert (got.causes[0].kind, got.causes[0].confidence, got.path) == ("split_export_early_release", 0.86,
                                                                        [Hop("a", "b", "", "")])
    assert got.blast_radius == [BlastEntry("exposure:close_trial_balance", "", 0, owner="maria.chen")]
    assert got.to_dict()["blast_radius"][0]["node_id"] == "exposure:close_trial_balance"  # the stored shape
    assert got.run_links == [{"system": "airflow", "run_id": "manual__1"}]
    assert [(t.from_status, t.to_status, t.actor) for t in got.history] == [
        (None, "open", "check:volume_vs_history"), ("open", "diagnosed", "data-workers")]
    assert got.window_start == t0 and got.window_start.tzinfo is not None
    with pytest.raises(ValueError, match="cannot update status"):
        incidents.update(inc.id, status="resolved")
    with pytest.raises(IllegalTransition):
        incidents.transition(inc.id, "verifying", actor="x")
    with pytest.raises(IncidentNotFound, match="dw incidents list"):
        incidents.get("INC-19990101-0000")


def test_list_filters_by_status_and_rejects_unknown_ones(settings, store, make_signal):
    inc, _ = intake_signal(settings, store, make_signal())
    intake_signal(settings, store, make_signal(dataset="lake.orders_clean", key="k2"))
    incidents = IncidentStore(store)
    incidents.transition(inc.id, "dismissed", actor="maria.chen")
    assert [i.dataset_id for i in incidents.list(status="open")] == ["lake.orders_clean"]
    assert [i.id for i in incidents.list(status="dismissed")] == [inc.id]
    with pytest.raises(ValueError, match="unknown status"):
        incidents.list(status="closed")


def test_confirmed_incidents_name_partitions_to_leave_out_of_baselines(settings, store, make_signal):
    incidents = IncidentStore(store)
    inc, _ = intake_signal(settings, store, make_signal())
    assert incidents.confirmed_partitions("finance.bronze.gl_entries") == set()
    incidents.update(inc.id, causes=[{"kind": "split_export_early_release", "confirmed": True}])
    assert incidents.confirmed_partitions("finance.bronze.gl_entries") == {"2026-09-30"}


def test_event_log_is_the_sensor_cursor(settings, store, make_signal):
    inc, _ = intake_signal(settings, store, make_signal())
    incidents = IncidentStore(store)
    first = incidents.events_since(0)
    incidents.transition(inc.id, "diagnosed", actor="data-workers")
    later = incidents.events_since(first[-1]["seq"])
    assert [e["kind"] for e in first] == ["opened"] and [e["kind"] for e in later] == ["transition"]


def test_the_providers_task_failure_joins_the_airflow_runs_failure_of_the_same_run(settings, store, make_signal):
    """Airflow's runs sensor and Airflow's OpenLineage provider report one failed run twice (the
    provider's task FAIL names the Airflow run in its `airflow` facet): one incident, whatever the
    datasets each names."""
    airflow, _ = intake_signal(settings, store, make_signal(
        dataset="lake.orders_clean", key="airflow:local:orders_daily:manual__1", kind="airflow_run_failed",
        source="airflow:local", dag_id="orders_daily", run_id="manual__1"))
    provider, created = intake_signal(settings, store, make_signal(
        dataset=None, key="openlineage:0193-task:FAIL", kind="lineage_fail", source="openlineage",
        run_id="01936893-9751-7a91-a2a0-00000000f411", airflow_dag_id="orders_daily", airflow_run_id="manual__1"))
    assert not created and provider.id == airflow.id
    other, created_other = intake_signal(settings, store, make_signal(
        dataset=None, key="openlineage:0193-other:FAIL", kind="lineage_fail", source="openlineage",
        run_id="01936893-9751-7a91-a2a0-00000000f412", airflow_dag_id="orders_daily", airflow_run_id="manual__2"))
    assert created_other and other.id != airflow.id

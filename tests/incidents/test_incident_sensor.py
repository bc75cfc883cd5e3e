"""The incident asset and its intake sensor in Dagster: an external asset whose partitions the
sensor adds and reports (nothing in Dagster can materialize it by hand)."""

from __future__ import annotations

import dagster as dg
import pytest

from dw_assets.dagster_defs import incident_assets
from dw_assets.dagster_defs.incident_assets import INCIDENT_PARTITIONS
from dw_assets.incidents import IncidentStore, intake_signal
from sensors import incident_intake
from sensors.incident_intake import SENSOR_NAME


def build_definitions(settings) -> dg.Definitions:
    """The asset and its sensor, as the code location merges them."""
    return dg.Definitions.merge(incident_assets.build_definitions(settings), incident_intake.build_definitions(settings))


@pytest.fixture
def instance():
    with dg.instance_for_test() as inst:  # persistent (has a ref), as the sensor daemon's instance
        yield inst


def _tick(defs: dg.Definitions, instance: dg.DagsterInstance, cursor: str | None) -> dg.SensorResult:
    """One tick as documented for sensor tests: invoke with a built context, then apply the
    partition requests to the instance as the sensor daemon would."""
    sensor = defs.resolve_sensor_def(SENSOR_NAME)
    result = sensor(dg.build_sensor_context(instance=instance, definitions=defs, cursor=cursor))
    for event in result.asset_events or []:
        instance.report_runless_asset_event(event)
    for request in result.dynamic_partitions_requests or []:
        instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))
    return result


def test_sensor_adds_one_partition_for_one_incident_across_two_ticks(settings, store, make_signal, instance):
    defs = build_definitions(settings)
    incident, _ = intake_signal(settings, store, make_signal())

    first = _tick(defs, instance, None)
    intake_signal(settings, store, make_signal())  # the same occurrence again: nothing changes
    second = _tick(defs, instance, first.cursor)

    assert [list(r.partition_keys) for r in first.dynamic_partitions_requests] == [[incident.id]]
    assert [e.partition for e in first.asset_events] == [incident.id] and not first.run_requests
    assert not second.dynamic_partitions_requests and not second.asset_events
    assert instance.get_dynamic_partitions(INCIDENT_PARTITIONS.name) == [incident.id]


def test_a_changed_incident_is_materialized_again_without_a_new_partition(settings, store, make_signal, instance):
    defs = build_definitions(settings)
    incident, _ = intake_signal(settings, store, make_signal())
    first = _tick(defs, instance, None)
    IncidentStore(store).transition(incident.id, "diagnosed", actor="data-workers")
    second = _tick(defs, instance, first.cursor)
    replay = _tick(defs, instance, None)  # a lost cursor re-reads everything: still one partition
    assert not second.dynamic_partitions_requests and [e.partition for e in second.asset_events] == [incident.id]
    assert second.asset_events[0].metadata["dw/event_seq"].value > first.asset_events[0].metadata["dw/event_seq"].value
    assert not replay.dynamic_partitions_requests and not replay.asset_events  # reported once per change
    assert instance.get_dynamic_partitions(INCIDENT_PARTITIONS.name) == [incident.id]


def test_incident_partition_carries_the_incident_as_metadata(settings, store, make_signal, instance):
    defs = build_definitions(settings)
    incident, _ = intake_signal(settings, store, make_signal(ratio=0.58))
    IncidentStore(store).update(incident.id, causes=[{"kind": "split_export_early_release", "confidence": 0.9,
                                                      "title": "split export", "subject": "airflow:gl_landing.load"}])
    _tick(defs, instance, None)
    event = instance.get_latest_materialization_event(dg.AssetKey(["incident"]))
    assert event.dagster_event.partition == incident.id
    meta = event.asset_materialization.metadata
    assert meta["status"].value == "open" and meta["severity"].value == "high"
    assert meta["owner"].value == "maria.chen" and meta["trigger"].value == "check_failed"
    assert "split export" in meta["cause 1"].value and "90%" in meta["cause 1"].value
    assert meta["evidence"].value["partition"] == "2026-09-30"
    assert [r.data["to"] for r in meta["history"].value.records] == ["open"]


def test_incident_is_external_so_materialize_all_leaves_it_out(settings):
    graph = build_definitions(settings).resolve_asset_graph()
    node = graph.get(dg.AssetKey(["incident"]))
    assert not node.is_materializable and not node.is_executable
    assert dg.AssetKey(["incident"]) not in graph.materializable_asset_keys

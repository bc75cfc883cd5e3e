"""The incident asset and its intake sensor in Dagster."""

from __future__ import annotations

import dagster as dg
import pytest

from dw_assets.dagster_defs.incident_assets import INCIDENT_PARTITIONS, SENSOR_NAME, build_definitions
from dw_assets.incidents import IncidentStore, intake_signal


@pytest.fixture
def instance():
    with dg.instance_for_test() as inst:  # persistent (has a ref), as the sensor daemon's instance
        yield inst


def _tick(defs: dg.Definitions, instance: dg.DagsterInstance, cursor: str | None) -> dg.SensorResult:
    """One tick as documented for sensor tests: invoke with a built context, then apply the
    partition requests to the instance as the sensor daemon would."""
    sensor = defs.resolve_sensor_def(SENSOR_NAME)
    result = sensor(dg.build_sensor_context(instance=instance, definitions=defs, cursor=cursor))
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
    assert [r.partition_key for r in first.run_requests] == [incident.id]
    assert not second.dynamic_partitions_requests and not second.run_requests
    assert instance.get_dynamic_partitions(INCIDENT_PARTITIONS.name) == [incident.id]


def test_a_changed_incident_is_materialized_again_without_a_new_partition(settings, store, make_signal, instance):
    defs = build_definitions(settings)
    incident, _ = intake_signal(settings, store, make_signal())
    first = _tick(defs, instance, None)
    IncidentStore(store).transition(incident.id, "diagnosed", actor="data-workers")
    second = _tick(defs, instance, first.cursor)
    replay = _tick(defs, instance, None)  # a lost cursor re-reads everything: still one partition
    assert not second.dynamic_partitions_requests and [r.partition_key for r in second.run_requests] == [incident.id]
    assert second.run_requests[0].run_key != first.run_requests[0].run_key
    assert not replay.dynamic_partitions_requests
    assert instance.get_dynamic_partitions(INCIDENT_PARTITIONS.name) == [incident.id]


def test_incident_asset_materializes_the_incident_as_metadata(settings, store, make_signal, instance):
    defs = build_definitions(settings)
    incident, _ = intake_signal(settings, store, make_signal(ratio=0.58))
    IncidentStore(store).update(incident.id, causes=[{"kind": "split_export_early_release", "confidence": 0.9,
                                                      "title": "split export", "subject": "airflow:gl_landing.load"}])
    instance.add_dynamic_partitions(INCIDENT_PARTITIONS.name, [incident.id])
    asset = defs.resolve_assets_def(dg.AssetKey(["incident"]))
    result = dg.materialize([asset], partition_key=incident.id, instance=instance)
    assert result.success
    (mat,) = result.asset_materializations_for_node(asset.node_def.name)
    meta = mat.metadata
    assert meta["status"].value == "open" and meta["severity"].value == "high"
    assert meta["owner"].value == "maria.chen" and meta["trigger"].value == "check_failed"
    assert "split export" in meta["cause 1"].value and "90%" in meta["cause 1"].value
    assert meta["evidence"].value["partition"] == "2026-09-30"
    assert [r.data["to"] for r in meta["history"].value.records] == ["open"]

"""The main job, end to end, as CI runs it: both nights on a real Airflow 3, month-end on Airflow 2.

Each test reads the JSON summary of a real `dw demo` run (real Airflow, dbt-ol on DuckDB, the
sensors and jobs against one Dagster instance) and checks what STORIES.md promises.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from demo_runs import run_demo

pytestmark = [pytest.mark.e2e, pytest.mark.airflow]


def _night(summary: dict, name: str) -> dict:
    nights = {n["night"]: n for n in summary["nights"]}
    assert name in nights, f"night {name} missing from summary: {list(nights)}"
    return nights[name]


@pytest.fixture(scope="session")
def both_nights_af3(tmp_path_factory) -> dict:
    # omar.haddad is the data on-call: a listed approver of both the finance and revenue domains
    return run_demo(tmp_path_factory.mktemp("e2e"), "both", "3", approve_as="omar.haddad")


@pytest.fixture(scope="session")
def month_end_af2(tmp_path_factory) -> dict:
    return run_demo(tmp_path_factory.mktemp("e2e"), "month-end", "2", approve_as="maria.chen")


def _assert_provider_lineage(night: dict) -> None:
    """The estate's lineage came from Airflow's OpenLineage provider and dbt-ol, nothing hand-emitted."""
    producers = night["lineage_producers"]
    assert producers.get("airflow_provider", 0) > 0 and producers.get("dbt_ol", 0) > 0, producers
    assert set(producers) <= {"airflow_provider", "dbt_ol", "data_workers"}, producers


def _assert_month_end(night: dict, approver: str) -> None:
    _assert_provider_lineage(night)
    volume = night["checks_before"]["finance.bronze.gl_entries"]["volume_vs_history"]
    assert volume["passed"] is False and 0.5 < volume["ratio"] < 0.66, volume
    assert night["checks_before"]["finance.bronze.gl_entries"]["freshness_sla"]["passed"] is True
    assert len(night["incident_ids"]) == 1
    assert night["top_cause"]["kind"] == "split_export_early_release", night["top_cause"]
    radius = {r["id"] for r in night["blast_radius"]["affected"]}
    for expected in ("analytics.stg_gl_entries", "analytics.int_gl_by_entity", "analytics.fct_trial_balance",
                     "exposure:close_trial_balance", "exposure:close_entity_variance", "exposure:close_review_0900"):
        assert expected in radius, f"{expected} not in blast radius {sorted(radius)}"
    steps = night["plan"]["steps"]
    assert steps[0]["dag_id"] == "gl_landing" and steps[0]["conf"] == {"export_date": "2026-09-30"}
    assert night["plan"]["undo"], "the undo must be written into the plan"
    assert any(f["applies"] for f in night["fixes"]), night["fixes"]
    assert night["approval"]["approver"] == approver
    assert night["rerun"]["airflow_run_ids"], night["rerun"]
    verification = night["verification"]
    assert verification["passed"] is True, verification
    after = {c["check"]: c for c in verification["checks"]}
    assert after["rows_match_landed_files"]["passed"] is True
    assert any(name.startswith("balance_") and c["passed"] for name, c in after.items())
    assert night["incident"]["status"] == "resolved"
    assert night["lineage_events"]["START"] >= 1 and night["lineage_events"]["COMPLETE"] >= 1


def test_month_end_on_airflow3(both_nights_af3: dict) -> None:
    assert both_nights_af3["ok"], both_nights_af3["_stderr_tail"]
    assert both_nights_af3["airflow"]["major"] == 3
    _assert_month_end(_night(both_nights_af3, "month-end"), "omar.haddad")
    # Airflow 3 default: the owner triggers the drafted run; Data Workers matched it
    assert _night(both_nights_af3, "month-end")["rerun"]["mode"] == "draft"


def test_orders_night_on_airflow3(both_nights_af3: dict) -> None:
    night = _night(both_nights_af3, "orders")
    _assert_provider_lineage(night)
    assert night["top_cause"]["kind"] == "upstream_type_change", night["top_cause"]
    assert "discount" in night["top_cause"]["title"]
    hops = [h["target"] for h in night["path"]]
    for expected in ("airflow:orders_daily.orders_clean", "lake.orders_clean", "analytics.stg_orders",
                     "analytics.fct_revenue"):
        assert expected in hops, f"{expected} not on path {hops}"
    provenance = {p for h in night["path"] for p in h["provenance"].split(",")}
    assert provenance >= {"note", "dbt_manifest", "openlineage"}, night["path"]
    assert any(f["applies"] for f in night["fixes"])
    assert night["verification"]["passed"] is True, night["verification"]
    assert night["incident"]["status"] == "resolved"


def test_receipts_intact_after_both_nights(both_nights_af3: dict) -> None:
    assert both_nights_af3["receipts"]["intact"] is True
    home = both_nights_af3["_dw_home"]
    proc = subprocess.run([str(Path(sys.executable).parent / "dw"), "receipts", "verify", "--json"],
                          env={"DW_HOME": home, "PATH": str(Path(sys.executable).parent)},
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "omar.haddad" in subprocess.run(
        [str(Path(sys.executable).parent / "dw"), "receipts", "list", "--json"],
        env={"DW_HOME": home, "PATH": str(Path(sys.executable).parent)}, capture_output=True, text=True,
        timeout=120, check=True).stdout


def test_month_end_on_airflow2(month_end_af2: dict) -> None:
    assert month_end_af2["ok"], month_end_af2["_stderr_tail"]
    assert month_end_af2["airflow"]["major"] == 2
    night = _night(month_end_af2, "month-end")
    _assert_month_end(night, "maria.chen")
    # Airflow 2: Data Workers queues the approved run itself
    assert night["rerun"]["mode"] == "trigger"


def _dw_json(home: str, *args: str):
    dw = str(Path(sys.executable).parent / "dw")
    proc = subprocess.run([dw, *args, "--json"], env={"DW_HOME": home, "PATH": str(Path(sys.executable).parent)},
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


def test_after_the_orders_night_the_cli_shows_the_schema_change_and_the_diagnosis(both_nights_af3: dict) -> None:
    home = both_nights_af3["_dw_home"]
    changes = _dw_json(home, "lineage", "schema-changes")
    discount = [c for c in changes if c["dataset_id"] == "lake.orders_clean" and c["column"] == "discount"]
    assert discount and discount[0]["change"] == "type_changed", changes
    assert "DECIMAL" in discount[0]["old_type"] and discount[0]["new_type"] == "VARCHAR"
    for night in both_nights_af3["nights"]:
        shown = _dw_json(home, "incidents", "show", night["incident_ids"][0])
        assert shown["causes"][0]["kind"] == night["top_cause"]["kind"]
        assert shown["causes"][0]["evidence"] and shown["path"] and shown["blast_radius"]
        assert any(f["kind"] == "diff" and f["verified"] for f in shown["proposed_fixes"])


@pytest.fixture(scope="session")
def month_end_unapproved(tmp_path_factory) -> dict:
    return run_demo(tmp_path_factory.mktemp("e2e"), "month-end", "3", approve_as=None)


def test_without_an_approval_nothing_runs_and_the_way_to_approve_is_printed(month_end_unapproved: dict) -> None:
    assert month_end_unapproved["ok"], month_end_unapproved["_stderr_tail"]
    night = _night(month_end_unapproved, "month-end")
    assert night["status"] == "awaiting_approval" and "approval" not in night and "rerun" not in night
    plan_id = night["plan"]["id"]
    assert night["how_to_approve"]["cli"].startswith(f"dw approve {plan_id} --as ")
    assert f"dw/plan_id={plan_id}" in night["how_to_approve"]["launchpad"]
    assert f"dw approve {plan_id}" in month_end_unapproved["_stderr_tail"]
    home = month_end_unapproved["_dw_home"]
    assert _dw_json(home, "approvals", "list")["decisions"] == []
    actions = {r["action"] for r in _dw_json(home, "receipts", "list")}
    assert "approval_requested" in actions and not actions & {"rerun_dispatched", "rerun_drafted"}

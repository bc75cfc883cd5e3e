"""Real dbt (dbt-duckdb, dbt-ol) on the built estate: the clean build, the project's contract, and
the two nights as dbt sees them."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import duckdb
import pytest
from estate_dbt_helpers import DbtRun, NightEstate, copy_dbt_project

from dw_assets.connectors.dbt import ensure_manifest, failed_results, load_manifest, run_dbt

pytestmark = pytest.mark.dbt

CONVERSION_ERROR = 'Could not convert string "N/A" to DECIMAL'
CLOSE_MODELS = ["stg_gl_entries", "int_gl_by_entity", "fct_trial_balance"]


def analytics(home: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(home / "warehouse" / "analytics.duckdb"), read_only=True) as con:
        return con.execute(sql).fetchall()


def model_events(run: DbtRun, model: str) -> list[dict]:
    return [e for e in run.events if e["job"]["name"] == f"model.dw_demo.{model}"]


@pytest.fixture(scope="session")
def manifest(tmp_path_factory: pytest.TempPathFactory, clean_estate) -> dict:
    project = copy_dbt_project(tmp_path_factory.mktemp("parse") / "dbt_project")
    path = ensure_manifest(project, project, {"DW_HOME": str(clean_estate.home)})
    mtime = path.stat().st_mtime
    assert ensure_manifest(project, project, {"DW_HOME": str(clean_estate.home)}).stat().st_mtime == mtime
    return load_manifest(path)


def test_manifest_models_groups_and_grains(manifest: dict) -> None:
    models = {n["name"]: n for n in manifest["nodes"].values() if n["resource_type"] == "model"}
    assert set(models) == {*CLOSE_MODELS, "stg_orders", "fct_revenue"}
    for name, node in models.items():
        group, owner = ("revenue", "priya.raman") if "orders" in name or "revenue" in name \
            else ("finance", "maria.chen")
        assert (node["config"]["group"], node["config"]["meta"]["owner"]) == (group, owner), name
        assert "Grain:" in node["description"], name
    materialized = {name: node["config"]["materialized"] for name, node in models.items()}
    assert materialized == {"stg_gl_entries": "view", "stg_orders": "view", "int_gl_by_entity": "view",
                            "fct_trial_balance": "table", "fct_revenue": "table"}
    groups = {g["name"]: g["owner"] for g in manifest["groups"].values()}
    assert groups["finance"]["name"] == "maria.chen" and groups["revenue"]["name"] == "priya.raman"
    sources = {(s["database"], s["schema"], s["name"]): s["source_name"]
               for s in manifest["sources"].values()}
    assert sources == {("finance", "bronze", "gl_entries"): "finance_bronze",
                       ("lake", "main", "orders_clean"): "lake"}


def test_manifest_exposures(manifest: dict) -> None:
    exposures = {e["name"]: e for e in manifest["exposures"].values()}
    assert set(exposures) == {"close_trial_balance", "close_entity_variance", "close_review_0900",
                              "revenue_dashboard"}
    trial = exposures["close_trial_balance"]
    assert (trial["label"], trial["type"], trial["maturity"]) == ("Close: Trial Balance", "dashboard", "high")
    assert trial["meta"] == {"tool": "tableau", "criticality": "critical"}
    assert (exposures["close_entity_variance"]["label"], exposures["close_entity_variance"]["maturity"]) == (
        "Close: Entity Variance", "medium")
    review = exposures["close_review_0900"]
    assert (review["label"], review["maturity"]) == ("09:00 close review", "high")
    assert review["depends_on"]["nodes"] == ["model.dw_demo.fct_trial_balance"]
    revenue = exposures["revenue_dashboard"]
    assert (revenue["label"], revenue["maturity"]) == ("Revenue dashboard", "high")
    assert revenue["depends_on"]["nodes"] == ["model.dw_demo.fct_revenue"]
    owners = {name: (e["owner"]["name"], e["owner"]["email"]) for name, e in exposures.items()}
    assert owners["revenue_dashboard"] == ("priya.raman", "priya.raman@example.com")
    assert {owners[n] for n in owners if n.startswith("close_")} == {("maria.chen", "maria.chen@example.com")}


def test_clean_estate_builds_green(clean_build: DbtRun, clean_estate) -> None:
    assert clean_build.result.returncode == 0, clean_build.result.stdout[-3000:]
    assert failed_results(clean_build.run_results) == []
    statuses = {r["status"] for r in clean_build.run_results["results"]}
    assert statuses <= {"success", "pass", "no-op"}
    tests = [r for r in clean_build.run_results["results"] if r["unique_id"].startswith("test.")]
    assert len(tests) >= 30
    balance = analytics(clean_estate.home, "SELECT count(*), count(DISTINCT export_date), "
                                           "max(abs(total_debit - total_credit)) FROM fct_trial_balance")
    assert balance == [(30, 6, 0)]
    assert analytics(clean_estate.home, "SELECT count(*) FROM fct_revenue") == [(90,)]


@pytest.mark.openlineage
def test_clean_build_emits_start_and_complete(clean_build: DbtRun) -> None:
    for model in [*CLOSE_MODELS, "stg_orders", "fct_revenue"]:
        assert [e["eventType"] for e in model_events(clean_build, model)] == ["START", "COMPLETE"], model
    assert not [e for e in clean_build.events if e["eventType"] == "FAIL"]
    (complete,) = [e for e in model_events(clean_build, "fct_trial_balance") if e["eventType"] == "COMPLETE"]
    assert [o["name"] for o in complete["outputs"]] == ["analytics.main.fct_trial_balance"]
    (gl_start,) = [e for e in model_events(clean_build, "stg_gl_entries") if e["eventType"] == "START"]
    assert [i["name"] for i in gl_start["inputs"]] == ["finance.bronze.gl_entries"]


def test_close_builds_green_on_part_one_alone(night_build: DbtRun, night_estate: NightEstate) -> None:
    for model in CLOSE_MODELS:
        assert night_build.status_of(f"model.dw_demo.{model}") == "success"
    close_failures = [r for r in failed_results(night_build.run_results) if "revenue" not in r["unique_id"]]
    assert close_failures == [], "every close test passes on half the data (night 1's green run)"
    sept = analytics(night_estate.paths.home, """
        SELECT count(*), count(*) FILTER (WHERE total_debit <> total_credit), max(last_posting_date)
        FROM fct_trial_balance WHERE export_date = DATE '2026-09-30'""")
    assert sept == [(5, 5, date(2026, 9, 19))]


def test_night2_fct_revenue_fails_on_the_na_discount(night_build: DbtRun) -> None:
    assert night_build.result.returncode != 0
    assert night_build.status_of("model.dw_demo.stg_orders") == "success"
    failures = failed_results(night_build.run_results)
    (failure,) = [r for r in failures if r["unique_id"] == "model.dw_demo.fct_revenue"]
    assert failure["status"] == "error" and CONVERSION_ERROR in failure["message"]


@pytest.mark.openlineage
def test_night2_dbt_ol_emits_fail_with_the_conversion_error(night_build: DbtRun) -> None:
    events = model_events(night_build, "fct_revenue")
    assert [e["eventType"] for e in events] == ["START", "FAIL"]
    message = events[-1]["run"]["facets"]["errorMessage"]["message"]
    assert "Conversion Error" in message and CONVERSION_ERROR in message
    assert [e["eventType"] for e in model_events(night_build, "stg_orders")] == ["START", "COMPLETE"]


def test_plain_dbt_build_of_the_revenue_models_fails(night_build: DbtRun, night_estate: NightEstate,
                                                      night_project: Path) -> None:
    result = run_dbt(["build", "--select", "stg_orders", "fct_revenue"], night_project, night_project,
                     {"DW_HOME": str(night_estate.paths.home)})
    assert result.returncode == 1
    assert CONVERSION_ERROR in result.stdout

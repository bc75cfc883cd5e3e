"""The estate's DAGs: their task code on its own, then end to end on a real Airflow 3 and 2.

Night 1: `gl_landing` releases on the first part of a split export and loads only that part; the
asset event runs `month_end_close`, which goes green. Night 2: `orders_daily` is green until the
application's discount turns to text; then `orders_clean` still succeeds (its schema facet says
VARCHAR) and the dbt task fails with a FAIL event carrying the conversion error.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from types import ModuleType
from typing import Any

import duckdb
import pytest

from dw_assets.config import REPO_ROOT
from dw_assets.connectors.openlineage.validation import EventValidator
from dw_assets.demo.estate import NIGHT1_EXPORT_DATE, break_orders_discount, write_gl_export_part
from dw_assets.demo.gl_ledger import csv_data_rows
from dw_assets.demo.layout import EstatePaths
from dw_assets.demo.orders import build_orders


def _estate_tasks() -> ModuleType:
    """The DAGs' own task module. It imports only the stdlib at load time and needs duckdb and
    openlineage-python when tasks run, both of which this venv has too."""
    path = REPO_ROOT / "estate" / "dags" / "airflow3" / "estate_tasks.py"
    spec = importlib.util.spec_from_file_location("estate_tasks_under_test", path)
    assert spec and spec.loader
    module = sys.modules.setdefault(spec.name, importlib.util.module_from_spec(spec))
    spec.loader.exec_module(module)
    return module


def _events_under(events: list[dict[str, Any]], dag_id: str, dag_run_uuid: str) -> list[dict[str, Any]]:
    """Events whose parent or root run is the DAG run (dbt-ol nests model runs under its own run)."""
    def points_at_dag_run(link: dict[str, Any]) -> bool:
        return link.get("job", {}).get("name") == dag_id and link.get("run", {}).get("runId") == dag_run_uuid

    def parent_of(event: dict[str, Any]) -> dict[str, Any]:
        return event["run"].get("facets", {}).get("parent", {})

    return [e for e in events
            if points_at_dag_run(parent_of(e)) or points_at_dag_run(parent_of(e).get("root") or {})]


def _schema(dataset: dict[str, Any]) -> dict[str, str]:
    return {f["name"]: f["type"] for f in dataset["facets"]["schema"]["fields"]}


@pytest.mark.airflow
@pytest.mark.dbt
@pytest.mark.openlineage
def test_gl_landing_loads_only_the_first_part_and_month_end_close_goes_green(airflow, airflow_api,
                                                                           read_events) -> None:
    home = airflow.dw_home
    tasks = _estate_tasks()
    known_close_runs = {r["dag_run_id"] for r in airflow_api.runs("month_end_close")}
    part1 = write_gl_export_part(home, NIGHT1_EXPORT_DATE, 1, parts=2)

    run_id = airflow_api.trigger("gl_landing", {"export_date": NIGHT1_EXPORT_DATE.isoformat()})
    run = airflow_api.wait_for_run("gl_landing", run_id)
    assert run["state"] == "success", airflow_api.task_states("gl_landing", run_id)

    finance_db = home / "warehouse" / "finance.duckdb"
    with duckdb.connect(str(finance_db), read_only=True) as con:
        rows, files = con.execute(
            "SELECT count(*), list(DISTINCT source_file) FROM finance.bronze.gl_entries WHERE export_date = ?",
            [NIGHT1_EXPORT_DATE]).fetchone()
    assert rows == csv_data_rows(part1)
    assert files == [part1.name]

    close = airflow_api.wait_for_new_run("month_end_close", known_close_runs)
    assert close["state"] == "success", airflow_api.task_states("month_end_close", close["dag_run_id"])

    load_events = [e for e in _events_under(read_events(home / "lineage" / "events" / "airflow.ndjson"),
                                            "gl_landing", tasks.dag_run_uuid("gl_landing", run_id))
                   if (e["job"]["namespace"], e["job"]["name"]) == ("airflow://local", "gl_landing.load")]
    assert [e["eventType"] for e in load_events] == ["START", "COMPLETE"]
    assert len({e["run"]["runId"] for e in load_events}) == 1
    complete = load_events[-1]
    assert [(i["namespace"], i["name"]) for i in complete["inputs"]] == [("file://", str(part1))]
    (output,) = complete["outputs"]
    assert (output["namespace"], output["name"]) == (f"duckdb://{finance_db}", "finance.bronze.gl_entries")
    assert output["outputFacets"]["outputStatistics"]["rowCount"] == rows
    assert _schema(output)["export_date"] == "DATE"

    dbt_events = _events_under(read_events(home / "lineage" / "events" / "dbt.ndjson"), "month_end_close",
                               tasks.dag_run_uuid("month_end_close", close["dag_run_id"]))
    assert any(e["eventType"] == "COMPLETE" and e["job"]["name"].endswith("fct_trial_balance")
               for e in dbt_events), sorted({e["job"]["name"] for e in dbt_events})


def _orders_clean_complete(events: list[dict[str, Any]], tasks: ModuleType, run_id: str) -> dict[str, Any]:
    (complete,) = [e for e in _events_under(events, "orders_daily", tasks.dag_run_uuid("orders_daily", run_id))
                   if e["job"]["name"] == "orders_daily.orders_clean" and e["eventType"] == "COMPLETE"]
    return complete


@pytest.mark.airflow
@pytest.mark.dbt
@pytest.mark.openlineage
def test_orders_daily_fails_in_dbt_once_the_discount_turns_to_text(airflow, airflow_api, read_events) -> None:
    home = airflow.dw_home
    tasks = _estate_tasks()
    airflow_events = home / "lineage" / "events" / "airflow.ndjson"

    clean_run = airflow_api.trigger("orders_daily")
    assert airflow_api.wait_for_run("orders_daily", clean_run)["state"] == "success", \
        airflow_api.task_states("orders_daily", clean_run)
    complete = _orders_clean_complete(read_events(airflow_events), tasks, clean_run)
    (source,) = complete["inputs"]
    assert (source["namespace"], source["name"]) == (f"duckdb://{home / 'app' / 'app.duckdb'}", "app.main.orders")
    (output,) = complete["outputs"]
    assert output["name"] == "lake.main.orders_clean"
    assert _schema(output)["discount"] == "DECIMAL(18,2)"

    na_orders = break_orders_discount(home)
    broken_run = airflow_api.trigger("orders_daily")
    assert airflow_api.wait_for_run("orders_daily", broken_run)["state"] == "failed"
    assert airflow_api.task_states("orders_daily", broken_run) == {"orders_clean": "success",
                                                                  "dbt_revenue": "failed"}
    (output,) = _orders_clean_complete(read_events(airflow_events), tasks, broken_run)["outputs"]
    assert _schema(output)["discount"] == "VARCHAR"
    with duckdb.connect(str(home / "warehouse" / "lake.duckdb"), read_only=True) as con:
        (na_in_lake,) = con.execute("SELECT count(*) FROM orders_clean WHERE discount = 'N/A'").fetchone()
    assert na_in_lake == len(na_orders)

    dbt_events = _events_under(read_events(home / "lineage" / "events" / "dbt.ndjson"), "orders_daily",
                               tasks.dag_run_uuid("orders_daily", broken_run))
    failures = [e for e in dbt_events if e["eventType"] == "FAIL" and "errorMessage" in e["run"]["facets"]]
    assert any("N/A" in e["run"]["facets"]["errorMessage"]["message"] for e in failures), \
        [(e["job"]["name"], e["run"]["facets"]["errorMessage"]["message"][:200]) for e in failures]


def test_load_replaces_the_partition_with_the_parts_present(dw_home, read_events) -> None:
    tasks = _estate_tasks()
    run = tasks.TaskRun("gl_landing", "load", "manual__1", 1)
    part1 = write_gl_export_part(dw_home, NIGHT1_EXPORT_DATE, 1, parts=2)
    first = tasks.load_gl_export("2026-09-30", "gl_{export_date}_*.csv", run)
    part2 = write_gl_export_part(dw_home, NIGHT1_EXPORT_DATE, 2, parts=2)
    second = tasks.load_gl_export("2026-09-30", "gl_{export_date}_*.csv", run)

    assert first["rows"] == csv_data_rows(part1)
    assert second["rows"] == csv_data_rows(part1) + csv_data_rows(part2)
    with duckdb.connect(str(dw_home / "warehouse" / "finance.duckdb"), read_only=True) as con:
        rows_by_file = dict(con.execute("SELECT source_file, count(*) FROM bronze.gl_entries GROUP BY 1").fetchall())
    assert rows_by_file == {part1.name: csv_data_rows(part1), part2.name: csv_data_rows(part2)}
    events = read_events(dw_home / "lineage" / "events" / "airflow.ndjson")
    assert [e["eventType"] for e in events] == ["START", "COMPLETE", "START", "COMPLETE"]


def test_a_missing_export_date_is_named() -> None:
    with pytest.raises(ValueError, match=r"export_date must be YYYY-MM-DD .* got 'None'"):
        _estate_tasks().parse_export_date("None")


def test_load_waits_while_another_process_holds_the_duckdb_lock(dw_home) -> None:
    tasks = _estate_tasks()
    write_gl_export_part(dw_home, NIGHT1_EXPORT_DATE, 1, parts=2)
    finance_db = dw_home / "warehouse" / "finance.duckdb"
    finance_db.parent.mkdir(parents=True)
    hold_lock = f"import duckdb, time; c = duckdb.connect({str(finance_db)!r}); print('locked', flush=True); " \
                "time.sleep(4)"
    holder = subprocess.Popen([sys.executable, "-c", hold_lock], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        result = tasks.load_gl_export("2026-09-30", "gl_{export_date}_*.csv",
                                      tasks.TaskRun("gl_landing", "load", "manual__lock"))
    finally:
        holder.wait(30)
    assert result["rows"] > 0


def test_orders_clean_keeps_the_application_column_types(dw_home, read_events) -> None:
    tasks = _estate_tasks()
    build_orders(EstatePaths.of(dw_home), seed=7)
    run = tasks.TaskRun("orders_daily", "orders_clean", "manual__1")
    before = tasks.clean_orders(run)
    na_orders = break_orders_discount(dw_home)
    after = tasks.clean_orders(run)

    assert before["schema"]["discount"] == "DECIMAL(18,2)"
    assert after["schema"]["discount"] == "VARCHAR"
    assert after["rows"] == before["rows"]
    with duckdb.connect(str(dw_home / "warehouse" / "lake.duckdb"), read_only=True) as con:
        (na,) = con.execute("SELECT count(*) FROM orders_clean WHERE discount = 'N/A'").fetchone()
    assert na == len(na_orders)
    completes = [e for e in read_events(dw_home / "lineage" / "events" / "airflow.ndjson")
                 if e["eventType"] == "COMPLETE"]
    assert [_schema(e["outputs"][0])["discount"] for e in completes] == ["DECIMAL(18,2)", "VARCHAR"]


def test_task_events_are_valid_openlineage(dw_home, read_events, shared_dir) -> None:
    tasks = _estate_tasks()
    build_orders(EstatePaths.of(dw_home), seed=7)
    write_gl_export_part(dw_home, NIGHT1_EXPORT_DATE, 1, parts=2)
    tasks.clean_orders(tasks.TaskRun("orders_daily", "orders_clean", "manual__1"))
    tasks.load_gl_export("2026-09-30", "gl_{export_date}_*.csv", tasks.TaskRun("gl_landing", "load", "manual__1"))
    bad = dw_home / "landing" / "gl_20261031_part0001.csv"
    bad.write_text("entry_id,entity,account,posting_date,debit,credit\nJE1,US01,1000,not-a-date,1.00,0\n")
    with pytest.raises(duckdb.Error, match="not-a-date"):
        tasks.load_gl_export("2026-10-31", "gl_{export_date}_*.csv", tasks.TaskRun("gl_landing", "load", "x"))

    validator = EventValidator(shared_dir / "openlineage-spec", strict=True)
    events = read_events(dw_home / "lineage" / "events" / "airflow.ndjson")
    assert [e["eventType"] for e in events] == ["START", "COMPLETE", "START", "COMPLETE", "START", "FAIL"]
    assert "not-a-date" in events[-1]["run"]["facets"]["errorMessage"]["message"]
    for event in events:
        validator.validate(event)


def test_events_go_over_http_when_an_openlineage_url_is_given(dw_home, httpserver,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    tasks = _estate_tasks()
    httpserver.expect_request("/api/v1/lineage", method="POST").respond_with_data("", status=201)
    monkeypatch.setenv("DW_OPENLINEAGE_URL", httpserver.url_for("/").rstrip("/"))
    tasks.Lineage(tasks.TaskRun("gl_landing", "load", "manual__1")).emit("START")
    (request, _response), = httpserver.log
    assert json.loads(request.data)["job"]["name"] == "gl_landing.load"
    assert not (dw_home / "lineage" / "events" / "airflow.ndjson").exists()

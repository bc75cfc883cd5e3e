"""The estate's DAGs: their task code on its own, then end to end on a real Airflow 3 and 2 with
Airflow's OpenLineage provider posting to a real `dw lineage serve`.

Night 1: `gl_landing` releases on the first part of a split export and loads only that part; the
asset event runs `month_end_close`, which goes green. Night 2: `orders_daily` is green until the
application's discount turns to text; then `orders_clean` still succeeds (the provider's COMPLETE
carries the schema facet the operator returns: VARCHAR) and the dbt task fails, dbt-ol's FAIL event
carrying the conversion error under the provider's task run. The task code emits nothing itself.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from types import ModuleType
from typing import Any

import duckdb
import pytest

from dw_assets.config import REPO_ROOT
from dw_assets.core.graph import ContextGraph
from dw_assets.demo.estate import NIGHT1_EXPORT_DATE, break_orders_discount, write_gl_export_part
from dw_assets.demo.gl_ledger import csv_data_rows
from dw_assets.demo.layout import EstatePaths
from dw_assets.demo.orders import build_orders
from dw_assets.incidents import intake_signal
from dw_assets.lineage.graph_feed import feed_graph
from dw_assets.lineage.processing import process_new_events
from tests.support.settings import build_settings

DAGS = REPO_ROOT / "estate" / "dags"


def _estate_tasks() -> ModuleType:
    """The DAGs' own task module. It imports only the stdlib at load time and duckdb when tasks run,
    which this venv has too."""
    path = DAGS / "airflow3" / "estate_tasks.py"
    spec = importlib.util.spec_from_file_location("estate_tasks_under_test", path)
    assert spec and spec.loader
    module = sys.modules.setdefault(spec.name, importlib.util.module_from_spec(spec))
    spec.loader.exec_module(module)
    return module


def dag_run_ol_id(events: list[dict[str, Any]], dag_id: str, run_id: str) -> str:
    """The provider's OpenLineage run id of an Airflow DAG run (its airflowDagRun facet names the run)."""
    for e in events:
        dag_run = ((e["run"].get("facets") or {}).get("airflowDagRun") or {}).get("dagRun") or {}
        if e["job"]["name"] == dag_id and dag_run.get("run_id") == run_id:
            return e["run"]["runId"]
    raise AssertionError(f"no DAG-run event of {dag_id} {run_id} among {len(events)} events")


def _events_under(events: list[dict[str, Any]], dag_run_ol: str) -> list[dict[str, Any]]:
    """Events whose parent or root run is the DAG run (dbt-ol nests model runs under the task's run)."""
    def parent_of(event: dict[str, Any]) -> dict[str, Any]:
        return event["run"].get("facets", {}).get("parent", {})

    return [e for e in events if dag_run_ol in (parent_of(e).get("run", {}).get("runId"),
                                                (parent_of(e).get("root") or {}).get("run", {}).get("runId"))]


def _schema(dataset: dict[str, Any]) -> dict[str, str]:
    return {f["name"]: f["type"] for f in dataset["facets"]["schema"]["fields"]}


def _finished(dag_id: str, run_id: str) -> Any:
    """The provider's DAG-run COMPLETE or FAIL of that run: it follows the run's task events."""
    def predicate(e: dict[str, Any]) -> bool:
        dag_run = ((e["run"].get("facets") or {}).get("airflowDagRun") or {}).get("dagRun") or {}
        return e["job"]["name"] == dag_id and e["eventType"] in ("COMPLETE", "FAIL") and dag_run.get("run_id") == run_id
    return predicate


@pytest.mark.airflow
@pytest.mark.dbt
@pytest.mark.openlineage
def test_gl_landing_loads_only_the_first_part_and_month_end_close_goes_green(airflow, airflow_api,
                                                                           lineage_events) -> None:
    home = airflow.dw_home
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

    events = lineage_events.wait_for(_finished("month_end_close", close["dag_run_id"]), "month_end_close COMPLETE")
    gl_run = dag_run_ol_id(events, "gl_landing", run_id)
    load_events = [e for e in _events_under(events, gl_run)
                   if (e["job"]["namespace"], e["job"]["name"]) == ("airflow://local", "gl_landing.load")]
    assert [e["eventType"] for e in load_events] == ["START", "COMPLETE"]
    assert len({e["run"]["runId"] for e in load_events}) == 1
    complete = load_events[-1]
    assert complete["producer"].startswith("https://github.com/apache/airflow/tree/providers-openlineage/")
    assert complete["job"]["facets"]["jobType"]["jobType"] == "TASK"
    assert complete["run"]["facets"]["airflow"]["dagRun"]["run_id"] == run_id
    assert [(i["namespace"], i["name"]) for i in complete["inputs"]] == [("file://", str(part1))]
    (output,) = complete["outputs"]
    assert (output["namespace"], output["name"]) == (f"duckdb://{finance_db}", "finance.bronze.gl_entries")
    assert output["outputFacets"]["outputStatistics"]["rowCount"] == rows
    assert _schema(output)["export_date"] == "DATE"

    close_run = dag_run_ol_id(events, "month_end_close", close["dag_run_id"])
    under_close = _events_under(events, close_run)
    (task_start,) = [e for e in under_close if e["job"]["name"] == "month_end_close.dbt_build"
                     and e["eventType"] == "START"]
    # dbt-ol's run hangs under the provider's task run, with the DAG run as its root
    dbt_run = [e for e in under_close if e["job"]["name"].startswith("dbt-run-")]
    assert dbt_run and {e["run"]["facets"]["parent"]["run"]["runId"] for e in dbt_run} == {task_start["run"]["runId"]}
    assert any(e["eventType"] == "COMPLETE" and e["job"]["name"].endswith("fct_trial_balance")
               for e in under_close), sorted({e["job"]["name"] for e in under_close})

    # the month-end story's lineage, from these events alone (no airflow.task_outputs): the landed
    # file -> gl_landing.load -> gl_entries -> dbt's close chain -> the trial balance
    settings = build_settings(home)
    process_new_events(settings, lineage_events.store, intake=intake_signal, ingest=False)
    graph = ContextGraph()
    feed_graph(graph, settings, lineage_events.store)
    upstream = {n.id for n in graph.trace("analytics.fct_trial_balance", max_depth=None,
                                          include_orchestration=True).nodes}
    assert {"analytics.int_gl_by_entity", "analytics.stg_gl_entries", "finance.bronze.gl_entries",
            "airflow:gl_landing.load", f"file:{part1}"} <= upstream, sorted(upstream)


def _orders_clean_complete(events: list[dict[str, Any]], run_id: str) -> dict[str, Any]:
    (complete,) = [e for e in _events_under(events, dag_run_ol_id(events, "orders_daily", run_id))
                   if e["job"]["name"] == "orders_daily.orders_clean" and e["eventType"] == "COMPLETE"]
    return complete


@pytest.mark.airflow
@pytest.mark.dbt
@pytest.mark.openlineage
def test_orders_daily_fails_in_dbt_once_the_discount_turns_to_text(airflow, airflow_api, lineage_events) -> None:
    home = airflow.dw_home

    clean_run = airflow_api.trigger("orders_daily")
    assert airflow_api.wait_for_run("orders_daily", clean_run)["state"] == "success", \
        airflow_api.task_states("orders_daily", clean_run)
    events = lineage_events.wait_for(_finished("orders_daily", clean_run), "orders_daily COMPLETE")
    complete = _orders_clean_complete(events, clean_run)
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
    events = lineage_events.wait_for(_finished("orders_daily", broken_run), "orders_daily FAIL")
    (output,) = _orders_clean_complete(events, broken_run)["outputs"]
    assert _schema(output)["discount"] == "VARCHAR"
    with duckdb.connect(str(home / "warehouse" / "lake.duckdb"), read_only=True) as con:
        (na_in_lake,) = con.execute("SELECT count(*) FROM orders_clean WHERE discount = 'N/A'").fetchone()
    assert na_in_lake == len(na_orders)

    under_run = _events_under(events, dag_run_ol_id(events, "orders_daily", broken_run))
    failures = [e for e in under_run if e["eventType"] == "FAIL" and "errorMessage" in e["run"]["facets"]]
    assert any("N/A" in e["run"]["facets"]["errorMessage"]["message"] for e in failures), \
        [(e["job"]["name"], e["run"]["facets"]["errorMessage"]["message"][:200]) for e in failures]
    # the provider's own FAIL of the Airflow task, with the task's error
    (task_fail,) = [e for e in failures if e["job"]["name"] == "orders_daily.dbt_revenue"]
    assert task_fail["producer"].startswith("https://github.com/apache/airflow/tree/providers-openlineage/")

    # the sensor's pass over the live events: the schema change and one failure signal, on the model
    settings = build_settings(home)
    result = process_new_events(settings, lineage_events.store, intake=intake_signal, ingest=False, limit=100_000)
    changes = {(c["dataset_id"], c["column"], c["new_type"]) for c in result.schema_changes}
    assert ("lake.orders_clean", "discount", "VARCHAR") in changes
    assert [s.dataset_id for s in result.signals if s.details["root_run_id"] == dag_run_ol_id(
        events, "orders_daily", broken_run)] == ["analytics.fct_revenue"]


def test_load_replaces_the_partition_with_the_parts_present(dw_home) -> None:
    tasks = _estate_tasks()
    part1 = write_gl_export_part(dw_home, NIGHT1_EXPORT_DATE, 1, parts=2)
    first = tasks.load_gl_export("2026-09-30", "gl_{export_date}_*.csv")
    part2 = write_gl_export_part(dw_home, NIGHT1_EXPORT_DATE, 2, parts=2)
    second = tasks.load_gl_export("2026-09-30", "gl_{export_date}_*.csv")

    assert first["rows"] == csv_data_rows(part1)
    assert second["rows"] == csv_data_rows(part1) + csv_data_rows(part2)
    with duckdb.connect(str(dw_home / "warehouse" / "finance.duckdb"), read_only=True) as con:
        rows_by_file = dict(con.execute("SELECT source_file, count(*) FROM bronze.gl_entries GROUP BY 1").fetchall())
    assert rows_by_file == {part1.name: csv_data_rows(part1), part2.name: csv_data_rows(part2)}
    # what the task returns for the provider: the files read, the table written with schema and rows
    lineage = second["lineage"]
    assert [(i["namespace"], i["name"]) for i in lineage["inputs"]] == [("file://", str(part1)), ("file://", str(part2))]
    (output,) = lineage["outputs"]
    finance_db = dw_home / "warehouse" / "finance.duckdb"
    assert (output["namespace"], output["name"], output["rows"]) == (f"duckdb://{finance_db}",
                                                                     "finance.bronze.gl_entries", second["rows"])
    assert dict(output["schema"])["export_date"] == "DATE"
    planned = tasks.planned_gl_export("2026-09-30", "gl_{export_date}_*.csv")
    assert planned == {"inputs": lineage["inputs"],
                       "outputs": [{"namespace": f"duckdb://{finance_db}", "name": "finance.bronze.gl_entries"}]}


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
        result = tasks.load_gl_export("2026-09-30", "gl_{export_date}_*.csv")
    finally:
        holder.wait(30)
    assert result["rows"] > 0


def test_orders_clean_keeps_the_application_column_types(dw_home) -> None:
    tasks = _estate_tasks()
    build_orders(EstatePaths.of(dw_home), seed=7)
    before = tasks.clean_orders()
    na_orders = break_orders_discount(dw_home)
    after = tasks.clean_orders()

    assert before["schema"]["discount"] == "DECIMAL(18,2)"
    assert after["schema"]["discount"] == "VARCHAR"
    assert after["rows"] == before["rows"]
    with duckdb.connect(str(dw_home / "warehouse" / "lake.duckdb"), read_only=True) as con:
        (na,) = con.execute("SELECT count(*) FROM orders_clean WHERE discount = 'N/A'").fetchone()
    assert na == len(na_orders)
    # the schema the provider reports is the one written, read back from the lake
    assert [dict(r["lineage"]["outputs"][0]["schema"])["discount"] for r in (before, after)] == \
        ["DECIMAL(18,2)", "VARCHAR"]
    assert dict(after["lineage"]["inputs"][0]["schema"])["discount"] == "VARCHAR"


def test_the_task_code_emits_no_lineage_of_its_own() -> None:
    """Airflow's provider is the one path: nothing under estate/dags talks to OpenLineage itself."""
    for path in sorted(DAGS.rglob("*.py")):
        source = path.read_text()
        assert "OpenLineageClient" not in source and ".emit(" not in source, path

"""Plans checked against their cause: no rerun that would fail the same way, append vs replace read
from the load's code (or the table's history), a partition emptied before an appending load is
rerun, and an undo that says what the step really does."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from dw_assets.config import DomainConfig, Settings
from dw_assets.connectors.airflow.models import DagRun
from dw_assets.core.causes import Cause
from dw_assets.core.fixes import ProposedFix
from dw_assets.core.graph import ContextGraph, Provenance
from dw_assets.core.load_mode import mode_from_code, mode_from_history
from dw_assets.operations.remediation import propose_plan
from tests.support.airflow_doubles import RecordedAirflow
from tests.support.settings import build_settings

T0 = datetime(2026, 3, 2, 6, 0, tzinfo=UTC)
DAG = '''
from airflow.sdk import DAG
from airflow.providers.standard.operators.python import PythonOperator
from clicks_tasks import load_clicks

with DAG(dag_id="clicks_hourly", schedule="@hourly"):
    PythonOperator(task_id="ingest", python_callable=load_clicks)
'''
APPEND = ('def load_clicks(day):\n    con.execute("INSERT INTO raw.clicks SELECT * FROM read_json(?)", [day])\n\n\n'
          'def rebuild_pages():\n    con.execute("CREATE OR REPLACE TABLE raw.pages AS SELECT 1")\n')
REPLACE = ('def load_clicks(day):\n    con.execute("DELETE FROM raw.clicks WHERE day = ?", [day])\n'
           '    con.execute("INSERT INTO raw.clicks SELECT * FROM read_json(?)", [day])\n')


def clicks_airflow() -> RecordedAirflow:
    return RecordedAirflow(runs=[DagRun(dag_id="clicks_hourly", run_id="r2", state="success", logical_date=None,
                                        run_after=T0, start_date=T0, end_date=T0 + timedelta(minutes=1),
                                        conf={"day": "2026-03-01"}, run_type="manual")])


def _estate(tmp_path, tasks_code: str) -> Settings:
    repo = tmp_path / "clicks-repo"
    (repo / "dags").mkdir(parents=True)
    (repo / "dags" / "clicks.py").write_text(DAG)
    (repo / "dags" / "clicks_tasks.py").write_text(tasks_code)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return build_settings(domains=[DomainConfig(name="web", datasets=["raw.*"], owner="kim", repo=str(repo))],
                          checks=[{"dataset": "raw.clicks", "volume": {"partition_column": "day"}}])


def _graph() -> ContextGraph:
    g = ContextGraph()
    g.add_node("airflow:clicks_hourly.ingest", "task", "airflow")
    g.add_node("raw.clicks", "dataset", "warehouse")
    g.add_edge("airflow:clicks_hourly.ingest", "raw.clicks", "writes", Provenance("config"))
    return g


def _incident(kind: str, **details):
    return SimpleNamespace(id="INC-9", dataset_id="raw.clicks", severity="high", title="clicks", evidence={},
                           causes=[Cause.from_dict({"kind": kind, "title": kind, "details": details, "evidence": []})],
                           proposed_fixes=[ProposedFix.from_dict({"cause_kind": kind, "kind": "recommendation",
                                                                  "rationale": f"advice for {kind}"})],
                           signals=[{"details": {"partition": "2026-03-01"}}], blast_radius=[])


def test_load_mode_from_code_and_history():
    assert mode_from_code(APPEND.split("\n\n\n")[0]).mode == "append" and mode_from_code(REPLACE).mode == "replace"
    assert mode_from_code("df.to_sql('t', con, if_exists='append')").mode == "append"
    assert mode_from_code("CREATE OR REPLACE TABLE x AS SELECT 1").mode == "replace"
    assert mode_from_code("print('hi')").mode == "unknown"
    assert mode_from_history(2, 500).mode == "append" and mode_from_history(2, 0).mode == "replace"
    assert mode_from_history(1, 0).mode == "unknown"


def test_duplicated_appending_load_is_emptied_first_with_a_real_undo(tmp_path):
    plan = propose_plan(_estate(tmp_path, APPEND), _incident("duplicated_load"), graph=_graph(), client=clicks_airflow(),
                        instance="local", now=T0)
    (step,) = plan.steps
    assert plan.plan_class == "dedupe_then_reload" and not plan.reversible
    assert "appends" in step.description and "DELETE FROM raw.clicks WHERE day = '2026-03-01'" in step.description
    assert "load_clicks, called by task ingest" in step.description  # the task's own code, not its neighbour's
    assert "CREATE TABLE raw.clicks__dw_backup_20260301" in step.description
    assert "INSERT INTO raw.clicks SELECT * FROM raw.clicks__dw_backup_20260301" in plan.undo.description
    assert "replaces" not in plan.undo.description


def test_duplicated_replacing_load_is_rerun_once(tmp_path):
    plan = propose_plan(_estate(tmp_path, REPLACE), _incident("duplicated_load"), graph=_graph(), client=clicks_airflow(),
                        instance="local", now=T0)
    assert plan.plan_class == "reload_partition" and "replaces its partition" in plan.steps[0].description
    assert "dags/clicks_tasks.py (load_clicks, called by task ingest) has `DELETE FROM`" in plan.steps[0].description


@pytest.mark.parametrize("kind", ["missing_input", "bad_code", "conversion_error", "connection_error",
                                  "quota_exceeded", "permission_error"])
def test_a_rerun_that_would_fail_the_same_way_comes_after_the_fix(tmp_path, kind):
    plan = propose_plan(_estate(tmp_path, REPLACE), _incident(kind), graph=_graph(), client=clicks_airflow(),
                        instance="local", now=T0)
    assert plan.plan_class == "fix_then_rerun" and not plan.reversible  # never autonomous (not reload_partition)
    assert plan.steps[0].description.startswith(f"first fix the cause (advice for {kind}); then")
    assert plan.summary.startswith("First fix the cause")


def test_a_failed_appending_load_is_fixed_then_rerun_without_emptying(tmp_path):
    plan = propose_plan(_estate(tmp_path, APPEND), _incident("missing_input"), graph=_graph(), client=clicks_airflow(),
                        instance="local", now=T0)
    assert plan.plan_class == "fix_then_rerun" and "DELETE FROM" not in plan.steps[0].description
    assert "appends" in plan.undo.description  # the undo says what the rerun really does

"""Diff generators against copies of the real DAG files and staging model in a throwaway git repo,
checked with `git apply --check`; the read-only git connector's refusals."""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import duckdb
import pytest

from dw_assets.config import DomainConfig
from dw_assets.connectors.git import GitRepo, GitWriteRefused, PullRequestsDisabled
from dw_assets.connectors.git_host import open_pull_request
from dw_assets.core.fixes import ProposedFix, find_casts, safe_cast_edit, sensor_marker_edit, unified_diff

REPO = Path(__file__).resolve().parents[2]
REAL_FILES = ["estate/dags/airflow3/gl_landing.py", "estate/dags/airflow2/gl_landing.py",
              "dbt_project/models/staging/stg_orders.sql"]

STAND_INS = {
    "file_sensor.py": '''from airflow.sensors.filesystem import FileSensor

wait = FileSensor(task_id="wait", filepath="/landing/ap_{{ ds_nodash }}_*.csv", poke_interval=30)
''',
    "glob_join.py": '''import glob
import os

from airflow.sensors.python import PythonSensor


def export_ready(day):
    pattern = os.path.join("/data/in", f"inv_{day}-*.parquet")
    return len(glob.glob(pattern)) > 0


s = PythonSensor(task_id="s", python_callable=export_ready)
''',
    "task_sensor.py": '''from pathlib import Path

from airflow.sdk import task

LANDING = Path("/landing")


@task.sensor(poke_interval=10)
def parts_landed(day: str) -> bool:
    return any(LANDING.glob(f"sales_{day}_part*.csv"))
''',
}


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def owner_repo(tmp_path: Path) -> GitRepo:
    """A throwaway repo holding copies of the real files (and realistic stand-ins)."""
    root = tmp_path / "owner"
    for rel in REAL_FILES:
        src = REPO / rel
        if not src.exists():
            pytest.skip(f"{rel} is not in the repo yet")
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, root / rel)
    for name, text in STAND_INS.items():
        (root / "dags" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "dags" / name).write_text(text)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "estate")
    return GitRepo(root)


@pytest.mark.parametrize("rel", REAL_FILES[:2] + [f"dags/{n}" for n in STAND_INS])
def test_sensor_diff_waits_for_the_done_marker_and_applies(owner_repo: GitRepo, rel: str):
    source = owner_repo.read(rel)
    edit = sensor_marker_edit(rel, source)
    assert edit is not None
    check = owner_repo.apply_check(edit.diff())
    assert check.ok, check.output
    ast.parse(edit.after)
    assert ".done" in edit.after
    if "FileSensor" not in source:
        assert "*" in edit.after  # a callable keeps its glob and also requires the marker
    assert sensor_marker_edit(rel, edit.after) is None  # a fixed file is left alone


def test_sensor_marker_is_named_by_the_landing_convention(owner_repo: GitRepo):
    after = sensor_marker_edit("x.py", owner_repo.read(REAL_FILES[0])).after
    assert 'EXPORT_DONE_MARKER = "gl_{export_date}.done"' in after
    glob_join = sensor_marker_edit("y.py", STAND_INS["glob_join.py"]).after
    assert 'os.path.exists(os.path.join("/data/in", f"inv_{day}.done"))' in glob_join
    file_sensor = sensor_marker_edit("z.py", STAND_INS["file_sensor.py"]).after
    assert 'filepath="/landing/ap_{{ ds_nodash }}.done"' in file_sensor


def test_one_diff_for_every_file_defining_the_dag(owner_repo: GitRepo):
    edits = [sensor_marker_edit(rel, owner_repo.read(rel)) for rel in REAL_FILES[:2]]
    diff = unified_diff(edits)
    assert diff.count("diff --git") == 2
    assert owner_repo.apply_check(diff).ok


def test_cast_diff_handles_the_sentinels_and_still_runs(owner_repo: GitRepo, tmp_path: Path):
    rel = REAL_FILES[2]
    sql = owner_repo.read(rel)
    assert [s.column for s in find_casts(sql, "discount")] == ["discount"]
    edit = safe_cast_edit(rel, sql, "discount", ["N/A"])
    assert owner_repo.apply_check(edit.diff()).ok
    assert find_casts(edit.after, "discount") == []  # no strict cast of the column is left
    assert find_casts(edit.after, "amount")  # other columns are untouched
    con = duckdb.connect()
    con.execute("CREATE TABLE orders_clean AS SELECT * FROM (VALUES ('o1', DATE '2026-09-30', 'c1', 10.0, '1.50', "
                "'completed', TIMESTAMP '2026-10-01 01:05'), ('o2', DATE '2026-09-30', 'c2', 20.0, 'N/A', 'completed', "
                "TIMESTAMP '2026-10-01 01:05')) t(order_id, order_date, customer_id, amount, discount, status, loaded_at)")
    compiled = edit.after.replace("{{ source('lake', 'orders_clean') }}", "orders_clean")
    with pytest.raises(duckdb.ConversionException):
        con.execute(sql.replace("{{ source('lake', 'orders_clean') }}", "orders_clean")).fetchall()
    rows = dict(con.execute(f"SELECT order_id, discount FROM ({compiled})").fetchall())
    assert float(rows["o1"]) == 1.5 and rows["o2"] is None


def test_cast_diff_rewrites_double_colon_casts_and_keeps_jinja():
    sql = "select {{ dbt_utils.star(ref('x')) }}, o.qty::int as qty, try_cast(qty as int) as q2 from {{ ref('x') }} o\n"
    edit = safe_cast_edit("m.sql", sql, "qty", [], dialect="duckdb")
    assert "try_cast(o.qty as int) as qty" in edit.after
    assert "{{ dbt_utils.star(ref('x')) }}" in edit.after and "{{ ref('x') }}" in edit.after


def test_git_connector_refuses_writes_before_running_anything(owner_repo: GitRepo):
    with pytest.raises(GitWriteRefused):
        owner_repo.commit()
    with pytest.raises(GitWriteRefused):
        owner_repo.push()
    for args in (("commit", "-m", "x"), ("push",), ("apply", "-"), ("merge", "main"), ("checkout", ".")):
        with pytest.raises(GitWriteRefused):
            owner_repo._run(*args)


def test_pull_requests_are_off_by_default(owner_repo: GitRepo):
    with pytest.raises(PullRequestsDisabled, match="off"):
        open_pull_request(DomainConfig(name="finance"), owner_repo.root, ProposedFix("c", "t", "r", kind="diff", diff="d"),
                          incident_id="INC-1")


def test_recent_commits_name_the_paths_and_changed_lines(owner_repo: GitRepo):
    from datetime import UTC, datetime, timedelta

    rel = REAL_FILES[2]
    (owner_repo.root / rel).write_text(owner_repo.read(rel).replace("as discount", "as discount_amount"))
    _git(owner_repo.root, "-c", "user.name=sam", "-c", "user.email=s@s", "commit", "-qam", "rename discount")
    commits = owner_repo.recent_commits([rel], since=datetime.now(UTC) - timedelta(hours=1))
    assert commits[0].author == "sam" and commits[0].paths == (rel,)
    assert any("discount_amount" in line for line in commits[0].changed_lines)


def test_the_marker_suffix_comes_from_a_sensor_that_already_waits_for_one():
    from dw_assets.diagnosis.propose import marker_suffix_in

    other_dag = 'FileSensor(task_id="wait", filepath="/landing/orders/{{ ds_nodash }}.ok")'
    assert marker_suffix_in(other_dag) == ".ok"
    assert marker_suffix_in('FileSensor(filepath="/landing/x/_SUCCESS")') == "_SUCCESS"
    assert marker_suffix_in('FileSensor(filepath="/landing/x_*.csv")') is None


_IMPORTED_GLOB = '''import glob
import os

from airflow.providers.standard.sensors.python import PythonSensor
from airflow.sdk import DAG
from landing_conf import CLICKS_GLOB


def clicks_landed(day):
    return bool(glob.glob(os.path.join("/landing", CLICKS_GLOB.format(day=day))))


with DAG(dag_id="web_events"):
    PythonSensor(task_id="await_drop", python_callable=clicks_landed, op_args=["{{ ds_nodash }}"])
'''


@pytest.mark.parametrize("held", ["CLICKS_GLOB", 'Variable.get("clicks_glob")'])
def test_a_glob_held_elsewhere_gets_its_marker_derived_where_it_is_used(held):
    source = _IMPORTED_GLOB.replace("CLICKS_GLOB.format", f"{held}.format")
    edit = sensor_marker_edit("dags/web_events.py", source, ".ok")
    assert edit is not None
    guard = next(line for line in edit.after.splitlines() if line.strip().startswith("if not os.path.exists"))
    assert f'({held}.split("*", 1)[0].rstrip("_-.") + ".ok").format(day=day)' in guard
    # run against the value the glob holds, the derived marker is what the landing convention names
    from types import SimpleNamespace

    held_value = {"CLICKS_GLOB": "clicks_{day}_*.csv",
                  "Variable": SimpleNamespace(get=lambda key: "clicks_{day}_*.csv")}
    assert eval(f'({held}.split("*", 1)[0].rstrip("_-.") + ".ok")', held_value) == "clicks_{day}.ok"


_GLOB_IN_A_LOCAL = '''import glob
import os

from airflow.providers.standard.sensors.python import PythonSensor


def parts_landed(landing):
    pattern = os.path.join(landing, "orders_*.csv")
    expected = 4
    return len(glob.glob(pattern)) >= expected


PythonSensor(task_id="await_orders", python_callable=parts_landed, op_args=["/landing"])
'''


def test_a_glob_held_in_a_local_is_found_past_other_assignments():
    # another assignment between the local and the glob call used to crash the drafter (AttributeError)
    edit = sensor_marker_edit("dags/orders.py", _GLOB_IN_A_LOCAL)
    assert edit is not None
    guard = next(line for line in edit.after.splitlines() if line.strip().startswith("if not os.path.exists"))
    assert guard.strip() == 'if not os.path.exists(os.path.join(landing, "orders.done")):'
    assert "expected = 4" in edit.after and 'pattern = os.path.join(landing, "orders_*.csv")' in edit.after

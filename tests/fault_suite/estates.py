"""Two small estates of their own, of different shapes from the demo, and the faults injected into
them as the collectors would report them (evidence-level: the Airflow task logs' error lines, run
states, schema history and drift, warehouse profiles, commits).

Estate A, `web` (append-only events + a dbt project with tests): DAG `web_events` with a FileSensor
`await_drop` and a task `ingest_clicks` that appends `landing/clicks_{day}_*.csv` to `web.raw.clicks`
(INSERT INTO); dbt models `web.stg_clicks` (tests: unique click_id, not_null visitor_ref) and
`web.fct_visits`, read by the `growth_board` exposure.

Estate B, `supply` (several DAGs chained by Assets): `vendor_feed.fetch_prices` writes
`supply.raw.prices` (an Asset), which schedules `pricing.build_index` -> `supply.mart.price_index`
(an Asset), which schedules `replenish.plan_orders` -> `supply.mart.order_plan`.

Every fault carries the distractors an ordinary night has: an unrelated recent commit, a harmless
added column, a failure elsewhere that recovered and a concurrent failure in another DAG.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from dw_assets.core.evidence import (
    Commit,
    EvidenceBundle,
    GraphNode,
    LandedFile,
    ModelSource,
    PartitionProfile,
    SchemaChange,
    Symptom,
    TaskRun,
    classify_log,
    error_lines,
)

T0 = datetime(2026, 11, 17, 7, 30, tzinfo=UTC)
DAY = "2026-11-16"


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def bundle(symptom: Symptom, **parts) -> EvidenceBundle:
    window = (symptom.observed_at - timedelta(hours=48), symptom.observed_at + timedelta(minutes=1))
    d = distractors()
    merged = {"task_runs": d["task_runs"] + tuple(parts.pop("task_runs", ())),
              "schema_changes": d["schema_changes"] + tuple(parts.pop("schema_changes", ())),
              "commits": tuple(parts.pop("commits", ())) + d["commits"]}
    return EvidenceBundle(symptom, window, **merged, **parts)


def distractors() -> dict:
    return {
        "task_runs": (
            TaskRun("airflow", "hr_sync", "pull_people", "h-1", "failed", at(-400), at(-395),
                    outputs=("hr.people",), error_message="httpx.ConnectError: [Errno 111] Connection refused"),
            TaskRun("airflow", "hr_sync", "pull_people", "h-2", "success", at(-380), at(-370), outputs=("hr.people",)),
            TaskRun("airflow", "billing_export", "to_s3", "b-7", "failed", at(-20), at(-15),
                    outputs=("billing.invoices",), error_message="MemoryError"),
        ),
        "schema_changes": (SchemaChange("web.raw.clicks", "utm_term", "added", at(-90), None, "VARCHAR"),
                           SchemaChange("supply.raw.prices", "source_batch", "added", at(-90), None, "VARCHAR")),
        "commits": (Commit("/repos/data", "9f8e7d6c5b", "ola", at(-45), "docs: tidy the README", ("README.md",),
                           ("+Data platform",)),),
    }


def failed_try(dag: str, task: str, run_id: str, log: list[str], *, outputs=(), start=-30, end=-28, tries=2,
               conf=None) -> TaskRun:
    """A failed try as the collector reports it: the error lines of its Airflow log, the classified one
    as the run's error."""
    lines = error_lines("\n".join(["INFO - Dependencies all met", "INFO - Starting attempt 2 of 2", *log,
                                   "INFO - Marking task as FAILED."]))
    _, line = classify_log(lines)
    return TaskRun("airflow", dag, task, run_id, "failed", at(start), at(end), try_number=tries, max_tries=tries,
                   conf=conf or {}, outputs=tuple(outputs), error_message=line, log_lines=lines)


# ---- estate A: web -------------------------------------------------------------------------------

A_INGEST = GraphNode("airflow:web_events.ingest_clicks", "task", "airflow", 1, "dags/web_events.py",
                     feeds=("web.raw.clicks",))
A_STG = ModelSource("web.stg_clicks", "stg_clicks", "web_dbt/models/stg_clicks.sql",
                    "select click_id, visitor_ref, cast(dwell_ms as bigint) as dwell_ms, day\n"
                    "from {{ source('raw', 'clicks') }}")


def _a_failed_ingest(log: list[str]) -> EvidenceBundle:
    run = failed_try("web_events", "ingest_clicks", f"scheduled__{DAY}", log, outputs=("web.raw.clicks",),
                     conf={"day": DAY})
    return bundle(Symptom("failure", "web.raw.clicks", at(0), "web_events.ingest_clicks failed",
                          job="web_events.ingest_clicks"), upstream=(A_INGEST,), task_runs=(run,))


def a_missing_input():
    return _a_failed_ingest(["Traceback (most recent call last):", '  File "/dags/web_tasks.py", line 31, in ingest',
                             ('duckdb.duckdb.IOException: IO Error: No files found that match the pattern '
                             '"/landing/clicks_20261116_*.csv"')])


def a_conversion():
    return _a_failed_ingest(["Traceback (most recent call last):",
                             "ValueError: invalid literal for int() with base 10: 'N/A'"])


def a_schema_mismatch():
    return _a_failed_ingest([("duckdb.duckdb.BinderException: Binder Error: table clicks has 6 columns but 7 values "
                             "were supplied")])


def a_quota():
    return _a_failed_ingest([("google.api_core.exceptions.TooManyRequests: 429 Quota exceeded for quota metric "
                             "'Read requests'")])


def a_timeout():
    return _a_failed_ingest(["ERROR - Task failed with exception",
                             "airflow.exceptions.AirflowTaskTimeout: Timeout, PID: 3117"])


def a_bad_code_no_commit():
    return _a_failed_ingest(['  File "/dags/web_tasks.py", line 12', "    def ingest(day)",
                             "SyntaxError: expected ':'"])


def a_duplicated_load():
    runs = tuple(TaskRun("airflow", "web_events", "ingest_clicks", f"manual__{i}", "success", at(-120 + 40 * i),
                         at(-117 + 40 * i), conf={"day": DAY}, outputs=("web.raw.clicks",)) for i in range(2))
    profile = PartitionProfile("web.raw.clicks", "day", DAY, 412_000, {"clicks_20261116_0.csv": 412_000}, {}, None,
                               "click_id", 206_000, (205_400, 207_100, 204_900))
    files = (LandedFile("clicks_20261116_0.csv", at(-130), 206_000, dataset_id="web.raw.clicks", partition=DAY),)
    return bundle(Symptom("volume_high", "web.raw.clicks", at(0), "web.raw.clicks at 200% of its weekday",
                          partition=DAY), upstream=(A_INGEST,), task_runs=runs, profiles=(profile,),
                  landed_files=files)


def a_dbt_unique_test():
    """dbt's unique test on stg_clicks.click_id fails: the incident is on the tested model (its audit
    relation resolved through the manifest), the rows are duplicated upstream by a second load."""
    ev = a_duplicated_load()
    symptom = Symptom("check_failed", "web.stg_clicks", at(10), "dbt test unique_stg_clicks_click_id failed: "
                      "Got 206000 results, configured to fail if != 0", partition=DAY,
                      metrics={"dbt_test": "unique_stg_clicks_click_id", "failures": 206_000})
    upstream = (GraphNode("web.raw.clicks", "source", "warehouse", 1), A_INGEST.__class__(
        A_INGEST.node_id, "task", "airflow", 2, A_INGEST.file_path, feeds=A_INGEST.feeds))
    return EvidenceBundle(symptom, ev.window, upstream=upstream, task_runs=ev.task_runs, profiles=ev.profiles,
                          landed_files=ev.landed_files, schema_changes=ev.schema_changes, commits=ev.commits,
                          models=(A_STG,))


def a_missed_run():
    missed = {"dag_id": "web_events", "kind": "missed", "expected_at": at(-90).isoformat(), "schedule": "0 6 * * *",
              "last_run": {"run_id": "scheduled__2026-11-14", "state": "success", "start": at(-2970).isoformat()}}
    return bundle(Symptom("stale", "web.raw.clicks", at(0), "web_events should have run at 06:00 and did not",
                          job="web_events", metrics={"missed_run": missed}), upstream=(A_INGEST,))


# ---- estate B: supply (DAGs chained by Assets) ---------------------------------------------------

B_FETCH = GraphNode("airflow:vendor_feed.fetch_prices", "task", "airflow", 1, "dags/vendor_feed.py",
                    feeds=("supply.raw.prices",))
B_INDEX_MODEL = ModelSource("supply.mart.price_index", "price_index", "dags/sql/price_index.sql",
                            "select sku, avg(cast(price as bigint)) as price from supply.raw.prices group by sku")


def _b_upstream(depth0: str = "supply.mart.price_index") -> tuple[GraphNode, ...]:
    return (GraphNode("airflow:pricing.build_index", "task", "airflow", 1, "dags/pricing.py", feeds=(depth0,)),
            GraphNode("supply.raw.prices", "dataset", "warehouse", 2),
            GraphNode(B_FETCH.node_id, "task", "airflow", 3, B_FETCH.file_path, feeds=B_FETCH.feeds))


def _b_failed_fetch(log: list[str], commits=()) -> EvidenceBundle:
    run = failed_try("vendor_feed", "fetch_prices", "scheduled__2026-11-17T05", log, outputs=("supply.raw.prices",))
    return bundle(Symptom("failure", "supply.raw.prices", at(0), "vendor_feed.fetch_prices failed",
                          job="vendor_feed.fetch_prices"), upstream=(B_FETCH,), task_runs=(run,), commits=commits)


def b_connection():
    return _b_failed_fetch(["httpx.ConnectError: [Errno -2] Name or service not known",
                            "ERROR - could not reach prices.vendor.example"])


def b_permission():
    return _b_failed_fetch([('psycopg.OperationalError: connection to server at "10.0.0.5", port 5432 failed: '
                            'FATAL:  password authentication failed for user "feed_loader"')])


def b_duplicate_key():
    return _b_failed_fetch([('psycopg.errors.UniqueViolation: duplicate key value violates unique constraint '
                            '"prices_pkey"'), 'DETAIL:  Key (sku, day)=(A-17, 2026-11-16) already exists.'])


def b_bad_code_after_commit():
    commit = Commit("/repos/data", "4b3c2d1e0f", "ravi", at(-180), "vendor_feed: parse with orjsn",
                    ("dags/vendor_feed.py",), ("+import orjsn", "-import json"))
    return _b_failed_fetch(["Traceback (most recent call last):", '  File "/dags/vendor_feed.py", line 3',
                            "ModuleNotFoundError: No module named 'orjsn'"], commits=(commit,))


def b_out_of_memory():
    run = failed_try("pricing", "build_index", "asset_triggered__1", ["INFO - building index over 48M rows",
                     "ERROR - Task exited with return code Negsignal.SIGKILL"], outputs=("supply.mart.price_index",))
    return bundle(Symptom("failure", "supply.mart.price_index", at(0), "pricing.build_index failed",
                          job="pricing.build_index"), upstream=_b_upstream(), task_runs=(run,))


def b_type_change_from_drift():
    """Day one: no lineage history, but the drift check's baseline says price was BIGINT; the index
    build casts it and fails on 'N/A'."""
    msg = 'Conversion Error: Could not convert string "N/A" to INT64 when casting from source column price'
    run = failed_try("pricing", "build_index", "asset_triggered__2", [msg], outputs=("supply.mart.price_index",))
    drift = SchemaChange("supply.raw.prices", "price", "type_changed", at(-200), "BIGINT", "VARCHAR",
                         source="schema_drift (warehouse information_schema vs accepted)")
    return bundle(Symptom("failure", "supply.mart.price_index", at(0), "pricing.build_index failed",
                          job="pricing.build_index", error_message=msg), upstream=_b_upstream(), task_runs=(run,),
                  schema_changes=(drift,), models=(B_INDEX_MODEL,))


def b_dropped_column():
    msg = 'Binder Error: Referenced column "pack_size" not found in FROM clause!'
    run = failed_try("pricing", "build_index", "asset_triggered__3", [msg], outputs=("supply.mart.price_index",))
    drop = SchemaChange("supply.raw.prices", "pack_size", "dropped", at(-150), "INTEGER", None)
    return bundle(Symptom("failure", "supply.mart.price_index", at(0), "pricing.build_index failed",
                          job="pricing.build_index", error_message=msg), upstream=_b_upstream(), task_runs=(run,),
                  schema_changes=(drop,))


def b_failed_upstream_asset():
    """The index is stale because the feed DAG failed with an error of no known class; the Asset never
    updated, so the downstream DAG never ran."""
    failed = failed_try("vendor_feed", "fetch_prices", "scheduled__2026-11-17T05",
                        ["ERROR - vendor answered an empty price list for 2026-11-16"], outputs=("supply.raw.prices",),
                        start=-200, end=-190, tries=3)
    index_run = TaskRun("airflow", "pricing", "build_index", "asset_triggered__0", "success", at(-1500), at(-1490),
                        outputs=("supply.mart.price_index",))
    return bundle(Symptom("stale", "supply.mart.price_index", at(0), "price_index is 25h old"),
                  upstream=_b_upstream(), task_runs=(failed, index_run))


def b_late_upstream():
    consumer = TaskRun("airflow", "replenish", "plan_orders", "r-1", "success", at(-60), at(-50),
                       outputs=("supply.mart.order_plan",), inputs=("supply.mart.price_index",))
    producer = TaskRun("airflow", "pricing", "build_index", "p-1", "success", at(-70), at(-40),
                       outputs=("supply.mart.price_index",))
    upstream = (GraphNode("airflow:replenish.plan_orders", "task", "airflow", 1, feeds=("supply.mart.order_plan",)),
                GraphNode("supply.mart.price_index", "dataset", "warehouse", 2),
                GraphNode("airflow:pricing.build_index", "task", "airflow", 3, feeds=("supply.mart.price_index",)))
    return bundle(Symptom("volume_low", "supply.mart.order_plan", at(0), "order_plan at 40% of its weekday",
                          partition=DAY), upstream=upstream, task_runs=(consumer, producer))


def b_did_not_run_stale():
    """No missed-run signal (the DAG is asset-scheduled): the freshness SLA fails and the writer has no
    run at all in the window."""
    return bundle(Symptom("stale", "supply.mart.price_index", at(0), "price_index is 30h old (SLA 26h)"),
                  upstream=_b_upstream())


@dataclass(frozen=True)
class Fault:
    name: str
    estate: str
    expected: str
    build: Callable[[], EvidenceBundle]


def a_paused_dag():
    """A scheduled rollup left paused: no run was ever created; the audit log names who paused it."""
    missed = {"dag_id": "web_rollup", "kind": "missed", "expected_at": at(-150).isoformat(), "schedule": "30 4 * * *",
              "paused": True, "paused_by": "ola", "paused_at": at(-4000).isoformat(), "last_run": None}
    rollup = GraphNode("airflow:web_rollup.build_rollup", "task", "airflow", 1, "dags/web_events.py",
                       feeds=("web.mart.click_rollup",))
    return bundle(Symptom("stale", "web.mart.click_rollup", at(0), "web_rollup should have run at 04:30 and did not "
                          "(the DAG is paused)", job="web_rollup", metrics={"missed_run": missed}), upstream=(rollup,))


FAULTS = [
    Fault("failed task: no input files", "web", "missing_input", a_missing_input),
    Fault("failed task: 'N/A' in a numeric field", "web", "conversion_error", a_conversion),
    Fault("failed task: more values than columns", "web", "schema_mismatch", a_schema_mismatch),
    Fault("failed task: API quota", "web", "quota_exceeded", a_quota),
    Fault("failed task: execution timeout", "web", "timeout", a_timeout),
    Fault("failed task: syntax error, no recent commit to it", "web", "bad_code", a_bad_code_no_commit),
    Fault("append-only load ran twice", "web", "duplicated_load", a_duplicated_load),
    Fault("dbt unique test fails after a double load", "web", "duplicated_load", a_dbt_unique_test),
    Fault("scheduled load did not run", "web", "did_not_run", a_missed_run),
    Fault("scheduled rollup left paused", "web", "did_not_run", a_paused_dag),
    Fault("failed task: DNS", "supply", "connection_error", b_connection),
    Fault("failed task: credentials", "supply", "permission_error", b_permission),
    Fault("failed task: duplicate key", "supply", "duplicate_key", b_duplicate_key),
    Fault("failed task: import error after a commit", "supply", "code_change", b_bad_code_after_commit),
    Fault("failed task: killed for memory", "supply", "out_of_memory", b_out_of_memory),
    Fault("type change seen only by the drift check", "supply", "upstream_type_change", b_type_change_from_drift),
    Fault("dropped column", "supply", "dropped_column", b_dropped_column),
    Fault("upstream DAG failed, Asset not updated", "supply", "failed_upstream_run", b_failed_upstream_asset),
    Fault("downstream DAG read its input before it was written", "supply", "late_upstream", b_late_upstream),
    Fault("asset-scheduled writer did not run (freshness SLA)", "supply", "did_not_run", b_did_not_run_stale),
]

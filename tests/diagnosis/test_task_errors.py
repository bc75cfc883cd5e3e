"""Failed tasks explained from their own evidence: the failed try's log lines are classified, and the
symptom's own failed run ranks the class's cause first, with its evidence and repair."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dw_assets.connectors.airflow.client import log_text
from dw_assets.core.diagnosis import rank_causes
from dw_assets.core.evidence import (
    Commit,
    EvidenceBundle,
    GraphNode,
    Symptom,
    TaskRun,
    classify_error,
    classify_log,
    error_lines,
)
from dw_assets.core.fix_advice import recommendation_for

T0 = datetime(2026, 3, 2, 6, 0, tzinfo=UTC)

# (a line as the engines and runtimes phrase it, its class, the cause kind)
CASES = [
    ('duckdb.IOException: IO Error: No files found that match the pattern "/land/clicks_20260301_*.json"',
     "missing_input", "missing_input"),
    ("ValueError: invalid literal for int() with base 10: 'N/A'", "conversion", "conversion_error"),
    ("psycopg.errors.InvalidTextRepresentation: invalid input syntax for type bigint: \"unknown\"",
     "conversion", "conversion_error"),
    ("Binder Error: table sessions has 5 columns but 6 values were supplied", "schema_mismatch", "schema_mismatch"),
    ('duplicate key value violates unique constraint "sessions_pkey"', "duplicate_key", "duplicate_key"),
    ("Task exited with return code Negsignal.SIGKILL", "out_of_memory", "out_of_memory"),
    ("MemoryError", "out_of_memory", "out_of_memory"),
    ('could not translate host name "pg.internal" to address: Name or service not known', "connection",
     "connection_error"),
    ("httpx.ConnectError: [Errno 111] Connection refused", "connection", "connection_error"),
    ("google.api_core.exceptions.Forbidden: 403 Quota exceeded for quota metric 'Queries'", "quota", "quota_exceeded"),
    ("ModuleNotFoundError: No module named 'pandsa'", "bad_code", "bad_code"),
    ("SyntaxError: invalid syntax", "bad_code", "bad_code"),
    ('FATAL: password authentication failed for user "loader"', "permission_denied", "permission_error"),
    ("airflow.exceptions.AirflowTaskTimeout: Timeout, PID: 4242", "timeout", "timeout"),
]


@pytest.mark.parametrize(("line", "klass", "_kind"), CASES)
def test_each_error_line_gets_its_class(line, klass, _kind):
    assert classify_error(line).kind == klass


def _ev(line: str, *, commits=(), extra_runs=()) -> EvidenceBundle:
    log = ["[2026-03-02T05:40:00] INFO - Starting attempt 2 of 2", "Traceback (most recent call last):",
           '  File "/opt/dags/clicks.py", line 40, in load', line, "[2026-03-02T05:41:00] ERROR - Task failed"]
    lines = error_lines("\n".join(log))
    _, chosen = classify_log(lines)
    failed = TaskRun("airflow", "clickstream", "ingest_clicks", "scheduled__2026-03-01", "failed", T0 - timedelta(
        minutes=20), T0 - timedelta(minutes=19), try_number=2, max_tries=2, outputs=("raw.clicks",),
        error_message=chosen, log_lines=lines)
    upstream = (GraphNode("airflow:clickstream.ingest_clicks", "task", "airflow", 1, file_path="dags/clicks.py",
                          feeds=("raw.clicks",)),)
    symptom = Symptom("failure", "raw.clicks", T0, "clickstream.ingest_clicks failed", job="clickstream.ingest_clicks")
    return EvidenceBundle(symptom, (T0 - timedelta(hours=48), T0 + timedelta(minutes=1)), upstream=upstream,
                          task_runs=(failed, *extra_runs), commits=tuple(commits))


@pytest.mark.parametrize(("line", "_klass", "kind"), CASES)
def test_the_symptoms_own_failed_run_ranks_its_class_first(line, _klass, kind):
    # a distractor: another DAG failed at the same time, outside the symptom's scope
    elsewhere = TaskRun("airflow", "billing", "export", "manual__9", "failed", T0 - timedelta(minutes=30),
                        T0 - timedelta(minutes=25), error_message="MemoryError", outputs=("billing.invoices",))
    causes = rank_causes(_ev(line, extra_runs=(elsewhere,)))
    top = causes[0]
    assert top.kind == kind, [(c.kind, c.confidence) for c in causes[:3]]
    assert top.explains and top.confidence >= 0.5
    assert "billing" not in top.subject
    if kind not in ("permission_error", "timeout"):
        assert top.details["try_number"] == 2 and top.details["task_id"] == "ingest_clicks"
        assert any(line[:40] in f.text for f in top.facts)
        advice = recommendation_for(top).rationale
        assert "ingest_clicks" in advice and ("rerun" in advice.lower() or "escalate" in advice.lower())


def test_bad_code_after_a_commit_that_names_the_module_is_the_commit():
    commit = Commit("repo", "a" * 40, "kim", T0 - timedelta(hours=3), "switch to pandsa", ("dags/clicks.py",),
                    ("+import pandsa as pd",))
    unrelated = Commit("repo", "b" * 40, "lee", T0 - timedelta(hours=1), "docs", ("README.md",), ("+hello",))
    causes = rank_causes(_ev("ModuleNotFoundError: No module named 'pandsa'", commits=[commit, unrelated]))
    assert causes[0].kind == "code_change" and causes[0].details["sha"] == "a" * 40
    assert "bad_code" in [c.kind for c in causes[:3]]


def test_airflow3_structured_log_and_airflow2_text_read_as_lines():
    structured = [{"event": "::group::Log message source details", "sources": ["/x"]},
                  {"timestamp": "2026-03-02T05:40:00Z", "level": "error", "event": "Task failed with exception",
                   "error_detail": [{"exc_type": "IOException", "exc_value": "IO Error: No files found that match "
                                     "the pattern \"/land/a_*.csv\"", "frames": []}]}]
    text = log_text(structured)
    assert "IOException: IO Error: No files found" in text
    assert classify_log(error_lines(text))[0].kind == "missing_input"
    old_v2 = "[('host1', '[2026-03-02] {taskinstance.py} ERROR - duplicate key value violates unique constraint')]"
    assert classify_log(error_lines(log_text(old_v2)))[0].kind == "duplicate_key"
    assert log_text("plain\ntext") == "plain\ntext" and log_text(None) == ""


def test_a_timestamp_holding_403_is_not_a_permission_error():
    """Airflow 2's bookkeeping line after a failed try: its timestamp's milliseconds are not an HTTP 403,
    so the try's own error (no files) stays the run's class."""
    log = ("[2026-12-01T20:23:38.118+0000] {taskinstance.py:3337} ERROR - Task failed with exception\n"
           '_duckdb.IOException: IO Error: No files found that match the pattern "/land/clicks_20261115_*.csv"\n'
           "[2026-12-01T20:23:38.403+0000] {local_task_job_runner.py:266} INFO - Task exited with return code 1")
    assert classify_error(log.splitlines()[-1]).kind == "other"
    assert classify_log(error_lines(log))[0].kind == "missing_input"
    assert classify_error("HTTP 403 from https://api.example.com/v1/feed").kind == "permission_denied"

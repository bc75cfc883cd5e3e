"""Cause ranking: each cause type's scoring, the two nights, a renamed estate, refutations."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path

import pytest
from diagnosis_evidence import RENAMED, Names, at, night1, night2

from dw_assets.core.causes import PRIOR, UNEXPLAINED_CAP, WEIGHTS
from dw_assets.core.diagnosis import rank_causes
from dw_assets.core.evidence import TaskRun, classify_error

REPO = Path(__file__).resolve().parents[2]


def _fault_script():
    spec = importlib.util.spec_from_file_location("fault_injection_diagnosis",
                                                  REPO / "scripts" / "fault_injection_diagnosis.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FAULTS = _fault_script().SYNTHETIC


@pytest.mark.parametrize(("message", "kind", "column"), [
    ('Conversion Error: Could not convert string "N/A" to DECIMAL(18,2) when casting from source column discount',
     "conversion", "discount"),
    ('invalid input syntax for type numeric: "N/A"', "conversion", None),
    ('Binder Error: Referenced column "amout" not found in FROM clause!', "missing_column", "amout"),
    ("ERROR: column o.discount does not exist", "missing_column", "discount"),
    ("permission denied for table orders", "permission_denied", None),
    ("AirflowTaskTimeout: Timeout, PID: 1", "timeout", None),
    ("KeyError: 'x'", "other", None),
], ids=["duckdb-cast", "postgres-cast", "duckdb-binder", "postgres-column", "permission", "timeout", "other"])
def test_error_messages_are_classified(message, kind, column):
    found = classify_error(message)
    assert (found.kind, found.column) == (kind, column)


@pytest.mark.parametrize(("name", "expected", "build"), FAULTS, ids=[f[1] for f in FAULTS])
def test_each_fault_type_ranks_its_cause_first_with_an_explaining_link(name, expected, build):
    causes = rank_causes(build())
    assert causes[0].kind == expected, [(c.kind, c.confidence) for c in causes]
    assert causes[0].explains
    assert causes[0].confidence > UNEXPLAINED_CAP
    assert causes[-1].kind == "unknown" or any(c.kind == "unknown" for c in causes)


def test_night1_split_export_first_and_the_missing_dates_are_the_late_parts():
    top = rank_causes(night1())[0]
    assert top.kind == "split_export_early_release"
    assert top.subject == "airflow:gl_landing.load"
    assert "2026-09-19" in top.explains and "2026-09-20" in top.explains
    assert "gl_20260930_part0002.csv" in top.explains
    codes = {f.code for f in top.facts}
    assert {"part_after_release", "parts_missing_from_partition", "late_part_covers_gap"} <= codes
    assert top.details["dag_id"] == "gl_landing" and top.details["conf"] == {"export_date": "2026-09-30"}


def test_night2_type_change_first_traced_to_the_application_table():
    top = rank_causes(night2())[0]
    assert top.kind == "upstream_type_change"
    assert top.origin == "app.orders"
    assert top.details["column"] == "discount" and "discount" in top.explains
    assert top.details["sentinels"] == ["N/A"]
    assert top.details["casts"][0]["model"] == "analytics.stg_orders"


@pytest.mark.parametrize("build", [night1, night2], ids=["night1", "night2"])
def test_a_renamed_estate_is_diagnosed_the_same_way(build):
    plain, renamed = rank_causes(build(Names()))[0], rank_causes(build(RENAMED))[0]
    assert renamed.kind == plain.kind
    assert renamed.confidence == plain.confidence
    assert [f.code for f in renamed.facts] == [f.code for f in plain.facts]
    for old in ("gl_landing", "app.orders", "discount", "gl_2026"):
        assert old not in renamed.subject + (renamed.explains or "")


def test_split_export_is_refuted_when_every_part_landed_before_the_load():
    ev = night1()
    early = tuple(replace(f, arrived_at=at(1)) for f in ev.landed_files)
    causes = {c.kind: c for c in rank_causes(replace(ev, landed_files=early))}
    split = causes["split_export_early_release"]
    assert "no_part_after_release" in {f.code for f in split.facts}
    assert split.confidence < rank_causes(ev)[0].confidence - 0.4


def test_type_change_does_not_explain_an_error_about_another_column():
    ev = night2()
    other = ev.symptom.error_message.replace("source column discount", "source column amount")
    cause = next(c for c in rank_causes(replace(ev, symptom=replace(ev.symptom, error_message=other)))
                 if c.kind == "upstream_type_change")
    assert cause.explains is None and cause.confidence <= UNEXPLAINED_CAP
    assert "error_names_other_column" in {f.code for f in cause.facts}


def test_an_upstream_failure_that_recovered_before_the_symptom_is_refuted():
    ev = FAULTS[3][2]()  # failed upstream DAG
    failed = next(r for r in ev.task_runs if r.state == "failed" and r.dag_id == "fx_rates")
    retry = TaskRun("airflow", "fx_rates", "fetch", "s2", "success", at(-40), at(-35), outputs=failed.outputs)
    causes = rank_causes(replace(ev, task_runs=ev.task_runs + (retry,)))
    fx = next(c for c in causes if c.subject == "airflow:fx_rates.fetch")
    assert "recovered_before_symptom" in {f.code for f in fx.facts}
    assert fx.confidence < rank_causes(ev)[0].confidence


def test_with_no_evidence_unknown_is_the_answer():
    ev = night1()
    bare = replace(ev, upstream=(), task_runs=(), landed_files=(), profiles=(), gaps=("airflow: unreachable",))
    assert rank_causes(bare)[0].kind == "unknown"


def test_the_scoring_table_is_documented():
    doc = (REPO / "docs" / "diagnosis.md").read_text()
    missing = [code for code in WEIGHTS if f"`{code}`" not in doc] + [k for k in PRIOR if f"`{k}`" not in doc]
    assert not missing, f"undocumented weights or causes: {missing}"

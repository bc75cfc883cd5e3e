"""A failed dbt model build explains itself: its error comes from dbt's run_results.json (the database
message), so a symptom that carries no error text (plain `dbt`, no FAIL event) still gets it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from dw_assets.core.dbt_lineage import add_manifest
from dw_assets.core.diagnosis import rank_causes
from dw_assets.core.evidence import Symptom
from dw_assets.core.graph import ContextGraph
from dw_assets.diagnosis.collect import collect_evidence
from dw_assets.store import Store
from tests.support.settings import build_settings

NOW = datetime(2026, 11, 20, 7, 0, tzinfo=UTC)
MESSAGE = ('Runtime Error in model stg_visits (models/stg_visits.sql)\n  Conversion Error: Could not convert '
           'string "N/A" to INT64 when casting from source column dwell_ms')


def _manifest():
    return {"metadata": {}, "sources": {}, "exposures": {}, "nodes": {
        "model.site.stg_visits": {"resource_type": "model", "database": "site", "schema": "main", "alias": "stg_visits",
                                  "name": "stg_visits", "depends_on": {"nodes": []}}}}


def _run_results(path, status, at):
    path.write_text(json.dumps({"metadata": {"generated_at": at.isoformat(), "invocation_id": "inv-1"}, "results": [
        {"unique_id": "model.site.stg_visits", "status": status, "message": MESSAGE if status == "error" else "OK",
         "timing": [{"name": "execute", "started_at": at.isoformat(), "completed_at": at.isoformat()}]},
        {"unique_id": "test.site.not_null_stg_visits_id.1", "status": "error", "message": "unrelated"}]}))


def test_the_models_own_error_comes_from_run_results(tmp_path):
    graph = ContextGraph()
    add_manifest(graph, _manifest())
    (tmp_path / "dbt_project.yml").write_text("name: site\n")
    results = tmp_path / "run_results.json"
    settings = build_settings(tmp_path, dbt={"project_dir": str(tmp_path), "run_results": str(results)})
    store = Store(settings.state.url)
    symptom = Symptom("failure", "site.stg_visits", NOW, "stg_visits failed", job="model.site.stg_visits")
    _run_results(results, "error", NOW - timedelta(minutes=3))
    ev = collect_evidence(settings, store, symptom, graph=graph)
    [failure] = ev.failures
    assert failure.source == "dbt run_results" and failure.outputs == ("site.stg_visits",) and "N/A" in failure.message
    error = ev.symptom_error()
    assert error.kind == "conversion" and error.column == "dwell_ms" and error.value == "N/A"
    assert rank_causes(ev)[0].kind == "conversion_error"  # no schema evidence here: the error class itself
    _run_results(results, "success", NOW - timedelta(minutes=3))  # rebuilt fine: nothing to report
    assert not collect_evidence(settings, store, symptom, graph=graph).failures
    _run_results(results, "error", NOW - timedelta(days=5))  # an old build is outside the window
    assert not collect_evidence(settings, store, symptom, graph=graph).failures
    store.dispose()

"""An incident's diagnosis travels as typed records (`Cause`, `Hop`, `ProposedFix`, `BlastEntry`) and
is stored as the JSON every earlier build wrote: a row in today's format loads, and writing it back
leaves the JSON as it was."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa

from dw_assets.core.blast_radius import BlastEntry
from dw_assets.core.causes import Cause, Fact
from dw_assets.core.evidence import Hop
from dw_assets.core.fixes import ProposedFix
from dw_assets.incidents import IncidentStore, intake_signal
from dw_assets.incidents.store import incidents_table

# a diagnosed incident's JSON columns exactly as the build before typed records wrote them
CAUSE = {"kind": "split_export_early_release", "subject": "airflow:gl_landing.load",
         "origin": "finance.bronze.gl_entries", "title": "gl export released before its second part",
         "confidence": 0.86, "explains": "the missing rows are the late part's",
         "evidence": [{"code": "part_after_release", "text": "part 2 landed 41 min after release",
                       "source": "landing", "weight": 0.25}],
         "refuting": [{"code": "error_of_other_kind", "text": "one task error is a timeout", "source": "airflow",
                       "weight": -0.15}],
         "would_refute": ["every part landed before the release"],
         "details": {"parts": 2, "released_at": "2026-09-30T04:00:00+00:00", "depth": 1}}
UNKNOWN = {"kind": "unknown", "subject": "finance.bronze.gl_entries", "origin": "finance.bronze.gl_entries",
           "title": "Cause not determined from the evidence collected", "confidence": 0.1, "explains": None,
           "evidence": [], "refuting": [], "would_refute": ["any candidate cause above with an explaining link"],
           "details": {}}
HOP = {"source": "airflow:gl_landing.load", "target": "finance.bronze.gl_entries", "system": "airflow",
       "provenance": "config", "detail": "writes"}
FIX = {"cause_kind": "split_export_early_release", "title": "Make gl_landing's sensor wait for the done-marker",
       "rationale": "the export writes a marker after its last part", "kind": "diff", "repo": "/srv/owners",
       "paths": ["dags/gl_landing.py"], "diff": "diff --git a/dags/gl_landing.py b/dags/gl_landing.py\n",
       "verified": True, "check_output": "", "target_asset": "finance.bronze.gl_entries",
       "blast_radius": [{"id": "analytics.fct_trial_balance", "kind": "model", "owner": "maria.chen", "depth": 1,
                         "severity": "high"}],
       "pull_request": {"url": "https://git.example/pr/7", "number": 7, "branch": "dw/fix"},
       "pull_request_error": None}
BLAST = {"node_id": "exposure:close_trial_balance", "kind": "exposure", "depth": 2, "owner": "maria.chen",
         "label": "Close trial balance", "severity": "high"}


def _raw(store, incident_id: str) -> dict:
    with store.engine.connect() as conn:
        row = conn.execute(sa.select(incidents_table).where(incidents_table.c.id == incident_id)).mappings().one()
    return {k: row[k] for k in ("causes", "path", "proposed_fixes", "blast_radius")}


def test_a_row_in_todays_format_loads_as_records_and_is_written_back_unchanged(settings, store, make_signal, t0):
    incident, _ = intake_signal(settings, store, make_signal())
    written = {"causes": [CAUSE, UNKNOWN], "path": [HOP], "proposed_fixes": [FIX], "blast_radius": [BLAST]}
    with store.engine.begin() as conn:  # as an earlier build left it, not through the store's write path
        conn.execute(incidents_table.update().where(incidents_table.c.id == incident.id).values(**written))
    incidents = IncidentStore(store)

    got = incidents.get(incident.id)
    top = got.causes[0]
    assert isinstance(top, Cause) and top.kind == "split_export_early_release" and top.confidence == 0.86
    assert top.origin == "finance.bronze.gl_entries" and top.details["released_at"].startswith("2026-09-30")
    assert top.facts == (Fact("part_after_release", "part 2 landed 41 min after release", "landing", 0.25),
                         Fact("error_of_other_kind", "one task error is a timeout", "airflow", -0.15))
    assert got.top_cause is top and got.causes[1].origin is None and not top.confirmed
    assert got.path == [Hop("airflow:gl_landing.load", "finance.bronze.gl_entries", "airflow", "config", "writes")]
    [fix] = got.proposed_fixes
    assert isinstance(fix, ProposedFix) and fix.verified and fix.pull_request == FIX["pull_request"]
    assert fix.blast_radius == [BlastEntry("analytics.fct_trial_balance", "model", 1, "maria.chen", severity="high")]
    assert got.blast_radius == [BlastEntry("exposure:close_trial_balance", "exposure", 2, "maria.chen",
                                           "Close trial balance", "high")]
    assert {k: got.to_dict()[k] for k in written} == written  # what `dw incidents show --json` and MCP print

    # written back through the store, typed: a full-row write (a joining signal) and an update
    intake_signal(settings, store, make_signal(at=t0 + timedelta(minutes=5), key="second"))
    assert _raw(store, incident.id) == written
    incidents.update(incident.id, causes=got.causes, path=got.path, proposed_fixes=got.proposed_fixes)
    assert _raw(store, incident.id) == written


def test_rows_of_earlier_shapes_load_and_a_confirmed_cause_stays_confirmed(settings, store, make_signal):
    incident, _ = intake_signal(settings, store, make_signal())
    incidents = IncidentStore(store)
    incidents.update(incident.id, causes=[{"kind": "late_upstream", "status": "confirmed"},
                                          {"kind": "duplicated_load", "confirmed": True, "title": "loaded twice"}],
                     path=[{"source": "a", "target": "b"}], proposed_fixes=[{"cause_kind": "late_upstream"}])
    got = incidents.get(incident.id)
    assert [(c.kind, c.confirmed, c.title) for c in got.causes] == [("late_upstream", True, ""),
                                                                    ("duplicated_load", True, "loaded twice")]
    assert got.path == [Hop("a", "b", "", "")]
    assert got.proposed_fixes == [ProposedFix(cause_kind="late_upstream", title="", rationale="")]
    assert incidents.confirmed_partitions("finance.bronze.gl_entries") == {"2026-09-30"}
    assert all(c["confirmed"] is True for c in got.to_dict()["causes"])

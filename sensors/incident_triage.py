"""Sensor: diagnose open incidents and, where the domain allows (L2+), propose a plan and ask for
approval. State lives in the incident store; an incident whose triage fails is marked
`triage_failed` and retried with backoff, without failing the tick."""

from __future__ import annotations

import dagster as dg

from dw_assets.config import Settings
from dw_assets.operations.triage import triage_open_incidents
from dw_assets.store import open_state

SENSOR_NAME = "dw_incident_triage"


def build_definitions(settings: Settings) -> dg.Definitions:
    # 10 s: a tick with no open incident is one query; an incident should reach its plan quickly
    @dg.sensor(name=SENSOR_NAME, minimum_interval_seconds=10, default_status=dg.DefaultSensorStatus.RUNNING,
               description="Diagnoses open incidents; proposes plans and requests approval at L2+.")
    def dw_incident_triage(context: dg.SensorEvaluationContext) -> dg.SkipReason:
        results = triage_open_incidents(settings, open_state(settings))
        # one incident's error is recorded on it (evidence.triage_failed, retried with backoff): the
        # tick never fails for it, so the other incidents keep moving
        failures = [r for r in results if "error" in r]
        for result in results:
            (context.log.warning if "error" in result else context.log.info)(f"triage: {result}")
        if not results:
            return dg.SkipReason("no open incidents")
        summary = f"triaged {len(results) - len(failures)} incident(s)"
        if failures:
            summary += f"; triage failed for {', '.join(r['incident_id'] for r in failures)} (retried with backoff)"
        return dg.SkipReason(summary)

    return dg.Definitions(sensors=[dw_incident_triage])

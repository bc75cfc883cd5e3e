"""Sensor: diagnose open incidents and, where the domain allows (L2+), propose a plan and ask for
approval. State lives in the incident store, so a failed tick simply runs again next time."""

from __future__ import annotations

import dagster as dg

from dw_assets.config import Settings, resolve_env

SENSOR_NAME = "dw_incident_triage"


def build_definitions(settings: Settings) -> dg.Definitions:
    @dg.sensor(name=SENSOR_NAME, minimum_interval_seconds=30, default_status=dg.DefaultSensorStatus.RUNNING,
               description="Diagnoses open incidents; proposes plans and requests approval at L2+.")
    def dw_incident_triage(context: dg.SensorEvaluationContext) -> dg.SkipReason:
        from dw_assets.store import open_store
        from dw_assets.triage import triage_open_incidents

        results = triage_open_incidents(settings, open_store(resolve_env(settings.state.url, what="state.url")))
        failures = [r for r in results if "error" in r]
        for result in results:
            context.log.info(f"triage: {result}")
        if failures:
            raise RuntimeError(f"triage failed for {len(failures)} incident(s): {failures}")
        return dg.SkipReason(f"triaged {len(results)} incident(s)" if results else "no open incidents")

    return dg.Definitions(sensors=[dw_incident_triage])

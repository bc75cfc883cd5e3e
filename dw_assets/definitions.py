"""The code location: one loader that merges each concern's definitions.

Each module in `_PARTS` exports `build_definitions(settings) -> dg.Definitions`. The config is read
when Dagster loads the location (the `@dg.definitions` function), never at import time.
"""

from __future__ import annotations

import importlib

import dagster as dg

from dw_assets.config import load_settings

_PARTS = [
    "dw_assets.dagster_defs.estate_assets",
    "checks",
    "dw_assets.dagster_defs.incident_assets",
    "sensors.airflow_runs",
    "sensors.openlineage_events",
    "dw_assets.dagster_defs.rerun",
    "dw_assets.dagster_defs.graph_assets",
    "sensors.incident_triage",
    "sensors.missed_runs",
]


def build_all_definitions(config_path: str | None = None) -> dg.Definitions:
    settings = load_settings(config_path)
    parts = [importlib.import_module(name).build_definitions(settings) for name in _PARTS]
    # Every job here is light (a few SQL aggregates, a ledger write, an HTTP poll): one process per
    # run, not one more per step, which under the daemon cost seconds per step on 2 cores.
    return dg.Definitions.merge(*parts, dg.Definitions(executor=dg.in_process_executor))


@dg.definitions
def defs() -> dg.Definitions:
    return build_all_definitions()

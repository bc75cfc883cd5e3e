"""The code location: one loader that merges each concern's definitions.

Each module in `_PARTS` exports `build_definitions(settings) -> dg.Definitions`. The config is read
when Dagster loads the location (the `@dg.definitions` function), never at import time.
"""

from __future__ import annotations

import dagster as dg

import checks
from dw_assets.config import load_settings
from dw_assets.dagster_defs import estate_assets, graph_assets, incident_assets
from sensors import airflow_runs, approvals, incident_intake, incident_triage, missed_runs, openlineage_events

_PARTS = [estate_assets, checks, incident_assets, incident_intake, airflow_runs, openlineage_events, approvals,
          graph_assets, incident_triage, missed_runs]


def build_all_definitions(config_path: str | None = None) -> dg.Definitions:
    settings = load_settings(config_path)
    parts = [part.build_definitions(settings) for part in _PARTS]
    # Every job here is light (a few SQL aggregates, a ledger write, an HTTP poll): one process per
    # run, not one more per step, which under the daemon cost seconds per step on 2 cores.
    return dg.Definitions.merge(*parts, dg.Definitions(executor=dg.in_process_executor))


@dg.definitions
def defs() -> dg.Definitions:
    return build_all_definitions()

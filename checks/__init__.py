"""Asset checks on the estate's datasets, one module per kind: volume vs history, freshness SLA,
balance rules, rows vs landed files, schema drift. `build_definitions(settings)` builds every check
configured under `checks:`; the asset keys are the canonical dataset ids split on dots (the assets
themselves are the external `AssetSpec`s of `dw_assets.dagster_defs.estate_assets`)."""

from __future__ import annotations

import dagster as dg

from dw_assets.config import Settings


def build_definitions(settings: Settings) -> dg.Definitions:
    from checks import balance, freshness, landed_files, schema_drift, volume

    asset_checks = []
    for entry in settings.checks:
        for module in (volume, freshness, balance, landed_files, schema_drift):
            asset_checks.extend(module.build_checks(settings, entry))
    return dg.Definitions(asset_checks=asset_checks)

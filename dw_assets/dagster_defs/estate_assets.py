"""The estate as Dagster sees it: observed dbt models, external datasets, exposures."""

from __future__ import annotations

import dagster as dg

from dw_assets.config import Settings


def build_definitions(settings: Settings) -> dg.Definitions:
    return dg.Definitions()

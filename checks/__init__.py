"""Asset checks on the estate's datasets: the thin Dagster wrappers around the check service
(`dw_assets.checks`: volume vs history, freshness SLA, balance rules, rows vs landed files, schema
drift). `build_definitions(settings)` builds every check configured under `checks:`; the asset keys
are the canonical dataset ids split on dots (the assets themselves are the external `AssetSpec`s of
`dw_assets.dagster_defs.estate_assets`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import dagster as dg

from checks.common import make_asset_check
from dw_assets.checks.balance import evaluate_balance
from dw_assets.checks.freshness import evaluate_freshness
from dw_assets.checks.landed_files import evaluate_landed_files, landing_url
from dw_assets.checks.partitions import check_timezone
from dw_assets.checks.runner import bind_evaluation
from dw_assets.checks.schema_drift import evaluate_schema_drift
from dw_assets.checks.volume import evaluate_volume
from dw_assets.config import DatasetChecksConfig, Settings
from dw_assets.core.checks_logic import (
    FRESHNESS,
    LANDED_FILES,
    SCHEMA_DRIFT,
    CheckOutcome,
    balance_check_name,
)
from dw_assets.dagster_defs.partitions import check_partitions


def build_definitions(settings: Settings) -> dg.Definitions:
    asset_checks = []
    for entry in settings.checks:
        for build in (volume_checks, freshness_checks, balance_checks, landed_files_checks, schema_drift_checks):
            asset_checks.extend(build(settings, entry))
    return dg.Definitions(asset_checks=asset_checks)


def _one_check(settings: Settings, entry: DatasetChecksConfig, name: str, description: str,
               evaluate: Callable[..., CheckOutcome], *bound: Any,
               partitions: dg.PartitionsDefinition | None = None) -> list[dg.AssetChecksDefinition]:
    """The asset check `name` on the entry's dataset: `evaluate(wh, store, dataset, *bound, partition, now)`."""
    return [make_asset_check(settings, entry.dataset, name, description,
                             bind_evaluation(evaluate, entry.dataset, *bound), partitions)]


def volume_checks(settings: Settings, entry: DatasetChecksConfig) -> list[dg.AssetChecksDefinition]:
    cfg = entry.volume
    if cfg is None:
        return []
    grouped = f", and per {', '.join(cfg.group_by)}" if cfg.group_by else ""
    description = (f"Rows per {cfg.grain} of {cfg.partition_column}{grouped} against a seasonal, "
                   f"trend-adjusted baseline from history ({cfg.period or 'calendar groups'}; band "
                   f"{cfg.mad_k} x the group's log spread, floor {cfg.band_floor:.0%}, ceiling "
                   f"{cfg.band_ceiling:.0%}; empty or >= {cfg.hard_ratio}x fails; direction {cfg.direction}).")
    return _one_check(settings, entry, cfg.name, description, evaluate_volume, cfg,
                      partitions=check_partitions(entry, "volume"))


def freshness_checks(settings: Settings, entry: DatasetChecksConfig) -> list[dg.AssetChecksDefinition]:
    cfg = entry.freshness
    if cfg is None:
        return []
    sla = " and ".join(x for x in (f"max age {cfg.max_age}" if cfg.max_age else "",
                                   f"deadline `{cfg.deadline_cron}`" if cfg.deadline_cron else "") if x)
    description = f"Newest {cfg.timestamp_column} against {sla} ({cfg.timezone})."
    return _one_check(settings, entry, FRESHNESS, description, evaluate_freshness, cfg)


def balance_checks(settings: Settings, entry: DatasetChecksConfig) -> list[dg.AssetChecksDefinition]:
    return [check for rule in entry.balance for check in _one_check(
        settings, entry, balance_check_name(rule.name),
        f"Every group by {', '.join(rule.group_by)} satisfies `{rule.condition}`.",
        partial(evaluate_balance, zones=check_timezone(entry)), rule,
        partitions=check_partitions(entry, "balance", partitioned=bool(rule.partition_column)))]


def landed_files_checks(settings: Settings, entry: DatasetChecksConfig) -> list[dg.AssetChecksDefinition]:
    cfg = entry.landed_files
    if cfg is None:
        return []
    description = (f"Rows in the {cfg.partition_column} partition equal the data rows of the landed "
                   f"`{cfg.file_glob}` files (minus {cfg.header_rows} header row(s) each).")
    # the landing URL is resolved when the check runs (it may name an environment variable)
    return [make_asset_check(settings, entry.dataset, LANDED_FILES, description,
                             lambda wh, store, partition, now: evaluate_landed_files(
                                 wh, store, entry.dataset, cfg, landing_url(settings, cfg), partition, now,
                                 zones=check_timezone(entry)),
                             check_partitions(entry, "landed_files"))]


def schema_drift_checks(settings: Settings, entry: DatasetChecksConfig) -> list[dg.AssetChecksDefinition]:
    cfg = entry.schema_drift
    if cfg is None:
        return []
    description = (f"Columns and types ({cfg.source}) against the last accepted schema; accept a new one "
                   f"with `dw checks accept-schema {entry.dataset}`.")
    return _one_check(settings, entry, SCHEMA_DRIFT, description, evaluate_schema_drift, cfg)

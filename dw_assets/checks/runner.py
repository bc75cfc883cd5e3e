"""Run a dataset's configured checks outside Dagster (the `dw checks run` command, scripts).

Same evaluate functions as the asset checks; failures go to incident intake when `record` is set.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from dw_assets.checks.balance import evaluate_balance
from dw_assets.checks.freshness import evaluate_freshness
from dw_assets.checks.landed_files import evaluate_landed_files, landing_url
from dw_assets.checks.partitions import check_timezone, occurrence
from dw_assets.checks.schema_drift import evaluate_schema_drift
from dw_assets.checks.volume import evaluate_volume
from dw_assets.config import ConfigError, DatasetChecksConfig, Settings
from dw_assets.connectors.warehouse import Warehouse, WarehouseError
from dw_assets.core.checks_logic import CheckOutcome, balance_check_name
from dw_assets.core.signals import Signal
from dw_assets.incidents import intake_signal
from dw_assets.store import Store, open_state

Evaluate = Callable[[Warehouse, Store, "str | None", datetime], CheckOutcome]


def bind_evaluation(evaluate: Callable[..., CheckOutcome], *bound: Any) -> Evaluate:
    """`evaluate(wh, store, *bound, partition, now)` as an Evaluate: binds a check's dataset and config
    (a lambda with default arguments would do it too, but mypy cannot type one)."""
    return lambda wh, store, partition, now: evaluate(wh, store, *bound, partition, now)


@dataclass
class CheckRun:
    outcome: CheckOutcome
    incident_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {**self.outcome.to_dict(), "incident_id": self.incident_id}


def find_entry(settings: Settings, dataset: str) -> DatasetChecksConfig:
    """The checks entry for a dataset (Settings.check_entry: its id, an alias, the canonical form, or
    a unique suffix such as `gl_entries`); ConfigError naming the configured ones when there is none."""
    entry = settings.check_entry(dataset)
    if entry is None:
        known = ", ".join(e.dataset for e in settings.checks) or "none"
        raise ConfigError(f"dataset {dataset!r}: no checks configured for it in {settings.path}; configured: {known}")
    return entry


def runners(settings: Settings, entry: DatasetChecksConfig) -> dict[str, Evaluate]:
    ds = entry.dataset
    out: dict[str, Evaluate] = {}
    if entry.volume:
        out[entry.volume.name] = bind_evaluation(evaluate_volume, ds, entry.volume)
    if entry.freshness:
        out["freshness_sla"] = bind_evaluation(evaluate_freshness, ds, entry.freshness)
    # a timestamp partition column's days are the dataset's zone's (its volume check's `timezone`),
    # as its Dagster partitions are
    zones = check_timezone(entry)
    for rule in entry.balance:
        out[balance_check_name(rule.name)] = bind_evaluation(partial(evaluate_balance, zones=zones), ds, rule)
    if entry.landed_files:
        landing = landing_url(settings, entry.landed_files)
        out["rows_match_landed_files"] = bind_evaluation(partial(evaluate_landed_files, zones=zones), ds,
                                                         entry.landed_files, landing)
    if entry.schema_drift:
        out["schema_drift"] = bind_evaluation(evaluate_schema_drift, ds, entry.schema_drift)
    return out


def run_dataset_checks(settings: Settings, dataset: str, *, partition: str | None = None,
                       now: datetime | None = None, record: bool = True, store: Store | None = None,
                       warehouse: Warehouse | None = None, only: set[str] | None = None) -> list[CheckRun]:
    entry = find_entry(settings, dataset)
    store = store or open_state(settings)
    warehouse = warehouse or Warehouse.from_settings(settings)
    now = now or datetime.now(UTC)
    results = []
    for name, run in runners(settings, entry).items():
        if only and name not in only:
            continue
        try:
            outcome = run(warehouse, store, partition, now)
        except WarehouseError as exc:
            outcome = CheckOutcome(name, entry.dataset, False, "ERROR", f"check could not run: {exc}",
                                   {"error": str(exc)}, partition=partition)
            results.append(CheckRun(outcome))
            continue
        results.append(CheckRun(outcome, record_failure(settings, store, outcome, now) if record else None))
    return results


def record_failure(settings: Settings, store: Store, outcome: CheckOutcome,
                   now: datetime | None = None) -> str | None:
    """Feed an actionable failure to incident intake; returns the incident id (None when passed/WARN)."""
    if not outcome.actionable:
        return None
    details = {"check": outcome.check, "dataset": outcome.dataset_id, "partition": outcome.partition, "passed": outcome.passed,
               "severity": outcome.severity, "summary": outcome.summary, "metrics": outcome.metadata}
    signal = Signal(kind="check_failed", dataset_id=outcome.dataset_id, observed_at=now or datetime.now(UTC),
                    source=f"check:{outcome.check}", summary=outcome.summary, details=details, severity="high",
                    dedupe_key=f"check:{outcome.check}:{outcome.dataset_id}:{occurrence(outcome)}")
    incident, _ = intake_signal(settings, store, signal)
    return incident.id

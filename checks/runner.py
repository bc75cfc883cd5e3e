"""Run a dataset's configured checks outside Dagster (the `dw checks run` command, scripts).

Same evaluate functions as the asset checks; failures go to incident intake when `record` is set.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from checks.balance import evaluate_balance
from checks.common import bind_evaluation, record_failure
from checks.freshness import evaluate_freshness
from checks.landed_files import evaluate_landed_files, landing_url
from checks.schema_drift import evaluate_schema_drift
from checks.state import state_store
from checks.volume import evaluate_volume
from dw_assets.config import ConfigError, DatasetChecksConfig, Settings
from dw_assets.connectors.warehouse import Warehouse, WarehouseError
from dw_assets.core.checks_logic import CheckOutcome, balance_check_name
from dw_assets.store import Store

Runner = Callable[[Warehouse, Store, "str | None", datetime], CheckOutcome]


@dataclass
class CheckRun:
    outcome: CheckOutcome
    incident_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {**self.outcome.to_dict(), "incident_id": self.incident_id}


def find_entry(settings: Settings, dataset: str) -> DatasetChecksConfig:
    """The checks entry for a dataset: its canonical id, an alias, or a unique suffix (`gl_entries`)."""
    wanted = settings.aliases.get(dataset, dataset).lower()
    entries = {e.dataset.lower(): e for e in settings.checks}
    if wanted in entries:
        return entries[wanted]
    matches = [e for key, e in entries.items() if key.endswith("." + wanted)]
    if len(matches) == 1:
        return matches[0]
    known = ", ".join(entries) or "none"
    hint = "ambiguous" if matches else "no checks configured for it"
    raise ConfigError(f"dataset {dataset!r}: {hint} in {settings.path}; configured: {known}")


def runners(settings: Settings, entry: DatasetChecksConfig) -> dict[str, Runner]:
    ds = entry.dataset
    out: dict[str, Runner] = {}
    if entry.volume:
        out[entry.volume.name] = bind_evaluation(evaluate_volume, ds, entry.volume)
    if entry.freshness:
        out["freshness_sla"] = bind_evaluation(evaluate_freshness, ds, entry.freshness)
    for rule in entry.balance:
        out[balance_check_name(rule.name)] = bind_evaluation(evaluate_balance, ds, rule)
    if entry.landed_files:
        landing = landing_url(settings, entry.landed_files)
        out["rows_match_landed_files"] = bind_evaluation(evaluate_landed_files, ds, entry.landed_files, landing)
    if entry.schema_drift:
        out["schema_drift"] = bind_evaluation(evaluate_schema_drift, ds, entry.schema_drift)
    return out


def run_dataset_checks(settings: Settings, dataset: str, *, partition: str | None = None,
                       now: datetime | None = None, record: bool = True, store: Store | None = None,
                       warehouse: Warehouse | None = None, only: set[str] | None = None) -> list[CheckRun]:
    entry = find_entry(settings, dataset)
    store = store or state_store(settings)
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

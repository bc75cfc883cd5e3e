"""What every check shares: partitions, incident intake of failures, the Dagster wrapper.

A check is an `evaluate(warehouse, store, partition, now) -> CheckOutcome` function (SQL pushed to
the warehouse, the decision in `dw_assets.core`), so `dw checks run` and the fault-injection script
call exactly what the Dagster asset check calls. `make_asset_check` wraps one in a thin
`@dg.asset_check`: pick the partition, evaluate, feed a failure to incident intake, and turn the
outcome into an `AssetCheckResult` readable in the UI.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

import dagster as dg

from checks.state import state_store
from dw_assets.config import Settings
from dw_assets.connectors.warehouse import Warehouse, WarehouseError, WarehouseSession
from dw_assets.core.checks_logic import CheckOutcome
from dw_assets.core.dates import as_date
from dw_assets.core.signals import Signal
from dw_assets.dagster_defs.plan_view import incident_url
from dw_assets.incidents import intake_signal
from dw_assets.store import Store

PARTITION_TAG = "dw/partition"
Evaluate = Callable[[Warehouse, Store, "str | None", datetime], CheckOutcome]


def bind_evaluation(evaluate: Callable[..., CheckOutcome], *bound: Any) -> Evaluate:
    """`evaluate(wh, store, *bound, partition, now)` as an Evaluate: binds a check's dataset and config
    (a lambda with default arguments would do it too, but mypy cannot type one)."""
    return lambda wh, store, partition, now: evaluate(wh, store, *bound, partition, now)


def parse_partition(value: Any) -> date:
    """A partition value (DATE, TIMESTAMP or 'YYYY-MM-DD' text) as a date."""
    try:
        return as_date(value)
    except ValueError as exc:
        raise WarehouseError(f"partition value {value!r} is not a date (YYYY-MM-DD)") from exc


def target_partition(session: WarehouseSession, relation: str, column: str, requested: str | None) -> date | None:
    """The requested partition, else the latest value of the partition column (None: empty table)."""
    if requested:
        return parse_partition(requested)
    latest = session.scalar(f"SELECT max({column}) FROM {relation}")
    return parse_partition(latest) if latest is not None else None


def occurrence(outcome: CheckOutcome) -> str:
    """What makes two failures of one check the same occurrence: the partition, else the newest
    timestamp seen (freshness), else the schema fingerprint, else the facts themselves."""
    meta = outcome.metadata
    for key in ("latest", "fingerprint"):
        if outcome.partition is None and meta.get(key):
            return str(meta[key])
    if outcome.partition:
        return outcome.partition
    facts = json.dumps(meta.get("broken_groups") or outcome.summary, sort_keys=True, default=str)
    return hashlib.sha256(facts.encode()).hexdigest()[:16]


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


def to_check_result(outcome: CheckOutcome, incident_id: str | None = None) -> dg.AssetCheckResult:
    metadata: dict[str, Any] = {"summary": dg.MetadataValue.text(outcome.summary)}
    for key, value in outcome.metadata.items():
        if value is None:
            continue
        metadata[key] = dg.MetadataValue.json(value) if isinstance(value, (list, dict)) else value
    for key, text in outcome.markdown.items():
        metadata[key] = dg.MetadataValue.md(text)
    if outcome.partition:
        metadata["partition"] = outcome.partition
    if incident_id:
        metadata["incident"] = incident_id
    return dg.AssetCheckResult(passed=outcome.passed, severity=dg.AssetCheckSeverity(outcome.severity),
                               metadata=metadata, description=check_description(outcome, incident_id))


def check_description(outcome: CheckOutcome, incident_id: str | None = None) -> str:
    """The evaluation's description, which the check page renders as Markdown under "Latest
    execution": the summary, the partition, a link to the incident, then the charts and tables
    (metadata Markdown only shows behind a "[Show Markdown]" button there)."""
    head = [outcome.summary]
    facts = []
    if outcome.partition:
        facts.append(f"partition **{outcome.partition}**")
    if incident_id:
        facts.append(f"incident [{incident_id}]({incident_url(incident_id)})")
    if facts:
        head.append(" · ".join(facts))
    return "\n\n".join(head + list(outcome.markdown.values()))



PARTITION_CONFIG = {"partition": dg.Field(str, is_required=False,
                                           description="YYYY-MM-DD, or YYYY-MM-DDTHH for an hourly check; default: the run tag dw/partition, else the latest")}


def _requested_partition(context: dg.AssetCheckExecutionContext) -> str | None:
    op_context = context.op_execution_context
    config = op_context.op_config or {}
    return config.get("partition") or op_context.get_tag(PARTITION_TAG)


def make_asset_check(settings: Settings, dataset_id: str, name: str, description: str,
                     evaluate: Evaluate) -> dg.AssetChecksDefinition:
    @dg.asset_check(asset=dg.AssetKey(dataset_id.split(".")), name=name, description=description,
                    metadata={"dw/dataset_id": dataset_id}, config_schema=PARTITION_CONFIG)
    def _check(context) -> dg.AssetCheckResult:  # unannotated: dagster rejects postponed (string) annotations
        store = state_store(settings)
        now = datetime.now(UTC)
        outcome = evaluate(Warehouse.from_settings(settings), store, _requested_partition(context), now)
        incident_id = record_failure(settings, store, outcome, now)
        context.log.info(outcome.summary + (f" -> incident {incident_id}" if incident_id else ""))
        return to_check_result(outcome, incident_id)

    return _check

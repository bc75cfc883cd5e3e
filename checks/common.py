"""The Dagster wrapper every asset check shares.

A check is an `evaluate(warehouse, store, partition, now) -> CheckOutcome` function of the check
service (`dw_assets.checks`), so `dw checks run` and the fault-injection script call exactly what
the Dagster asset check calls. `make_asset_check` wraps one in a thin
`@dg.asset_check`: pick the partition, evaluate, feed a failure to incident intake, and turn the
outcome into an `AssetCheckResult` readable in the UI.
"""

from __future__ import annotations

import warnings
from datetime import UTC, datetime
from typing import Any

import dagster as dg

from dw_assets.checks.runner import Evaluate, record_failure
from dw_assets.config import Settings
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.core.checks_logic import CheckOutcome
from dw_assets.dagster_defs.plan_view import incident_url
from dw_assets.store import open_state

PARTITION_TAG = "dw/partition"


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
                                           description="YYYY-MM-DD, or YYYY-MM-DDTHH for an hourly check; default: the run's partition, "
                                                       "else the run tag dw/partition, else the latest")}


def _requested_partition(context: dg.AssetCheckExecutionContext, partitioned: bool) -> str | None:
    """Run config, else the run's partition (a partitioned check), else the dw/partition tag."""
    op_context = context.op_execution_context
    config = op_context.op_config or {}
    if config.get("partition"):
        return config["partition"]
    if partitioned and op_context.has_partition_key:
        return op_context.partition_key
    return op_context.get_tag(PARTITION_TAG)


def make_asset_check(settings: Settings, dataset_id: str, name: str, description: str,
                     evaluate: Evaluate, partitions: dg.PartitionsDefinition | None = None) -> dg.AssetChecksDefinition:
    def _check(context) -> dg.AssetCheckResult:  # unannotated: dagster rejects postponed (string) annotations
        store = open_state(settings)
        now = datetime.now(UTC)
        requested = _requested_partition(context, partitions is not None)
        outcome = evaluate(Warehouse.from_settings(settings), store, requested, now)
        incident_id = record_failure(settings, store, outcome, now)
        context.log.info(outcome.summary + (f" -> incident {incident_id}" if incident_id else ""))
        return to_check_result(outcome, incident_id)

    with warnings.catch_warnings():  # partitioned checks are "preview" in Dagster 1.13: known, and wanted
        warnings.simplefilter("ignore", dg.PreviewWarning)
        return dg.asset_check(asset=dg.AssetKey(dataset_id.split(".")), name=name, description=description,
                              metadata={"dw/dataset_id": dataset_id}, config_schema=PARTITION_CONFIG,
                              partitions_def=partitions)(_check)

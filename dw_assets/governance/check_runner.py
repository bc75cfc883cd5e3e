"""The production wiring of verification: the configured checks and the OpenLineage emitter.

Kept apart from `verification.py` so that module stays free of the warehouse and the checks
package; the Dagster runtime asks here for defaults and tests pass their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dw_assets.config import Settings


def default_checks_runner(settings: Settings) -> Callable[[str, str, str | None], Any]:
    """Run one configured check by name (`volume_vs_history`, `balance_<rule>`, ...) on one dataset,
    without feeding incident intake: a verification reports, it does not open incidents."""
    from checks.runner import run_dataset_checks

    def run(dataset: str, check: str, partition: str | None) -> Any:
        found = run_dataset_checks(settings, dataset, partition=partition, record=False, only={check})
        if not found:
            raise LookupError(f"no check named {check!r} is configured on {dataset} (checks: in dw.yaml)")
        return found[0].outcome

    return run


def default_emitter(settings: Settings) -> Any:
    """A VerificationEmitter when `openlineage.emit_transport` is configured, else None."""
    if not settings.openlineage.emit_transport:
        return None
    from dw_assets.connectors.openlineage.emitter import VerificationEmitter

    return VerificationEmitter(settings)

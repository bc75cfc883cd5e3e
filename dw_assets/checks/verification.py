"""The checks a verification reruns: one configured check by name, outside incident intake.

`governance.verification` stays free of the warehouse and of this package: the Dagster runtime
asks here for the production runner and tests pass their own.
"""

from __future__ import annotations

from collections.abc import Callable

from dw_assets.checks.runner import run_dataset_checks
from dw_assets.config import Settings
from dw_assets.core.checks_logic import CheckOutcome


def default_checks_runner(settings: Settings) -> Callable[[str, str, str | None], CheckOutcome]:
    """Run one configured check by name (`volume_vs_history`, `balance_<rule>`, ...) on one dataset,
    without feeding incident intake: a verification reports, it does not open incidents."""

    def run(dataset: str, check: str, partition: str | None) -> CheckOutcome:
        found = run_dataset_checks(settings, dataset, partition=partition, record=False, only={check})
        if not found:
            raise LookupError(f"no check named {check!r} is configured on {dataset} (checks: in dw.yaml)")
        return found[0].outcome

    return run

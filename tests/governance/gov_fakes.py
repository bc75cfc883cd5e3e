"""Governance's test data: settings, the night-1 plan, captured Slack posts. The clock and the
counting Airflow client are the shared doubles in tests/support/airflow_doubles.py."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dw_assets.config import (
    AirflowConfig,
    AirflowInstanceConfig,
    DomainConfig,
    GovernanceConfig,
    Settings,
    SlackConfig,
)
from dw_assets.core.plans import DownstreamWait, Plan, PlanDiff, PlanStep, PlanUndo, VerificationRef
from dw_assets.governance.keys import generate_key_file

# the governance tests import the shared clock and counting client from here too
from tests.support.airflow_doubles import Clock, CountingAirflow  # noqa: F401
from tests.support.settings import build_settings

AGENT = "data-workers"


def key_settings(folder: Path) -> dict[str, str]:
    """A fresh deployment key (0600 file) and witness file in `folder`, as GovernanceConfig fields."""
    key_file = folder / "keys" / "signing.key"
    if not key_file.exists():
        generate_key_file(key_file)
    return {"signing_key_file": str(key_file), "witness_file": str(folder / "receipts.witness")}


def make_settings(tmp_path: Path, **overrides) -> Settings:
    base = {
        "airflow": AirflowConfig(instances=[
            AirflowInstanceConfig(name="local", url="http://127.0.0.1:9", read_only=False, trigger_mode="draft"),
            AirflowInstanceConfig(name="legacy", url="http://127.0.0.1:9", read_only=False, trigger_mode="trigger"),
            AirflowInstanceConfig(name="pinned", url="http://127.0.0.1:9", read_only=True),
        ]),
        "domains": [
            DomainConfig(name="finance", datasets=["finance.*", "analytics.fct_trial_balance"], autonomy="L2",
                         owner="maria.chen", approvers=["maria.chen", "omar.haddad", "deploy-bot"],
                         escalation=["omar.haddad", "finance-controller"],
                         slack=SlackConfig(webhook_url="${DW_TEST_FINANCE_WEBHOOK:-}")),
            DomainConfig(name="revenue", datasets=["lake.*"], autonomy="L1", owner="priya.raman",
                         approvers=["priya.raman", "jonas.berg"], escalation=["jonas.berg"]),
        ],
        "governance": GovernanceConfig(approval_ttl="4h", **key_settings(tmp_path)),
    }
    base.update(overrides)
    return build_settings(tmp_path, **base)


def night1_plan(instance: str = "local", *, domain: str = "finance", proposer: str = AGENT,
                conf: dict | None = None, extra_steps: tuple = (), plan_class: str = "reload_partition") -> Plan:
    return Plan(
        domain=domain, plan_class=plan_class, proposer=proposer, incident_id=None,
        summary="Reload GL export 2026-09-30 with both parts, then let month_end_close rerun",
        cause="split export + sensor that releases on the first matching file",
        trigger="check volume_vs_history failed on finance.bronze.gl_entries",
        steps=(PlanStep(order=1, airflow_instance=instance, dag_id="gl_landing",
                        conf=conf or {"export_date": "2026-09-30"},
                        wait_for=(DownstreamWait(dag_id="month_end_close", via="asset gl_entries"),)),
               *extra_steps),
        undo=PlanUndo(description="restore export_date=2026-09-30 of finance.bronze.gl_entries from the snapshot",
                      snapshot="finance.bronze.gl_entries@2026-10-01T05:00Z"),
        reversible=True,
        diffs=(PlanDiff(repo="estate", path="dags/gl_landing.py", owner="maria.chen",
                        diff="--- a/dags/gl_landing.py\n+++ b/dags/gl_landing.py\n@@ -1 +1 @@\n-x\n+y\n"),),
        blast_radius={"datasets": ["analytics.fct_trial_balance"], "exposures": ["close_trial_balance"],
                      "owners": ["maria.chen"]},
        verification=(VerificationRef(dataset="finance.bronze.gl_entries", check="rows_match_landed_files",
                                      partition="2026-09-30", expect="rows equal both files"),
                      VerificationRef(dataset="analytics.fct_trial_balance", check="balance_debits_equal_credits",
                                      expect="debits equal credits per entity")),
        proposed_at=datetime(2026, 10, 1, 5, 30, tzinfo=UTC),
    )


def passing_checks(dataset: str, check: str, partition: str | None) -> Any:
    """A checks runner whose every check passes (verification without a warehouse)."""
    from dw_assets.core.checks_logic import CheckOutcome

    return CheckOutcome(check, dataset, True, "ERROR", f"{check} ok", {"observed": 105500, "partition": partition})


class Capture:
    """An OpenLineage client that keeps the events it is given."""

    def __init__(self) -> None:
        self.events: list[Any] = []

    def emit(self, event: Any) -> None:
        self.events.append(event)

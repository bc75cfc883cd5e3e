"""Test doubles for governance: settings, the night-1 plan, a clock, and an Airflow client that
counts every request.

`CountingAirflow` has the AirflowClient surface the rerun path uses (`api_version`,
`trigger_request`, `trigger_dag_run`, `list_dag_runs`, `get_dag_run`) and returns the connector's
real `DagRun` model. Runs advance queued -> running -> success (or a chosen end state) as they are
polled; a successful run of a DAG listed in `downstream` creates the downstream DAG's run, as an
asset event would. In draft mode `owner_triggers` simulates the DAG owner pressing the button.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
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
from dw_assets.connectors.airflow.errors import ReadOnlyError
from dw_assets.connectors.airflow.models import DagRun
from dw_assets.core.plans import DownstreamWait, Plan, PlanDiff, PlanStep, PlanUndo, VerificationRef
from dw_assets.governance.keys import generate_key_file
from tests.support.settings import build_settings


class Clock:
    def __init__(self, start: datetime = datetime(2026, 10, 1, 6, 0, tzinfo=UTC)):
        self.current = start

    def __call__(self) -> datetime:
        return self.current

    def advance(self, seconds: float) -> None:
        self.current += timedelta(seconds=seconds)


@dataclass
class _Run:
    dag_id: str
    run_id: str
    conf: dict[str, Any]
    created: datetime
    polls: int = 0
    state: str = "queued"
    end_state: str = "success"
    end: datetime | None = None

    def model(self) -> DagRun:
        return DagRun(dag_id=self.dag_id, run_id=self.run_id, state=self.state, logical_date=None,
                      run_after=self.created, start_date=self.created, end_date=self.end, conf=dict(self.conf))


@dataclass
class CountingAirflow:
    clock: Clock
    name: str = "local"
    api: str = "v2"
    read_only: bool = False
    downstream: dict[str, list[str]] = field(default_factory=dict)
    end_states: dict[str, str] = field(default_factory=dict)  # dag_id -> final state of new runs
    owner_triggers: bool = False  # draft mode: the owner triggers the drafted run when first polled
    requests: list[tuple[str, str]] = field(default_factory=list)
    runs: list[_Run] = field(default_factory=list)
    owner_triggered: list[str] = field(default_factory=list)

    @property
    def writes(self) -> list[tuple[str, str]]:
        return [r for r in self.requests if r[0] in ("POST", "PATCH")]

    @property
    def api_version(self) -> str:
        return self.api

    def trigger_request(self, dag_id: str, conf: dict[str, Any] | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"conf": dict(conf or {})}
        if self.api == "v2":
            body = {"logical_date": None, **body}
        path = f"/api/{self.api}/dags/{dag_id}/dagRuns"
        return {"instance": self.name, "method": "POST", "url": "http://127.0.0.1:9/" + path.lstrip("/"),
                "path": path, "json": body}

    def trigger_dag_run(self, dag_id: str, conf: dict[str, Any] | None = None, *,
                        run_id: str | None = None) -> DagRun:
        if self.read_only:
            raise ReadOnlyError(f"instance {self.name!r} is pinned read-only (nothing was sent)")
        self.requests.append(("POST", f"dags/{dag_id}/dagRuns"))
        return self._new_run(dag_id, conf or {}).model()

    def list_dag_runs(self, dag_id: str = "~", **filters: Any) -> list[DagRun]:
        self.requests.append(("GET", f"dags/{dag_id}/dagRuns"))
        self._advance()
        if self.owner_triggers and dag_id not in self.owner_triggered and self._drafted_conf.get(dag_id) is not None:
            self.owner_triggered.append(dag_id)
            self._new_run(dag_id, self._drafted_conf[dag_id])
        since = filters.get("updated_since")
        return [r.model() for r in self.runs if r.dag_id == dag_id and (since is None or r.created >= since)]

    def get_dag_run(self, dag_id: str, run_id: str) -> DagRun:
        self.requests.append(("GET", f"dags/{dag_id}/dagRuns/{run_id}"))
        self._advance()
        return next(r for r in self.runs if r.dag_id == dag_id and r.run_id == run_id).model()

    def expect_owner_run(self, dag_id: str, conf: dict[str, Any]) -> None:
        """The conf the owner will use when they trigger a drafted run."""
        self._drafted_conf[dag_id] = conf

    def __post_init__(self) -> None:
        self._drafted_conf: dict[str, dict[str, Any]] = {}

    def _new_run(self, dag_id: str, conf: dict[str, Any]) -> _Run:
        self.clock.advance(1)
        run = _Run(dag_id, f"manual__{self.clock().isoformat()}_{len(self.runs)}", dict(conf), self.clock(),
                   end_state=self.end_states.get(dag_id, "success"))
        self.runs.append(run)
        return run

    def _advance(self) -> None:
        for run in list(self.runs):
            if run.state in ("success", "failed"):
                continue
            run.polls += 1
            run.state = "running" if run.polls == 1 else run.end_state
            if run.state in ("success", "failed"):
                run.end = self.clock()
                if run.state == "success":
                    for dag_id in self.downstream.get(run.dag_id, []):
                        self._new_run(dag_id, {})


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

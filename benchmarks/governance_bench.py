"""Governance benchmark (a script, not a test): receipt appends and full-chain verification on the
SQLite state store, and the gate's launch check (ledger reads + rules, refusal recording).

    .venv/bin/python benchmarks/governance_bench.py [--receipts 20000] [--gate 500] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support: the one settings builder

from dw_assets.config import AirflowConfig, AirflowInstanceConfig, DomainConfig, GovernanceConfig
from dw_assets.core.plans import Plan, PlanStep, PlanUndo
from dw_assets.core.signing import SigningKey
from dw_assets.governance.gate import check_dispatch
from dw_assets.governance.receipt_log import ReceiptLog, Witness
from dw_assets.governance.workflow import Governance
from dw_assets.store import Store
from tests.support.settings import build_settings


def bench_receipts(folder: Path, n: int) -> dict[str, float]:
    log = ReceiptLog(Store(f"sqlite:///{folder}/receipts.db"), SigningKey.generate(),
                     witness=Witness(folder / "receipts.witness"))
    t0 = datetime(2026, 10, 1, tzinfo=UTC)
    body = {"cause": "split export", "checks": [{"dataset": "finance.bronze.gl_entries", "before": 61234,
                                                "after": 105500}], "run_ids": ["manual__2026-10-01T06:10:00"]}
    start = time.perf_counter()
    for i in range(n):
        log.append("run_observed", now=t0 + timedelta(seconds=i), subject=f"plan-{i % 50:016x}", actor="bench",
                   body=body)
    appended = time.perf_counter() - start
    start = time.perf_counter()
    report = log.verify()
    verified = time.perf_counter() - start
    assert report.ok and report.count == n, report
    return {"receipts": n, "append_per_s": n / appended, "verify_s": verified, "verify_per_s": n / verified}


def bench_gate(folder: Path, n: int) -> dict[str, float]:
    settings = build_settings(
        folder,
        airflow=AirflowConfig(instances=[AirflowInstanceConfig(name="local", url="http://127.0.0.1:9",
                                                               read_only=False)]),
        domains=[DomainConfig(name="finance", autonomy="L2", approvers=["maria.chen"])],
        governance=GovernanceConfig(signing_key_file=str(folder / "signing.key"), demo_key=True,
                                    witness_file=str(folder / "gate.witness")))
    gov = Governance(settings, store=Store(settings.state.url))
    plan = Plan(domain="finance", plan_class="reload_partition", proposer="data-workers", summary="bench",
                steps=(PlanStep(order=1, airflow_instance="local", dag_id="gl_landing",
                                conf={"export_date": "2026-09-30"}),),
                undo=PlanUndo(description="restore"), reversible=True)
    gov.propose(plan)
    gov.request_approval(plan.id)
    approval = gov.approve(plan.id, "maria.chen")
    args = {"instance": "local", "dag_id": "gl_landing", "conf": {"export_date": "2026-09-30"}, "actor": "bench"}
    start = time.perf_counter()
    for _ in range(n):
        assert check_dispatch(settings, gov.ledger, plan.id, approval.approval_id, receipts=gov.receipts,
                              **args).allowed
    allowed = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(n):
        assert not check_dispatch(settings, gov.ledger, plan.id, None, receipts=gov.receipts, **args).allowed
    refused = time.perf_counter() - start
    return {"checks": n, "allowed_ms": 1000 * allowed / n, "refused_and_recorded_ms": 1000 * refused / n}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--receipts", type=int, default=20000)
    parser.add_argument("--gate", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = {"receipts": bench_receipts(Path(tmp), args.receipts), "gate": bench_gate(Path(tmp), args.gate)}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    r, g = results["receipts"], results["gate"]
    print(f"receipts: {r['receipts']} appended at {r['append_per_s']:.0f}/s; full verify {r['verify_s']:.2f}s "
          f"({r['verify_per_s']:.0f}/s)")
    print(f"gate: allowed check {g['allowed_ms']:.2f} ms; refusal incl. ledger row + receipt "
          f"{g['refused_and_recorded_ms']:.2f} ms ({g['checks']} each)")


if __name__ == "__main__":
    main()

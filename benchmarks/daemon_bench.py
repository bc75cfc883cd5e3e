"""Latency of the loop under a real `dagster-daemon` (a script, not a test): the month-end night on a
real Airflow 3, the daemon ticking the sensors and launching every run, and three legs timed:

- green run end -> plan awaiting approval   (target: one sensor interval + 30 s = 60 s)
- approval -> rerun dispatched              (target: 30 s)
- Airflow done -> verified                  (target: 60 s)

    .venv/bin/python benchmarks/daemon_bench.py [--home DIR] [--restart-airflow] [--approver NAME] [--json]

`--restart-airflow` restarts Airflow with new JWT/API secrets right after the approval. The timeline
goes to stderr; the summary (legs, receipts, Dagster run count) to stdout. Exit 1 when the story did
not complete (the summary says where).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from dw_assets.demo.daemon_night import DaemonNight

TARGETS_S = {"green_run_end_to_plan_awaiting_approval": 60, "approval_to_rerun_dispatched": 30,
             "airflow_done_to_verified": 60}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, default=None, help="an empty folder (default: a new temp folder)")
    parser.add_argument("--restart-airflow", action="store_true")
    parser.add_argument("--approver", default="maria.chen")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="dw-daemon-bench-")) / "home"
    summary = DaemonNight(home, approver=args.approver, restart_airflow=args.restart_airflow).run()
    summary["targets_s"] = TARGETS_S
    if args.json:
        print(json.dumps(summary, indent=2, default=str))
    else:
        for leg, seconds in summary["legs_s"].items():
            print(f"{leg:45s} {seconds:8.1f} s   (target {TARGETS_S[leg]} s)")
        print(f"dagster runs: {summary.get('dagster_runs')}, receipts: {summary.get('receipts')}, "
              f"daemon stop on SIGTERM: {summary.get('daemon_stop_s')} s, "
              f"ok: {summary['ok']}{'' if summary['ok'] else ', error: ' + str(summary.get('error'))}")
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())

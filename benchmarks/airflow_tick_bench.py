"""Airflow runs sensor tick cost (a script, not a test): requests and time per tick against an
Airflow REST API serving an estate of many DAGs, as the runs that changed grow and as the DAGs grow.

    .venv/bin/python benchmarks/airflow_tick_bench.py [--dags 1000 10000] [--runs-per-hour 1000]
        [--interval-s 30 300] [--major 3] [--json]

The API is the test suite's in-memory Airflow (`tests/support/airflow_fakes.py`: REST API v2 for
Airflow 3 with JWT login, v1 for Airflow 2 with basic auth; pages of 100 shaped like Airflow's) on
a local HTTP server. It holds `--dags` DAGs; over one simulated hour `--runs-per-hour` runs finish
(evenly spread, each on a random DAG, two tasks). The sensor's tick (`sensors.airflow_runs.evaluate`:
poll, task instances of each new run, asset events) runs every `--interval-s` of simulated time
with its cursor. Reported per scenario: runs reported per tick, HTTP requests per tick and per
reported run, tick wall time (p50/p99), and whether any request listed DAGs. Requests are counted
by the client (`AirflowClient.requests_sent`); the JWT login is counted once, at the first tick.
The server runs in this process (a thread), so tick times include its work: read them as relative.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from dw_assets.config import AirflowInstanceConfig, AuthConfig
from dw_assets.connectors.airflow import AirflowClient
from sensors.airflow_runs import evaluate
from tests.support.airflow_fakes import FakeAirflow, serve
from tests.support.settings import build_settings

START = datetime(2026, 10, 1, 0, 0, tzinfo=UTC)


def scenario(dags: int, runs_per_hour: int, interval_s: int, major: int, seed: int = 5) -> dict[str, Any]:
    rng = random.Random(seed)
    fake = FakeAirflow(major=major)
    dag_ids = [f"dag_{i:05d}" for i in range(dags)]
    for dag_id in dag_ids:
        fake.add_dag(dag_id)
    ends = [START + timedelta(seconds=3600 * (k + 0.5) / runs_per_hour) for k in range(runs_per_hour)]
    runs = [(rng.choice(dag_ids), f"scheduled__{end.isoformat()}", end) for end in ends]
    outputs = {f"{dag_id}.load": [f"lake.{dag_id}"] for dag_id in dag_ids}
    with serve(fake) as (_, url):
        auth = AuthConfig(type="jwt" if major >= 3 else "basic", username="admin", password="admin")
        inst = AirflowInstanceConfig(name="bench", url=url, auth=auth, retries=0, timeout_s=30,
                                     api_version="v2" if major >= 3 else "v1")
        settings = build_settings(airflow={"instances": [inst], "task_outputs": outputs})
        client = AirflowClient(inst)
        cursor: str | None = None
        added, ticks = 0, []
        now = START
        # the first tick (empty cursor) looks back a day: start the sensor just before the hour
        while now < START + timedelta(hours=1):
            now += timedelta(seconds=interval_s)
            while added < len(runs) and runs[added][2] <= now:
                dag_id, run_id, end = runs[added]
                fake.add_run(dag_id, run_id, end=end, tasks={"extract": "success", "load": "success"})
                added += 1
            before = client.requests_sent
            started = time.perf_counter()
            result = evaluate(settings, client, cursor, check_keys_for=lambda _: [], intake=lambda _: None, now=now)
            ticks.append({"ms": (time.perf_counter() - started) * 1000, "requests": client.requests_sent - before,
                          "runs": len({e.metadata["run_id"] for e in result.asset_events})})
            cursor = result.cursor
        dag_listing = fake.request_count(r"GET /api/v\d/dags$")
        client.close()
    reported = sum(t["runs"] for t in ticks)
    steady = ticks[1:]  # the first tick also logs in (JWT) and probes nothing else
    walls = sorted(t["ms"] for t in steady)
    return {"dags": dags, "runs_per_hour": runs_per_hour, "interval_s": interval_s, "major": major,
            "ticks": len(ticks), "runs_reported": reported, "runs_finished": len(runs),
            "runs_per_tick_mean": round(reported / len(ticks), 1),
            "requests_per_tick_mean": round(statistics.mean(t["requests"] for t in steady), 1),
            "requests_per_tick_max": max(t["requests"] for t in steady),
            "requests_per_reported_run": round(sum(t["requests"] for t in ticks) / max(1, reported), 2),
            "tick_ms_p50": round(statistics.median(walls), 1),
            "tick_ms_p99": round(walls[min(len(walls) - 1, round(0.99 * (len(walls) - 1)))], 1),
            "dag_list_requests": dag_listing}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dags", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs-per-hour", type=int, default=1000)
    parser.add_argument("--interval-s", type=int, nargs="+", default=[30, 300])
    parser.add_argument("--major", type=int, default=3, choices=(2, 3))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one access-log line per request otherwise
    results = [scenario(d, args.runs_per_hour, i, args.major) for i in args.interval_s for d in args.dags]
    out = {"scenarios": results, "cpus": os.cpu_count(), "load_average": [round(x, 1) for x in os.getloadavg()]}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for r in results:
        print(f"{r['dags']:>6} DAGs, tick every {r['interval_s']:>3} s ({r['ticks']} ticks): "
              f"{r['runs_per_tick_mean']} runs/tick -> {r['requests_per_tick_mean']} requests/tick "
              f"(max {r['requests_per_tick_max']}, {r['requests_per_reported_run']} per run), "
              f"tick p50 {r['tick_ms_p50']} ms p99 {r['tick_ms_p99']} ms; reported {r['runs_reported']}/"
              f"{r['runs_finished']} runs; DAG list requests {r['dag_list_requests']}")
    print(f"machine: {out['cpus']} cpus, load average {out['load_average']}")


if __name__ == "__main__":
    main()

"""Capture the estate's OpenLineage events from a real Airflow run into a test fixture.

    DW_AIRFLOW_VENVS=... .venv/bin/python scripts/capture_provider_events.py 3 /tmp/capture-af3

Builds the demo estate in `<work>/dw_home`, starts `dw lineage serve` and a real Airflow of the given
major (the harness: Airflow's OpenLineage provider posting to that receiver, dbt-ol too), runs
gl_landing on the first export part (which schedules month_end_close), then orders_daily green and
again after the discount turns to text, and writes
`tests/lineage/data/airflow<major>_provider_events.ndjson`: every provider event, dbt-ol's `dbt-run-*`
and model events (not its per-statement children or data tests), compact, the work folder's path
replaced by /srv/airflow<major>. tests/lineage/test_ol_airflow_provider_events.py and
`benchmarks/lineage_bench.py --event-shape captured` read it. Takes 3-6 minutes.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests" / "airflow")]

from conftest import AirflowApi, build_estate_home  # tests/airflow: the estate and REST helpers

from dw_assets.config import DEFAULT_CONFIG
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.demo.estate import NIGHT1_EXPORT_DATE, break_orders_discount, write_gl_export_part
from dw_assets.harness.airflow import AirflowHarness
from dw_assets.harness.lineage_receiver import LineageReceiver
from dw_assets.store import Store

KEPT_DBT_JOBS = re.compile(r"(model\.[\w]+\.\w+|dbt-run-\w+)")
SETTLE_S = 30  # the scheduler posts a DAG run's closing event after the REST API reports the run finished


def run_nights(major: int, work: Path) -> Path:
    home = build_estate_home(work / "dw_home")
    receiver = LineageReceiver(DEFAULT_CONFIG, home, work / "receiver.log").start()
    airflow = AirflowHarness(major, work / "airflow", dw_home_dir=home, openlineage_url=receiver.url)
    try:
        airflow.start()
        api = AirflowApi(airflow)
        for dag_id in ("gl_landing", "month_end_close", "orders_daily"):
            airflow.wait_for_dag(dag_id)
        known = {r["dag_run_id"] for r in api.runs("month_end_close")}
        write_gl_export_part(home, NIGHT1_EXPORT_DATE, 1, parts=2)
        run = api.trigger("gl_landing", {"export_date": NIGHT1_EXPORT_DATE.isoformat()})
        print("gl_landing", api.wait_for_run("gl_landing", run)["state"], file=sys.stderr)
        print("month_end_close", api.wait_for_new_run("month_end_close", known)["state"], file=sys.stderr)
        run = api.trigger("orders_daily")
        print("orders_daily", api.wait_for_run("orders_daily", run)["state"], file=sys.stderr)
        break_orders_discount(home)
        run = api.trigger("orders_daily")
        print("orders_daily (text discount)", api.wait_for_run("orders_daily", run)["state"], file=sys.stderr)
        time.sleep(SETTLE_S)
    finally:
        airflow.stop()
        receiver.stop()
    return home


def write_fixture(major: int, work: Path, home: Path) -> Path:
    store = Store(f"sqlite:///{home}/state.db")
    target = REPO / "tests" / "lineage" / "data" / f"airflow{major}_provider_events.ndjson"
    kept = 0
    with target.open("w") as out:
        for stored in LineageEventStore(store).read_after(0, 1_000_000):
            event = stored.event
            if "apache/airflow" in event["producer"] or KEPT_DBT_JOBS.fullmatch(event["job"]["name"]):
                out.write(json.dumps(event, separators=(",", ":")).replace(str(work), f"/srv/airflow{major}") + "\n")
                kept += 1
    store.dispose()
    print(f"{kept} events -> {target}", file=sys.stderr)
    return target


def main() -> None:
    major, work = int(sys.argv[1]), Path(sys.argv[2]).resolve()
    work.mkdir(parents=True, exist_ok=False)  # a fresh folder: the estate is built from nothing
    write_fixture(major, work, run_nights(major, work))


if __name__ == "__main__":
    main()

"""Large-estate benchmark (a script, not a test): the OpenLineage sensor's ticks and the context
graph's refresh through a day of events on an estate of 10,000 dbt models and 50,000 datasets.

    .venv/bin/python benchmarks/large_estate_bench.py [--quick] [--models 10000] [--datasets 50000]
        [--events 1000000] [--chunk 10000] [--json]

The estate: a dbt manifest of `--models` models (graph_bench's synthetic manifest: sources, tests,
groups, exposures); `--datasets` datasets in all, the models' relations among them. The day:
`--events` OpenLineage run events, as a live feed sends them (times advancing, time-ordered run
ids): Airflow tasks (a parent facet naming the DAG run, a START then a COMPLETE with two inputs
and an output carrying a 7-column schema facet) and dbt-ol model events (jobType MODEL, integration
DBT, the model's relation as output, a COMPLETE per START). Each of ~`datasets / 2` jobs writes one
dataset and reads two, so the day re-reports the same lineage with new runs, as a real day does;
early chunks bring new nodes and edges, later ones mostly new runs of known ones.

Per chunk of `--chunk` new events: the events are accepted (structural checks) and stored, as the
receiver does; then the sensor's ticks run until it has caught up (`evaluate`, its default 2,000
events a tick: schema history, FAIL intake, observations as Dagster asset events, the graph
tables), then the cached context graph is refreshed (`cached_context_graph`: the new events' rows
applied to the cached graph, not a rebuild). Reported per chunk: store, tick and refresh seconds
(wall and CPU), the process's RSS after the chunk; at the end a full rebuild of the same graph
for comparison. Targets: ticks under 5 s per 10,000 new events, RSS flat over the day.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import dagster as dg
from sqlalchemy import event as sa_event

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from graph_bench import synthetic_manifest

from dw_assets import context_graph
from dw_assets.config import Settings
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.connectors.openlineage.intake import EventIntake
from dw_assets.store import Store
from sensors.openlineage_events import evaluate

START = datetime(2026, 9, 1, tzinfo=UTC)
PRODUCER = "https://example.com/large-estate-bench"
FACET = {"_producer": PRODUCER, "_schemaURL": "https://openlineage.io/spec/facets/1-1-0/X.json"}
WAREHOUSE = "postgres://warehouse:5432"
FIELDS = [{"name": c, "type": t} for c, t in (("id", "VARCHAR"), ("day", "DATE"), ("customer_id", "VARCHAR"),
                                              ("amount", "DECIMAL(18,2)"), ("discount", "DECIMAL(18,2)"),
                                              ("status", "VARCHAR"), ("loaded_at", "TIMESTAMP"))]


class Day:
    """The day's events, generated in order: event `i` of `total` happens at i/total of the day."""

    def __init__(self, models: int, datasets: int, total: int):
        self.models, self.datasets, self.total = models, datasets, total
        self.jobs = max(1, datasets // 2)
        self.seconds = 86_400 / total

    def dataset(self, k: int) -> str:
        """Dataset `k`: the first `models` are the dbt models' relations, the rest other tables."""
        k %= self.datasets
        return f"analytics.main.m{k}" if k < self.models else f"lake.s{k % 40}.t{k}"

    def event(self, i: int) -> dict[str, Any]:
        run_no, complete = divmod(i, 2)  # START, then COMPLETE of the same run
        job = (run_no * 7919) % self.jobs
        when = START + timedelta(seconds=i * self.seconds)
        run: dict[str, Any] = {"runId": str(uuid.UUID(int=(run_no + 1) << 16)), "facets": {}}
        output = self.dataset(job if job < self.models else self.models + job)
        inputs = [self.dataset(self.models + (job * 31 + 17 * j) % (self.datasets - self.models))
                  for j in range(2)]
        if job < self.models:  # dbt-ol: the model's own job, its relation as output
            name, namespace = f"bench.m{job}", "dbt"
            job_facets = {"jobType": {**FACET, "processingType": "BATCH", "integration": "DBT", "jobType": "MODEL"}}
        else:
            dag = f"dag_{job % 800}"
            name, namespace = f"{dag}.task_{job}", "airflow://bench"
            job_facets = {"jobType": {**FACET, "processingType": "BATCH", "integration": "AIRFLOW", "jobType": "TASK"}}
            run["facets"]["parent"] = {**FACET, "run": {"runId": str(uuid.UUID(int=(run_no // 20 + 1) << 80))},
                                       "job": {"namespace": namespace, "name": dag}}
        out: dict[str, Any] = {"namespace": WAREHOUSE, "name": output}
        if complete:
            out["facets"] = {"schema": {**FACET, "fields": FIELDS}}
        return {"eventType": "COMPLETE" if complete else "START",
                "eventTime": when.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                "producer": PRODUCER, "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
                "run": run, "job": {"namespace": namespace, "name": name, "facets": job_facets},
                "inputs": [{"namespace": WAREHOUSE, "name": n} for n in inputs], "outputs": [out]}


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def schedstat() -> tuple[float, float]:
    """(seconds on a CPU, seconds runnable but waiting for one) of this thread, from the kernel's
    scheduler statistics: wall time minus both is time blocked (disk, fsync, locks, sleeps)."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            on_cpu, waiting, _ = f.read().split()
    except OSError:
        return 0.0, 0.0
    return int(on_cpu) / 1e9, int(waiting) / 1e9


class StatementCounter:
    """Statements and commits the state store's engine runs (SQLAlchemy engine events)."""

    def __init__(self, engine: Any) -> None:
        self.statements = self.commits = 0
        sa_event.listen(engine, "before_cursor_execute", self._statement)
        sa_event.listen(engine, "commit", self._commit)

    def _statement(self, *_args: Any) -> None:
        self.statements += 1

    def _commit(self, *_args: Any) -> None:
        self.commits += 1

    def take(self) -> tuple[int, int]:
        out, self.statements, self.commits = (self.statements, self.commits), 0, 0
        return out


def timed(fn: Any) -> tuple[Any, float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - start, time.process_time() - cpu


def run(models: int, datasets: int, events: int, chunk: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        manifest = Path(tmp) / "manifest.json"
        manifest.write_text(json.dumps(synthetic_manifest(models)))
        settings = Settings.model_validate({
            "state": {"url": f"sqlite:///{tmp}/state.db"},
            "dbt": {"project_dir": tmp, "manifest": str(manifest)},
            "warehouse": {"url": f"duckdb:///{tmp}/warehouse.duckdb"},
        })
        store = Store(settings.state.url)
        store.ensure_schema()
        counter = StatementCounter(store.engine)
        lineage = LineageEventStore(store)
        intake = EventIntake.from_settings(settings)
        day = Day(models, datasets, events)
        keys = {dg.AssetKey(["analytics", f"m{k}"]) for k in range(models)}
        graph, build_s, build_cpu = timed(lambda: context_graph.cached_context_graph(settings, store=store))
        report: dict[str, Any] = {
            "estate": {"models": models, "datasets": datasets, "events": events, "chunk": chunk},
            "first_build": {"s": round(build_s, 2), "cpu_s": round(build_cpu, 2), "nodes": len(graph),
                            "edges": graph.edge_count},
            "rss_mb_start": round(rss_mb(), 1), "chunks": []}
        for first in range(0, events, chunk):
            batch = [intake.accept_event(day.event(i), "bench") for i in range(first, min(events, first + chunk))]
            _, store_s, _ = timed(lambda batch=batch: lineage.append_many(batch))
            del batch
            ticks: list[float] = []
            counter.take()
            sched_before = schedstat()

            def catch_up(ticks: list[float] = ticks) -> int:
                handled = 0
                while True:
                    start = time.perf_counter()
                    _, result = evaluate(settings, store, keys.__contains__)
                    ticks.append(time.perf_counter() - start)
                    handled += result.events
                    if not result.events:
                        return handled

            handled, tick_s, tick_cpu = timed(catch_up)
            sched_after = schedstat()
            statements, commits = counter.take()
            on_cpu, runnable = (b - a for a, b in zip(sched_before, sched_after))
            refreshed, refresh_s, refresh_cpu = timed(lambda: context_graph.cached_context_graph(settings, store=store))
            row = {"events_before": first, "events": handled, "store_s": round(store_s, 2),
                   "ticks": len(ticks), "tick_s": round(tick_s, 2), "tick_cpu_s": round(tick_cpu, 2),
                   "slowest_tick_s": round(max(ticks), 2), "tick_waiting_for_cpu_s": round(runnable, 2),
                   "tick_blocked_s": round(max(0.0, tick_s - on_cpu - runnable), 2),
                   "tick_statements": statements, "tick_commits": commits,
                   "load_average": round(os.getloadavg()[0], 1), "refresh_s": round(refresh_s, 3),
                   "refresh_cpu_s": round(refresh_cpu, 3), "incremental": refreshed is graph,
                   "nodes": len(refreshed), "edges": refreshed.edge_count, "rss_mb": round(rss_mb(), 1)}
            report["chunks"].append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
        rebuilt, rebuild_s, rebuild_cpu = timed(lambda: context_graph.build_context_graph(settings, store=store))
        report["full_rebuild"] = {"s": round(rebuild_s, 2), "cpu_s": round(rebuild_cpu, 2), "nodes": len(rebuilt),
                                  "edges": rebuilt.edge_count}
        del rebuilt
        store.dispose()
    chunks = report["chunks"]
    per = [c["tick_s"] * chunk / max(1, c["events"]) for c in chunks]
    report["summary"] = {
        "tick_s_per_chunk": [round(min(per), 2), round(max(per), 2)],
        "refresh_s": [min(c["refresh_s"] for c in chunks), max(c["refresh_s"] for c in chunks)],
        "always_incremental": all(c["incremental"] for c in chunks),
        "rss_mb": {"start": report["rss_mb_start"], "after_first_chunk": chunks[0]["rss_mb"],
                   "middle": chunks[len(chunks) // 2]["rss_mb"], "end": chunks[-1]["rss_mb"],
                   "max": max(c["rss_mb"] for c in chunks)},
        "load_average": [round(x, 1) for x in os.getloadavg()], "cpus": os.cpu_count()}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,000 models, 5,000 datasets, 50,000 events "
                                                                  "(unless given)")
    parser.add_argument("--models", type=int)
    parser.add_argument("--datasets", type=int)
    parser.add_argument("--events", type=int)
    parser.add_argument("--chunk", type=int, default=10_000)
    parser.add_argument("--json", action="store_true", help="print every chunk, not only the summary")
    args = parser.parse_args()
    sizes = (1_000, 5_000, 50_000) if args.quick else (10_000, 50_000, 1_000_000)
    args.models, args.datasets, args.events = (given if given is not None else default for given, default in
                                               zip((args.models, args.datasets, args.events), sizes))
    report = run(args.models, args.datasets, args.events, args.chunk)
    if not args.json:
        report = {k: v for k, v in report.items() if k != "chunks"}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

"""OpenLineage intake throughput: HTTP receiver (events/s, receiver RSS) and file folder (events/s).

    nice -n 10 .venv/bin/python benchmarks/lineage_bench.py [--http-events 20000] [--concurrency 64]
        [--folder-events 50000] [--folder-passes 1] [--full-validation] [--scattered-times]
        [--state-url postgresql://USER@HOST/EMPTY_DB] [--receivers 2]

HTTP: the receiver runs in its own process (`--receivers N`: N processes side by side on one store,
the client's connections spread over them round-robin; with `--state-url` that is PostgreSQL,
where writers' commits queue on one advisory lock so consumers never skip an event) (uvicorn, one worker, SQLite WAL store in a temp dir);
a raw asyncio HTTP/1.1 client on loopback keeps `--concurrency` keep-alive connections busy posting
distinct events (built before timing); the receiver's RSS is sampled from /proc while it runs and its
CPU seconds are read per thread (the event loop; the writer and checkpointer threads), the client's
too. A 201 means the event was committed. Folder: NDJSON files written first, then one
`FileFolderSource.ingest` pass is timed (wall, process CPU, RSS sampled); `--folder-passes K` repeats
that K times with new events into the same store, to see rate and memory as the store grows. Structural checks are on in
both; `--full-validation` adds JSON-Schema validation (needs DW_SHARED_DIR). On a shared machine run it
niced and read events per CPU-second beside the wall-clock rate. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


_START = datetime(2026, 9, 1, 2, tzinfo=UTC)
_SCATTERED = os.environ.get("DW_BENCH_SCATTERED_TIMES") == "1"  # set by --scattered-times (in the receiver too)
_SHAPE = os.environ.get("DW_BENCH_EVENT_SHAPE", "task")  # --event-shape
_PROVIDER_TEMPLATE: dict | None = None


def make_provider_event(i: int) -> dict:
    """A task COMPLETE as Airflow's OpenLineage provider sends it (~9 KB): the compatibility
    scenario's BigQuery task (airflow, parent and externalQuery run facets, jobType and sourceCode job
    facets, inputs and an output with schema and columnLineage facets), with this event's DAG, task,
    run ids, time and output name."""
    global _PROVIDER_TEMPLATE
    if _PROVIDER_TEMPLATE is None:
        shared = Path(os.environ.get("DW_SHARED_DIR", REPO.parent / "shared"))
        _PROVIDER_TEMPLATE = json.loads(
            (shared / "openlineage-compat" / "scenarios" / "airflow" / "events" / "line_03.json").read_text())
    event = copy.deepcopy(_PROVIDER_TEMPLATE)
    base = make_event(i)
    dag, task = base["job"]["name"].split(".")
    event["eventTime"], event["run"]["runId"] = base["eventTime"], base["run"]["runId"]
    event["job"]["name"] = base["job"]["name"]
    facets = event["run"]["facets"]
    facets["parent"]["job"]["name"] = dag
    facets["parent"]["run"]["runId"] = str(uuid.UUID(int=(1 << 64) + i // 7))
    facets["airflow"]["dag"]["dag_id"] = facets["airflow"]["dagRun"]["dag_id"] = dag
    facets["airflow"]["task"]["task_id"] = task
    event["outputs"][0]["name"] = f"mock-project.test.orders_clean_{i % 100}"
    return event


def make_event(i: int) -> dict:
    """A realistic task event: two inputs, one output with a 7-column schema facet. Event times
    advance 10 ms per event and run ids grow, as they do in a live feed (openlineage-python and the
    Airflow provider make time-ordered UUIDv7 run ids). `--scattered-times`: event times spread
    over 28 days in no order (a backfill of mixed history) and random (UUIDv4) run ids."""
    offset = timedelta(days=(i * 7919) % 28, minutes=(i * 104729) % 1440, milliseconds=i % 1000) if _SCATTERED \
        else timedelta(milliseconds=10 * i)
    facet = {"_producer": "https://example.com/bench", "_schemaURL":
             "https://openlineage.io/spec/facets/1-2-0/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet"}
    fields = [{"name": c, "type": t} for c, t in (("order_id", "VARCHAR"), ("order_date", "DATE"),
              ("customer_id", "VARCHAR"), ("amount", "DECIMAL(18,2)"), ("discount", "DECIMAL(18,2)"),
              ("status", "VARCHAR"), ("loaded_at", "TIMESTAMP"))]
    return {
        "eventType": "COMPLETE",
        "eventTime": (_START + offset).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "producer": "https://example.com/bench",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": str(uuid.uuid4() if _SCATTERED else uuid.UUID(int=i + 1)), "facets": {}},
        "job": {"namespace": "airflow://bench", "name": f"dag_{i % 50}.task_{i % 7}", "facets": {}},
        "inputs": [{"namespace": "duckdb:///w/app.duckdb", "name": f"app.main.orders_{i % 100}"},
                   {"namespace": "duckdb:///w/app.duckdb", "name": "app.main.customers"}],
        "outputs": [{"namespace": "duckdb:///w/lake.duckdb", "name": f"lake.main.orders_clean_{i % 100}",
                     "facets": {"schema": {**facet, "fields": fields}}}],
    }


_CAPTURED: list[dict] | None = None
CAPTURED_FILES = [REPO / "tests" / "lineage" / "data" / f"airflow{major}_provider_events.ndjson" for major in (3, 2)]


def make_captured_event(i: int) -> dict:
    """The estate's own events as Airflow's OpenLineage provider and dbt-ol sent them from real runs
    (tests/lineage/data/airflow{3,2}_provider_events.ndjson: DAG-run and task events with their
    airflow / airflowDagRun / parent facets, dbt-ol's run and model events; 0.5-9 KB, ~5 KB on
    average), taken in turn; each copy gets this event's time and its own run ids (its parent's and
    root's too), so every event is distinct and the mix of shapes stays the one a night sends."""
    global _CAPTURED
    if _CAPTURED is None:
        _CAPTURED = [json.loads(line) for path in CAPTURED_FILES for line in path.read_text().splitlines()]
    template = _CAPTURED[i % len(_CAPTURED)]
    event = copy.deepcopy(template)
    base = make_event(i)
    event["eventTime"], event["run"]["runId"] = base["eventTime"], base["run"]["runId"]
    parent = event["run"].get("facets", {}).get("parent")
    if parent:
        parent["run"]["runId"] = str(uuid.UUID(int=(1 << 64) + i // 7))
        if parent.get("root"):
            parent["root"]["run"]["runId"] = str(uuid.UUID(int=(2 << 64) + i // 40))
    return event


def _event(i: int) -> dict:
    if _SHAPE == "captured":
        return make_captured_event(i)
    return make_provider_event(i) if _SHAPE == "provider" else make_event(i)


def _settings(state_dir: Path, full: bool):
    from tests.support.settings import build_settings

    spec = os.environ.get("DW_SHARED_DIR")
    return build_settings(
        state={"url": os.environ.get("DW_BENCH_STATE_URL") or f"sqlite:///{state_dir}/state.db"},
        openlineage={"spec_dir": f"{spec}/openlineage-spec" if full and spec else None})


def serve(port: int, state_dir: Path, full: bool) -> None:
    """The receiver as `dw lineage serve` runs it (same uvicorn options), on a temp store."""
    from dw_assets.connectors.openlineage import receiver
    from dw_assets.store import Store

    settings = _settings(state_dir, full)
    receiver.serve(settings, Store(settings.state.url), host="127.0.0.1", port=port, full_validation=full)


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_by_thread(pid: int) -> dict[str, float]:
    """CPU seconds of the receiver's main thread (the event loop) and of its other threads (the
    batching writer's commits)."""
    out = {"event_loop": 0.0, "other_threads": 0.0}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            fields = task.joinpath("stat").read_text().rsplit(")", 1)[1].split()
            out["event_loop" if task.name == str(pid) else "other_threads"] += (
                (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
    return out


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def _connection(port: int, bodies: list[bytes], statuses: dict[int, int], latencies: list[float]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for body in bodies:
            sent = time.perf_counter()
            writer.write(b"POST /api/v1/lineage HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            statuses[status] = statuses.get(status, 0) + 1
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if length:
                await reader.readexactly(length)
            latencies.append(time.perf_counter() - sent)
    finally:
        writer.close()


async def _load(ports: list[int], bodies: list[bytes], concurrency: int, pids: list[int]) -> dict:
    statuses: dict[int, int] = {}
    latencies: list[float] = []
    rss: list[float] = []
    chunks = [bodies[i::concurrency] for i in range(concurrency)]

    def all_threads() -> dict[str, float]:
        out: dict[str, float] = {}
        for pid in pids:
            for name, t in _cpu_by_thread(pid).items():
                out[name] = out.get(name, 0.0) + t
        return out

    async def sample() -> None:
        while True:
            rss.append(max(_rss_mb(pid) for pid in pids))
            await asyncio.sleep(0.25)

    sampler = asyncio.create_task(sample())
    cpu_of = lambda: sum(_cpu_s(pid) for pid in pids)
    start, cpu, threads, client = time.perf_counter(), cpu_of(), all_threads(), time.process_time()
    await asyncio.gather(*(_connection(ports[k % len(ports)], chunk, statuses, latencies)
                           for k, chunk in enumerate(chunks)))
    elapsed, cpu, client = time.perf_counter() - start, cpu_of() - cpu, time.process_time() - client
    threads = {name: round(t - threads.get(name, 0.0), 2) for name, t in all_threads().items()}
    sampler.cancel()
    rss.append(max(_rss_mb(pid) for pid in pids))
    quarter = max(1, len(rss) // 4)
    latencies.sort()
    at = lambda q: round(latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000, 1)
    return {"receivers": len(pids), "events": len(bodies), "seconds": round(elapsed, 2), "events_per_s": round(len(bodies) / elapsed),
            "statuses": statuses, "concurrency": concurrency,
            "latency_ms": {"p50": at(0.5), "p99": at(0.99), "p999": at(0.999), "max": at(1.0)}, "receiver_cpu_s": round(cpu, 2),
            "events_per_receiver_cpu_s": round(len(bodies) / cpu) if cpu else None,
            "receiver_cpu_s_by_thread": {k: v for k, v in threads.items() if v},
            "client_cpu_s": round(client, 2), "load_average_after": os.getloadavg(),
            "receiver_rss_mb": {"first_quarter_max": round(max(rss[:quarter]), 1),
                                "last_quarter_max": round(max(rss[-quarter:]), 1), "max": round(max(rss), 1)}}


@contextlib.contextmanager
def _receiver(tmp: str, full: bool):
    """The receiver in its own process on a free loopback port: yields (port, pid) once healthy."""
    import httpx

    sock = __import__("socket").socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    args = [sys.executable, __file__, "_serve", str(port), tmp] + (["--full-validation"] if full else [])
    proc = subprocess.Popen(args, cwd=REPO)
    try:
        for _ in range(300):
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/v1/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield port, proc.pid
    finally:
        proc.terminate()
        proc.wait(30)


def _stored_counts(tmp: str) -> dict:
    from dw_assets.connectors.openlineage.event_store import LineageEventStore
    from dw_assets.store import Store

    store = Store(_settings(Path(tmp), False).state.url)
    try:
        return LineageEventStore(store).counts()
    finally:
        store.dispose()


def bench_http(n: int, concurrency: int, full: bool, receivers: int = 1, first: int = 0) -> dict:
    """`n` distinct events (numbered from `first`, so a second run into the same store adds new
    ones) posted to `receivers` receiver processes side by side on one store."""
    bodies = [orjson.dumps(_event(i)) for i in range(first, first + n)]
    with tempfile.TemporaryDirectory() as tmp:
        with contextlib.ExitStack() as stack:
            running = [stack.enter_context(_receiver(tmp, full)) for _ in range(receivers)]
            ports, pids = [port for port, _ in running], [pid for _, pid in running]
            rss_idle = max(_rss_mb(pid) for pid in pids)
            result = asyncio.run(_load(ports, bodies, concurrency, pids))
            result["receiver_rss_mb"]["idle"] = round(rss_idle, 1)
        result["stored"] = _stored_counts(tmp)["events"]
    return result


def bench_memory(rounds: int, fuzz_posts: int, batch_events: int, full: bool, concurrency: int = 8) -> dict:
    """Receiver RSS under a long mixed load: `rounds` of (`fuzz_posts` mutated posts from
    benchmarks/ol_fuzz.py over the compatibility events, then `batch_events` valid events at full
    speed). RSS after each round: a bound holds when it stops growing after the first rounds."""
    import httpx

    from benchmarks.ol_fuzz import compat_events, mutated_posts

    shared = Path(os.environ.get("DW_SHARED_DIR", REPO.parent / "shared"))
    bases = compat_events(shared) + [make_event(0)]
    rss_by_round, statuses = [], {}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        with _receiver(tmp, full) as (port, pid):
            rss_idle = _rss_mb(pid)

            async def fuzz(posts: list) -> None:
                async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
                    queue = list(posts)

                    async def worker() -> None:
                        while queue:
                            _, body, headers = queue.pop()
                            status = (await http.post("/api/v1/lineage", content=body, headers=headers)).status_code
                            statuses[status] = statuses.get(status, 0) + 1

                    await asyncio.gather(*(worker() for _ in range(concurrency)))

            for r in range(rounds):
                asyncio.run(fuzz(list(mutated_posts(bases, fuzz_posts, seed=r))))
                fuzz_rss = _rss_mb(pid)
                bodies = [orjson.dumps(_event(r * batch_events + i)) for i in range(batch_events)]
                load = asyncio.run(_load([port], bodies, 64, [pid])) if batch_events else {"statuses": {}}
                for status, count in load["statuses"].items():
                    statuses[status] = statuses.get(status, 0) + count
                rss_by_round.append({"after_fuzz": round(fuzz_rss, 1), "after_batch": round(_rss_mb(pid), 1)})
        counts = _stored_counts(tmp)
    peak = max(max(r.values()) for r in rss_by_round)
    return {"rounds": rounds, "fuzz_posts_per_round": fuzz_posts, "valid_events_per_round": batch_events,
            "seconds": round(time.perf_counter() - started, 1), "statuses": statuses, "stored": counts,
            "receiver_rss_mb": {"idle": round(rss_idle, 1), "by_round": rss_by_round, "max": peak,
                                "growth_after_round_1": round(peak - max(rss_by_round[0].values()), 1)}}


def bench_folder(n: int, full: bool, files: int = 10, segments: int = 1) -> dict:
    """`segments` passes of `n` new events each into the same store: events/s and RSS per pass show
    whether intake holds up as the store grows."""
    from dw_assets.connectors.openlineage.event_store import LineageEventStore
    from dw_assets.connectors.openlineage.file_source import FileFolderSource
    from dw_assets.connectors.openlineage.intake import EventIntake
    from dw_assets.store import Store

    passes = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "events"
        folder.mkdir()
        settings = _settings(Path(tmp), full)
        store = Store(settings.state.url)
        events = LineageEventStore(store)
        source = FileFolderSource(folder, max_record_bytes=settings.openlineage.max_body_bytes)
        intake = EventIntake.from_settings(settings)
        for segment in range(segments):
            handles = [(folder / f"s{segment:03d}-part{k}.ndjson").open("wb") for k in range(files)]
            for i in range(segment * n, (segment + 1) * n):
                handles[i % files].write(orjson.dumps(_event(i)) + b"\n")
            for h in handles:
                h.close()
            rss, sampling = [_rss_mb(os.getpid())], threading.Event()

            def sample(rss: list[float] = rss, sampling: threading.Event = sampling) -> None:
                while not sampling.wait(0.1):
                    rss.append(_rss_mb(os.getpid()))

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            start, cpu = time.perf_counter(), time.process_time()
            report = source.ingest(events, intake)
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
            sampling.set()
            sampler.join()
            quarter = max(1, len(rss) // 4)
            passes.append({"store_events_before": segment * n, "seconds": round(elapsed, 2),
                           "events_per_s": round(n / elapsed), "cpu_s": round(cpu, 2),
                           "events_per_cpu_s": round(n / cpu), "accepted": report.accepted,
                           "rejected": report.rejected,
                           "rss_mb": {"before": round(rss[0], 1), "first_quarter_max": round(max(rss[:quarter]), 1),
                                      "last_quarter_max": round(max(rss[-quarter:]), 1)}})
            for path in folder.iterdir():  # keep the disk use to the store's
                path.unlink()
        store.dispose()
    return {"events": n, "files": files, **passes[0]} if segments == 1 else {
        "events_per_pass": n, "files": files, "passes": passes}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "_serve":
        serve(int(sys.argv[2]), Path(sys.argv[3]), "--full-validation" in sys.argv)
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http-events", type=int, default=20000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--folder-events", type=int, default=50000)
    parser.add_argument("--folder-passes", type=int, default=1,
                        help="passes of --folder-events new events each into one store (store growth)")
    parser.add_argument("--full-validation", action="store_true")
    parser.add_argument("--memory-rounds", type=int, default=0,
                        help="rounds of mutated posts then valid events, receiver RSS after each (0: skip)")
    parser.add_argument("--memory-fuzz-posts", type=int, default=2200)
    parser.add_argument("--memory-batch-events", type=int, default=20000)
    parser.add_argument("--state-url", help="an EMPTY PostgreSQL database (postgresql://...) instead of a "
                        "temporary SQLite file; the benchmark writes its events there")
    parser.add_argument("--receivers", type=int, nargs="+", default=[1],
                        help="receiver processes side by side on one store; several values run one after "
                        "the other into the same store (e.g. --receivers 1 2 1 2, alternating on a busy machine)")
    parser.add_argument("--scattered-times", action="store_true",
                        help="event times in no order over 28 days and random run ids (default: a live feed's order)")
    parser.add_argument("--event-shape", choices=["task", "provider", "captured"], default="task",
                        help="task: a 1 KB task event; provider: Airflow's OpenLineage provider's task "
                             "COMPLETE (~9 KB, from ../shared/openlineage-compat); captured: the estate's "
                             "events from real Airflow 3 and 2 runs (provider and dbt-ol, tests/lineage/data)")
    args = parser.parse_args()
    global _SHAPE
    _SHAPE = args.event_shape
    if args.state_url:
        os.environ["DW_BENCH_STATE_URL"] = args.state_url  # read by the receiver process too
    if args.scattered_times:
        os.environ["DW_BENCH_SCATTERED_TIMES"] = "1"
        global _SCATTERED
        _SCATTERED = True
    out = {"cpus": os.cpu_count(), "load_average_at_start": os.getloadavg(), "event_shape": _SHAPE,
           "full_validation": args.full_validation, "scattered_times": args.scattered_times}
    if args.http_events:
        runs = [bench_http(args.http_events, args.concurrency, args.full_validation, receivers, k * args.http_events)
                for k, receivers in enumerate(args.receivers)]
        out["http"] = runs[0] if len(runs) == 1 else runs
    if args.memory_rounds:
        out["memory"] = bench_memory(args.memory_rounds, args.memory_fuzz_posts, args.memory_batch_events,
                                     args.full_validation)
    if args.folder_events:
        out["folder"] = bench_folder(args.folder_events, args.full_validation, segments=args.folder_passes)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

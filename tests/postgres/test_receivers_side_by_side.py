"""Two `dw lineage serve` processes write one PostgreSQL store side by side: one interleaved stream
(every event sent to both, so each arrives twice) is stored exactly once, and a consumer polling by
sequence number while the writes go on (the OpenLineage sensor's `process_new_events`) reads every
event once, none skipped by a commit that landed after a higher sequence number."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
import yaml

from dw_assets.config import load_settings
from dw_assets.connectors.openlineage.event_store import LineageEventStore, events
from dw_assets.incidents import intake_signal
from dw_assets.lineage.processing import CONSUMER, process_new_events
from dw_assets.store import Store

pytestmark = pytest.mark.postgres
REPO = Path(__file__).resolve().parents[2]
DW = str(Path(sys.executable).parent / "dw")
EVENTS = 600
T0 = datetime(2026, 10, 1, 2, tzinfo=UTC)


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _event(i: int) -> dict:
    return {"eventType": "COMPLETE", "eventTime": (T0 + timedelta(milliseconds=7 * i)).isoformat(),
            "producer": "https://example.com/side-by-side",
            "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
            "run": {"runId": f"01890000-0000-7000-8000-{i:012d}", "facets": {}},
            "job": {"namespace": "airflow://prod", "name": f"dag_{i % 9}.task_{i % 4}", "facets": {}},
            "inputs": [{"namespace": "postgres://db:5432", "name": f"raw.public.t{i % 40}"}],
            "outputs": [{"namespace": "postgres://db:5432", "name": f"lake.public.t{i % 40}_clean"}]}


@pytest.fixture
def two_receivers(dw_home: Path, pg_store: Store):
    config = dw_home / "dw.yaml"
    config.write_text(yaml.safe_dump({"state": {"url": pg_store.url}}))
    env = {**os.environ, "DW_HOME": str(dw_home), "DW_CONFIG": str(config)}
    procs, urls = [], []
    for _ in range(2):
        port = _port()
        procs.append(subprocess.Popen([DW, "lineage", "serve", "--port", str(port), "--structural-only"],
                                      env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      start_new_session=True))
        urls.append(f"http://127.0.0.1:{port}")
    try:
        for proc, url in zip(procs, urls):
            deadline = time.monotonic() + 120
            while True:
                try:
                    if httpx.get(f"{url}/api/v1/health", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"dw lineage serve did not come up: {proc.stdout.read().decode()[-2000:]}")
                time.sleep(0.3)
        yield config, urls
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(30)


def test_two_receivers_store_an_interleaved_stream_once_and_the_sensor_reads_it_all(
        two_receivers, pg_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    config, urls = two_receivers
    monkeypatch.setenv("DW_CONFIG", str(config))
    settings = load_settings()
    # event i goes to receiver i % 2 and, a little later in the stream, again to the other one
    stream = []
    for i in range(EVENTS):
        stream.append((urls[i % 2], i))
        if i >= 5:
            stream.append((urls[(i - 5 + 1) % 2], i - 5))
    stream += [(urls[(i + 1) % 2], i) for i in range(EVENTS - 5, EVENTS)]
    assert len(stream) == 2 * EVENTS

    done = threading.Event()
    consumed: list[int] = []

    def sensor_ticks() -> None:  # the sensor's work, tick after tick, while the receivers write
        while True:
            finished = done.is_set()
            result = process_new_events(settings, pg_store, intake=intake_signal, ingest=False, limit=50)
            consumed.append(result.events)
            if finished and not result.events:
                return
            time.sleep(0.01)

    statuses: list[int] = []
    with httpx.Client(timeout=30) as client, ThreadPoolExecutor(8) as pool:
        ticker = threading.Thread(target=sensor_ticks)
        ticker.start()
        statuses = list(pool.map(lambda item: client.post(f"{item[0]}/api/v1/lineage", json=_event(item[1]))
                                 .status_code, stream))
        done.set()
        ticker.join(120)
    assert not ticker.is_alive()
    assert statuses == [201] * len(stream)

    with pg_store.engine.connect() as conn:
        seqs = conn.execute(sa.select(events.c.seq).order_by(events.c.seq)).scalars().all()
        runs = conn.execute(sa.select(sa.func.count(sa.distinct(events.c.run_id)))).scalar()
    assert len(seqs) == EVENTS and runs == EVENTS  # every event once
    assert sum(consumed) == EVENTS  # the sensor read each stored event once, none skipped
    assert int(pg_store.get_cursor(CONSUMER) or 0) == seqs[-1]
    stored = LineageEventStore(pg_store)
    assert len(stored.query(job="dag_3.task_3", limit=1000)) == len([i for i in range(EVENTS)
                                                                     if i % 9 == 3 and i % 4 == 3])

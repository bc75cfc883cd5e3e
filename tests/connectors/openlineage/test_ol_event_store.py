"""The OpenLineage event store on SQLite and (marked `postgres`) on a real PostgreSQL."""

from __future__ import annotations

import sqlite3
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa

from dw_assets.connectors.openlineage.event_store import (
    REJECTED_BODY_KEEP,
    LineageEventStore,
    Rejection,
    dataset_events,
    job_events,
    unindexed,
)
from dw_assets.connectors.openlineage.intake import EventIntake, dataset_id_resolver
from dw_assets.connectors.openlineage.validation import EventValidator
from dw_assets.store import Store
from tests.support.ol_samples import dataset, run_event


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_store(request: pytest.FixtureRequest, tmp_path: Path):
    if request.param == "postgres":
        yield request.getfixturevalue("pg_store")
        return
    store = Store(f"sqlite:///{tmp_path}/state.db")
    yield store
    store.dispose()


def _intake() -> EventIntake:
    return EventIntake(EventValidator(None), dataset_id_resolver({"gl_entries": "finance.bronze.gl_entries"}))


def _accepted(event: dict):
    return _intake().accept_event(event, "test")


def _orders_event(i: int, **kw) -> dict:
    return run_event(job=f"orders_daily.task_{i % 3}", event_time=f"2026-09-0{1 + i % 5}T02:00:00Z",
                     inputs=[dataset("app.main.orders", "duckdb:///w/app.duckdb")],
                     outputs=[dataset("lake.main.orders_clean")], **kw)


def test_batch_append_keeps_arrival_order_and_indexes_datasets(any_store: Store) -> None:
    events = LineageEventStore(any_store)
    seqs = events.append_many([_accepted(_orders_event(i)) for i in range(50)])
    assert all(s is not None for s in seqs) and seqs == sorted(seqs)
    stored = events.read_after(0, limit=1000)
    assert [s.seq for s in stored] == seqs
    assert stored[0].event["job"]["name"] == "orders_daily.task_0"
    assert stored[0].event_time == datetime(2026, 9, 1, 2, tzinfo=UTC)
    assert events.read_after(seqs[-10], limit=1000) == stored[-9:]
    assert events.pending == 50 and len(events.query(dataset_id="app.orders")) == 50  # found while pending
    assert events.index_pending() == 50 and events.pending == 0
    assert len(events.query(dataset_id="app.orders")) == 50  # the same, now from the lookup
    with any_store.engine.connect() as conn:
        roles = conn.execute(sa.select(dataset_events.c.role, dataset_events.c.dataset_id)
                             .where(dataset_events.c.event_seq == seqs[0])).all()
    assert sorted(roles) == [("input", "app.orders"), ("output", "lake.orders_clean")]


def test_a_duplicate_is_stored_once(any_store: Store) -> None:
    events = LineageEventStore(any_store)
    event = _orders_event(1)
    first = events.append_many([_accepted(event), _accepted(dict(event))])
    assert first[0] is not None and first[1] is None
    reordered = dict(reversed(list(event.items())))  # same content, other key order
    assert events.append_many([_accepted(reordered)]) == [None]
    assert events.counts()["events"] == 1


def test_lookups_by_job_run_dataset_and_time(any_store: Store) -> None:
    events = LineageEventStore(any_store)
    run_id = str(uuid.uuid4())
    batch = [_orders_event(i) for i in range(9)] + [_orders_event(3, run_id=run_id)]
    batch.append(run_event(job="gl_landing.load", namespace="airflow://local", event_time="2026-09-30T05:00:00Z",
                           outputs=[dataset("finance.bronze.gl_entries", "duckdb:///w/finance.duckdb")]))
    events.append_many([_accepted(e) for e in batch])
    assert len(events.query(job="orders_daily.task_0")) == 4  # i = 0, 3, 6 and the extra run of i = 3
    assert len(events.query(job="airflow://local/gl_landing.load")) == 1
    assert [e.run_id for e in events.query(run_id=run_id)] == [run_id]
    assert len(events.query(dataset_id="lake.orders_clean")) == 10
    assert [e.job_name for e in events.query(dataset_id="finance.bronze.gl_entries")] == ["gl_landing.load"]
    assert [e.job_name for e in events.query(since=datetime(2026, 9, 6, tzinfo=UTC))] == ["gl_landing.load"]
    newest_first = events.query(limit=3)
    assert [e.seq for e in newest_first] == sorted((e.seq for e in newest_first), reverse=True)


def test_rejects_keep_reason_and_at_most_the_first_bytes(any_store: Store) -> None:
    events = LineageEventStore(any_store)
    big = b"x" * (REJECTED_BODY_KEEP + 10)
    events.reject_many([Rejection("http:1.2.3.4", "$.run.runId: 'x' is not a UUID", b'{"run": {"runId": "x"}}'),
                        Rejection("http:1.2.3.4", "too big", big[:100], body_bytes=5_000_000),
                        Rejection("file:/x", "too long", big)])
    rows = events.rejected()
    assert [r["reason"] for r in rows] == ["too long", "too big", "$.run.runId: 'x' is not a UUID"]
    assert len(rows[0]["body"]) == REJECTED_BODY_KEEP and rows[0]["truncated"]
    assert rows[1]["body_bytes"] == 5_000_000 and rows[1]["truncated"]
    assert rows[2]["body"] == b'{"run": {"runId": "x"}}' and not rows[2]["truncated"]


def test_consumer_cursors_are_independent(any_store: Store) -> None:
    any_store.ensure_schema()
    any_store.set_cursor("openlineage:sensor", "41")
    any_store.set_cursor("openlineage:sensor", "42")
    any_store.set_cursor("openlineage:graph", "7")
    assert any_store.get_cursor("openlineage:sensor") == "42"
    assert any_store.get_cursor("openlineage:graph") == "7"
    assert any_store.get_cursor("nobody") is None


def test_a_batch_mixing_new_and_stored_events_gets_the_right_seqs(any_store: Store) -> None:
    events = LineageEventStore(any_store)
    stored = [_orders_event(i) for i in range(3)]
    old = events.append_many([_accepted(e) for e in stored])
    fresh = [_orders_event(i) for i in range(3, 6)]
    batch = [fresh[0], stored[1], fresh[1], fresh[1], stored[0], fresh[2]]
    seqs = events.append_many([_accepted(e) for e in batch])
    assert [s is None for s in seqs] == [False, True, False, True, True, False]
    new = [s for s in seqs if s is not None]
    assert new == sorted(new) and min(new) > max(old)
    by_seq = {e.seq: e.run_id for e in events.read_after(0)}
    assert [by_seq[s] for s in new] == [e["run"]["runId"] for e in fresh]
    events.index_pending()
    with any_store.engine.connect() as conn:
        linked = conn.execute(sa.select(dataset_events.c.event_seq).distinct()).scalars().all()
    assert sorted(linked) == sorted(old + new)


def test_seqs_are_never_reused_after_the_newest_rows_are_deleted(any_store: Store) -> None:
    events = LineageEventStore(any_store)
    first = events.append_many([_accepted(_orders_event(i)) for i in range(4)])
    with any_store.engine.begin() as conn:  # e.g. a retention job removed the newest events
        conn.execute(sa.delete(dataset_events).where(dataset_events.c.event_seq >= first[2]))
        conn.execute(sa.text("DELETE FROM dw_ol_events WHERE seq >= :s"), {"s": first[2]})
    again = events.append_many([_accepted(_orders_event(i)) for i in range(4, 7)])
    assert min(again) > max(first)
    assert [e.seq for e in events.read_after(first[1])] == again
    assert [e.job_name for e in events.read_after(first[1])] == [f"orders_daily.task_{i % 3}" for i in range(4, 7)]


def test_accepted_events_carry_their_columns_and_each_dataset_once() -> None:
    event = run_event(job="orders_daily.orders_clean", event_time="2026-09-01T04:00:00+02:00",
                      inputs=[dataset("app.main.orders", "duckdb:///w/app.duckdb"),
                              dataset("app.orders", "duckdb:///other/app.duckdb")],  # the same canonical id
                      outputs=[dataset("lake.main.orders_clean")])
    item = _accepted(event)
    assert (item.kind, item.event_type, item.run_id) == ("run", "COMPLETE", event["run"]["runId"])
    assert (item.job_namespace, item.job_name) == ("airflow://local", "orders_daily.orders_clean")
    assert item.event_time == datetime(2026, 9, 1, 2, tzinfo=UTC)
    assert [(r.role, r.dataset_id) for r in item.datasets] == [("input", "app.orders"),
                                                               ("output", "lake.orders_clean")]
    dataset_event = {"eventTime": "2026-09-01T02:00:00Z", "producer": "https://x.example",
                     "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent",
                     "dataset": dataset("lake.main.orders_clean")}
    item = _accepted(dataset_event)
    assert (item.kind, item.event_type, item.run_id, item.job_name) == ("dataset", None, None, None)
    assert [(r.role, r.dataset_id) for r in item.datasets] == [("dataset", "lake.orders_clean")]


def test_batches_larger_than_one_statement_keep_order_seqs_and_links(any_store: Store) -> None:
    events = LineageEventStore(any_store, index_every=3_000)
    def event(i: int):
        return _accepted(_orders_event(i, run_id=str(uuid.UUID(int=i + 1))))

    first = [event(i) for i in range(2_500)]  # several statements of rows on SQLite
    seqs = events.append_many(first)
    assert seqs == list(range(seqs[0], seqs[0] + 2_500))
    mixed = [event(i) for i in range(2_400, 3_700)]  # 100 stored, 1,200 new
    again = events.append_many(mixed)
    assert [s is None for s in again] == [True] * 100 + [False] * 1_200
    assert events.pending == 0  # 3,700 pending passed index_every: the write indexed them
    assert again[100:] == sorted(again[100:]) and again[100] > seqs[-1]
    assert len(events.query(dataset_id="lake.orders_clean", limit=10_000)) == 3_700
    assert len(events.query(dataset_id="app.orders", limit=10_000)) == 3_700
    assert len(events.query(job="orders_daily.task_1", limit=10_000)) == len(range(1, 3_700, 3))
    assert len(events.query(job="airflow://local/orders_daily.task_1", limit=10_000)) == len(range(1, 3_700, 3))
    with any_store.engine.connect() as conn:
        links = conn.execute(sa.select(sa.func.count()).select_from(dataset_events)).scalar_one()
    assert links == 2 * 3_700
    assert events.dataset_ids_ending("orders_clean") == ["lake.orders_clean"]


_OLDER_LAYOUT = """
CREATE TABLE dw_ol_events (seq INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, content_hash VARCHAR(64) NOT NULL,
    kind VARCHAR(8) NOT NULL, event_time DATETIME NOT NULL, event_type VARCHAR(16), run_id VARCHAR(36),
    job_namespace VARCHAR(500), job_name VARCHAR(1000), source VARCHAR(500) NOT NULL, received_at DATETIME NOT NULL,
    raw TEXT NOT NULL, UNIQUE (content_hash));
CREATE INDEX ix_dw_ol_events_job ON dw_ol_events (job_namespace, job_name, seq);
CREATE INDEX ix_dw_ol_events_run ON dw_ol_events (run_id);
CREATE TABLE dw_ol_event_datasets (event_seq INTEGER NOT NULL, role VARCHAR(8) NOT NULL,
    dataset_id VARCHAR(1000) NOT NULL, namespace VARCHAR(1000) NOT NULL, name VARCHAR(1000) NOT NULL,
    PRIMARY KEY (event_seq, role, dataset_id), FOREIGN KEY(event_seq) REFERENCES dw_ol_events (seq) ON DELETE CASCADE
) WITHOUT ROWID;
"""


def test_a_store_of_the_older_layout_is_upgraded_once_and_keeps_working(tmp_path: Path) -> None:
    from dw_assets.connectors.openlineage import event_store

    db = tmp_path / "old.db"
    old = [_accepted(_orders_event(i)) for i in range(3)]
    with sqlite3.connect(db) as conn:  # what an earlier build wrote
        conn.executescript(_OLDER_LAYOUT)
        for seq, item in enumerate(old, start=1):
            conn.execute("INSERT INTO dw_ol_events VALUES (?, ?, 'run', ?, 'COMPLETE', ?, ?, ?, 'test', ?, ?)",
                         (seq, item.content_hash, item.event_time.strftime("%Y-%m-%d %H:%M:%S.%f"), item.run_id,
                          item.job_namespace, item.job_name, "2026-09-30 00:00:00.000000", item.canonical.decode()))
            for ref in item.datasets:
                conn.execute("INSERT INTO dw_ol_event_datasets VALUES (?, ?, ?, ?, ?)",
                             (seq, ref.role, ref.dataset_id, ref.namespace, ref.name))
    url = f"sqlite:///{db}"
    event_store._layout_checked.discard(url)
    store = Store(url)
    events = LineageEventStore(store)
    assert [e.seq for e in events.query(dataset_id="lake.orders_clean")] == [3, 2, 1]
    assert [e.seq for e in events.query(job="airflow://local/orders_daily.task_1")] == [2]
    assert events.dataset_ids_ending("orders_clean") == ["lake.orders_clean"]
    inspector = sa.inspect(store.engine)
    assert not inspector.has_table("dw_ol_event_datasets")
    assert "ix_dw_ol_events_job" not in {ix["name"] for ix in inspector.get_indexes("dw_ol_events")}
    assert events.append_many([old[1]]) == [None]  # found by the dedupe key filled in for old rows
    (new,) = events.append_many([_accepted(_orders_event(7))])
    assert new is not None and new > 3
    assert [e.seq for e in events.query(job="orders_daily.task_1")] == [new, 2]
    event_store._layout_checked.discard(url)
    assert LineageEventStore(store).counts() == {"events": 4, "rejected": 0, "with_findings": 0}  # a second open changes nothing
    store.dispose()


def test_writers_and_index_passes_side_by_side_index_every_event_once(any_store: Store) -> None:
    import threading

    def writer(k: int) -> None:
        events = LineageEventStore(any_store, index_every=40)  # each thread runs its own index passes
        for start in range(0, 300, 7):  # small batches: they go pending
            events.append_many([_accepted(_orders_event(i, run_id=str(uuid.UUID(int=k * 1000 + i + 1))))
                                for i in range(start, min(start + 7, 300))])

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    events = LineageEventStore(any_store)
    events.index_pending()
    assert events.pending == 0 and events.counts()["events"] == 900
    with any_store.engine.connect() as conn:
        linked = conn.execute(sa.select(dataset_events.c.event_seq, dataset_events.c.dataset_id)).all()
        jobs = conn.execute(sa.select(job_events.c.event_seq)).scalars().all()
        pending = conn.execute(sa.select(sa.func.count()).select_from(unindexed)).scalar_one()
    seqs = {e.seq for e in events.read_after(0, limit=1000)}
    assert pending == 0
    assert sorted(jobs) == sorted(seqs)  # every event's job once
    assert sorted(s for s, d in linked if d == "lake.orders_clean") == sorted(seqs)
    assert sorted(s for s, d in linked if d == "app.orders") == sorted(seqs)

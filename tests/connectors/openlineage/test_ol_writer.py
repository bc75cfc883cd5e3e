"""The batching writer: shared commits, acknowledgements after the commit, background WAL checkpoints."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from dw_assets.connectors.openlineage.event_store import LineageEventStore, Rejection, job_events
from dw_assets.connectors.openlineage.intake import EventIntake, dataset_id_resolver
from dw_assets.connectors.openlineage.validation import EventValidator
from dw_assets.connectors.openlineage.writer import BatchingWriter, WalCheckpointer
from dw_assets.store import Store
from tests.support.ol_samples import dataset, run_event


def _accepted(i: int):
    event = run_event(job=f"orders_daily.t{i}", outputs=[dataset("lake.main.orders_clean")])
    return EventIntake(EventValidator(None), dataset_id_resolver()).accept_event(event, "test")


def test_submitters_get_their_seq_after_one_shared_commit(store: Store) -> None:
    events = LineageEventStore(store)
    writer = BatchingWriter(events, max_delay_s=0.05)
    try:
        items = [_accepted(i) for i in range(20)]
        futures = [writer.submit(item) for item in items] + [writer.submit(items[0])]
        futures.append(writer.submit(Rejection("test", "bad", b"{}")))
        results = [f.result(timeout=30) for f in futures]
    finally:
        writer.close()
    seqs = results[:20]
    assert all(s is not None for s in seqs) and seqs == sorted(seqs)
    assert results[20] is None and results[21] is None  # the duplicate and the rejection
    assert events.counts() == {"events": 20, "rejected": 1, "with_findings": 0}


def test_a_quiet_writer_indexes_what_is_pending(store: Store) -> None:
    events = LineageEventStore(store)
    writer = BatchingWriter(events, index_when_idle_s=0.05)
    try:
        seqs = [f.result(timeout=30) for f in [writer.submit(_accepted(i)) for i in range(30)]]
        deadline = time.monotonic() + 30
        while events.pending and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        writer.close()
    assert events.pending == 0
    with store.engine.connect() as conn:
        indexed = conn.execute(sa.select(job_events.c.event_seq).order_by(job_events.c.event_seq)).scalars().all()
    assert indexed == sorted(seqs)


def test_the_wal_is_copied_back_by_the_background_checkpointer(tmp_path: Path) -> None:
    db = tmp_path / "state.db"
    store = Store(f"sqlite:///{db}")
    events = LineageEventStore(store)
    events.append_many([_accepted(i) for i in range(200)])
    before = db.stat().st_size  # committed pages wait in the WAL (the writer's own checkpoint is at ~40 MB)
    assert (tmp_path / "state.db-wal").stat().st_size > 0
    with WalCheckpointer.for_store(store, every_s=0.05) as checkpointer:
        deadline = time.monotonic() + 30
        while db.stat().st_size <= before and time.monotonic() < deadline:
            time.sleep(0.05)
    assert db.stat().st_size > before  # the pages reached the database file
    assert not checkpointer._thread.is_alive()
    assert len(events.read_after(0, limit=500)) == 200
    store.dispose()


def test_no_checkpointer_thread_for_postgresql_or_when_disabled(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path}/state.db")
    assert not WalCheckpointer.for_store(store, every_s=0)._thread.is_alive()
    store.dispose()
    assert WalCheckpointer(None)._thread.ident is None


@pytest.mark.postgres
def test_the_writer_works_on_postgresql(pg_store: Store) -> None:
    writer = BatchingWriter(LineageEventStore(pg_store))
    try:
        assert writer.submit(_accepted(1)).result(timeout=30) is not None
    finally:
        writer.close()
    with pg_store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM dw_ol_events")).scalar() == 1

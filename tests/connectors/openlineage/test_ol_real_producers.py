"""What real producers send: OpenLineage's compatibility-test events, deep nesting, poison events, a fuzz.

The compatibility events (Airflow provider, Spark on Dataproc with BigQuery, column lineage) are the
conformance fixture: all accepted, with schema findings where a facet breaks its published schema,
except the one whose run id is not a UUID. No body a client can send gets a 5xx or is lost: every
refusal is kept as a reject with its reason.
"""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
import yaml
from click.testing import CliRunner
from starlette.testclient import TestClient

from benchmarks.ol_fuzz import compat_events, mutated_posts, nested
from dw_assets.cli import cli
from dw_assets.connectors.openlineage.event_store import LineageEventStore, Quarantined
from dw_assets.connectors.openlineage.file_source import FileFolderSource
from dw_assets.connectors.openlineage.intake import EventIntake
from dw_assets.connectors.openlineage.receiver import ReceiverOptions, create_app
from dw_assets.store import Store
from tests.support.ol_samples import dataset, make_settings, run_event

LIMIT = 2_000_000
NOT_A_UUID = "simple_run_event"  # its run id is "run_id" (and its producer no URI): really invalid


def _compat_files(shared_dir: Path) -> list[Path]:
    files = sorted((shared_dir / "openlineage-compat" / "scenarios").glob("*/events/*.json"))
    if len(files) < 70:
        pytest.skip(f"{shared_dir}/openlineage-compat holds {len(files)} events, expected the 74 scenarios' events")
    return files


def _app(dw_home: Path, store: Store, spec_dir: Path | None, **openlineage):
    settings = make_settings(dw_home, spec_dir=str(spec_dir) if spec_dir else None, max_body_bytes=LIMIT,
                             **openlineage)
    return create_app(settings, store, intake=EventIntake.from_settings(settings),
                      options=ReceiverOptions(max_body_bytes=LIMIT))


def test_every_compatibility_event_is_accepted_with_its_schema_findings(
        dw_home: Path, store: Store, spec_dir: Path, shared_dir: Path) -> None:
    files = _compat_files(shared_dir)
    with TestClient(_app(dw_home, store, spec_dir)) as client:
        answers = {path: client.post("/api/v1/lineage", content=path.read_bytes()) for path in files}
    refused = {path.parent.parent.name: resp for path, resp in answers.items() if resp.status_code != 201}
    assert list(refused) == [NOT_A_UUID], {k: v.text for k, v in refused.items()}
    assert "not a UUID" in refused[NOT_A_UUID].json()["error"]
    events = LineageEventStore(store)
    counts = events.counts()
    distinct = {json.dumps(json.loads(path.read_bytes()), sort_keys=True) for path in files
                if path.parent.parent.name != NOT_A_UUID}  # a few scenarios repeat an event: stored once
    assert counts["events"] == len(distinct) and counts["rejected"] == 1
    flagged = events.query(with_findings=True, limit=200)
    assert len(flagged) == counts["with_findings"] >= 13  # Spark's `file` and BigQuery's `bigquery` URIs
    for stored in flagged:
        assert all(path.endswith("dataSource.uri") and "is not a 'uri'" in what for path, what in stored.findings)
    producers = {stored.event["producer"].split("/tree/")[0] for stored in flagged}
    assert any("spark" in p or "OpenLineage" in p for p in producers), producers

    # the same store through the CLI: `dw lineage events --json` shows the findings
    config = dw_home / "dw.yaml"
    config.write_text(yaml.safe_dump({"state": {"url": str(store.url)}}))
    result = CliRunner().invoke(cli, ["--config", str(config), "lineage", "events", "--with-findings", "--json",
                                      "--limit", "100"], catch_exceptions=False)
    rows = json.loads(result.output)
    assert len(rows) == counts["with_findings"] and all(row["findings"] for row in rows)


def test_strict_keeps_refusing_schema_findings(dw_home: Path, store: Store, spec_dir: Path,
                                               shared_dir: Path) -> None:
    files = _compat_files(shared_dir)
    with TestClient(_app(dw_home, store, spec_dir, strict=True)) as client:
        statuses = [client.post("/api/v1/lineage", content=path.read_bytes()) for path in files]
    refused = [resp.json()["error"] for resp in statuses if resp.status_code == 400]
    assert len(refused) >= 14 and sum("dataSource.uri" in why for why in refused) == len(refused) - 1
    counts = LineageEventStore(store).counts()
    assert counts["with_findings"] == 0 and counts["rejected"] == len(refused)


@pytest.mark.parametrize("depth", [254, 300, 1000, 1100, 5000])
def test_deep_nesting_over_http_is_refused_with_its_reason_never_a_500(
        dw_home: Path, store: Store, spec_dir: Path, depth: int) -> None:
    event = run_event(run_facets={"deep": {"_producer": "https://x.example", "_schemaURL": "https://x.example/s",
                                           "v": nested(depth - 4)}})
    body = _deep_body(event, depth)
    with TestClient(_app(dw_home, store, spec_dir)) as client:
        resp = client.post("/api/v1/lineage", content=body)
        after = client.post("/api/v1/lineage", json=run_event())
    assert after.status_code == 201
    counts = LineageEventStore(store).counts()
    if depth < 255:  # what orjson can write back is stored
        assert resp.status_code == 201 and counts["events"] == 2
        return
    assert resp.status_code == 400, resp.text
    assert "nested deeper than 255" in resp.json()["error"] or "depth limit exceeded" in resp.json()["error"]
    [kept] = LineageEventStore(store).rejected()
    assert kept["reason"] == resp.json()["error"] and kept["body"] == body[:len(kept["body"])]
    assert counts == {"events": 1, "rejected": 1, "with_findings": 0}


def _deep_body(event: dict, depth: int) -> bytes:
    """json.dumps recurses: build the deep value's text by hand past Python's recursion limit."""
    if depth < 900:
        return json.dumps(event).encode()
    event["run"]["facets"]["deep"]["v"] = "PLACEHOLDER"
    inner = "[" * depth + '"x"' + "]" * depth
    return json.dumps(event).replace('"PLACEHOLDER"', inner).encode()


def test_a_poison_line_in_the_folder_is_quarantined_and_the_rest_ingested(dw_home: Path, store: Store) -> None:
    folder = dw_home / "events"
    folder.mkdir()
    good = [run_event(event_time=f"2026-09-01T02:0{i}:00Z", outputs=[dataset(f"lake.main.t{i}")]) for i in range(4)]
    deep = _deep_body(run_event(run_facets={"deep": {"_producer": "https://x.example",
                                                     "_schemaURL": "https://x.example/s", "v": nested(400)}}), 400)
    lines = [json.dumps(good[0]).encode(), deep, json.dumps(good[1]).encode(), b"\xff\xfe not json",
             _deep_body(run_event(run_facets={"deep": {"_producer": "https://x.example",
                                                       "_schemaURL": "https://x.example/s", "v": 1}}), 2000),
             json.dumps(good[2]).encode()]
    (folder / "a.ndjson").write_bytes(b"\n".join(lines) + b"\n")
    (folder / "b.json").write_bytes(b"{\n" + deep[1:] + b"\n")  # a pretty-printed style document, too deep
    (folder / "c.ndjson").write_text(json.dumps(good[3]) + "\n")
    events = LineageEventStore(store)
    source = FileFolderSource(folder, max_record_bytes=LIMIT)
    intake = EventIntake.from_settings(make_settings(dw_home))
    report = source.ingest(events, intake)
    assert (report.accepted, report.rejected) == (4, 4)
    reasons = {r["source"].rsplit("/", 1)[1]: r["reason"] for r in events.rejected()}
    assert set(reasons) == {"a.ndjson@0+line2", "a.ndjson@0+line4", "a.ndjson@0+line5", "b.json@0+line1"}
    assert "cannot be stored" in reasons["a.ndjson@0+line2"] and "not valid JSON" in reasons["a.ndjson@0+line4"]
    again = source.ingest(events, intake)  # the cursor moved past the bad lines: nothing is read twice
    assert (again.accepted, again.duplicates, again.rejected) == (0, 0, 0)
    assert events.counts() == {"events": 4, "rejected": 4, "with_findings": 0}


def _poison_trigger(store: Store) -> None:
    """A real refusal by the database for one job name, as PostgreSQL refuses a value it cannot hold."""
    with store.engine.begin() as conn:
        if store.dialect == "sqlite":
            conn.exec_driver_sql("CREATE TRIGGER dw_test_poison BEFORE INSERT ON dw_ol_events WHEN NEW.job_name = "
                                 "'poison.task' BEGIN SELECT RAISE(ABORT, 'poison refused'); END")
            return
        conn.exec_driver_sql("CREATE FUNCTION dw_test_poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                             "IF NEW.job_name = 'poison.task' THEN RAISE EXCEPTION 'poison refused'; END IF; "
                             "RETURN NEW; END $$")
        conn.exec_driver_sql("CREATE TRIGGER dw_test_poison BEFORE INSERT ON dw_ol_events FOR EACH ROW "
                             "EXECUTE FUNCTION dw_test_poison()")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_store(request: pytest.FixtureRequest, store: Store) -> Store:
    return store if request.param == "sqlite" else request.getfixturevalue("pg_store")


def test_an_event_the_database_refuses_is_quarantined_and_its_batch_stored(dw_home: Path, any_store: Store) -> None:
    store = any_store
    events = LineageEventStore(store)
    _poison_trigger(store)
    intake = EventIntake.from_settings(make_settings(dw_home))
    batch = [intake.accept_event(run_event(job="poison.task" if i == 6 else f"dag.t{i}"), "test") for i in range(10)]
    seqs = events.append_many(batch)
    assert isinstance(seqs[6], Quarantined) and "poison refused" in seqs[6].reason
    assert all(isinstance(seq, int) for i, seq in enumerate(seqs) if i != 6)
    [kept] = events.rejected()
    assert kept["source"] == "test" and "poison refused" in kept["reason"]
    assert json.loads(kept["body"])["job"]["name"] == "poison.task"
    assert events.counts() == {"events": 9, "rejected": 1, "with_findings": 0}
    with TestClient(_app(dw_home, store, None)) as client:  # over HTTP: a 400 with the reason, the next still 201
        poison = client.post("/api/v1/lineage", json=run_event(job="poison.task"))
        assert client.post("/api/v1/lineage", json=run_event()).status_code == 201
    assert poison.status_code == 400 and "poison refused" in poison.json()["error"]


def test_an_unreachable_store_still_fails_the_whole_batch(dw_home: Path, store: Store) -> None:
    events = LineageEventStore(store)
    intake = EventIntake.from_settings(make_settings(dw_home))
    batch = [intake.accept_event(run_event(), "test") for _ in range(3)]
    with store.engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE dw_ol_unindexed")  # "no such table": OperationalError, not content
    with pytest.raises(sa.exc.OperationalError):
        events.append_many(batch)


@pytest.mark.openlineage
def test_a_fuzz_of_mutated_posts_gets_no_5xx_and_every_refusal_is_kept(
        dw_home: Path, store: Store, spec_dir: Path, shared_dir: Path, run_server) -> None:
    bases = compat_events(shared_dir) + [run_event(outputs=[dataset("lake.main.orders_clean",
                                                                    schema={"fields": [{"name": "a", "type": "INT"}]})])]
    posts = list(mutated_posts(bases, 2100, seed=18, big_share=0.01))  # ~20 bodies of 0.3-2.5 MB
    statuses: dict[int, int] = {}
    by_mutation: dict[str, set[int]] = {}
    started = time.monotonic()
    with run_server(_app(dw_home, store, spec_dir)) as server, \
            httpx.Client(base_url=server.url, timeout=60) as http:
        for name, body, headers in posts:
            status = http.post("/api/v1/lineage", content=body, headers=headers).status_code
            statuses[status] = statuses.get(status, 0) + 1
            by_mutation.setdefault(name, set()).add(status)
        assert http.get("/api/v1/health").status_code == 200
    elapsed = time.monotonic() - started
    assert not [s for s in statuses if s >= 500], statuses
    assert set(statuses) <= {201, 400, 413}, statuses
    assert 201 in by_mutation["valid"] and by_mutation["deep"] >= {400}
    counts = LineageEventStore(store).counts()
    assert counts["rejected"] == statuses.get(400, 0) + statuses.get(413, 0)
    assert 0 < counts["events"] <= statuses[201]  # a mutation may repeat an event: stored once
    assert elapsed < 600, f"{len(posts)} posts took {elapsed:.0f} s"


def test_the_airflow_providers_events_feed_the_graph_and_a_failed_task_becomes_a_signal(
        dw_home: Path, store: Store, shared_dir: Path) -> None:
    """The provider's DAG and task events (parent facets, airflow/airflowDagRun facets) from the
    compatibility scenario, plus a failed task in the provider's shape (errorMessage facet)."""
    from dw_assets.core.graph import ContextGraph
    from dw_assets.incidents import intake_signal
    from dw_assets.lineage.graph_feed import feed_graph
    from dw_assets.lineage.processing import process_new_events

    scenario = sorted((shared_dir / "openlineage-compat" / "scenarios" / "airflow" / "events").glob("*.json"))
    if not scenario:
        pytest.skip("no Airflow scenario in openlineage-compat")
    events = [json.loads(path.read_text()) for path in scenario]
    failed = json.loads(json.dumps(next(e for e in events if e["job"]["name"] == "BQ.copy"
                                        and e["eventType"] == "COMPLETE")))
    failed["eventType"] = "FAIL"
    failed["run"]["runId"] = "01936893-9751-7a91-a2a0-00000000f411"
    failed["run"]["facets"]["errorMessage"] = {
        "_producer": failed["producer"], "message": "403 Access Denied: Table mock-project:test.upload",
        "programmingLanguage": "python", "stackTrace": "Traceback (most recent call last): ...",
        "_schemaURL": "https://openlineage.io/spec/facets/1-0-0/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet"}
    folder = dw_home / "lineage" / "events"
    folder.mkdir(parents=True)
    (folder / "airflow.ndjson").write_text("".join(json.dumps(e) + "\n" for e in [*events, failed]))
    settings = make_settings(dw_home, sources=[{"type": "file", "path": str(folder)}])

    result = process_new_events(settings, store, intake=intake_signal)
    assert result.ingest.reports[0].rejected == 0 and result.events == len(events) + 1
    [signal] = result.signals
    assert signal.kind == "lineage_fail" and signal.dataset_id.endswith("test.upload_cp")
    assert "403 Access Denied" in signal.summary and signal.details["parent"]["name"] == "BQ"
    graph = ContextGraph()
    feed_graph(graph, settings, store)
    edges = {(e.src, e.dst, e.relation) for e in graph.edges()}
    task = "airflow:BQ.upload"
    assert ("airflow:BQ", task, "contains") in edges
    assert graph.node(task).kind == "task" and graph.node("airflow:BQ").kind == "dag"
    assert any(src == task and dst.endswith("test.upload") and rel == "writes" for src, dst, rel in edges)


@pytest.mark.postgres
def test_long_types_and_ids_do_not_stop_the_sensor_pass_on_postgresql(dw_home: Path, pg_store: Store) -> None:
    """A Spark-sized struct type, a NUL in a column name, a columnLineage input and a parent DAG
    named by kilobytes: stored, the schema change recorded (clipped), the graph fed without them."""
    from dw_assets.incidents import intake_signal
    from dw_assets.lineage.processing import process_new_events
    from dw_assets.lineage.schema_history import SchemaHistory

    struct = "struct<" + ",".join(f"field_{i}:array<string>" for i in range(40)) + ">"
    long_input = {"namespace": "s3://bucket", "name": "x" * 2000, "field": "a"}

    def event(column_type: str, when: str) -> dict:
        out = dataset("lake.main.wide", schema={"fields": [{"name": "payload", "type": column_type},
                                                           {"name": "c\u0000x", "type": "INT"}]},
                      columnLineage={"fields": {"payload": {"inputFields": [long_input]}}})
        return run_event(event_time=when, outputs=[out], run_facets={"parent": {
            "_producer": "https://x.example", "_schemaURL": "https://x.example/p",
            "job": {"namespace": "airflow", "name": "d" * 3000}, "run": {"runId": str(uuid.uuid4())}}})

    events = LineageEventStore(pg_store)
    intake = EventIntake.from_settings(make_settings(dw_home))
    events.append_many([intake.accept_event(event("STRING", "2026-09-01T02:00:00Z"), "test"),
                        intake.accept_event(event(struct, "2026-09-02T02:00:00Z"), "test")])
    settings = make_settings(dw_home)
    result = process_new_events(settings, pg_store, intake=intake_signal, ingest=False)
    assert result.events == 2 and result.cursor_after == events.max_seq()
    [change] = SchemaHistory(pg_store).changes("lake.wide")
    assert change["column"] == "payload" and change["new_type"].endswith("...") and len(change["new_type"]) == 200
    assert result.graph_edges >= 1  # the job's writes edge; the overlong DAG and input are left out

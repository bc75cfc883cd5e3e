"""Every check, profile and evidence query on DuckDB and on a real PostgreSQL, with the same data in
both: the same decisions and the same figures. Each case has a clean and a faulty variant, so a
check that cannot fail (or cannot pass) on one engine shows.

One estate, written once in DuckDB and copied row for row into a PostgreSQL database whose name is
the DuckDB catalog's, so the dataset ids are the same on both engines:
- `<cat>.bronze.gl_entries`: six month-ends (~1,000 rows each, balanced per entity) and 2026-09-30
  loaded from part 1 of its export only (58%); landing/ holds that day's two parts and 08-31's one.
- `<cat>.lake.orders`: ten weeks of daily orders, weekends lighter; the last day lost 55%, and has a
  repeated order id and 'N/A' in a text column that numbers are read from.
- `<cat>.lake.events`: 29 days of hourly events from three sources; `ios` is missing in the last hour.
- `<cat>.lake.events_tz`: a TIMESTAMP WITH TIME ZONE per event, 30 days of hours of users in Sydney
  (daylight saving starts there on 2026-10-04); the last hour, 10:00 in Sydney, holds 40% of its rows.
- `<cat>.trial_balance` (a two-part id: DuckDB's `main`, PostgreSQL's `public` schema): E3 off balance.
- `<cat>.lake.accounts`: a declared primary key (the profile's key comes from the catalog).
- `<cat>.lake_dbt_test__audit.unique_orders_order_id`: what dbt's `store_failures` keeps of a failing
  `unique` test on `lake.orders.order_id` (the repeated id).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import asdict
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import duckdb
import pytest
import sqlalchemy as sa

from dw_assets.checks.balance import evaluate_balance
from dw_assets.checks.freshness import evaluate_freshness
from dw_assets.checks.landed_files import evaluate_landed_files
from dw_assets.checks.runner import run_dataset_checks
from dw_assets.checks.schema_drift import evaluate_schema_drift
from dw_assets.checks.state import accept_schema
from dw_assets.checks.volume import evaluate_volume
from dw_assets.config import (
    BalanceRuleConfig,
    DatasetChecksConfig,
    DbtConfig,
    FreshnessCheckConfig,
    LandedFilesCheckConfig,
    SchemaDriftCheckConfig,
    Settings,
    StateConfig,
    VolumeCheckConfig,
    WarehouseConfig,
)
from dw_assets.connectors.warehouse import Warehouse, WarehouseError
from dw_assets.core.dbt_lineage import add_manifest
from dw_assets.core.graph import ContextGraph
from dw_assets.diagnosis.profiles import profile_partition
from dw_assets.diagnosis.sources import current_schemas, dbt_test_evidence, drift_changes
from dw_assets.store import Store
from tests.support.settings import build_settings

pytestmark = pytest.mark.postgres

ENGINES = ("duckdb", "postgres")
NOW = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)
TABLES = ("bronze.gl_entries", "lake.orders", "lake.events", "lake.accounts", "main.trial_balance",
          "lake_dbt_test__audit.unique_orders_order_id", "lake.events_tz")

BUILD = """
CREATE SCHEMA bronze; CREATE SCHEMA lake;
CREATE TABLE bronze.gl_entries (entry_id VARCHAR, entity VARCHAR, account VARCHAR, posting_date DATE,
    debit DECIMAL(18,2), credit DECIMAL(18,2), export_date DATE, source_file VARCHAR, loaded_at TIMESTAMP);
INSERT INTO bronze.gl_entries
SELECT 'GL-' || strftime(p.d, '%Y%m%d') || '-' || i, 'E' || ((i // 2) % 4), '4000', p.d - CAST(i % 28 AS INTEGER),
       CASE WHEN i % 2 = 0 THEN 10 + (i // 2) % 90 ELSE 0 END, CASE WHEN i % 2 = 1 THEN 10 + (i // 2) % 90 ELSE 0 END,
       p.d, 'gl_' || strftime(p.d, '%Y%m%d') || '_part0001.csv', CAST(p.d + INTERVAL 1 DAY + INTERVAL 2 HOUR AS TIMESTAMP)
FROM (VALUES (DATE '2026-03-31', 1000), (DATE '2026-04-30', 1040), (DATE '2026-05-31', 980),
             (DATE '2026-06-30', 1010), (DATE '2026-07-31', 1060), (DATE '2026-08-31', 990),
             (DATE '2026-09-30', 580)) p(d, n), range(p.n) t(i);
CREATE TABLE lake.orders AS
SELECT 'O' || strftime(d.day, '%Y%m%d') || '-' || i AS order_id, CAST(d.day AS DATE) AS order_date,
       'C' || (i % 50) AS customer_id, CAST(20 + i % 30 AS DECIMAL(18,2)) AS amount,
       CASE WHEN i % 17 = 0 AND d.day = DATE '2026-09-27' THEN 'N/A' ELSE CAST(i % 3 AS VARCHAR) END AS discount_text,
       CAST(d.day + INTERVAL 1 DAY AS TIMESTAMP) AS loaded_at
FROM (SELECT unnest(range(DATE '2026-07-20', DATE '2026-09-28', INTERVAL 1 DAY)) AS day) d,
     range(CAST((CASE WHEN dayofweek(d.day) IN (0, 6) THEN 40 ELSE 100 END + CAST(hash(d.day) % 5 AS INTEGER))
                * CASE WHEN d.day = DATE '2026-09-27' THEN 0.45 ELSE 1 END AS INTEGER)) t(i);
INSERT INTO lake.orders SELECT * FROM lake.orders WHERE order_date = DATE '2026-09-27' LIMIT 1;
CREATE TABLE lake.events AS
SELECT CAST(row_number() OVER () AS BIGINT) AS event_id, h.at + INTERVAL (i) MINUTE AS event_at, s.source
FROM (SELECT unnest(range(TIMESTAMP '2026-09-01 00:00', TIMESTAMP '2026-09-30 00:00', INTERVAL 1 HOUR)) AS at) h,
     (VALUES ('web', 6), ('ios', 3), ('android', 4)) s(source, base),
     range(s.base + CASE WHEN hour(h.at) BETWEEN 8 AND 20 THEN 2 * s.base ELSE 0 END) t(i)
WHERE NOT (s.source = 'ios' AND h.at = TIMESTAMP '2026-09-29 23:00');
CREATE TABLE lake.events_tz AS
SELECT CAST(row_number() OVER () AS BIGINT) AS event_id, (h.at + INTERVAL (i) MINUTE) AT TIME ZONE 'UTC' AS event_at
FROM (SELECT unnest(range(TIMESTAMP '2026-09-08 00:00', TIMESTAMP '2026-10-08 00:00', INTERVAL 1 HOUR)) AS at) h,
     range(CAST((20 + 30 * (1 + cos((hour((h.at AT TIME ZONE 'UTC') AT TIME ZONE 'Australia/Sydney') - 19) / 24 * 2 * pi())))
                * CASE WHEN h.at = TIMESTAMP '2026-10-07 23:00' THEN 0.4 ELSE 1 END AS INTEGER)) t(i);
CREATE TABLE lake.accounts (account_ref VARCHAR PRIMARY KEY, opened DATE, closes DATE, tier INTEGER);
INSERT INTO lake.accounts SELECT 'A' || i, DATE '2026-09-01' + CAST(i % 3 AS INTEGER),
    DATE '2027-01-01' + CAST(i AS INTEGER), i % 4 FROM range(60) t(i);
CREATE TABLE main.trial_balance (entity VARCHAR, total_debit DECIMAL(18,2), total_credit DECIMAL(18,2));
INSERT INTO main.trial_balance VALUES ('E0', 100, 100), ('E1', 250.5, 250.5), ('E2', 10, 10), ('E3', 500, 480.25);
CREATE SCHEMA lake_dbt_test__audit;
CREATE TABLE lake_dbt_test__audit.unique_orders_order_id AS
SELECT order_id AS unique_field, count(*) AS n_records FROM lake.orders GROUP BY order_id HAVING count(*) > 1;
"""

PG_DDL = """
CREATE SCHEMA bronze; CREATE SCHEMA lake;
CREATE TABLE bronze.gl_entries (entry_id text, entity varchar(8), account text, posting_date date,
    debit numeric(18,2), credit numeric(18,2), export_date date, source_file text, loaded_at timestamp);
CREATE TABLE lake.orders (order_id text, order_date date, customer_id text, amount numeric(18,2),
    discount_text text, loaded_at timestamp);
CREATE TABLE lake.events (event_id int8, event_at timestamp without time zone, source character varying);
CREATE TABLE lake.accounts (account_ref text PRIMARY KEY, opened date, closes date, tier integer);
CREATE TABLE lake.events_tz (event_id int8, event_at timestamptz);
CREATE TABLE public.trial_balance (entity text, total_debit numeric(18,2), total_credit numeric(18,2));
CREATE SCHEMA lake_dbt_test__audit;
CREATE TABLE lake_dbt_test__audit.unique_orders_order_id (unique_field text, n_records int8);
"""


class Engines:
    def __init__(self, catalog: str, warehouses: dict[str, Warehouse], landing: Path, tmp: Path):
        self.catalog, self.warehouses, self.landing, self.tmp = catalog, warehouses, landing, tmp
        self.zoned: dict[str, Warehouse] = {}

    def settings(self, engine: str, checks: list[DatasetChecksConfig]) -> Settings:
        """A dw.yaml's settings on this engine: `warehouse.url: postgresql://...`, or DuckDB's attach."""
        wh = self.warehouses[engine]
        warehouse = WarehouseConfig(url=wh.url, attach=wh.attach)
        state = StateConfig(url=f"sqlite:///{self.tmp}/state-{engine}-{uuid.uuid4().hex[:6]}.db")
        return build_settings(state=state, warehouse=warehouse, landing=str(self.landing), checks=checks)

    def id(self, relation: str) -> str:
        return f"{self.catalog}.{relation}"

    def store(self, engine: str) -> Store:
        path = self.tmp / f"state-{engine}-{uuid.uuid4().hex[:6]}.db"
        return Store(f"sqlite:///{path}")


@pytest.fixture(scope="module")
def engines(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Any:
    catalog = f"wh_{uuid.uuid4().hex[:10]}"
    tmp = tmp_path_factory.mktemp("two_engines")
    path = tmp / f"{catalog}.duckdb"
    conn = duckdb.connect(str(path))
    conn.execute(BUILD)
    data = {t: conn.execute(f"SELECT * FROM {t}").fetchall() for t in TABLES}
    conn.close()

    base = postgres_url.replace("postgresql://", "postgresql+psycopg://")
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{catalog}"'))
    admin.dispose()
    pg_url = postgres_url.rsplit("/", 1)[0] + f"/{catalog}"
    writer = sa.create_engine(pg_url.replace("postgresql://", "postgresql+psycopg://"))
    with writer.begin() as c:
        c.exec_driver_sql(PG_DDL)
        raw = c.connection.driver_connection
        with raw.cursor() as cur:
            for table, rows in data.items():
                with cur.copy(f"COPY {table.replace('main.', 'public.')} FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
    writer.dispose()

    landing = tmp / "landing"
    landing.mkdir()
    for name, rows in (("gl_20260930_part0001.csv", 580), ("gl_20260930_part0002.csv", 420),
                       ("gl_20260831_part0001.csv", 990)):
        lines = ["entry_id,entity,debit"] + [f"GL-{i},E{i % 4},1.00" for i in range(rows)]
        (landing / name).write_text("\n".join(lines) + "\n")
    warehouses = {"duckdb": Warehouse("duckdb://", {catalog: str(path)}), "postgres": Warehouse(pg_url)}
    engines = Engines(catalog, warehouses, landing, tmp)
    # the same two warehouses whose sessions run in other time zones (neither the check's nor UTC)
    engines.zoned = {"duckdb": _SessionZoneDuckDB("duckdb://", {catalog: str(path)}),
                     "postgres": Warehouse(f"{pg_url}?options=-c%20TimeZone%3DAmerica/Los_Angeles")}
    return engines


class _SessionZoneDuckDB(Warehouse):
    """A DuckDB warehouse whose sessions run in Auckland's time zone (a user's TimeZone setting)."""

    def _duckdb_connect(self) -> Any:
        conn = super()._duckdb_connect()
        conn.execute("SET TimeZone = 'Pacific/Auckland'")
        return conn


def _facts(outcome: Any) -> dict[str, Any]:
    """The whole outcome as JSON facts (a DECIMAL sum and a float of the same value are one fact)."""
    return json.loads(json.dumps(asdict(outcome), default=lambda v: float(v) if hasattr(v, "as_tuple") else str(v)))


def _both(engines: Engines, evaluate: Any) -> dict[str, dict[str, Any]]:
    results = {engine: _facts(evaluate(engines.warehouses[engine], engine)) for engine in ENGINES}
    assert results["duckdb"] == results["postgres"], "the engines decided differently"
    return results["duckdb"]


GL_VOLUME = VolumeCheckConfig(partition_column="export_date", period="month_end", history=6)
ORDERS_VOLUME = VolumeCheckConfig(partition_column="order_date")
EVENTS_VOLUME = VolumeCheckConfig(partition_column="event_at", grain="hour", group_by=["source"])


@pytest.mark.parametrize(("table", "cfg", "partition", "passed"), [
    ("bronze.gl_entries", GL_VOLUME, None, False),                 # 2026-09-30, 58% of a month-end
    ("bronze.gl_entries", GL_VOLUME, "2026-08-31", True),
    ("lake.orders", ORDERS_VOLUME, None, False),                   # 2026-09-27 lost 55%
    ("lake.orders", ORDERS_VOLUME, "2026-09-26", True),
    ("lake.events", EVENTS_VOLUME, None, False),                   # ios missing at 23:00
    ("lake.events", EVENTS_VOLUME, "2026-09-29T22", True),
], ids=["month_end-faulty", "month_end-clean", "daily-faulty", "daily-clean", "hourly_grouped-faulty",
        "hourly_grouped-clean"])
def test_volume_decides_the_same_on_both_engines(engines, table, cfg, partition, passed):
    facts = _both(engines, lambda wh, _: evaluate_volume(wh, None, engines.id(table), cfg, partition, now=NOW))
    assert facts["passed"] is passed and facts["metadata"]["history_points"] >= 5, facts["summary"]
    if cfg.group_by and not passed:
        assert [g["group"] if isinstance(g, dict) else g for g in facts["metadata"]["failed_groups"]] == ["ios"]
        assert facts["partition"] == "2026-09-29T23:00"
    if table == "bronze.gl_entries" and not passed:
        assert facts["metadata"]["observed"] == 580 and facts["metadata"]["ratio"] == pytest.approx(0.58, abs=0.01)


@pytest.mark.parametrize(("grain", "partition", "passed", "label", "group"), [
    ("hour", None, False, "2026-10-08T10:00", "10h"),        # 23:00 UTC, 40% of its rows
    ("hour", "2026-10-08T09", True, "2026-10-08T09:00", "09h"),
    ("hour", "2026-10-04T03", True, "2026-10-04T03:00", "03h"),  # the first hour after 01:00: no 02:00 that day
    ("day", "2026-10-07", True, "2026-10-07", None),
], ids=["hourly-faulty", "hourly-clean", "hourly-after-dst", "daily-clean"])
def test_a_check_in_a_time_zone_buckets_the_same_whatever_the_session_zone(engines, grain, partition, passed, label,
                                                                           group):
    """`timezone: Australia/Sydney` on a TIMESTAMP WITH TIME ZONE column: the same buckets, keys and
    decision on both engines, with sessions in UTC, in Auckland (DuckDB) and in Los Angeles (PostgreSQL)."""
    zones = {e: engines.zoned[e].scalar("SELECT current_setting('TimeZone')") for e in ENGINES}
    assert zones == {"duckdb": "Pacific/Auckland", "postgres": "America/Los_Angeles"}
    cfg = VolumeCheckConfig(partition_column="event_at", grain=grain, timezone="Australia/Sydney")
    dataset = engines.id("lake.events_tz")
    found = {(engine, zoned): _facts(evaluate_volume((engines.zoned if zoned else engines.warehouses)[engine], None,
                                                     dataset, cfg, partition, now=NOW))
             for engine in ENGINES for zoned in (False, True)}
    facts = found[("duckdb", False)]
    assert all(f == facts for f in found.values()), "the engines or sessions decided differently"
    assert facts["passed"] is passed and facts["partition"] == label, facts["summary"]
    assert group is None or group in facts["metadata"]["comparison_group"]
    if grain == "day":  # the day's rows counted in Sydney by hand, not by the product's SQL
        wh = engines.warehouses["duckdb"]
        rows = wh.rows(f"SELECT event_at FROM {wh.relation(dataset)} WHERE event_at >= TIMESTAMPTZ "
                       f"'2026-10-06 00:00:00+00' AND event_at < TIMESTAMPTZ '2026-10-08 00:00:00+00'")
        sydney = ZoneInfo("Australia/Sydney")
        assert facts["metadata"]["observed"] == sum(
            1 for r in rows if r["event_at"].astimezone(sydney).date() == date(2026, 10, 7))
    else:
        hours = [h["partition"] for h in facts["metadata"]["history"]]
        assert "2026-10-04T01:00" in hours and "2026-10-04T02:00" not in hours and len(hours) == len(set(hours))


@pytest.mark.parametrize(("now", "passed"), [(NOW, True), (datetime(2026, 10, 4, tzinfo=UTC), False)],
                         ids=["clean", "late"])
def test_freshness_decides_the_same_on_both_engines(engines, now, passed):
    cfg = FreshnessCheckConfig(timestamp_column="loaded_at", max_age="26h", timezone="America/New_York")
    facts = _both(engines, lambda wh, _: evaluate_freshness(wh, None, engines.id("bronze.gl_entries"), cfg, now=now))
    assert facts["passed"] is passed, facts["summary"]


@pytest.mark.parametrize(("table", "rule", "passed"), [
    ("trial_balance", BalanceRuleConfig(name="debits_equal_credits", group_by=["entity"],
                                        condition="abs(sum(total_debit) - sum(total_credit)) < 0.005"), False),
    ("bronze.gl_entries", BalanceRuleConfig(name="per_entity", group_by=["entity"], partition_column="export_date",
                                            condition="abs(sum(debit) - sum(credit)) < 0.005"), True),
], ids=["faulty", "clean"])
def test_balance_decides_the_same_on_both_engines(engines, table, rule, passed):
    facts = _both(engines, lambda wh, _: evaluate_balance(wh, None, engines.id(table), rule))
    assert facts["passed"] is passed, facts["summary"]
    if not passed:
        assert facts["metadata"]["broken_groups"] == [{"entity": "E3", "sum(total_debit)": 500.0,
                                                       "sum(total_credit)": 480.25}]
        assert facts["metadata"]["groups_checked"] == 4
    else:
        assert facts["partition"] == "2026-09-30" and facts["metadata"]["groups_checked"] == 4


@pytest.mark.parametrize(("partition", "passed"), [("2026-09-30", False), ("2026-08-31", True)],
                         ids=["faulty", "clean"])
def test_landed_files_decide_the_same_on_both_engines(engines, partition, passed):
    cfg = LandedFilesCheckConfig(partition_column="export_date", file_glob="gl_{partition_compact}_*.csv")
    facts = _both(engines, lambda wh, _: evaluate_landed_files(wh, None, engines.id("bronze.gl_entries"), cfg,
                                                                str(engines.landing), partition, now=NOW))
    assert facts["passed"] is passed, facts["summary"]
    if not passed:
        assert "580" in facts["summary"] and "1000" in facts["summary"].replace(",", "")


def test_table_schemas_read_in_one_vocabulary(engines):
    """BIGINT vs int8, VARCHAR vs text / varchar(8), DECIMAL(18,2) vs numeric(18,2): one spelling."""
    for table in TABLES:
        dataset = engines.id(table.removeprefix("main."))
        schemas = {e: engines.warehouses[e].table_schema(dataset) for e in ENGINES}
        assert schemas["duckdb"] and schemas["duckdb"] == schemas["postgres"], table
    types = {c.name: c.data_type for c in engines.warehouses["postgres"].table_schema(engines.id("lake.events"))}
    assert types == {"event_id": "BIGINT", "event_at": "TIMESTAMP", "source": "VARCHAR"}
    assert engines.warehouses["postgres"].table_schema(engines.id("lake.nope")) == []


@pytest.mark.parametrize("accepted_on", ENGINES)
def test_no_schema_drift_across_engines(engines, accepted_on):
    """A schema accepted on one engine is no drift on the other; a real change is drift on both."""
    dataset, cfg = engines.id("bronze.gl_entries"), SchemaDriftCheckConfig(source="warehouse")
    other = next(e for e in ENGINES if e != accepted_on)
    store = engines.store(accepted_on)
    first = evaluate_schema_drift(engines.warehouses[accepted_on], store, dataset, cfg)
    assert first.passed and first.metadata["accepted_now"]
    same = evaluate_schema_drift(engines.warehouses[other], store, dataset, cfg)
    assert same.passed and same.metadata["fingerprint"] == first.metadata["fingerprint"], same.summary


def test_schema_drift_is_found_the_same_on_both_engines(engines):
    dataset, cfg = engines.id("bronze.gl_entries"), SchemaDriftCheckConfig(source="warehouse")

    def drifted(wh: Warehouse, engine: str) -> Any:
        store = engines.store(engine)
        current = [(c.name, c.data_type) for c in wh.table_schema(dataset)]
        accepted = [(n, "VARCHAR" if n == "debit" else t) for n, t in current] + [("batch_id", "BIGINT")]
        accept_schema(store, dataset, accepted, actor="test")
        outcome = evaluate_schema_drift(wh, store, dataset, cfg)
        outcome.metadata.pop("accepted_at")
        return outcome

    facts = _both(engines, drifted)
    assert not facts["passed"] and facts["severity"] == "ERROR"
    assert {(c["column"], c["change"]) for c in facts["metadata"]["changes"]} == {
        ("debit", "type_changed"), ("batch_id", "dropped")}


@pytest.mark.parametrize(("table", "column", "partition", "keys", "odd"), [
    ("bronze.gl_entries", "export_date", "2026-09-30", ("entry_id",), ()),
    ("lake.orders", "order_date", "2026-09-27", (), ("discount_text",)),     # a repeated id, 'N/A'
    ("lake.orders", "order_date", "2026-09-26", (), ("amount",)),           # numbers only
    ("lake.accounts", "opened", "2026-09-02", (), ()),                       # the key is the primary key
], ids=["gl", "orders-faulty", "orders-clean", "accounts-declared-key"])
def test_partition_profiles_are_the_same_on_both_engines(engines, table, column, partition, keys, odd):
    profiles = {e: profile_partition(engines.warehouses[e], engines.id(table), column, partition, "daily", 6,
                                     set(odd), key_columns=keys) for e in ENGINES}
    assert profiles["duckdb"] == profiles["postgres"]
    profile = profiles["duckdb"]
    assert profile.rows > 0 and profile.history_rows
    if table == "lake.orders":
        faulty = partition == "2026-09-27"
        assert profile.key_column == "order_id" and profile.duplicate_keys == (1 if faulty else 0)
        assert profile.non_castable == ({"discount_text": ("N/A",)} if faulty else {"amount": ()})
    if table == "lake.accounts":
        assert profile.key_column == "account_ref" and profile.date_ranges["closes"][0] == date(2027, 1, 2)
    if table == "bronze.gl_entries":
        assert profile.rows_by_source_file == {"gl_20260930_part0001.csv": 580}


@pytest.mark.parametrize("drifted", [False, True], ids=["clean", "faulty"])
def test_diagnosis_reads_the_same_schema_evidence_on_both_engines(engines, drifted):
    """The live schema diagnosis reads, and the drift it finds against an accepted schema."""
    dataset = engines.id("lake.orders")
    window = (datetime(2026, 9, 1, tzinfo=UTC), NOW)
    found = {}
    for engine in ENGINES:
        wh, store = engines.warehouses[engine], engines.store(engine)
        accepted = [(c.name, c.data_type) for c in engines.warehouses["duckdb"].table_schema(dataset)]
        if drifted:
            accepted = [(n, "BIGINT" if n == "discount_text" else t) for n, t in accepted]
        accept_schema(store, dataset, accepted, actor="test")
        settings = build_settings()
        changes = drift_changes(settings, store, [dataset], [], window, wh)
        live = current_schemas(settings, store, [dataset], changes, wh)  # read only when something changed
        found[engine] = ([(s.dataset_id, s.columns, s.source) for s in live],
                         [(c.column, c.change, c.old_type, c.new_type) for c in changes])
    assert found["duckdb"] == found["postgres"]
    schemas, changes = found["duckdb"]
    assert changes == ([("discount_text", "type_changed", "BIGINT", "VARCHAR")] if drifted else [])
    if drifted:
        assert [source for *_, source in schemas] == ["warehouse"] and schemas[0][1]["amount"] == "DECIMAL(18,2)"


@pytest.mark.parametrize("reported", ["audit_relation", "unique_id"])
def test_dbt_test_evidence_reads_the_same_on_both_engines(engines, tmp_path, reported):
    """A failing dbt `unique` test on a source, reported on its audit relation (store_failures kept
    the failing rows; the evidence samples their keys from the warehouse) or on its unique_id (no
    warehouse read): the test, the tested node, dbt's failure count, the same keys on both engines."""
    source, uid = "source.estate.lake.orders", "test.estate.unique_orders_order_id.5f1c2a"
    manifest = {"sources": {source: {"resource_type": "source", "database": engines.catalog, "schema": "lake",
                                     "name": "orders", "identifier": "orders", "source_name": "lake"}},
                "nodes": {uid: {"resource_type": "test", "name": "unique_orders_order_id", "database": engines.catalog,
                                "schema": "lake_dbt_test__audit", "alias": "unique_orders_order_id",
                                "attached_node": source, "column_name": "order_id",
                                "test_metadata": {"name": "unique", "kwargs": {"column_name": "order_id"}},
                                "depends_on": {"nodes": [source]}}}}
    graph = ContextGraph()
    add_manifest(graph, manifest)
    run_results = tmp_path / "run_results.json"
    run_results.write_text(json.dumps({
        "metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/run-results/v6.json",
                     "dbt_version": "1.10.0", "generated_at": "2026-10-01T06:10:00Z"},
        "elapsed_time": 1.2, "args": {},
        "results": [{"unique_id": uid, "status": "fail", "failures": 1, "execution_time": 0.1, "timing": [],
                     "message": "Got 1 result, configured to fail if != 0"}]}))
    key = engines.id("lake_dbt_test__audit.unique_orders_order_id") if reported == "audit_relation" else uid
    found = {}
    for engine in ENGINES:
        wh = engines.warehouses[engine]
        settings = build_settings(warehouse=WarehouseConfig(url=wh.url, attach=wh.attach),
                                  dbt=DbtConfig(project_dir=str(tmp_path), run_results=str(run_results)))
        found[engine] = dbt_test_evidence(settings, graph, key, wh)
    assert found["duckdb"] == found["postgres"]
    evidence = found["duckdb"]
    assert evidence["tested"] == graph.resolve(engines.id("lake.orders"))
    assert (evidence["dbt_test"], evidence["column"], evidence["test_kind"]) == \
        ("unique_orders_order_id", "order_id", "unique")
    assert evidence["status"] == "fail" and evidence["failures"] == 1
    if reported == "audit_relation":
        pg = engines.warehouses["postgres"]
        repeated = pg.scalar(f"SELECT order_id FROM {pg.relation(engines.id('lake.orders'))} "
                             "GROUP BY order_id HAVING count(*) > 1")
        assert evidence["sample_keys"] == {"column": "unique_field", "values": [repeated]}
    else:
        assert "sample_keys" not in evidence


def test_configured_checks_run_from_settings_and_open_the_same_incidents(engines):
    """`warehouse.url: postgresql://...` in the settings: the runner's path, incidents included."""
    checks = [DatasetChecksConfig(
        dataset=engines.id("bronze.gl_entries"), volume=GL_VOLUME,
        freshness=FreshnessCheckConfig(timestamp_column="loaded_at", max_age="26h", timezone="America/New_York"),
        landed_files=LandedFilesCheckConfig(partition_column="export_date", file_glob="gl_{partition_compact}_*.csv"),
        balance=[BalanceRuleConfig(name="per_entity", group_by=["entity"], partition_column="export_date",
                                   condition="abs(sum(debit) - sum(credit)) < 0.005")],
        schema_drift=SchemaDriftCheckConfig(source="warehouse"))]
    found = {}
    for engine in ENGINES:
        runs = run_dataset_checks(engines.settings(engine, checks), engines.id("bronze.gl_entries"), now=NOW)
        found[engine] = sorted((r.outcome.check, r.outcome.passed, r.outcome.severity, r.outcome.partition,
                                r.incident_id is not None) for r in runs)
    assert found["duckdb"] == found["postgres"]
    assert found["duckdb"] == [
        ("balance_per_entity", True, "ERROR", "2026-09-30", False),
        ("freshness_sla", True, "ERROR", None, False),
        ("rows_match_landed_files", False, "ERROR", "2026-09-30", True),
        ("schema_drift", True, "ERROR", None, False),
        ("volume_vs_history", False, "ERROR", "2026-09-30", True)]


def test_a_wrong_database_is_named_at_once_not_retried(postgres_url):
    wh = Warehouse(postgres_url.rsplit("/", 1)[0] + "/no_such_estate")
    with pytest.raises(WarehouseError, match=r'127\.0\.0\.1:\d+/no_such_estate: connect refused: .*"no_such_estate" '
                                             r"does not exist; check the user, password and database"):
        wh.scalar("SELECT 1")


def test_postgres_sessions_are_read_only_transactions(engines):
    with engines.warehouses["postgres"].session() as s, pytest.raises(sa.exc.InternalError, match="read-only"):
        s.conn.execute(sa.text("DELETE FROM public.trial_balance"))  # past the statement guard
    assert engines.warehouses["postgres"].scalar(f"SELECT count(*) FROM {engines.warehouses['postgres'].relation(engines.id('trial_balance'))}") == 4


def test_postgres_sessions_leave_no_connection_open(engines, postgres_url):
    """A Warehouse is built per check run: a pooled connection would outlive it in the code server."""
    for _ in range(3):
        evaluate_volume(Warehouse(engines.warehouses["postgres"].url), None, engines.id("lake.orders"), ORDERS_VOLUME)
    assert engines.warehouses["postgres"].scalar("SELECT 1") == 1  # a long-lived Warehouse too
    admin = sa.create_engine(postgres_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with admin.connect() as conn:
            open_ = conn.execute(sa.text("SELECT count(*) FROM pg_stat_activity WHERE datname = :d"),
                                 {"d": engines.catalog}).scalar()
    finally:
        admin.dispose()
    assert open_ == 0

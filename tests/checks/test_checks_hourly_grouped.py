"""An hourly volume check and a grouped one, through `dw checks run --json` and as Dagster asset
checks; `dw checks accept` end to end; landed files counted as CSV records.

Two more tables on the fixture estate's lake: `lake.events` (a TIMESTAMP per event, three weeks
of hours with a daily cycle and lighter weekends; the latest hour, 2026-09-28 13:00, holds 40% of
its rows) and `lake.orders_by_market` (a day per partition, five markets; on the latest day,
2026-09-28, FR is missing), and `lake.payments_by_market` (a UK business's daily payments: GB on
England's week and bank holidays, a small IL market on Israel's week and holidays, x0.3; the
latest day, Monday 2026-09-21, is Yom Kippur), and `lake.visits` (a day per partition, a
Friday/Saturday week that moves to a Saturday/Sunday one from Sunday 2026-09-20: Friday 0.6 -> 1.0,
Sunday 1.0 -> 0.6; the latest day is the first new Friday, 2026-09-25), and `lake.calls` (a call
centre's calls over four weeks, open 08:00-20:00 on weekdays only: closed hours hold no rows; Monday 2026-09-28
09:00, an open hour, lost its load).
"""

from __future__ import annotations

import gzip
import json
import re
from datetime import UTC, date, datetime

import dagster as dg
import pytest
import sqlalchemy as sa
import yaml
from click.testing import CliRunner
from pydantic import ValidationError

import checks
from dw_assets.checks.landed_files import count_data_rows
from dw_assets.checks.runner import find_entry
from dw_assets.checks.state import (
    accept_partition,
    accepted_partitions,
    accepted_shapes,
    accepted_shapes_table,
    exclude_partition,
)
from dw_assets.checks.volume import evaluate_volume, holiday_calendar
from dw_assets.cli import cli
from dw_assets.config import (
    ConfigError,
    DatasetChecksConfig,
    HolidaysConfig,
    VolumeCheckConfig,
    load_settings,
)
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.diagnosis.report import ReadOnlyStore
from dw_assets.governance.keys import generate_key_file
from dw_assets.governance.receipt_log import ReceiptLog
from dw_assets.store import metadata, open_state, open_store

EVENTS, ORDERS, EVENTS_NY = "lake.events", "lake.orders_by_market", "lake.events_ny"
PAYMENTS, VISITS, CALLS = "lake.payments_by_market", "lake.visits", "lake.calls"


@pytest.fixture
def grained(estate, tmp_path):
    estate.write(estate.lake, """
        CREATE TABLE events AS
        SELECT 'e' || h.i || '-' || r.j AS event_id,
               TIMESTAMP '2026-09-07 00:00:00' + h.i * INTERVAL 1 HOUR + (r.j % 60) * INTERVAL 1 MINUTE AS event_at
        FROM range(0, 21 * 24 + 14) h(i),
             LATERAL (SELECT * FROM range(CAST(
                 (200 * (1 + 0.8 * cos(((h.i % 24) - 14) / 24 * 2 * pi()))
                  * (CASE WHEN ((h.i // 24) % 7) IN (5, 6) THEN 0.7 ELSE 1 END)
                  * (1 + (CAST(hash(h.i) % 7 AS INTEGER) - 3) / 100.0)
                  * (CASE WHEN h.i = 21 * 24 + 13 THEN 0.4 ELSE 1 END)) AS INTEGER))) r(j);
        CREATE TABLE orders_by_market AS
        SELECT d.day::DATE AS order_date, m.market, 'o' || d.day || m.market || t.k AS order_id
        FROM (SELECT unnest(range(DATE '2026-07-01', DATE '2026-09-29', INTERVAL 1 DAY)) AS day) d,
             (VALUES ('US', 40), ('DE', 25), ('FR', 15), ('GB', 12), ('JP', 8)) m(market, share),
             LATERAL (SELECT * FROM range(CAST(m.share * 3 * (CASE WHEN dayofweek(d.day) IN (0, 6) THEN 0.6 ELSE 1 END)
                                               * (1 + (CAST(hash(d.day, m.market) % 5 AS INTEGER) - 2) / 100.0) AS INTEGER))) t(k)
        WHERE NOT (d.day = DATE '2026-09-28' AND m.market = 'FR');
        CREATE TABLE events_ny AS
        SELECT 'n' || h.i || '-' || r.j AS event_id,
               (h.at + (r.j % 60) * INTERVAL 1 MINUTE) AT TIME ZONE 'UTC' AS event_at
        FROM (SELECT i, TIMESTAMP '2026-10-18 00:00:00' + i * INTERVAL 1 HOUR AS at FROM range(0, 21 * 24 + 19) t(i)) h,
             LATERAL (SELECT * FROM range(CAST(
                 (150 * (1 + 0.8 * cos((hour((h.at AT TIME ZONE 'UTC') AT TIME ZONE 'America/New_York') - 13)
                                       / 24 * 2 * pi()))
                  * (1 + (CAST(hash(h.i) % 7 AS INTEGER) - 3) / 100.0)
                  * (CASE WHEN h.i = 21 * 24 + 18 THEN 0.4 ELSE 1 END)) AS INTEGER))) r(j);
        CREATE TABLE payments_by_market AS
        SELECT d.day::DATE AS paid_on, m.market, 'p' || d.day || m.market || t.k AS payment_id
        FROM (SELECT unnest(range(DATE '2026-06-01', DATE '2026-09-22', INTERVAL 1 DAY)) AS day) d,
             (VALUES ('GB', 1500), ('IL', 50)) m(market, base),
             LATERAL (SELECT * FROM range(CAST(m.base * (1 + (CAST(hash(d.day, m.market) % 5 AS INTEGER) - 2) / 100.0)
                 * (CASE WHEN m.market = 'GB' THEN
                        (CASE WHEN dayofweek(d.day) IN (0, 6) THEN 0.7 ELSE 1 END)
                        * (CASE WHEN d.day = DATE '2026-08-31' THEN 0.6 ELSE 1 END)
                    ELSE (CASE dayofweek(d.day) WHEN 5 THEN 0.55 WHEN 6 THEN 0.35 ELSE 1 END)
                        * (CASE WHEN d.day IN (DATE '2026-09-12', DATE '2026-09-13', DATE '2026-09-21')
                                THEN 0.3 ELSE 1 END) END) AS INTEGER))) t(k);
        CREATE TABLE visits AS
        SELECT d.day::DATE AS visited_on, 'v' || d.day || t.k AS visit_id
        FROM (SELECT unnest(range(DATE '2026-06-01', DATE '2026-09-26', INTERVAL 1 DAY)) AS day) d,
             LATERAL (SELECT * FROM range(CAST(300 * (1 + (CAST(hash(d.day) % 5 AS INTEGER) - 2) / 100.0)
                 * (CASE WHEN d.day < DATE '2026-09-20' THEN (CASE dayofweek(d.day) WHEN 5 THEN 0.6 WHEN 6 THEN 0.8 ELSE 1 END)
                    ELSE (CASE dayofweek(d.day) WHEN 6 THEN 0.7 WHEN 0 THEN 0.6 ELSE 1 END) END) AS INTEGER))) t(k);
        CREATE TABLE calls AS
        SELECT 'c' || h.i || '-' || r.j AS call_id,
               TIMESTAMP '2026-08-31 00:00:00' + h.i * INTERVAL 1 HOUR + (r.j % 60) * INTERVAL 1 MINUTE AS called_at
        FROM range(0, 28 * 24 + 14) h(i),
             LATERAL (SELECT * FROM range(CAST(80 * (1 + (CAST(hash(h.i) % 7 AS INTEGER) - 3) / 100.0) AS INTEGER))) r(j)
        WHERE (h.i // 24) % 7 < 5 AND h.i % 24 BETWEEN 8 AND 19 AND h.i <> 28 * 24 + 9""")
    extra = [
        DatasetChecksConfig(dataset=EVENTS, volume=VolumeCheckConfig(partition_column="event_at", grain="hour",
                                                                     holidays=HolidaysConfig(country="FR"))),
        DatasetChecksConfig(dataset=ORDERS, volume=VolumeCheckConfig(partition_column="order_date",
                                                                     group_by=["market"])),
        DatasetChecksConfig(dataset=EVENTS_NY, volume=VolumeCheckConfig(partition_column="event_at", grain="hour",
                                                                        timezone="America/New_York")),
        DatasetChecksConfig(dataset=PAYMENTS, volume=VolumeCheckConfig(
            partition_column="paid_on", group_by=["market"], holidays=HolidaysConfig(country="GB", subdiv="ENG"),
            group_holidays={"IL": HolidaysConfig(country="IL")})),
        DatasetChecksConfig(dataset=VISITS, volume=VolumeCheckConfig(partition_column="visited_on")),
        DatasetChecksConfig(dataset=CALLS, volume=VolumeCheckConfig(partition_column="called_at", grain="hour")),
    ]
    # accepting a partition writes a signed receipt: the deployment needs its own signing key
    key_file = tmp_path / "keys" / "signing.key"
    generate_key_file(key_file)
    governance = estate.settings.governance.model_copy(
        update={"signing_key_file": str(key_file), "witness_file": str(tmp_path / "receipts.witness")})
    estate.settings = estate.settings.model_copy(update={"checks": [*estate.settings.checks, *extra],
                                                         "governance": governance})
    return estate


@pytest.fixture
def dw(grained, tmp_path):
    config = tmp_path / "dw.yaml"
    config.write_text(yaml.safe_dump(grained.settings.model_dump(mode="json")))

    def run(*args: str, code: int = 0):
        result = CliRunner().invoke(cli, ["--config", str(config), *args], catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result.output

    return run


def _volume(payload: dict) -> dict:
    return next(r for r in payload["results"] if r["check"] == "volume_vs_history")


def test_hourly_check_reads_whole_hours_and_judges_an_hour(dw):
    latest = _volume(json.loads(dw("checks", "run", EVENTS, "--json", "--no-record", code=1)))
    assert latest["partition"] == "2026-09-28T13:00" and not latest["passed"]
    assert latest["metadata"]["grain"] == "hour" and latest["metadata"]["verdict"] == "below_band"
    assert latest["metadata"]["ratio"] == pytest.approx(0.4, abs=0.08)
    assert "hour_of_day" in latest["metadata"]["model_groups"] and "13h" in latest["metadata"]["comparison_group"]
    clean = _volume(json.loads(dw("checks", "run", EVENTS, "--partition", "2026-09-28T12", "--json", "--no-record")))
    assert clean["passed"] and clean["partition"] == "2026-09-28T12:00"
    # every minute of the hour counts (the old `<= date` bound read only the midnight hour)
    assert clean["metadata"]["observed"] > 300 and clean["metadata"]["history_points"] >= 24 * 14


def test_hourly_check_in_the_owners_time_zone(dw):
    """Hours are New York's: the latest hour is 13:00 EST (18:00 UTC), compared with past 13:00s;
    the 25-hour day's two 01:00s are two partitions, the second keyed with its offset."""
    latest = _volume(json.loads(dw("checks", "run", EVENTS_NY, "--json", "--no-record", code=1)))
    assert latest["partition"] == "2026-11-08T13:00" and not latest["passed"], latest["summary"]
    assert latest["metadata"]["timezone"] == "America/New_York" and latest["metadata"]["verdict"] == "below_band"
    assert "13h" in latest["metadata"]["comparison_group"]
    history = [h["partition"] for h in latest["metadata"]["history"]]
    assert {"2026-11-01T01:00", "2026-11-01T01:00-0500", "2026-11-01T02:00"} <= set(history)
    assert len(history) == len(set(history)) == 21 * 24 + 18
    clean = _volume(json.loads(dw("checks", "run", EVENTS_NY, "--partition", "2026-11-08T12", "--json", "--no-record")))
    assert clean["passed"] and clean["partition"] == "2026-11-08T12:00", clean["summary"]
    assert "12h" in clean["metadata"]["comparison_group"] and clean["metadata"]["observed"] > 250
    repeated = _volume(json.loads(dw("checks", "run", EVENTS_NY, "--partition", "2026-11-01T01:00-0500", "--json",
                                     "--no-record")))
    assert repeated["partition"] == "2026-11-01T01:00-0500" and repeated["passed"], repeated["summary"]


def test_hourly_check_on_a_closed_hour_passes_and_an_open_hour_without_rows_fails(dw):
    """The warehouse returns no row for an hour without calls: a closed hour (nights, weekends) is
    absent from the history, and asking for one is not a failed load; an open hour's empty is."""
    for closed in ("2026-09-27T10", "2026-09-28T03", "2026-09-26T19"):
        result = _volume(json.loads(dw("checks", "run", CALLS, "--partition", closed, "--json", "--no-record")))
        assert result["passed"] and result["metadata"]["verdict"] == "empty_as_usual", result["summary"]
        assert result["metadata"]["observed"] == 0
    lost = _volume(json.loads(dw("checks", "run", CALLS, "--partition", "2026-09-28T09", "--json", "--no-record",
                                 code=1)))
    assert not lost["passed"] and lost["metadata"]["verdict"] == "empty", lost["summary"]
    latest = _volume(json.loads(dw("checks", "run", CALLS, "--json", "--no-record")))
    assert latest["passed"] and latest["partition"] == "2026-09-28T13:00", latest["summary"]


def test_grouped_check_names_the_missing_market(dw):
    result = _volume(json.loads(dw("checks", "run", ORDERS, "--json", code=1)))
    assert not result["passed"] and result["incident_id"]
    assert [g["group"] for g in result["metadata"]["failed_groups"]] == ["FR"]
    assert result["metadata"]["failed_groups"][0]["verdict"] == "empty"
    assert "FR" in result["summary"] and result["metadata"]["groups_checked"] == 5
    previous = _volume(json.loads(dw("checks", "run", ORDERS, "--partition", "2026-09-27", "--json", "--no-record")))
    assert previous["passed"] and previous["metadata"]["failed_groups"] == []


def test_a_market_on_its_own_calendar_passes_its_holiday_and_fails_without_it(dw, grained):
    """Yom Kippur: the IL market at 0.3x is expected on Israel's calendar; on England's (the
    check's, which the table total keeps) it is an ordinary Monday's collapse."""
    cfg = find_entry(grained.settings, PAYMENTS).volume
    warehouse = Warehouse.from_settings(grained.settings)
    own = evaluate_volume(warehouse, None, PAYMENTS, cfg)
    assert own.partition == "2026-09-21" and own.passed, own.summary
    assert own.metadata["group_calendars"] == {"IL": "IL"} and own.metadata["groups_checked"] == 2
    england = evaluate_volume(warehouse, None, PAYMENTS, cfg.model_copy(update={"group_holidays": {}}))
    assert not england.passed and [g["group"] for g in england.metadata["failed_groups"]] == ["IL"]
    assert england.metadata["failed_groups"][0]["verdict"] == "below_band"
    assert england.metadata["verdict"] == own.metadata["verdict"] == "inside"  # the total: 2% lighter
    # through the CLI, from the YAML the deployment reads
    result = _volume(json.loads(dw("checks", "run", PAYMENTS, "--json", "--no-record")))
    assert result["passed"] and result["partition"] == "2026-09-21", result["summary"]
    assert result["metadata"]["group_calendars"] == {"IL": "IL"} and result["metadata"]["failed_groups"] == []


def test_accept_records_receipts_and_the_partition_passes_and_joins_the_history(dw, grained):
    store = open_state(grained.settings)
    exclude_partition(store, ORDERS, "2026-09-20", actor="priya.raman", reason="thought to be a double load")
    assert "2026-09-20" not in [h["partition"] for h in _volume(json.loads(dw(
        "checks", "run", ORDERS, "--partition", "2026-09-27", "--json", "--no-record")))["metadata"]["history"]]

    accepted = json.loads(dw("checks", "accept", "orders_by_market", "2026-09-28", "--as", "priya.raman",
                             "--note", "FR paused for a migration", "--json"))
    assert accepted["accepted_by"] == "priya.raman" and accepted["note"] == "FR paused for a migration"
    assert accepted["partition"] == "2026-09-28" and accepted["accepted_at"]
    dw("checks", "accept", ORDERS, "2026-09-20", "--as", "priya.raman")

    rerun = _volume(json.loads(dw("checks", "run", ORDERS, "--json", "--no-record")))
    assert rerun["passed"] and rerun["metadata"]["accepted"] and rerun["metadata"]["verdict"] == "accepted"
    later = _volume(json.loads(dw("checks", "run", ORDERS, "--partition", "2026-09-29", "--json", "--no-record",
                                  code=1)))
    history = [h["partition"] for h in later["metadata"]["history"]]
    assert "2026-09-28" in history and "2026-09-20" in history  # both join the history

    receipts = list(ReceiptLog.from_settings(store, grained.settings).iter_receipts(action="partition_accepted"))
    assert [r.record["subject"] for r in receipts] == [f"{ORDERS}:2026-09-28", f"{ORDERS}:2026-09-20"]
    assert receipts[0].record["actor"] == "priya.raman"
    assert "every hash and signature checks out" in dw("receipts", "verify")
    assert "--as" in dw("checks", "accept", ORDERS, "2026-09-28", code=2)
    assert "neither a day" in dw("checks", "accept", ORDERS, "yesterday", "--as", "x", code=2)


def test_accept_as_a_shape_change_passes_the_new_weeks_first_friday(dw, grained):
    def run(partition: str, code: int) -> dict:
        return _volume(json.loads(dw("checks", "run", VISITS, "--partition", partition, "--json", "--no-record",
                                     code=code)))

    assert not run("2026-09-20", 1)["passed"]  # the first Sunday of the new week: 0.6x a Sunday
    assert not run("2026-09-25", 1)["passed"]  # ... and its first Friday, 1.67x a Friday
    accepted = json.loads(dw("checks", "accept", VISITS, "2026-09-20", "--as", "noura.h", "--shape",
                             "--note", "the week moved to Saturday/Sunday", "--json"))
    assert accepted["shape"] and not accepted["shift"] and accepted["accepted_by"] == "noura.h"
    friday = run("2026-09-25", 0)
    assert friday["passed"] and any("weekly pattern changed from 2026-09-20" in n for n in friday["metadata"]["notes"])
    store = open_state(grained.settings)
    receipts = list(ReceiptLog.from_settings(store, grained.settings).iter_receipts(action="partition_accepted"))
    assert receipts[-1].record["body"]["shape"] is True and receipts[-1].record["actor"] == "noura.h"
    # accepted again without --shape: the mark goes, the Friday fails again
    dw("checks", "accept", VISITS, "2026-09-20", "--as", "noura.h")
    assert not run("2026-09-25", 1)["passed"]
    assert "daily series" in dw("checks", "accept", EVENTS, "2026-09-28", "--as", "x", "--shape", code=2)


def test_a_state_database_made_before_shape_marks_keeps_working(tmp_path):
    """No migrations: a database whose tables were created before `dw_accepted_shapes` existed
    (an accepted partition in it) gets the new table on first use, and a read-only view of it reads none."""
    url = f"sqlite:///{tmp_path / 'old_state.db'}"
    old = sa.MetaData()
    for table in metadata.sorted_tables:
        if table.name != accepted_shapes_table.name:
            table.to_metadata(old)
    engine = sa.create_engine(url)
    old.create_all(engine)
    with engine.begin() as conn:
        conn.execute(old.tables["dw_accepted_partitions"].insert().values(
            dataset_id="lake.visits", partition="2026-09-01", shift=True, note="", accepted_by="a",
            accepted_at=datetime(2026, 9, 2, tzinfo=UTC)))
    engine.dispose()
    assert accepted_shapes(ReadOnlyStore(url), "lake.visits") == set()
    store = open_store(url)
    assert accepted_partitions(store, "lake.visits") == {"2026-09-01": True}
    accept_partition(store, "lake.visits", "2026-09-20", actor="b", shape=True)
    assert accepted_shapes(store, "lake.visits") == {"2026-09-20"}
    assert accepted_partitions(store, "lake.visits") == {"2026-09-01": True, "2026-09-20": False}


def test_hourly_and_grouped_checks_run_as_dagster_asset_checks(grained):
    keys = [dg.AssetKey(["lake", "events"]), dg.AssetKey(["lake", "orders_by_market"])]
    job = dg.define_asset_job("grained", selection=dg.AssetSelection.checks_for_assets(*keys))
    defs = dg.Definitions.merge(checks.build_definitions(grained.settings),
                                dg.Definitions(assets=[dg.AssetSpec(k) for k in keys], jobs=[job]))
    result = defs.resolve_job_def("grained").execute_in_process(instance=dg.DagsterInstance.ephemeral())
    assert result.success
    volume = {e.asset_key.path[-1]: e for e in result.get_asset_check_evaluations()
              if e.check_name == "volume_vs_history"}
    assert not volume["events"].passed and volume["events"].metadata["partition"].value == "2026-09-28T13:00"
    assert not volume["orders_by_market"].passed and "FR" in volume["orders_by_market"].description
    assert "incident" in volume["orders_by_market"].metadata and "groups" in volume["orders_by_market"].metadata


def test_landed_rows_are_csv_records(tmp_path):
    import fsspec

    fs = fsspec.filesystem("file")
    quoted = tmp_path / "quoted.csv"
    quoted.write_text('id,memo\n1,"two\nlines"\n2,plain\n3,"a ""quote"", and\r\nmore"\n', newline="")
    assert count_data_rows(fs, str(quoted), header_rows=1) == 3
    bom = tmp_path / "bom.csv"
    bom.write_bytes("\ufeffid,memo\n1,x\n\n2,y".encode())  # BOM, a blank line, no final newline
    assert count_data_rows(fs, str(bom), header_rows=1) == 2
    packed = tmp_path / "part.csv.gz"
    packed.write_bytes(gzip.compress(b'id,memo\n1,"multi\nline"\n2,z\n'))
    assert count_data_rows(fs, str(packed), header_rows=1) == 2
    assert count_data_rows(fs, str(packed), header_rows=0) == 3


@pytest.mark.parametrize(("check", "key"), [
    ({"volume": {"partition_column": "event_at", "grain": "hour", "timezone": "Europe/Berln"}}, "volume.timezone"),
    ({"volume": {"partition_column": "event_at", "column_timezone": "EST5EDT!"}}, "volume.column_timezone"),
    ({"freshness": {"timestamp_column": "loaded_at", "max_age": "2h", "timezone": "Sydney"}}, "freshness.timezone"),
], ids=["volume", "column", "freshness"])
def test_a_wrong_time_zone_is_named_at_load(tmp_path, check, key):
    config = tmp_path / "dw.yaml"
    config.write_text(yaml.safe_dump({"checks": [{"dataset": "lake.events", **check}]}))
    with pytest.raises(ConfigError, match=rf"checks\.0\.{re.escape(key)}: .* is not an IANA time zone name"):
        load_settings(config)
    field = key.split(".")[1]
    ok = {k: {**v, field: "Australia/Sydney"} for k, v in check.items()}
    assert load_settings(_write(tmp_path / "ok.yaml", {"checks": [{"dataset": "lake.events", **ok}]})).checks


def _write(path, payload):
    path.write_text(yaml.safe_dump(payload))
    return path


def test_seasons_named_in_config_reach_the_models_calendar():
    cfg = VolumeCheckConfig(partition_column="d", holidays=HolidaysConfig(
        country="EG", seasons={"Back to school": [["2025-08-15", "2025-09-05"]]}))
    cal = holiday_calendar(cfg)
    assert cal is not None and cal.season(date(2025, 8, 20)) == ("Back to school", date(2025, 8, 15).toordinal())
    assert cal.season(date(2025, 3, 10))[0] == "Ramadan"  # from Eid al-Fitr, 30 March 2025, without config
    with pytest.raises(ValidationError):
        HolidaysConfig(seasons={"Back to school": [["2025-09-05", "2025-08-15"]]})


def test_a_market_closed_for_a_week_of_its_own_holidays_stays_a_group_in_an_hourly_check(grained):
    """A Hong Kong broker's orders per trading hour (01:00-07:59 UTC, weekdays but Hong Kong's holidays):
    the CONNECT channel also keeps the mainland's calendar and has no rows on its Golden Week. On its
    fourth closed day (Tuesday 6 October 2026, 11:00 in Hong Kong) the channel is still a group, expected
    empty on its own calendar's holiday, and the total is read as the groups' sum; without that calendar
    the channel, silent for more than three partitions, has left the check and the total is read from its
    own past."""
    grained.write(grained.lake, """
        CREATE TABLE broker_orders AS
        SELECT h.at + (r.j % 60) * INTERVAL 1 MINUTE AS placed_at, c.channel, 'o' || h.i || c.channel || r.j AS order_id
        FROM (SELECT i, TIMESTAMP '2026-09-07 00:00:00' + i * INTERVAL 1 HOUR AS at
              FROM range(0, 29 * 24 + 4) t(i)) h,
             (VALUES ('HK', 200), ('CONNECT', 60)) c(channel, base),
             LATERAL (SELECT * FROM range(CAST(c.base * (1 + (CAST(hash(h.i, c.channel) % 7 AS INTEGER) - 3) / 100.0)
                                               AS INTEGER))) r(j)
        WHERE hour(h.at) BETWEEN 1 AND 7 AND dayofweek(h.at) BETWEEN 1 AND 5
          AND h.at::DATE <> DATE '2026-10-01'
          AND NOT (c.channel = 'CONNECT' AND h.at::DATE IN (DATE '2026-09-25', DATE '2026-10-02', DATE '2026-10-05',
                                                             DATE '2026-10-06', DATE '2026-10-07'))""")
    cfg = VolumeCheckConfig(partition_column="placed_at", grain="hour", group_by=["channel"],
                            holidays=HolidaysConfig(country="HK"), group_holidays={"CONNECT": HolidaysConfig(country="CN")})
    warehouse = Warehouse.from_settings(grained.settings)
    own = evaluate_volume(warehouse, None, "lake.broker_orders", cfg)
    assert own.partition == "2026-10-06T03:00" and own.passed, own.summary
    assert own.metadata["groups_checked"] == 2 and own.metadata["failed_groups"] == [], own.metadata
    assert "sum of 2 groups" in own.metadata["comparison_group"]
    plain = evaluate_volume(warehouse, None, "lake.broker_orders", cfg.model_copy(update={"group_holidays": {}}))
    assert plain.metadata["groups_checked"] == 1 and "sum of" not in plain.metadata["comparison_group"]

"""Each check end to end against the DuckDB fixture estate (SQL in the warehouse, decision in core)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dw_assets.checks.balance import aggregates_in, evaluate_balance
from dw_assets.checks.freshness import evaluate_freshness
from dw_assets.checks.landed_files import evaluate_landed_files, landing_url
from dw_assets.checks.runner import find_entry, run_dataset_checks
from dw_assets.checks.schema_drift import evaluate_schema_drift
from dw_assets.checks.state import exclude_partition
from dw_assets.checks.volume import _group_inputs, evaluate_volume
from dw_assets.config import ConfigError, HolidaysConfig, VolumeCheckConfig
from dw_assets.connectors.warehouse import Warehouse, WarehouseError
from dw_assets.incidents import IncidentStore
from dw_assets.store import open_state

NOW = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)
GL = "finance.bronze.gl_entries"


def _entry(estate, dataset):
    return find_entry(estate.settings, dataset)


def _wh(estate):
    return Warehouse.from_settings(estate.settings)


def test_partial_month_end_fails_against_six_month_ends(estate):
    out = evaluate_volume(_wh(estate), open_state(estate.settings), GL, _entry(estate, GL).volume)
    assert out.partition == "2026-09-30"
    assert not out.passed and out.severity == "ERROR"
    assert out.metadata["ratio"] == pytest.approx(0.58, abs=0.01)
    assert out.metadata["history_points"] == 6
    assert out.metadata["history"][0]["partition"] == "2026-03-31"


def test_each_normal_month_end_passes_or_warns_for_short_history(estate):
    wh, store, cfg = _wh(estate), open_state(estate.settings), _entry(estate, GL).volume
    verdicts = {p: evaluate_volume(wh, store, GL, cfg, p) for p in ("2026-04-30", "2026-06-30", "2026-08-31")}
    assert verdicts["2026-04-30"].severity == "WARN" and "too little history" in verdicts["2026-04-30"].summary
    assert verdicts["2026-06-30"].passed and verdicts["2026-08-31"].passed


def test_excluded_partitions_leave_the_baseline(estate):
    store = open_state(estate.settings)
    exclude_partition(store, GL, "2026-07-31", actor="maria.chen", reason="known double load")
    out = evaluate_volume(_wh(estate), store, GL, _entry(estate, GL).volume)
    assert "2026-07-31" not in [h["partition"] for h in out.metadata["history"]]
    assert out.metadata["excluded_partitions"] == ["2026-07-31"] and out.metadata["history_points"] == 5


def test_weekday_pattern_compares_like_with_like(estate):
    cfg = _entry(estate, "lake.orders_clean").volume
    sunday = evaluate_volume(_wh(estate), None, "lake.orders_clean", cfg, "2026-09-27")
    monday = evaluate_volume(_wh(estate), None, "lake.orders_clean", cfg, "2026-09-21")
    assert sunday.passed and monday.passed
    assert sunday.metadata["baseline"] < monday.metadata["baseline"] / 2  # weekends are lighter


def test_freshness_passes_on_the_night_load(estate):
    out = evaluate_freshness(_wh(estate), None, GL, _entry(estate, GL).freshness, now=NOW)
    assert out.passed, out.summary
    late = evaluate_freshness(_wh(estate), None, GL, _entry(estate, GL).freshness,
                              now=datetime(2026, 10, 4, tzinfo=UTC))
    assert not late.passed and late.severity == "ERROR"


def test_balance_lists_the_broken_entity_with_its_sums(estate):
    rule = _entry(estate, "analytics.fct_trial_balance").balance[0]
    out = evaluate_balance(_wh(estate), None, "analytics.fct_trial_balance", rule)
    assert not out.passed and out.metadata["broken_groups_count"] == 1 and out.metadata["groups_checked"] == 4
    assert out.metadata["broken_groups"] == [{"entity": "E3", "sum(total_debit)": 500.0,
                                              "sum(total_credit)": 480.25}]


def test_balance_per_partition_on_the_bronze_table_passes(estate):
    from dw_assets.config import BalanceRuleConfig

    rule = BalanceRuleConfig(name="gl", group_by=["entity"], partition_column="export_date",
                             condition="abs(sum(debit) - sum(credit)) < 0.005")
    out = evaluate_balance(_wh(estate), None, GL, rule, "2026-08-31")
    assert out.passed and out.partition == "2026-08-31" and out.metadata["groups_checked"] == 4


def test_balance_condition_must_aggregate_and_not_subquery():
    found = aggregates_in("abs(sum(a) - sum(b)) < 1 and count(*) > 0 and sum(a) > 0")
    assert sorted(found) == ["count(*)", "sum(a)", "sum(b)"]  # each once
    with pytest.raises(WarehouseError, match="no aggregate"):
        aggregates_in("a > 1")
    with pytest.raises(WarehouseError, match="subquery"):
        aggregates_in("sum(a) > (SELECT 1)")


def test_rows_vs_landed_files_reports_the_missing_part(estate):
    cfg = _entry(estate, GL).landed_files
    out = evaluate_landed_files(_wh(estate), None, GL, cfg, landing_url(estate.settings, cfg))
    assert not out.passed and out.severity == "ERROR"
    assert out.metadata["partition_rows"] == 580 and out.metadata["file_rows"] == 1000
    files = {f["file"]: f for f in out.metadata["files"]}
    assert files["gl_20260930_part0001.csv"]["rows_in_partition"] == 580
    assert files["gl_20260930_part0002.csv"]["rows_in_partition"] is None
    assert all(f["mtime"] for f in files.values())


def test_rows_vs_landed_files_passes_after_the_full_reload(estate):
    estate.write(estate.finance, """INSERT INTO bronze.gl_entries
        SELECT entry_id || '-p2', entity, account, posting_date, debit, credit, export_date,
               'gl_20260930_part0002.csv', loaded_at FROM bronze.gl_entries
        WHERE export_date = DATE '2026-09-30' LIMIT 420""")
    cfg = _entry(estate, GL).landed_files
    out = evaluate_landed_files(_wh(estate), None, GL, cfg, landing_url(estate.settings, cfg))
    assert out.passed, out.summary


@pytest.mark.parametrize("change,sql,severity", [
    ("type_changed", "ALTER TABLE orders_clean ALTER discount TYPE VARCHAR", "ERROR"),
    ("dropped", "ALTER TABLE orders_clean DROP COLUMN status", "ERROR"),
    ("added", "ALTER TABLE orders_clean ADD COLUMN channel VARCHAR", "WARN")])
def test_schema_drift_detects_changes_after_first_sight(estate, change, sql, severity):
    store, ds = open_state(estate.settings), "lake.orders_clean"
    cfg = _entry(estate, ds).schema_drift
    first = evaluate_schema_drift(_wh(estate), store, ds, cfg)
    assert first.passed and first.metadata["accepted_now"]
    assert evaluate_schema_drift(_wh(estate), store, ds, cfg).passed
    estate.write(estate.lake, sql)
    out = evaluate_schema_drift(_wh(estate), store, ds, cfg)
    assert not out.passed and out.severity == severity
    assert [c["change"] for c in out.metadata["changes"]] == [change]


def test_runner_records_failures_once_across_repeated_runs(estate):
    first = run_dataset_checks(estate.settings, "gl_entries", now=NOW)
    again = run_dataset_checks(estate.settings, GL, now=NOW)
    failing = {r.outcome.check: r.incident_id for r in first if r.outcome.actionable}
    assert set(failing) == {"volume_vs_history", "rows_match_landed_files"}
    assert len(set(failing.values())) == 1  # both failures joined one incident
    assert {r.incident_id for r in again if r.outcome.actionable} == set(failing.values())
    incidents = IncidentStore(open_state(estate.settings)).list()
    assert len(incidents) == 1 and len(incidents[0].signals) == 2
    assert incidents[0].owner == "maria.chen" and incidents[0].evidence["partition"] == "2026-09-30"


def test_runner_names_unknown_datasets(estate):
    with pytest.raises(ConfigError, match="no checks configured"):
        find_entry(estate.settings, "nowhere.table")


def test_schema_drift_reads_the_lineage_schema_when_configured(estate):
    from dw_assets.config import SchemaDriftCheckConfig
    from dw_assets.lineage.schema_history import SchemaHistory, SchemaObservation

    store, ds, cfg = open_state(estate.settings), "lake.orders_clean", SchemaDriftCheckConfig(source="openlineage")
    history = SchemaHistory(store)
    columns = {"order_id": "VARCHAR", "order_date": "DATE", "discount": "DECIMAL(18,2)"}
    history.observe(SchemaObservation(ds, columns, NOW, 1, "run-1", "airflow/orders_daily.orders_clean"))
    first = evaluate_schema_drift(_wh(estate), store, ds, cfg)
    assert first.passed and first.metadata["source"] == "openlineage" and first.metadata["columns"] == 3
    history.observe(SchemaObservation(ds, {**columns, "discount": "STRING"}, NOW.replace(hour=13), 2, "run-2",
                                      "airflow/orders_daily.orders_clean"))
    out = evaluate_schema_drift(_wh(estate), store, ds, cfg)
    assert not out.passed and out.severity == "ERROR"
    assert out.metadata["changes"] == [{"column": "discount", "change": "type_changed",
                                        "old_type": "DECIMAL(18,2)", "new_type": "STRING"}]


def test_schema_drift_falls_back_to_the_warehouse_without_lineage(estate):
    from dw_assets.config import SchemaDriftCheckConfig

    out = evaluate_schema_drift(_wh(estate), open_state(estate.settings), "lake.orders_clean",
                                SchemaDriftCheckConfig(source="openlineage"))
    assert out.passed and out.metadata["source"] == "warehouse" and out.metadata["columns"] == 7


def test_landing_zone_may_be_any_fsspec_url(estate):
    import fsspec

    fs = fsspec.filesystem("memory")
    for path in (estate.home / "landing").glob("gl_20260930_*.csv"):
        fs.pipe(f"/landing-{estate.home.name}/{path.name}", path.read_bytes())
    cfg = _entry(estate, GL).landed_files
    out = evaluate_landed_files(_wh(estate), None, GL, cfg, f"memory://landing-{estate.home.name}")
    assert out.metadata["file_rows"] == 1000 and len(out.metadata["files"]) == 2 and not out.passed


def test_a_metric_is_judged_against_its_history_like_a_row_count(estate):
    """`metric:` swaps count(*) for an aggregate: the same band logic, named and unit-labelled."""
    from dw_assets.config import VolumeCheckConfig

    cfg = VolumeCheckConfig(partition_column="export_date", period="month_end", metric="sum(debit)",
                            name="debits_vs_history")
    out = evaluate_volume(_wh(estate), None, GL, cfg)
    assert out.check == "debits_vs_history" and "sum(debit)" in out.summary
    assert not out.passed and out.metadata["ratio"] < 0.8  # the partial load also halves the debits


def test_a_group_closed_for_its_own_calendars_holidays_stays_a_group():
    # a broker's hours: "link" follows the mainland's calendar and is empty from 1 October on (Golden Week)
    # while "hk" trades; past its third closed hour it is still a group (expected empty), not one that left
    cfg = VolumeCheckConfig(partition_column="at", grain="hour", group_by=["channel"],
                            group_holidays={"link": HolidaysConfig(country="CN")})
    hours = [datetime(2025, 9, d, h) for d in range(22, 31) for h in range(9, 16)]
    hours += [datetime(2025, 10, d, h) for d in (1, 2) for h in range(9, 16)]
    by_group = {"hk": {k: 100.0 for k in hours}, "link": {k: 0.0 if k.month == 10 else 30.0 for k in hours}}
    target = datetime(2025, 10, 3, 10)
    chosen = sorted(hours, reverse=True)
    label = {k: k.strftime("%Y-%m-%dT%H:%M") for k in chosen}
    groups = _group_inputs(by_group, chosen, label, target, cfg)
    assert set(groups) == {"hk", "link"}
    assert groups["link"][0] == 0 and groups["link"][1][0] == ("2025-10-02T15:00", 0)
    # without its own calendar, a group silent for three partitions has left
    plain = cfg.model_copy(update={"group_holidays": {}})
    assert set(_group_inputs(by_group, chosen, label, target, plain)) == {"hk"}


def test_a_group_whose_rows_land_one_day_a_week_stays_a_group_on_its_file_day():
    # a daily table whose "coop" channel lands in one file on Mondays (its rows zero the six other days): on a
    # Monday whose file is missing, its latest three partitions (Friday to Sunday) are empty as every week, and the
    # group is still checked; one whose last file came four weeks back has left
    cfg = VolumeCheckConfig(partition_column="day", group_by=["channel"])
    days = [datetime(2025, 6, 2) + timedelta(days=i) for i in range(70)]  # from a Monday, ten weeks
    target = days[-1] + timedelta(days=1)  # a Monday
    weekly = {k: 900.0 if k.weekday() == 0 else 0.0 for k in days}
    by_group = {"bank": {k: 1000.0 for k in days}, "coop": weekly}
    chosen = sorted(days, reverse=True)
    label = {k: k.strftime("%Y-%m-%d") for k in chosen}
    groups = _group_inputs(by_group, chosen, label, target, cfg)
    assert set(groups) == {"bank", "coop"} and groups["coop"][0] == 0
    stopped = {k: v if k < days[-28] else 0.0 for k, v in weekly.items()}
    assert set(_group_inputs({**by_group, "coop": stopped}, chosen, label, target, cfg)) == {"bank"}

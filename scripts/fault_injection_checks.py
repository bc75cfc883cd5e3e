"""Fault injection over the demo estate: does each check flag the faults it is for, and only those?

Builds the demo estate once (`dw_assets.demo.estate.build_estate`), then for every scenario copies
its warehouse (and landing zone) to a scratch folder, injects one fault (or none), and runs the
dataset's configured checks (`estate/dw.yaml`, the same functions as the Dagster asset checks)
with a fresh state store. Two checks are added for the measurement only: a per-partition balance
rule on `finance.bronze.gl_entries` (dbt is not run here, so `fct_trial_balance` does not exist)
and a 26h freshness SLA on `lake.orders_clean`.

Clean periods: the full 2026-09-30 load; each of the six prior month-ends judged against the other
five (leave-one-out: the month-end is relabelled as 2026-09-30); 21 consecutive order days judged
against their own weekday's history. A check "flags" when it fails with severity ERROR.
Per check: precision = TP/(TP+FP), recall = TP/(TP+FN) over the faults it targets, false-positive
rate = FP/(FP+TN) over the clean periods. Exit 1 when the night-1 partial load is not flagged by
the volume check or a normal month-end is.

    .venv/bin/python scripts/fault_injection_checks.py [--seed 7] [--json] [--markdown FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import duckdb

from dw_assets.checks.runner import run_dataset_checks
from dw_assets.config import BalanceRuleConfig, FreshnessCheckConfig, Settings, load_settings
from dw_assets.demo import estate as demo
from dw_assets.store import Store

GL, ORDERS = "finance.bronze.gl_entries", "lake.orders_clean"
SEPT30 = date(2026, 9, 30)
LAST_ORDER_DAY = date(2026, 9, 29)
NY = ZoneInfo("America/New_York")
MORNING_AFTER = datetime(2026, 10, 1, 9, 0, tzinfo=NY)
DROPS = (10, 20, 30, 40, 50, 60)
CHECKS = ("volume_vs_history", "freshness_sla", "rows_match_landed_files", "balance_gl_balanced_per_entity",
          "schema_drift")


@dataclass
class Scenario:
    name: str
    dataset: str
    fault: str | None  # None: a clean period
    targets: set[str]  # the checks meant to flag this fault
    inject: Callable[[Path], None] = lambda home: None
    partition: str | None = None
    now: datetime = MORNING_AFTER
    only: set[str] | None = None
    accept_schema_first: bool = False
    flagged: set[str] = field(default_factory=set)
    ran: set[str] = field(default_factory=set)
    notes: dict[str, str] = field(default_factory=dict)


def _sql(path: Path, sql: str, params: list | None = None) -> None:
    with duckdb.connect(str(path)) as con:
        con.execute(sql, params or [])


def _finance(home: Path) -> Path:
    return home / "warehouse" / "finance.duckdb"


def _lake(home: Path) -> Path:
    return home / "warehouse" / "lake.duckdb"


def full_load(home: Path) -> None:
    demo.write_gl_export(home, SEPT30, parts=2, landed_at=datetime(2026, 10, 1, 0, 2))
    demo.write_done_marker(home, SEPT30, landed_at=datetime(2026, 10, 1, 0, 34))
    demo.load_gl_partition(_finance(home), home / "landing", SEPT30, loaded_at=datetime(2026, 10, 1, 0, 45))


def partial_load(home: Path) -> None:
    demo.write_gl_export_part(home, SEPT30, 1, landed_at=datetime(2026, 10, 1, 0, 2))
    demo.load_gl_partition(_finance(home), home / "landing", SEPT30, loaded_at=datetime(2026, 10, 1, 0, 10))
    demo.write_gl_export_part(home, SEPT30, 2, landed_at=datetime(2026, 10, 1, 0, 34))


def relabel_month_end(day: date) -> Callable[[Path], None]:
    """Leave-one-out: month-end `day` becomes the newest month-end, its history the other five."""
    old, new = day.strftime("%Y%m%d"), SEPT30.strftime("%Y%m%d")

    def inject(home: Path) -> None:
        _sql(_finance(home), "UPDATE bronze.gl_entries SET export_date = ?, loaded_at = ?, "
             "source_file = replace(source_file, ?, ?) WHERE export_date = ?",
             [SEPT30, datetime(2026, 10, 1, 0, 45), f"gl_{old}", f"gl_{new}", day])
        for f in (home / "landing").glob(f"gl_{old}*"):
            f.rename(f.with_name(f.name.replace(old, new)))
    return inject


def then(*steps: Callable[[Path], None]) -> Callable[[Path], None]:
    def inject(home: Path) -> None:
        for step in steps:
            step(home)
    return inject


def drop_rows(db: Callable[[Path], Path], table: str, column: str, day: date, pct: int) -> Callable[[Path], None]:
    # hash-based sampling: the same rows go for a given seed, a percentage of whole journal lines
    return lambda home: _sql(db(home), f"DELETE FROM {table} WHERE {column} = ? AND hash(rowid) % 100 < ?",
                             [day, pct])


def duplicate(db: Callable[[Path], Path], table: str, column: str, day: date) -> Callable[[Path], None]:
    return lambda home: _sql(db(home), f"INSERT INTO {table} SELECT * FROM {table} WHERE {column} = ?", [day])


def gl_scenarios() -> list[Scenario]:
    vol_files = {"volume_vs_history", "rows_match_landed_files"}
    out = [Scenario("clean: full 2026-09-30 load", GL, None, set(), full_load)]
    out += [Scenario(f"clean: month-end {d} (leave-one-out)", GL, None, set(), relabel_month_end(d), "2026-09-30")
            for d in demo.HISTORY_EXPORT_DATES]
    out.append(Scenario("night 1: split export, part 1 only (58%)", GL, "partial_load",
                        vol_files | {"balance_gl_balanced_per_entity"}, partial_load))
    out += [Scenario(f"row drop {p}%", GL, "row_drop", vol_files,
                     then(full_load, drop_rows(_finance, "bronze.gl_entries", "export_date", SEPT30, p)))
            for p in DROPS]
    out.append(Scenario("duplicated load", GL, "duplicated_load", vol_files,
                        then(full_load, duplicate(_finance, "bronze.gl_entries", "export_date", SEPT30))))
    out.append(Scenario("late load (not there at 09:00)", GL, "late_load", {"freshness_sla"}))
    out.append(Scenario("broken balance (one line +250.00)", GL, "broken_balance", {"balance_gl_balanced_per_entity"},
                        then(full_load, lambda h: _sql(_finance(h), "UPDATE bronze.gl_entries SET debit = debit + 250 "
                             "WHERE entry_id = (SELECT min(entry_id) FROM bronze.gl_entries WHERE export_date = ? "
                             "AND entity = 'UK01' AND debit > 0)", [SEPT30]))))
    out.append(Scenario("column type change (debit -> DOUBLE)", GL, "type_change", {"schema_drift"},
                        then(full_load, lambda h: _sql(_finance(h), "ALTER TABLE bronze.gl_entries ALTER debit TYPE DOUBLE")),
                        accept_schema_first=True))
    out.append(Scenario("dropped column (source_file)", GL, "dropped_column", {"schema_drift"},
                        then(full_load, lambda h: _sql(_finance(h), "ALTER TABLE bronze.gl_entries DROP COLUMN source_file")),
                        accept_schema_first=True))
    return out


def orders_scenarios() -> list[Scenario]:
    morning = datetime.combine(LAST_ORDER_DAY + timedelta(days=1), datetime.min.time(), NY).replace(hour=9)
    out = [Scenario(f"clean: orders {d}", ORDERS, None, set(), partition=d.isoformat(), now=morning,
                    only={"volume_vs_history"})
           for d in (LAST_ORDER_DAY - timedelta(days=n) for n in range(20, 0, -1))]
    out.append(Scenario(f"clean: orders {LAST_ORDER_DAY} (all checks)", ORDERS, None, set(), now=morning))
    out += [Scenario(f"orders row drop {p}%", ORDERS, "row_drop", {"volume_vs_history"},
                     drop_rows(_lake, "main.orders_clean", "order_date", LAST_ORDER_DAY, p), now=morning)
            for p in DROPS]
    out.append(Scenario("orders duplicated load", ORDERS, "duplicated_load", {"volume_vs_history"},
                        duplicate(_lake, "main.orders_clean", "order_date", LAST_ORDER_DAY), now=morning))
    out.append(Scenario("orders stale partition (09-30 never loaded)", ORDERS, "stale_partition", {"freshness_sla"},
                        now=morning + timedelta(days=1)))
    out.append(Scenario("orders type change (discount -> VARCHAR)", ORDERS, "type_change", {"schema_drift"},
                        lambda h: _sql(_lake(h), "ALTER TABLE main.orders_clean ALTER discount TYPE VARCHAR"),
                        now=morning, accept_schema_first=True))
    out.append(Scenario("orders dropped column (status)", ORDERS, "dropped_column", {"schema_drift"},
                        lambda h: _sql(_lake(h), "ALTER TABLE main.orders_clean DROP COLUMN status"),
                        now=morning, accept_schema_first=True))
    return out


def measurement_settings(base: Settings) -> Settings:
    entries = []
    for entry in base.checks:
        if entry.dataset == GL:
            entry = entry.model_copy(update={"balance": [*entry.balance, BalanceRuleConfig(
                name="gl_balanced_per_entity", group_by=["entity"], partition_column="export_date",
                condition="abs(sum(debit) - sum(credit)) < 0.005")]})
        if entry.dataset == ORDERS and entry.freshness is None:
            entry = entry.model_copy(update={"freshness": FreshnessCheckConfig(
                timestamp_column="loaded_at", max_age="26h", timezone="America/New_York")})
        entries.append(entry)
    return base.model_copy(update={"checks": entries})


def run_scenario(sc: Scenario, base_home: Path, scratch: Path, settings: Settings) -> None:
    home = scratch / "home"
    shutil.rmtree(home, ignore_errors=True)
    shutil.copytree(base_home / "warehouse", home / "warehouse")
    shutil.copy(base_home / "estate.json", home / "estate.json")
    shutil.copytree(base_home / "landing", home / "landing") if sc.dataset == GL else (home / "landing").mkdir()
    os.environ["DW_HOME"] = str(home)  # the config's ${DW_HOME} paths now point at the copy
    store = Store(f"sqlite:///{home}/state.db")
    try:
        if sc.accept_schema_first:
            run_dataset_checks(settings, sc.dataset, record=False, store=store, only={"schema_drift"}, now=sc.now)
        sc.inject(home)
        for run in run_dataset_checks(settings, sc.dataset, partition=sc.partition, now=sc.now, record=False,
                                      store=store, only=sc.only):
            o = run.outcome
            sc.ran.add(o.check)
            if o.actionable:
                sc.flagged.add(o.check)
            if o.check == "volume_vs_history" and o.metadata.get("ratio") is not None:
                sc.notes["ratio"] = f"{o.metadata['ratio']:.2f}"
            if not o.passed and o.severity == "WARN":
                sc.notes[o.check] = "WARN"
    finally:
        store.dispose()


def metrics(scenarios: list[Scenario]) -> dict[str, dict[str, float | int | None]]:
    out = {}
    for check in CHECKS:
        tp = sum(1 for s in scenarios if s.fault and check in s.targets and check in s.flagged)
        fn = sum(1 for s in scenarios if s.fault and check in s.targets and check not in s.flagged)
        fp = sum(1 for s in scenarios if not s.fault and check in s.ran and check in s.flagged)
        tn = sum(1 for s in scenarios if not s.fault and check in s.ran and check not in s.flagged)
        out[check] = {"tp": tp, "fn": fn, "fp": fp, "tn": tn,
                      "precision": round(tp / (tp + fp), 3) if tp + fp else None,
                      "recall": round(tp / (tp + fn), 3) if tp + fn else None,
                      "false_positive_rate": round(fp / (fp + tn), 3) if fp + tn else None}
    return out


def markdown(scenarios: list[Scenario], table: dict[str, dict]) -> str:
    fmt = lambda v: "n/a" if v is None else f"{v:.2f}"
    lines = ["| check | TP | FN | FP | TN | precision | recall | false-positive rate |", "|---|--:|--:|--:|--:|--:|--:|--:|"]
    for check, m in table.items():
        lines.append(f"| {check} | {m['tp']} | {m['fn']} | {m['fp']} | {m['tn']} | {fmt(m['precision'])} | "
                     f"{fmt(m['recall'])} | {fmt(m['false_positive_rate'])} |")
    lines += ["", "| scenario | dataset | should flag | flagged | volume ratio |", "|---|---|---|---|--:|"]
    for s in scenarios:
        warn = [k for k, v in s.notes.items() if v == "WARN"]
        lines.append(f"| {s.name} | {s.dataset} | {', '.join(sorted(s.targets)) or '-'} | "
                     f"{', '.join(sorted(s.flagged)) or '-'}{' (WARN: ' + ', '.join(warn) + ')' if warn else ''} | "
                     f"{s.notes.get('ratio', '')} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=demo.DEFAULT_SEED)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--markdown", type=Path, help="also write the tables to this markdown file")
    args = parser.parse_args(argv)
    settings = measurement_settings(load_settings())
    with tempfile.TemporaryDirectory(prefix="dw-faults-") as tmp:
        base = Path(tmp) / "base"
        print(f"building the demo estate (seed {args.seed}) ...", file=sys.stderr)
        demo.build_estate(base, seed=args.seed)
        scenarios = gl_scenarios() + orders_scenarios()
        for i, sc in enumerate(scenarios, 1):
            run_scenario(sc, base, Path(tmp), settings)
            print(f"[{i:>2}/{len(scenarios)}] {sc.name}: flagged {sorted(sc.flagged) or '-'}", file=sys.stderr)
    table = metrics(scenarios)
    if args.json:
        print(json.dumps({"metrics": table, "scenarios": [
            {"name": s.name, "dataset": s.dataset, "fault": s.fault, "targets": sorted(s.targets),
             "flagged": sorted(s.flagged), "notes": s.notes} for s in scenarios]}, indent=2))
    else:
        print(markdown(scenarios, table))
    if args.markdown:
        args.markdown.write_text(markdown(scenarios, table) + "\n")
    night1 = next(s for s in scenarios if s.fault == "partial_load")
    month_ends = [s for s in scenarios if "leave-one-out" in s.name]
    ok = "volume_vs_history" in night1.flagged and not any("volume_vs_history" in s.flagged for s in month_ends)
    if not ok:
        print("FAILED: the night-1 partial load must be flagged and the six normal month-ends must pass",
              file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

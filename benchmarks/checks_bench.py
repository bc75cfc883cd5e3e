"""Time and peak memory of each data check on 1M- and 10M-row tables.

Builds a GL-shaped table (`finance.bronze.gl_entries`) of N rows over seven month-end partitions
(the newest one 58% loaded, as on night 1) plus the landing files of the newest partition, then
runs each check in a fresh subprocess and reports wall time and peak RSS (`ru_maxrss`) before and
after the check. The checks push every aggregate into DuckDB, so the RSS growth should not depend
on N; DuckDB's own working memory for the grouped counts is included in the figure.

    .venv/bin/python benchmarks/checks_bench.py [--rows 1000000 10000000] [--checks ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import duckdb

CHECKS = ("volume_vs_history", "volume_grouped", "volume_hourly", "freshness_sla", "balance", "rows_match_landed_files",
          "schema_drift")
MONTH_ENDS = ("2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30", "2026-07-31", "2026-08-31", "2026-09-30")


def build(home: Path, rows: int) -> None:
    (home / "warehouse").mkdir(parents=True)
    (home / "landing").mkdir()
    per = rows // len(MONTH_ENDS)
    with duckdb.connect(str(home / "warehouse" / "finance.duckdb")) as con:
        con.execute("SET enable_progress_bar = false")
        con.execute("CREATE SCHEMA bronze")
        con.execute("""CREATE TABLE bronze.gl_entries (entry_id VARCHAR, entity VARCHAR, account VARCHAR,
            posting_date DATE, debit DECIMAL(18,2), credit DECIMAL(18,2), export_date DATE, source_file VARCHAR,
            loaded_at TIMESTAMP)""")
        for n, day in enumerate(MONTH_ENDS):
            count = int(per * 0.58) if day == MONTH_ENDS[-1] else per
            con.execute(f"""INSERT INTO bronze.gl_entries SELECT 'GL-{n}-' || i, 'E' || ((i // 2) % 5), '4000',
                DATE '{day}' - CAST(i % 28 AS INTEGER), CASE WHEN i % 2 = 0 THEN 10 + (i // 2) % 90 ELSE 0 END,
                CASE WHEN i % 2 = 1 THEN 10 + (i // 2) % 90 ELSE 0 END, DATE '{day}',
                'gl_{day.replace('-', '')}_part0001.csv', TIMESTAMP '{day} 23:00:00' FROM range({count}) t(i)""")
        compact = MONTH_ENDS[-1].replace("-", "")
        for part, share in ((1, 0.58), (2, 0.42)):
            out = home / "landing" / f"gl_{compact}_part{part:04d}.csv"
            con.execute(f"COPY (SELECT 'X' || i AS entry_id, 'E1' AS entity, 1.0 AS debit FROM range({int(per * share)}) "
                        f"t(i)) TO '{out}' (HEADER, DELIMITER ',')")
    with duckdb.connect(str(home / "warehouse" / "analytics.duckdb")) as con:
        con.execute("CREATE TABLE placeholder AS SELECT 1 AS x")


_CHILD = textwrap.dedent("""
    import json, resource, sys, time
    from datetime import datetime, timezone
    from pathlib import Path
    from dw_assets.config import *
    from dw_assets.connectors.warehouse import Warehouse
    from dw_assets.store import Store
    from dw_assets.checks.volume import evaluate_volume
    from dw_assets.checks.freshness import evaluate_freshness
    from dw_assets.checks.balance import evaluate_balance
    from dw_assets.checks.landed_files import evaluate_landed_files
    from dw_assets.checks.schema_drift import evaluate_schema_drift

    home, check = Path(sys.argv[1]), sys.argv[2]
    wh = Warehouse(f"duckdb:///{home}/warehouse/analytics.duckdb", {"finance": str(home / "warehouse/finance.duckdb")})
    store = Store(f"sqlite:///{home}/state-{check}.db")
    ds, now = "finance.bronze.gl_entries", datetime(2026, 10, 1, 12, tzinfo=timezone.utc)
    run = {
        "volume_vs_history": lambda: evaluate_volume(wh, store, ds, VolumeCheckConfig(partition_column="export_date")),
        # per entity (five groups), and per hour of a timestamp over the default 28 days of hours
        "volume_grouped": lambda: evaluate_volume(wh, store, ds, VolumeCheckConfig(partition_column="export_date",
                                                                                   group_by=["entity"])),
        "volume_hourly": lambda: evaluate_volume(wh, store, ds, VolumeCheckConfig(partition_column="loaded_at",
                                                                                  grain="hour")),
        "freshness_sla": lambda: evaluate_freshness(wh, None, ds, FreshnessCheckConfig(
            timestamp_column="loaded_at", max_age="26h"), now=now),
        "balance": lambda: evaluate_balance(wh, None, ds, BalanceRuleConfig(name="b", group_by=["entity"],
            partition_column="export_date", condition="abs(sum(debit) - sum(credit)) < 0.005")),
        "rows_match_landed_files": lambda: evaluate_landed_files(wh, None, ds, LandedFilesCheckConfig(
            partition_column="export_date", file_glob="gl_{partition_compact}_*.csv"), str(home / "landing")),
        "schema_drift": lambda: evaluate_schema_drift(wh, store, ds, SchemaDriftCheckConfig()),
    }[check]
    def peak_kb():
        # VmHWM after resetting it (clear_refs 5) is this process's own peak; ru_maxrss would
        # start from the forking parent's peak on Linux
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    wh.scalar("SELECT 1")  # connection machinery loaded before the baseline is taken
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass
    before = peak_kb()
    started = time.perf_counter()
    outcome = run()
    seconds = time.perf_counter() - started
    after = peak_kb()
    print(json.dumps({"check": check, "seconds": round(seconds, 3), "rss_before_mb": round(before / 1024, 1),
                      "rss_peak_mb": round(after / 1024, 1), "passed": outcome.passed}))
""")


def measure(home: Path, check: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHILD, str(home), check], capture_output=True, text=True,
                          timeout=1800, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{check} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--build"]:
        build(Path(argv[1]), int(argv[2]))
        return 0
    parser = argparse.ArgumentParser(description="time and peak RSS of each check")
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--checks", nargs="+", default=list(CHECKS), choices=CHECKS)
    args = parser.parse_args(argv)
    results = []
    for rows in args.rows:
        with tempfile.TemporaryDirectory(prefix="dw-bench-") as tmp:
            home = Path(tmp)
            print(f"building {rows:,} rows ...", file=sys.stderr)
            # in a child, so this process's RSS (which children inherit as a peak) stays small
            subprocess.run([sys.executable, __file__, "--build", str(home), str(rows)], check=True, timeout=1800)
            for check in args.checks:
                result = {"rows": rows, **measure(home, check)}
                result["rss_growth_mb"] = round(result["rss_peak_mb"] - result["rss_before_mb"], 1)
                results.append(result)
                print(f"  {check:<26} {result['seconds']:>7.3f}s  peak RSS {result['rss_peak_mb']:>6.1f} MB "
                      f"(+{result['rss_growth_mb']} MB)", file=sys.stderr)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print("| rows | check | time (s) | peak RSS (MB) | RSS growth during the check (MB) |")
        print("|--:|---|--:|--:|--:|")
        for r in results:
            print(f"| {r['rows']:,} | {r['check']} | {r['seconds']:.3f} | {r['rss_peak_mb']:.0f} | {r['rss_growth_mb']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

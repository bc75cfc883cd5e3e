"""`dw trace` and `dw blast-radius`: human and JSON output, exit codes for bad asset references."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from dw_assets.cli import cli


def run(config: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--config", str(config), *args])
    return result.exit_code, result.stdout, result.stderr


def test_trace_human_output_is_a_tree_with_provenance(small_estate: Path) -> None:
    code, out, _ = run(small_estate, "trace", "stg_orders", "--max-depth", "6")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("analytics.stg_orders  [model, dbt]  owner priya.raman")
    assert lines[1] == "upstream:"
    assert lines[2].startswith("└─ lake.orders_clean  [source, warehouse]")
    assert "app.orders" in lines[3] and "note (jonas.berg, DATA-1423, 2026-05-12) + config" in lines[3]
    assert "via airflow:orders_daily.orders_clean" in lines[3]


def test_trace_json_is_stable(small_estate: Path) -> None:
    code, out, _ = run(small_estate, "trace", "lake.orders_clean", "--direction", "both",
                       "--include-orchestration", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["root"] == "lake.orders_clean" and data["include_orchestration"] is True
    ids = {n["id"]: n for n in data["nodes"]}
    assert ids["airflow:orders_daily.orders_clean"]["kind"] == "task"
    assert ids["exposure:close_review"]["direction"] == "downstream"
    assert out == run(small_estate, "trace", "lake.orders_clean", "--direction", "both",
                      "--include-orchestration", "--json")[1]


def test_blast_radius_table_and_json(small_estate: Path) -> None:
    code, out, _ = run(small_estate, "blast-radius", "finance.bronze.gl_entries")
    assert code == 0
    assert out.startswith("Blast radius of finance.bronze.gl_entries: severity CRITICAL")
    assert "exposure:close_review" in out and "finance-controller" in out and "Paths:" in out
    code, out, _ = run(small_estate, "blast-radius", "gl_entries", "--max-depth", "2", "--json")
    data = json.loads(out)
    assert [a["id"] for a in data["affected"]] == ["analytics.stg_gl", "analytics.fct_trial_balance"]
    assert data["owners"] == {"maria.chen": ["analytics.stg_gl", "analytics.fct_trial_balance"]}


@pytest.mark.parametrize(
    ("asset", "error", "candidates"),
    [pytest.param("fct_nothing", "unknown_asset", [], id="unknown"),
     pytest.param("orders", "ambiguous_asset", ["app.orders", "archive.orders"], id="ambiguous")],
)
@pytest.mark.parametrize("command", ["trace", "blast-radius"])
def test_bad_asset_exits_2_with_candidates(small_estate: Path, command: str, asset: str, error: str,
                                           candidates: list[str]) -> None:
    notes = small_estate.parent / "notes.yaml"
    raw = yaml.safe_load(notes.read_text())
    raw["notes"].append({"from": "app.orders", "to": "archive.orders", "relation": "feeds", "author": "a",
                         "source": "T-1", "recorded_at": "2026-01-01",
                         "to_node": {"kind": "dataset", "system": "warehouse"}})
    notes.write_text(yaml.safe_dump(raw))
    code, out, _ = run(small_estate, command, asset, "--json")
    assert code == 2
    assert json.loads(out) == {"error": error, "asset": asset, "candidates": candidates}
    code, _, err = run(small_estate, command, asset)
    assert code == 2 and repr(asset) in err and all(c in err for c in candidates)


def test_build_failure_exits_1_with_the_reason(small_estate: Path) -> None:
    (small_estate.parent / "notes.yaml").write_text("notes:\n  - {from: a.b, to: c.d}\n")
    code, _, err = run(small_estate, "trace", "stg_gl")
    assert code == 1 and "entry 0 (a.b -> c.d): field relation: is required" in err

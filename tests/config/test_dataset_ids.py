"""Dataset ids are canonicalised once when the config loads, and one resolver finds the configured
entry or graph node an id means, however the config or the caller wrote it (case, quoting, a DuckDB
`main` schema, an alias)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from dw_assets.checks.runner import find_entry
from dw_assets.config import ConfigError, DatasetChecksConfig, Settings, load_settings
from dw_assets.core.blast_radius import BlastEntry
from dw_assets.core.identity import AmbiguousAssetError, UnknownAssetError, no_search, resolve_dataset_id
from dw_assets.diagnosis.profiles import _check_configs
from dw_assets.operations.remediation import verification_refs

CONFIG: dict[str, Any] = {
    "checks": [
        {"dataset": '"LAKE"."MAIN"."Orders_Clean"', "freshness": {"max_age": "2h", "timestamp_column": "ts"}},
        {"dataset": "shop_revenue", "freshness": {"max_age": "2h", "timestamp_column": "ts"}},  # written as an alias
        {"dataset": "Finance.Bronze.GL_Entries", "freshness": {"max_age": "2h", "timestamp_column": "ts"}},
    ],
    "domains": [{"name": "shop", "datasets": ["LAKE.*", "Analytics.Fct_Revenue", "[Ll]ake.x"]}],
    "airflow": {"task_outputs": {"orders_daily.load": ['"Lake"."Orders_Clean"', "shop_revenue"]}},
    "aliases": {"shop_revenue": "ANALYTICS.MAIN.FCT_REVENUE"},
}


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    path = tmp_path_factory.mktemp("cfg") / "dw.yaml"
    path.write_text(yaml.safe_dump(CONFIG))
    return load_settings(path)


def test_ids_are_canonical_after_load(settings: Settings) -> None:
    assert [c.dataset for c in settings.checks] == [
        "lake.orders_clean", "analytics.fct_revenue", "finance.bronze.gl_entries"]
    assert settings.domains[0].datasets == ["lake.*", "analytics.fct_revenue", "[ll]ake.x"]
    assert settings.airflow.task_outputs == {"orders_daily.load": ["lake.orders_clean", "analytics.fct_revenue"]}
    assert settings.aliases == {"shop_revenue": "analytics.fct_revenue"}
    assert settings.domain_for("lake.orders_clean") is settings.domains[0]


def test_settings_built_in_code_are_canonical_too() -> None:
    s = Settings(checks=[DatasetChecksConfig(dataset='"Lake"."Main"."T"')], aliases={"t2": "LAKE.T2"})
    assert s.checks[0].dataset == "lake.t" and s.aliases == {"t2": "lake.t2"}


@pytest.mark.parametrize("query", ["lake.orders_clean", "LAKE.ORDERS_CLEAN", '"lake"."main"."orders_clean"',
                                   "orders_clean", "duckdb:///x/lake.duckdb/main/orders_clean"])
def test_find_entry_matches_any_spelling(settings: Settings, query: str) -> None:
    assert find_entry(settings, query).dataset == "lake.orders_clean"


def test_find_entry_by_alias_and_unknown(settings: Settings) -> None:
    assert find_entry(settings, "shop_revenue").dataset == "analytics.fct_revenue"
    with pytest.raises(ConfigError, match="no checks configured"):
        find_entry(settings, "nowhere.table")


def test_verification_and_profiles_use_the_resolver(settings: Settings) -> None:
    incident = SimpleNamespace(dataset_id="lake.orders_clean", signals=[{"details": {"partition": "2026-09-30"}}])
    blast = [BlastEntry(id="analytics.fct_revenue", kind="dataset", depth=1),
             BlastEntry(id="fct_revenue", kind="model", depth=2)]
    refs = verification_refs(settings, incident, blast)
    # a blast-radius entry is a full id: no suffix fallback (`fct_revenue` is no configured id)
    assert [(r.dataset, r.check, r.partition) for r in refs] == [
        ("lake.orders_clean", "freshness_sla", "2026-09-30"), ("analytics.fct_revenue", "freshness_sla", None)]
    assert set(_check_configs(settings, ["finance.bronze.gl_entries", "lake.other"])) == {"finance.bronze.gl_entries"}


def test_resolver_ranks_and_errors() -> None:
    known = {"finance.bronze.gl_entries", "finance.silver.gl_entries", "lake.orders"}
    assert resolve_dataset_id("Lake.Main.Orders", known) == "lake.orders"
    assert resolve_dataset_id("o", known, {"o": "lake.orders"}) == "lake.orders"
    assert resolve_dataset_id("bronze.gl_entries", known) == "finance.bronze.gl_entries"
    with pytest.raises(AmbiguousAssetError) as amb:
        resolve_dataset_id("gl_entries", known)
    assert amb.value.candidates == ["finance.bronze.gl_entries", "finance.silver.gl_entries"]
    with pytest.raises(UnknownAssetError):
        resolve_dataset_id("orders", known, search=no_search)

"""Estates built once per session: a clean one, and one that has lived through both nights.

Building an estate takes a few seconds and a dbt build about as long, so each is done once and the
tests read the results. dbt runs on a copy of `dbt_project/` per estate, so its target/ and logs/
never touch the repository's project or each other.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from estate_dbt_helpers import SEED, DbtRun, NightEstate, copy_dbt_project, dbt_ol_run

from dw_assets.demo.estate import (
    NIGHT1_EXPORT_DATE,
    NIGHT2_ORDERS_DAY,
    EstatePaths,
    add_orders_day,
    break_orders_discount,
    build_estate,
    copy_orders_to_lake,
    load_gl_partition,
    write_gl_export_part,
)


@pytest.fixture(scope="session")
def clean_estate(tmp_path_factory: pytest.TempPathFactory) -> EstatePaths:
    return build_estate(tmp_path_factory.mktemp("clean") / "dw_home", seed=SEED)


@pytest.fixture(scope="session")
def clean_build(clean_estate: EstatePaths, tmp_path_factory: pytest.TempPathFactory) -> DbtRun:
    base = tmp_path_factory.mktemp("clean_dbt")
    project = copy_dbt_project(base / "dbt_project")
    return dbt_ol_run(clean_estate.home, project, ["build"], base / "lineage")


@pytest.fixture(scope="session")
def night_estate(tmp_path_factory: pytest.TempPathFactory) -> NightEstate:
    """Night 1's first part loaded alone (the green close on half the data), then night 2's
    release: the new day's orders with text discounts, copied into the lake as the task does."""
    paths = build_estate(tmp_path_factory.mktemp("night") / "dw_home", seed=SEED)
    write_gl_export_part(paths.home, NIGHT1_EXPORT_DATE, 1)
    load_gl_partition(paths.finance_db, paths.landing, NIGHT1_EXPORT_DATE)
    add_orders_day(paths.home, NIGHT2_ORDERS_DAY)
    na_ids = break_orders_discount(paths.home, na_rows=5)
    copy_orders_to_lake(paths.home)
    return NightEstate(paths, na_ids)


@pytest.fixture(scope="session")
def night_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_dbt_project(tmp_path_factory.mktemp("night_dbt") / "dbt_project")


@pytest.fixture(scope="session")
def night_build(night_estate: NightEstate, night_project: Path) -> DbtRun:
    return dbt_ol_run(night_estate.paths.home, night_project, ["build"], night_project.parent / "lineage")

"""A real `dbt-ol build` (dbt-core + dbt-duckdb, offline) posting over HTTP to a running receiver."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import dagster as dg
import pytest

from dw_assets.connectors.dbt import dbt_executable
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.connectors.openlineage.receiver import create_app
from dw_assets.lineage.processing import CONSUMER
from dw_assets.store import Store
from sensors.openlineage_events import evaluate, reported_runs
from tests.support.ol_samples import make_settings

pytestmark = [pytest.mark.openlineage, pytest.mark.dbt]

MODELS = {
    "stg_orders.sql": "select order_id, cast(amount as decimal(18,2)) as amount, discount from {{ ref('raw_orders') }}",
    "fct_revenue.sql": ("{{ config(materialized='table') }}\n"
                        "select sum(amount - cast(discount as decimal(18,2))) as revenue from {{ ref('stg_orders') }}"),
}


def _project(root: Path, receiver_url: str) -> Path:
    """A purpose-built two-model project on DuckDB (faster than the demo estate's, same shape)."""
    (root / "models").mkdir(parents=True)
    (root / "seeds").mkdir()
    (root / "dbt_project.yml").write_text(
        "name: ol_probe\nversion: '1.0'\nconfig-version: 2\nprofile: ol_probe\n"
        "models:\n  ol_probe:\n    +materialized: view\n")
    (root / "profiles.yml").write_text(
        f"ol_probe:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: {root}/probe.duckdb\n"
        "      threads: 1\n")
    (root / "seeds" / "raw_orders.csv").write_text("order_id,amount,discount\n1,10.00,1.00\n2,20.00,0.50\n")
    for name, sql in MODELS.items():
        (root / "models" / name).write_text(sql + "\n")
    (root / "models" / "schema.yml").write_text(
        "version: 2\nmodels:\n  - name: fct_revenue\n    description: Revenue after discounts.\n"
        "    columns:\n      - name: revenue\n        description: Sum of amount less discount.\n")
    (root / "openlineage.yml").write_text(json.dumps({"transport": {"type": "http", "url": receiver_url}}))
    return root


def test_dbt_ol_build_lands_in_the_store_shaped_like_the_reference(
        dw_home: Path, store: Store, shared_dir: Path, tmp_path: Path, run_server) -> None:
    dbt_ol = dbt_executable(use_openlineage=True)  # dbt's own venv (`make install`), a clear error without it
    reference = json.loads((shared_dir / "openlineage-examples" / "dbt-duckdb" / "result.json").read_text())
    settings = make_settings(dw_home, spec_dir=str(shared_dir / "openlineage-spec"))
    with run_server(create_app(settings, store)) as server:
        project = _project(tmp_path / "probe", server.url)
        env = {**os.environ, "PATH": f"{dbt_ol.parent}{os.pathsep}{os.environ.get('PATH', '')}",
               "OPENLINEAGE_NAMESPACE": "dbt-probe", "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
        env.pop("OPENLINEAGE_CONFIG", None)
        env.pop("OPENLINEAGE_URL", None)
        done = subprocess.run([str(dbt_ol), "build", "--profiles-dir", str(project)],
                              check=False, cwd=project, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    events = LineageEventStore(store)
    assert events.counts()["rejected"] == 0, events.rejected()
    stored = [s.event for s in reversed(events.query(limit=100))]
    models = [e for e in stored if e.get("job", {}).get("facets", {}).get("jobType", {}).get("jobType") == "MODEL"]
    assert {e["eventType"] for e in models} >= {"START", "COMPLETE"}

    namespace = f"duckdb://{project}/probe.duckdb"
    by_model = {}
    for event in models:
        job_name = event["job"]["name"]
        assert event["job"]["namespace"] == "dbt-probe"
        # like the reference's `jaffle_shop.main.jaffle_shop.customers`: <db>.<schema>.<project>.<model>...
        assert job_name.startswith("probe.main.ol_probe."), job_name
        by_model.setdefault(job_name.split(".")[3], []).append(event)
        for ds in event["outputs"]:
            assert ds["namespace"] == namespace and ds["name"].startswith("probe.main.")
    assert set(by_model) == {"stg_orders", "fct_revenue"}

    ref_job_facets = set(reference[0]["job"]["facets"])  # jobType, sql
    ref_output_facets = set(reference[0]["outputs"][0]["facets"]) - {"dbt_model"}
    complete = next(e for e in by_model["fct_revenue"] if e["eventType"] == "COMPLETE")
    assert ref_job_facets <= set(complete["job"]["facets"])
    assert complete["job"]["facets"]["jobType"]["integration"] == reference[0]["job"]["facets"]["jobType"][
        "integration"]
    [output] = complete["outputs"]
    assert output["name"] == "probe.main.fct_revenue"
    assert {"dataSource", "schema"} <= set(output["facets"]) and set(output["facets"]) & ref_output_facets
    assert output["facets"]["dataSource"]["uri"] == namespace
    assert {"processing_engine", "parent"} <= set(complete["run"]["facets"])
    assert complete["run"]["facets"]["processing_engine"]["name"] == "dbt"
    # and they are findable by the canonical ids the rest of Data Workers uses
    assert events.query(dataset_id="probe.fct_revenue")
    assert events.query(dataset_id="probe.stg_orders")

    # the sensor records each model dbt built as a materialization, once per dbt invocation
    keys = {dg.AssetKey(["probe", "fct_revenue"]), dg.AssetKey(["probe", "stg_orders"])}
    invocation = complete["run"]["facets"]["dbt_run"]["invocation_id"]
    with dg.instance_for_test() as instance:
        first, _ = evaluate(settings, store, keys.__contains__, reported_runs(instance))
        built = {e.asset_key: e for e in first.asset_events if isinstance(e, dg.AssetMaterialization)}
        assert set(built) == keys
        meta = built[dg.AssetKey(["probe", "fct_revenue"])].metadata
        assert meta["dbt invocation"].value == invocation and meta["run id"].value == complete["run"]["runId"]
        assert 0 <= meta["seconds"].value < 600 and ".fct_revenue." in meta["job"].value
        for event in first.asset_events:
            instance.report_runless_asset_event(event)
        store.set_cursor(CONSUMER, "0")  # a replay of the same events records nothing twice
        again, _ = evaluate(settings, store, keys.__contains__, reported_runs(instance))
        assert not [e for e in again.asset_events if isinstance(e, dg.AssetMaterialization)]
    shutil.rmtree(project / "target", ignore_errors=True)

"""Helpers for the lineage tests: sample events, placing the spec's facet examples, settings, ports."""

from __future__ import annotations

import copy
import json
import socket
import uuid
from pathlib import Path
from typing import Any

from dw_assets.config import Settings
from dw_assets.connectors.openlineage.validation import _facet_base_types
from tests.support.settings import build_settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_settings(dw_home: Path, **openlineage: Any) -> Settings:
    """Settings built in code: the state store in DW_HOME, OpenLineage options as given."""
    return build_settings(
        dw_home, openlineage=openlineage,
        warehouse={"url": f"duckdb:///{dw_home}/warehouse/analytics.duckdb",
                   "attach": {"lake": f"{dw_home}/warehouse/lake.duckdb"}},
        airflow={"task_outputs": {"orders_daily.orders_clean": ["lake.orders_clean"]}},
        aliases={"gl_entries": "finance.bronze.gl_entries"})


PRODUCER = "https://github.com/data-workers/data-workers-dagster/tests"
SCHEMA_URL = "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent"


def run_event(*, event_type: str = "COMPLETE", job: str = "orders_daily.orders_clean",
              namespace: str = "airflow://local", run_id: str | None = None,
              event_time: str = "2026-09-01T02:00:00.000Z", inputs: list | None = None,
              outputs: list | None = None, run_facets: dict | None = None) -> dict[str, Any]:
    return {
        "eventType": event_type, "eventTime": event_time, "producer": PRODUCER, "schemaURL": SCHEMA_URL,
        "run": {"runId": run_id or str(uuid.uuid4()), "facets": run_facets or {}},
        "job": {"namespace": namespace, "name": job, "facets": {}},
        "inputs": inputs if inputs is not None else [],
        "outputs": outputs if outputs is not None else [],
    }


def dataset(name: str, namespace: str = "duckdb:///w/lake.duckdb", **facets: Any) -> dict[str, Any]:
    return {"namespace": namespace, "name": name,
            "facets": {k: {"_producer": PRODUCER, "_schemaURL": f"https://example.com/{k}", **v}
                       for k, v in facets.items()}}


# where a facet of each base type goes in a RunEvent: (container path, facet-map key)
_PLACES = {
    "RunFacet": ("run", "facets"),
    "JobFacet": ("job", "facets"),
    "DatasetFacet": ("outputs", "facets"),
    "InputDatasetFacet": ("inputs", "inputFacets"),
    "OutputDatasetFacet": ("outputs", "outputFacets"),
}


def facet_examples(spec_dir: Path) -> list[tuple[str, dict[str, Any]]]:
    """(test id, example) for every `tests/<Facet>/*.json` of the spec."""
    return [(f"{path.parent.name}/{path.name}", json.loads(path.read_text()))
            for path in sorted((spec_dir / "tests").glob("*/*.json"))]


def facet_base_type(spec_dir: Path, facet_dir: str, key: str, facet: dict[str, Any]) -> str:
    """The base facet type an example belongs to: from its file's schema; when the file allows
    several (LineageFacet, BaseSubsetDatasetFacet), the one its `_schemaURL` fragment names."""
    doc = json.loads((spec_dir / "facets" / f"{facet_dir}.json").read_text())
    bases = _facet_base_types(doc)[key]
    if len(bases) == 1:
        return next(iter(bases))
    fragment = str(facet.get("_schemaURL", "")).rsplit("/", 1)[-1]
    for base, hint in (("JobFacet", "Job"), ("InputDatasetFacet", "Input"), ("OutputDatasetFacet", "Output"),
                       ("DatasetFacet", "Dataset")):
        if base in bases and hint in fragment:
            return base
    raise AssertionError(f"cannot tell where {facet_dir} ({sorted(bases)}) goes from {fragment!r}")


def event_with_facet(spec_dir: Path, facet_dir: str, example: dict[str, Any]) -> dict[str, Any]:
    """A valid RunEvent carrying the example's facet(s) at the place the schema defines."""
    event = run_event(inputs=[dataset("app.main.orders", "duckdb:///w/app.duckdb")],
                      outputs=[dataset("lake.main.orders_clean")])
    for key, facet in copy.deepcopy(example).items():
        container, facet_key = _PLACES[facet_base_type(spec_dir, facet_dir, key, facet)]
        target = event[container][0] if isinstance(event[container], list) else event[container]
        target.setdefault(facet_key, {})[key] = facet
    return event

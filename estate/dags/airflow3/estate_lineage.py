"""`LineageOperator`: a PythonOperator whose lineage Airflow's OpenLineage provider reports.

The provider runs `get_openlineage_facets_on_start/complete/failure` of any operator that defines
them (its DefaultExtractor), so the task code emits nothing itself. The callable returns what it
read and wrote under `"lineage"` (see `estate_tasks.dataset`); `planned_lineage`, called with the
same rendered `op_kwargs`, names the same datasets without running anything, for the START event
and for a failed run (so a failure names the table it was writing). Shared by both majors
(`estate/dags/airflow2/estate_lineage.py` is a symlink); `.airflowignore` keeps it from being parsed
as a DAG file. Provider and openlineage-python imports stay inside the methods: a DAG file parses
without them, as the provider's own operators do it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

try:  # Airflow 3: the standard provider; Airflow 2.11 keeps it in core
    from airflow.providers.standard.operators.python import PythonOperator
except ImportError:
    from airflow.operators.python import PythonOperator


def _ol_dataset(role: str, found: dict[str, Any]) -> Any:
    from openlineage.client.event_v2 import InputDataset, OutputDataset
    from openlineage.client.facet_v2 import output_statistics_output_dataset, schema_dataset

    facets: dict[str, Any] = {}
    if found.get("schema") is not None:
        facets["schema"] = schema_dataset.SchemaDatasetFacet(
            fields=[schema_dataset.SchemaDatasetFacetFields(name=name, type=kind) for name, kind in found["schema"]])
    if role == "input":
        return InputDataset(namespace=found["namespace"], name=found["name"], facets=facets)
    output_facets: dict[str, Any] = {}
    if found.get("rows") is not None:
        output_facets["outputStatistics"] = output_statistics_output_dataset.OutputStatisticsOutputDatasetFacet(
            rowCount=int(found["rows"]))
    return OutputDataset(namespace=found["namespace"], name=found["name"], facets=facets,
                         outputFacets=output_facets)


def operator_lineage(lineage: dict[str, Any]) -> Any:
    from airflow.providers.openlineage.extractors import OperatorLineage

    return OperatorLineage(inputs=[_ol_dataset("input", d) for d in lineage.get("inputs") or []],
                           outputs=[_ol_dataset("output", d) for d in lineage.get("outputs") or []])


class LineageOperator(PythonOperator):
    """PythonOperator + `planned_lineage(**op_kwargs)`; its lineage goes out through the provider."""

    def __init__(self, *, planned_lineage: Callable[..., dict[str, Any]], **kwargs: Any):
        super().__init__(**kwargs)
        self.planned_lineage = planned_lineage
        self._written: dict[str, Any] | None = None

    def execute(self, context: Any) -> Any:
        result = super().execute(context)
        if isinstance(result, dict) and isinstance(result.get("lineage"), dict):
            self._written = result["lineage"]
        return result

    def _planned(self) -> dict[str, Any]:
        return self.planned_lineage(**(self.op_kwargs or {}))

    def get_openlineage_facets_on_start(self) -> Any:
        return operator_lineage(self._planned())

    def get_openlineage_facets_on_complete(self, task_instance: Any) -> Any:
        return operator_lineage(self._written or self._planned())

    def get_openlineage_facets_on_failure(self, task_instance: Any) -> Any:
        return operator_lineage(self._planned())


def openlineage_parent(task_instance: Any) -> str:
    """OPENLINEAGE_CONTEXT for a child process (dbt-ol): this task run as its parent and the DAG run
    as its root, named by the provider's own macros so the ids match the provider's events. The JSON
    form, because the `namespace/job/run_id` form of OPENLINEAGE_PARENT_ID cannot carry a namespace
    holding `/` (such as `airflow://local`)."""
    from airflow.providers.openlineage.plugins import macros

    root = {"run": {"runId": macros.lineage_root_run_id(task_instance)},
            "job": {"namespace": macros.lineage_root_job_namespace(task_instance),
                    "name": macros.lineage_root_job_name(task_instance)}}
    return json.dumps({"parent": {"run": {"runId": macros.lineage_run_id(task_instance)},
                                  "job": {"namespace": macros.lineage_job_namespace(),
                                          "name": macros.lineage_job_name(task_instance)},
                                  "root": root}})

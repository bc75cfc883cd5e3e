"""The context graph as a Dagster asset: each materialization records node and edge counts per
system and per provenance, so the graph's growth (new OpenLineage feeds, notes) shows in the UI."""

from __future__ import annotations

from collections import Counter

import dagster as dg

from dw_assets.config import Settings
from dw_assets.context_graph import build_context_graph
from dw_assets.store import open_state


def graph_counts(graph) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for node in graph.nodes():
        counts[f"nodes/{node.system}"] += 1
    for edge in graph.edges():
        for prov in edge.provenance:
            counts[f"edges/{prov.origin}"] += 1
    counts["nodes/total"] = len(graph)
    counts["edges/total"] = graph.edge_count
    return dict(sorted(counts.items()))


def build_definitions(settings: Settings) -> dg.Definitions:
    @dg.asset(key=["dw", "context_graph"], group_name="data_workers", kinds={"python"},
              description="Datasets, jobs, tasks and readers across dbt, Airflow, OpenLineage and notes.")
    def context_graph() -> dg.MaterializeResult:
        graph = build_context_graph(settings, store=open_state(settings))
        return dg.MaterializeResult(metadata=graph_counts(graph))

    return dg.Definitions(assets=[context_graph])

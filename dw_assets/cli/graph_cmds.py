"""dw commands on the context graph: `dw trace` and `dw blast-radius`.

Both take an asset reference (canonical id, alias, or unique short name). An unknown or ambiguous
reference exits with code 2 and lists the candidates (in `--json`, as
`{"error": "unknown_asset" | "ambiguous_asset", "asset": ..., "candidates": [...]}`); a graph that
cannot be built (no manifest, invalid notes, a failing feed) exits with code 1.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

import click

from dw_assets.cli.context import emit_json, pass_dw
from dw_assets.config import Settings
from dw_assets.connectors.dbt import DbtArtifactError
from dw_assets.context_graph import ContextGraphError, cached_context_graph, feed_names
from dw_assets.core.blast_radius import BlastRadius
from dw_assets.core.graph import ContextGraph
from dw_assets.core.identity import AmbiguousAssetError, UnknownAssetError
from dw_assets.core.notes import NotesError
from dw_assets.core.traversal import TracedEdge, TraceResult
from dw_assets.store import open_state


def _graph(settings: Settings) -> ContextGraph:
    store = None
    if feed_names():
        store = open_state(settings)
    try:
        return cached_context_graph(settings, store=store)
    except (ContextGraphError, NotesError, DbtArtifactError) as exc:
        raise click.ClickException(str(exc)) from exc


def _asset_error(exc: UnknownAssetError | AmbiguousAssetError, as_json: bool) -> None:
    kind = "unknown_asset" if isinstance(exc, UnknownAssetError) else "ambiguous_asset"
    if as_json:
        emit_json({"error": kind, "asset": exc.query, "candidates": exc.candidates})
    else:
        click.echo(f"dw: {exc}", err=True)
    sys.exit(2)


def _provenance_label(edge: TracedEdge) -> str:
    labels = []
    for p in edge.provenance:
        if p.origin == "note":
            labels.append(f"note ({p.author}, {p.source}, {p.recorded_at})")
        elif p.origin not in labels:
            labels.append(p.origin)
    via = f" via {', '.join(edge.via)}" if edge.via else ""
    return " + ".join(labels) + via


def _describe(node: Any) -> str:
    owner = f"  owner {node.owner}" if node.owner else ""
    return f"{node.id}  [{node.kind}, {node.system}]{owner}"


def _print_trace(result: TraceResult) -> None:
    by_id = {n.id: n for n in result.nodes}
    root = by_id[result.root]
    click.echo(_describe(root))
    sides = ("upstream", "downstream") if result.direction == "both" else (result.direction,)
    for side in sides:
        members = [n for n in result.nodes if n.direction == side]
        if not members:
            click.echo(f"{side}: nothing recorded within {result.max_depth} hops")
            continue
        children: dict[str, list[tuple[str, TracedEdge]]] = {}
        for node in members:
            for edge in result.edges:
                parent = edge.dst if side == "upstream" else edge.src
                near = edge.src if side == "upstream" else edge.dst
                if near == node.id and parent in by_id and by_id[parent].depth == node.depth - 1 \
                        and (parent == result.root or by_id[parent].direction == side):
                    children.setdefault(parent, []).append((node.id, edge))
                    break
        click.echo(f"{side}:")
        _print_subtree(result.root, children, by_id, "")
    click.echo(f"({len(result.nodes) - 1} nodes, {len(result.edges)} edges; --json lists every edge "
               f"with its provenance)")


def _print_subtree(parent: str, children: dict[str, list[tuple[str, TracedEdge]]],
                   by_id: dict[str, Any], indent: str) -> None:
    kids = sorted(children.get(parent, []))
    for k, (child, edge) in enumerate(kids):
        last = k == len(kids) - 1
        click.echo(f"{indent}{'└─ ' if last else '├─ '}{_describe(by_id[child])}  <- {_provenance_label(edge)}")
        _print_subtree(child, children, by_id, indent + ("   " if last else "│  "))


def _print_blast(radius: BlastRadius) -> None:
    click.echo(f"Blast radius of {radius.root}: severity {radius.severity.upper()} "
               f"({radius.severity_reason}); {len(radius.affected)} affected, {radius.reader_count} readers")
    if not radius.affected:
        return
    rows = [("SEVERITY", "DEPTH", "KIND", "ID", "OWNER")]
    cols = radius.columns
    paths: Iterable[tuple[str, str]]
    if cols is not None:  # whole columns, no per-node records (a large radius has 20k+ rows)
        node_ids = cols.ids()
        rows += zip(cols.severities(), map(str, cols.depths()), cols.kinds(), node_ids,
                    (o or "-" for o in cols.owners()))
        paths = zip(node_ids, cols.path_texts())
    else:
        rows += [(a.severity, str(a.depth), a.kind, a.id, a.owner or "-") for a in radius.affected]
        paths = ((a.id, " > ".join(a.path)) for a in radius.affected)
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    click.echo("Owners: " + ", ".join(f"{o} ({len(ids)})" for o, ids in sorted(radius.owners().items())))
    click.echo("Paths:")
    for node_id, path in paths:
        click.echo(f"  {node_id}: {path}")
    if radius.orchestration:
        click.echo(f"Passes through: {', '.join(radius.orchestration)}")


@click.command("trace")
@click.argument("asset")
@click.option("--direction", type=click.Choice(["upstream", "downstream", "both"]), default="upstream",
              show_default=True)
@click.option("--max-depth", type=click.IntRange(min=0), default=10, show_default=True)
@click.option("--include-orchestration", is_flag=True, help="List Airflow tasks/DAGs and jobs as nodes.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (keys in docs/graph.md).")
@pass_dw
def trace_cmd(dw: Any, asset: str, direction: str, max_depth: int, include_orchestration: bool,
              as_json: bool) -> None:
    """Trace ASSET's lineage across dbt, Airflow, OpenLineage and notes."""
    graph = _graph(dw.settings)
    try:
        result = graph.trace(asset, direction=direction, max_depth=max_depth,
                             include_orchestration=include_orchestration)
    except (UnknownAssetError, AmbiguousAssetError) as exc:
        _asset_error(exc, as_json)
        return
    emit_json(result.to_dict()) if as_json else _print_trace(result)


@click.command("blast-radius")
@click.argument("asset")
@click.option("--max-depth", type=click.IntRange(min=0), default=10, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (keys in docs/graph.md).")
@pass_dw
def blast_radius_cmd(dw: Any, asset: str, max_depth: int, as_json: bool) -> None:
    """What breaks downstream of ASSET: models, dashboards and readers, owners and severity."""
    graph = _graph(dw.settings)
    try:
        radius = graph.blast_radius(asset, max_depth=max_depth)
    except (UnknownAssetError, AmbiguousAssetError) as exc:
        _asset_error(exc, as_json)
        return
    emit_json(radius.to_dict()) if as_json else _print_blast(radius)


commands: list = [trace_cmd, blast_radius_cmd]

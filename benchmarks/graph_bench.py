"""Context-graph benchmark (a script, not a test): build, trace and blast radius on a synthetic
graph of 100k nodes / 500k edges, next to networkx and rustworkx doing the same traversals in the
same run, and building the graph from a synthetic 10k-model dbt manifest.

    .venv/bin/python benchmarks/graph_bench.py [--nodes 100000] [--edges 500000] [--runs 100] [--json]

The graph: 3 independent domains of 10 layers each; every edge goes from one layer to a later one
of the same domain (mostly the next), so each hub (a layer-0 node with 40 extra out-edges) reaches
most of its domain (20k+ nodes) within the default depth of 10. About 5% of nodes are Airflow tasks
(walked through by default), the last layer holds dashboards with a maturity. Targets: manifest
build <= 3 s; against rustworkx in the same run: build <= 2x, trace p99 <= 3x its plain
traversal (`descendants`/`ancestors`: a set of reached indexes, no depths, order or records), blast
radius with everything it returns p99 <= 25 ms: `blast_radius_everything` reads what the callers
that take a whole radius use (ids, kinds, owners, severities, depths, the owner rollup and every
path as printed) through the radius's columns (`BlastRadius.columns`, numpy arrays).

Results keep the walk's arrays and build their per-node records on first read (`Records`), so
`len(trace.nodes)` is the walk, like rustworkx's `descendants`; `trace_downstream_every_record`
times reading every record too. Blast radius is timed three times: as returned (order, depths and
severity of every affected node computed; records and paths built on first read), with every
record (`AffectedNode`) and path tuple read, and with everything the whole-radius callers read,
through the columns (`blast_radius_everything`: the target's figure). networkx's
`single_source_shortest_path` (rustworkx: `dijkstra_shortest_paths`, unit weights) computes every
path before the same severity rule, so they are the like-for-like comparison of the last two. The first traversal after a build packs the adjacency and the per-node
severity inputs (`first_query_after_build_ms`); `incremental_ms` times adding 1,000 edges and
querying again (the packed rows are extended, not rebuilt). The three libraries' samples
alternate, so on a shared machine all see the same load.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx
import rustworkx as rx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dw_assets.connectors.dbt import load_artifact
from dw_assets.core.blast_radius import LEVELS, SeverityRule
from dw_assets.core.dbt_lineage import add_manifest
from dw_assets.core.graph import ContextGraph, FlowAdjacency, Node, Provenance

DOMAINS, LAYERS, HUB_FANOUT, MAX_DEPTH = 3, 10, 40, 10
PROV = Provenance("openlineage", ref="bench")


def synthetic_spec(n_nodes: int, n_edges: int, seed: int = 7):
    """(nodes as (id, kind, owner, attrs), edges as (src, dst), hub ids): a layered estate."""
    rng = random.Random(seed)
    per_layer = n_nodes // (DOMAINS * LAYERS)
    layer_ids = [[[f"d{d}.l{k}.n{i}" for i in range(per_layer)] for k in range(LAYERS)] for d in range(DOMAINS)]
    nodes = []
    for d in range(DOMAINS):
        for k in range(LAYERS):
            for i, node_id in enumerate(layer_ids[d][k]):
                kind = "source" if k == 0 else "dashboard" if k == LAYERS - 1 else "task" if i % 20 == 0 else "model"
                attrs = {"maturity": ("low", "medium", "high")[i % 3]} if kind == "dashboard" else {}
                nodes.append((node_id, kind, f"team{(d * 13 + i) % 50}", attrs))
    hubs = [layer_ids[d][0][0] for d in range(DOMAINS)]
    edges = set()
    for hub_domain, hub in enumerate(hubs):
        for target in rng.sample(layer_ids[hub_domain][1], HUB_FANOUT):
            edges.add((hub, target))
    while len(edges) < n_edges:
        d = rng.randrange(DOMAINS)
        k = rng.randrange(LAYERS - 1)
        jump = 1 if rng.random() < 0.9 else rng.randrange(1, LAYERS - k)
        edges.add((rng.choice(layer_ids[d][k]), rng.choice(layer_ids[d][k + jump])))
    return nodes, sorted(edges), hubs


def build_ours(nodes, edges) -> ContextGraph:
    g = ContextGraph()
    for node_id, kind, owner, attrs in nodes:
        g.add_node(node_id, kind, "airflow" if kind == "task" else "dbt", owner=owner, attrs=attrs)
    g.add_edges(edges, "feeds", PROV)
    return g


def build_rustworkx(nodes, edges) -> tuple[rx.PyDiGraph, dict[str, int]]:
    """Node payloads as networkx's (id, kind, owner, attributes), edge payloads the provenance; the
    id -> index map is what a caller needs to name nodes."""
    g = rx.PyDiGraph()
    ids = g.add_nodes_from([{"id": node_id, "kind": kind, "owner": owner, **attrs}
                            for node_id, kind, owner, attrs in nodes])
    index = dict(zip((n[0] for n in nodes), ids))
    g.add_edges_from([(index[s], index[d], [PROV]) for s, d in edges])
    return g, index


def rx_blast_radius(g: rx.PyDiGraph, index: dict[str, int], hub: str, rule: SeverityRule) -> list[tuple[Any, ...]]:
    paths = rx.digraph_dijkstra_shortest_paths(g, index[hub], default_weight=1.0)
    out = []
    for n, path in paths.items():
        if len(path) - 1 > MAX_DEPTH:
            continue
        a = g[n]
        node = Node(a["id"], a["kind"], "dbt", a["id"], a["owner"], a)
        rank = rule.rank_at(node, len(path) - 1)
        out.append((a["id"], a["owner"], len(path) - 1, LEVELS[rank], tuple(g[i]["id"] for i in path)))
    out.sort(key=lambda t: (-LEVELS.index(t[3]), t[2], t[0]))
    return out


def read_everything(radius: Any) -> int:
    """What the callers that read a whole radius take from it (the CLI's table, owners and paths; a
    diagnosis's entries; MCP's and the PR report's ids), through its columns."""
    c = radius.columns
    ids, kinds, owners, levels, depths = c.ids(), c.kinds(), c.owners(), c.severities(), c.depths()
    by_owner, paths = radius.owners(), c.path_texts()
    assert len(ids) == len(kinds) == len(owners) == len(levels) == len(depths) == len(paths)
    return len(paths) if by_owner or not paths else -1


def build_networkx(nodes, edges) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_nodes_from((node_id, {"kind": kind, "owner": owner, **attrs}) for node_id, kind, owner, attrs in nodes)
    g.add_edges_from((s, d, {"provenance": [PROV]}) for s, d in edges)
    return g


def nx_trace(g: nx.DiGraph, hub: str, reverse: bool = False) -> list[tuple[str, str, int]]:
    view = g.reverse(copy=False) if reverse else g
    depths = nx.single_source_shortest_path_length(view, hub, cutoff=MAX_DEPTH)
    attrs = g.nodes
    return [(n, attrs[n]["kind"], d) for n, d in depths.items()]


def nx_blast_radius(g: nx.DiGraph, hub: str, rule: SeverityRule) -> list[tuple[Any, ...]]:
    paths = nx.single_source_shortest_path(g, hub, cutoff=MAX_DEPTH)
    out = []
    for n, path in paths.items():
        if n == hub:
            continue
        a = g.nodes[n]
        node = Node(n, a["kind"], "dbt", n, a["owner"], a)
        rank = rule.rank_at(node, len(path) - 1)
        out.append((n, a["owner"], len(path) - 1, LEVELS[rank], tuple(path)))
    out.sort(key=lambda t: (-LEVELS.index(t[3]), t[2], t[0]))
    return out


def timed(fn: Callable[[], Any], runs: int) -> tuple[tuple[list[float], list[float]], Any]:
    """(wall ms, cpu ms) samples and the last result; CPU time is reported because the machine
    may be shared, which inflates wall-clock time."""
    samples: tuple[list[float], list[float]] = ([], [])
    result = None
    for _ in range(runs):
        result = _sample(fn, samples)
    return samples, result


def timed_alternating(fns: list[Callable[[], Any]], runs: int) -> list[tuple[Any, Any]]:
    """`timed` of several functions, their samples taken in turn so all see the same load."""
    samples: list[tuple[list[float], list[float]]] = [([], []) for _ in fns]
    results: list[Any] = [None] * len(fns)
    for _ in range(runs):
        for k, fn in enumerate(fns):
            results[k] = _sample(fn, samples[k])
    return list(zip(samples, results))


def _sample(fn: Callable[[], Any], samples: tuple[list[float], list[float]]) -> Any:
    gc.collect()
    start, start_cpu = time.perf_counter(), time.process_time()
    result = fn()
    samples[0].append((time.perf_counter() - start) * 1000)
    samples[1].append((time.process_time() - start_cpu) * 1000)
    return result


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(samples: tuple[list[float], list[float]]) -> dict[str, float]:
    wall, cpu = samples
    return {"p50_ms": round(statistics.median(wall), 2), "p99_ms": round(pct(wall, 0.99), 2),
            "cpu_p50_ms": round(statistics.median(cpu), 2), "cpu_p99_ms": round(pct(cpu, 0.99), 2)}


def synthetic_manifest(n_models: int, seed: int = 11) -> dict[str, Any]:
    rng = random.Random(seed)
    p = "bench"
    sources = {f"source.{p}.raw.t{i}": {"name": f"t{i}", "source_name": "raw", "database": "raw", "schema": "main",
                                        "identifier": f"t{i}", "resource_type": "source", "meta": {}}
               for i in range(n_models // 10)}
    nodes: dict[str, Any] = {}
    for i in range(n_models):
        parents = ([f"source.{p}.raw.t{rng.randrange(len(sources))}"] if i < n_models // 5 else
                   [f"model.{p}.m{rng.randrange(i)}" for _ in range(rng.randint(1, 4))])
        nodes[f"model.{p}.m{i}"] = {
            "resource_type": "model", "name": f"m{i}", "alias": f"m{i}", "database": "analytics", "schema": "main",
            "depends_on": {"nodes": parents}, "config": {"materialized": "table", "group": f"g{i % 10}", "meta": {}},
            "meta": {}, "tags": ["bench"], "original_file_path": f"models/m{i}.sql"}
        nodes[f"test.{p}.not_null_m{i}_id.x"] = {"resource_type": "test", "name": f"not_null_m{i}_id",
                                                 "attached_node": f"model.{p}.m{i}",
                                                 "depends_on": {"nodes": [f"model.{p}.m{i}"]}}
    exposures = {f"exposure.{p}.e{i}": {"name": f"e{i}", "type": "dashboard", "maturity": "high",
                                        "owner": {"name": f"owner{i}"}, "meta": {"tool": "tableau"},
                                        "depends_on": {"nodes": [f"model.{p}.m{n_models - 1 - i}"]}}
                 for i in range(min(500, n_models))}
    groups = {f"group.{p}.g{i}": {"name": f"g{i}", "owner": {"name": f"lead{i}"}} for i in range(10)}
    return {"metadata": {"dbt_version": "1.11"}, "nodes": nodes, "sources": sources, "exposures": exposures,
            "groups": groups, "metrics": {}, "semantic_models": {}}


def bench_manifest(n_models: int, runs: int = 3) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "manifest.json"
        path.write_text(json.dumps(synthetic_manifest(n_models)))
        size_mb = path.stat().st_size / 1e6

        def build() -> ContextGraph:
            g = ContextGraph()
            add_manifest(g, load_artifact(path))
            return g

        (wall, _), graph = timed(build, runs)
    return {"models": n_models, "manifest_mb": round(size_mb, 1), "nodes": len(graph), "edges": graph.edge_count,
            "build_s_best": round(min(wall) / 1000, 3), "build_s_worst": round(max(wall) / 1000, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--edges", type=int, default=500_000)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--manifest-models", type=int, default=10_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    nodes, edges, hubs = synthetic_spec(args.nodes, args.edges)
    builds = timed_alternating([lambda: build_ours(nodes, edges), lambda: build_networkx(nodes, edges),
                                lambda: build_rustworkx(nodes, edges)], 3)
    (s_build_ours, ours), (s_build_nx, g_nx), (s_build_rx, (g_rx, rx_index)) = builds
    rule = SeverityRule()
    cycle = iter(range(10**9))
    sinks = [f"d{d}.l{LAYERS - 1}.n1" for d in range(DOMAINS)]

    def pick(ids: list[str]) -> str:
        return ids[next(cycle) % len(ids)]

    # the first query packs the rows and builds the per-graph tables (severity inputs, ids, owner and
    # kind codes) that later queries reuse until the graph changes
    (_, (t_first,)), _ = timed(lambda: read_everything(ours.blast_radius(hubs[0], MAX_DEPTH)), 1)
    ours.flow_adjacency(False)  # the upstream rows too: packing them is part of the build, not of a trace
    reach = [len(ours.trace(h, "downstream", MAX_DEPTH, include_orchestration=True).nodes) for h in hubs]
    cases = {
        "trace_downstream": (lambda: len(ours.trace(pick(hubs), "downstream", MAX_DEPTH, True).nodes),
                             lambda: len(nx_trace(g_nx, pick(hubs))),
                             lambda: len(rx.descendants(g_rx, rx_index[pick(hubs)])) + 1),
        "trace_upstream": (lambda: len(ours.trace(pick(sinks), "upstream", MAX_DEPTH, True).nodes),
                           lambda: len(nx_trace(g_nx, pick(sinks), reverse=True)),
                           lambda: len(rx.ancestors(g_rx, rx_index[pick(sinks)])) + 1),
        "blast_radius": (lambda: len(ours.blast_radius(pick(hubs), MAX_DEPTH).affected),
                         lambda: len(nx_blast_radius(g_nx, pick(hubs), rule)),
                         lambda: len(rx_blast_radius(g_rx, rx_index, pick(hubs), rule))),
        "blast_radius_all_paths": (lambda: len([a.path for a in ours.blast_radius(pick(hubs), MAX_DEPTH).affected]),
                                   lambda: len(nx_blast_radius(g_nx, pick(hubs), rule)),
                                   lambda: len(rx_blast_radius(g_rx, rx_index, pick(hubs), rule))),
        "blast_radius_everything": (lambda: read_everything(ours.blast_radius(pick(hubs), MAX_DEPTH)),
                                    lambda: len(nx_blast_radius(g_nx, pick(hubs), rule)),
                                    lambda: len(rx_blast_radius(g_rx, rx_index, pick(hubs), rule))),
    }
    report: dict[str, Any] = {
        "graph": {"nodes": len(ours), "edges": ours.edge_count, "hub_reach": reach},
        "build_s": {who: round(statistics.median(s[0]) / 1000, 2) for who, s in
                    (("ours", s_build_ours), ("networkx", s_build_nx), ("rustworkx", s_build_rx))},
        "first_query_after_build_ms": round(t_first, 1),
    }
    gc.freeze()  # the graphs are long-lived: keep the collector from rescanning them per sample
    for name, fns in cases.items():
        (s_ours, n_ours), (s_nx, n_nx), (s_rx, n_rx) = timed_alternating(list(fns), args.runs)
        report[name] = {"reached": n_ours, "networkx_reached": n_nx, "rustworkx_reached": n_rx,
                        "ours": summary(s_ours), "networkx": summary(s_nx), "rustworkx": summary(s_rx)}
    s_records, n_records = timed(lambda: len(list(ours.trace(pick(hubs), "downstream", MAX_DEPTH, True).nodes)),
                                 args.runs)
    report["trace_downstream_every_record"] = {"reached": n_records, "ours": summary(s_records)}
    s_hidden, n_hidden = timed(lambda: len(ours.trace(pick(hubs), "downstream", MAX_DEPTH).nodes), args.runs)
    report["trace_downstream_tasks_hidden"] = {"reached": n_hidden, "ours": summary(s_hidden)}
    s_edges, n_edges = timed(lambda: len(ours.trace(pick(hubs), "downstream", MAX_DEPTH, True).edges), 10)
    report["trace_with_edges"] = {"edges": n_edges, "ours": summary(s_edges)}
    report["incremental_ms"] = _incremental(ours, nodes, hubs)  # last: it changes the graph
    report["manifest"] = bench_manifest(args.manifest_models)
    report["load_average"] = [round(x, 1) for x in os.getloadavg()]
    report["cpus"] = os.cpu_count()
    print(json.dumps(report, indent=2) if args.json else _human(report))


def _incremental(g: ContextGraph, nodes, hubs: list[str]) -> dict[str, float]:
    """Adding 1,000 flow edges to the built graph, then bringing both directions' packed rows up to
    date (what the next query does first): the new edges are merged in, not re-sorted; beside it
    the cost of packing all edges from scratch."""
    rng = random.Random(3)
    ids = [n[0] for n in nodes]
    pairs = [(rng.choice(ids), rng.choice(ids)) for _ in range(1000)]
    start = time.perf_counter()
    g.add_edges(pairs, "reads", Provenance("openlineage", ref="bench-incremental"))
    added = time.perf_counter()
    g.flow_adjacency(True), g.flow_adjacency(False)
    merged = time.perf_counter()
    FlowAdjacency.extend(g, None, True), FlowAdjacency.extend(g, None, False)
    rebuilt = time.perf_counter()
    return {"add_1000_edges_ms": round((added - start) * 1000, 1),
            "update_adjacency_ms": round((merged - added) * 1000, 1),
            "pack_from_scratch_ms": round((rebuilt - merged) * 1000, 1)}


def _human(r: dict[str, Any]) -> str:
    lines = [f"graph: {r['graph']['nodes']} nodes, {r['graph']['edges']} edges; hubs reach {r['graph']['hub_reach']}",
             (f"build (median of 3): ours {r['build_s']['ours']} s, networkx {r['build_s']['networkx']} s, "
              f"rustworkx {r['build_s']['rustworkx']} s; first query after build (packs adjacency, "
              f"severity inputs, id/owner/kind tables) {r['first_query_after_build_ms']} ms cpu"),
             (f"incremental: add 1,000 edges {r['incremental_ms']['add_1000_edges_ms']} ms, update both "
              f"directions' packed rows {r['incremental_ms']['update_adjacency_ms']} ms (packing all edges "
              f"from scratch: {r['incremental_ms']['pack_from_scratch_ms']} ms)")]
    for name in ("trace_downstream", "trace_upstream", "blast_radius", "blast_radius_all_paths",
                 "blast_radius_everything"):
        c = r[name]
        lines.append(f"{name}: reached {c['reached']} (networkx {c['networkx_reached']}, "
                     f"rustworkx {c['rustworkx_reached']})")
        for who in ("ours", "networkx", "rustworkx"):
            t = c[who]
            lines.append(f"  {who:8} wall p50 {t['p50_ms']} ms p99 {t['p99_ms']} ms; "
                         f"cpu p50 {t['cpu_p50_ms']} ms p99 {t['cpu_p99_ms']} ms")
    h, e, m = r["trace_downstream_tasks_hidden"], r["trace_with_edges"], r["manifest"]
    k = r["trace_downstream_every_record"]
    lines.append(f"trace_downstream, every record read: reached {k['reached']}; wall p50 {k['ours']['p50_ms']} ms "
                 f"p99 {k['ours']['p99_ms']} ms; cpu p50 {k['ours']['cpu_p50_ms']} ms p99 {k['ours']['cpu_p99_ms']} ms")
    lines.append(f"trace_downstream, tasks hidden: reached {h['reached']}; wall p50 {h['ours']['p50_ms']} ms "
                 f"p99 {h['ours']['p99_ms']} ms; cpu p50 {h['ours']['cpu_p50_ms']} ms")
    lines.append(f"trace + all {e['edges']} edges materialised: wall p50 {e['ours']['p50_ms']} ms "
                 f"p99 {e['ours']['p99_ms']} ms; cpu p50 {e['ours']['cpu_p50_ms']} ms")
    lines.append(f"manifest: {m['models']} models ({m['manifest_mb']} MB, {m['nodes']} nodes, {m['edges']} edges) "
                 f"read + built in {m['build_s_best']}-{m['build_s_worst']} s")
    lines.append(f"machine: {r['cpus']} cpus, load average {r['load_average']}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()

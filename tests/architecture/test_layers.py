"""The import direction, checked on the code itself: `dw_assets`, `checks` and `sensors` are walked
with `ast` (every `import`: at the top of a module, inside a function, or under `if TYPE_CHECKING:`,
since an import for annotations only still ties two modules together), each module is mapped to
its unit (a package under `dw_assets`, a top-level module of `dw_assets`, or the top-level `checks`
and `sensors` packages), and the suite fails on an import of a unit in a higher layer, on a cycle
between units, on a cycle between the modules of the core, and on a framework where it must not be.

The layers, lowest first (docs/architecture.md says the same in prose). A unit may import its own
layer and the ones below; units in one layer may import each other as long as no cycle forms.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("dw_assets", "checks", "sensors")

LAYERS: list[tuple[str, ...]] = [
    ("dw_assets",),  # the package itself: an empty __init__
    ("dw_assets.core",),  # the domain: pure Python, imports nothing else of ours
    ("dw_assets.config", "dw_assets.secret_files"),  # the frozen config model, built on core's types
    ("dw_assets.store",),  # the state database, opened from the config
    ("dw_assets.connectors",),  # one module per external system; may keep what it reads in the store
    ("dw_assets.lineage",),  # OpenLineage events processed: graph tables, schema history
    ("dw_assets.context_graph",),  # dbt + config + the lineage feed + notes, as one graph
    ("dw_assets.incidents",),  # intake relates a signal to open incidents through the graph
    # services over incidents: the checks open incidents, governance links plans to them,
    # pr_impact reads the graph
    ("dw_assets.checks", "dw_assets.governance", "dw_assets.pr_impact"),
    ("dw_assets.diagnosis",),  # reads check state and the governance ledger (org-wide stop)
    ("dw_assets.operations",),  # triage and planning: diagnosis + governance
    ("dw_assets.dagster_defs",),  # the Dagster layer: jobs, assets, the governance runtime
    ("checks", "sensors"),  # asset checks and sensors, built on dagster_defs
    ("dw_assets.definitions", "dw_assets.harness"),  # the code location; the process launchers
    ("dw_assets.demo",),  # the demo drives the code location and the harness
    ("dw_assets.mcp",),  # the MCP server (the CLI serves it)
    ("dw_assets.cli",),  # the `dw` command: the top
]

# frameworks a layer must not import (the Dagster layer starts at dagster_defs)
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "dw_assets.core": ("dagster", "httpx", "sqlalchemy", "requests"),
    **{unit: ("dagster",) for unit in ("dw_assets.config", "dw_assets.store", "dw_assets.connectors",
                                       "dw_assets.lineage", "dw_assets.context_graph", "dw_assets.incidents",
                                       "dw_assets.checks", "dw_assets.governance", "dw_assets.pr_impact",
                                       "dw_assets.diagnosis", "dw_assets.operations")},
}


def module_files(root: Path = ROOT) -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported_names(path: Path, files: Mapping[str, Path]) -> Iterable[tuple[str, int]]:
    """Every absolute name an import statement in the file refers to, with its line, wherever the
    statement sits (`if TYPE_CHECKING:` blocks included). `from a.b import c` names the module
    `a.b.c` when there is one (importing a submodule), else `a.b`."""
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                yield (sub if sub in files else node.module), node.lineno


Graph = tuple[dict[str, set[str]], dict[tuple[str, str], int], dict[str, set[str]]]


def import_graph(files: Mapping[str, Path]) -> Graph:
    """(module -> our modules it imports, (module, imported) -> line, module -> third-party tops)."""
    edges: dict[str, set[str]] = {m: set() for m in files}
    lines: dict[tuple[str, str], int] = {}
    external: dict[str, set[str]] = {m: set() for m in files}
    for module, path in files.items():
        for name, line in imported_names(path, files):
            target = name
            while target and target not in files:
                target = target.rpartition(".")[0]
            if target:
                if target != module:
                    edges[module].add(target)
                    lines.setdefault((module, target), line)
            elif name.split(".")[0] not in PACKAGES:
                external[module].add(name.split(".")[0])
    return edges, lines, external


def unit_of(module: str) -> str:
    parts = module.split(".")
    if parts[0] != "dw_assets":
        return parts[0]
    return ".".join(parts[:2])


def unit_edges(edges: Mapping[str, set[str]]) -> dict[str, dict[str, list[str]]]:
    """unit -> imported unit -> the module-level imports behind that arrow (`a.b -> c.d`)."""
    out: dict[str, dict[str, list[str]]] = {}
    for src, targets in edges.items():
        for dst in targets:
            if unit_of(src) != unit_of(dst):
                out.setdefault(unit_of(src), {}).setdefault(unit_of(dst), []).append(f"{src} -> {dst}")
    return out


def upward_imports(units: Mapping[str, Mapping[str, list[str]]], layers: list[tuple[str, ...]]) -> list[str]:
    """Each import of a unit in a higher layer, and each unit no layer names."""
    rank = {unit: i for i, layer in enumerate(layers) for unit in layer}
    problems = []
    for src, targets in sorted(units.items()):
        for dst, via in sorted(targets.items()):
            for unit in (src, dst):
                if unit not in rank:
                    problems.append(f"{unit} is in no layer: add it to LAYERS (and docs/architecture.md)")
            if src in rank and dst in rank and rank[dst] > rank[src]:
                problems.append(f"{src} (layer {rank[src]}) imports {dst} (layer {rank[dst]}): {'; '.join(sorted(via))}")
    return sorted(set(problems))


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


@pytest.fixture(scope="module")
def graph() -> Graph:
    return import_graph(module_files())


def test_no_package_imports_one_above_it(graph) -> None:
    edges, _, _ = graph
    assert upward_imports(unit_edges(edges), LAYERS) == []


def test_no_cycle_between_packages(graph) -> None:
    edges, _, _ = graph
    units = unit_edges(edges)
    assert cycles({src: set(targets) for src, targets in units.items()}) == []


def module_cycles(graph: Graph) -> list[list[str]]:
    """Each circle between modules, as its imports (`a -> b (line n)`)."""
    edges, lines, _ = graph
    return [[f"{m} -> {t} (line {lines[(m, t)]})" for m in c for t in sorted(edges[m] & set(c))]
            for c in cycles(edges)]


def test_no_module_cycle(graph) -> None:
    """No two modules import each other, directly or around a circle, in the core or anywhere else;
    an import for annotations only counts too (the walks of `core.traversal` and
    `core.blast_radius` take a `graph_records.GraphView` rather than import the graph that calls them)."""
    assert module_cycles(graph) == []


def test_no_framework_below_the_dagster_layer(graph) -> None:
    _, _, external = graph
    wrong = sorted(f"{module} imports {name}" for module, names in external.items()
                   for name in names & set(FORBIDDEN.get(unit_of(module), ())))
    assert wrong == []


def test_every_unit_has_a_layer(graph) -> None:
    edges, _, _ = graph
    named = {unit for layer in LAYERS for unit in layer}
    assert sorted({unit_of(m) for m in edges} - named) == []


def test_the_checks_can_fail_on_a_synthetic_graph() -> None:
    """The same functions on a made-up graph: an upward import and a cycle are both reported."""
    layers = [("low",), ("mid_a", "mid_b"), ("high",)]
    units = {"low": {"high": ["low.x -> high.y"]},  # upward
             "mid_a": {"mid_b": ["mid_a.m -> mid_b.n"], "low": ["mid_a.m -> low.z"]},
             "mid_b": {"mid_a": ["mid_b.n -> mid_a.k"]},  # sideways, but a cycle with mid_a
             "high": {"low": ["high.y -> low.z"]}}
    assert upward_imports(units, layers) == ["low (layer 0) imports high (layer 2): low.x -> high.y"]
    assert cycles({src: set(dst) for src, dst in units.items()}) == [["high", "low"], ["mid_a", "mid_b"]]
    assert upward_imports({"stray": {"low": ["stray.a -> low.b"]}}, layers) == [
        "stray is in no layer: add it to LAYERS (and docs/architecture.md)"]


def test_the_walk_sees_function_level_imports(tmp_path: Path) -> None:
    """An import hidden inside a function is an edge like any other."""
    (tmp_path / "dw_assets" / "core").mkdir(parents=True)
    (tmp_path / "dw_assets" / "__init__.py").write_text("")
    (tmp_path / "dw_assets" / "core" / "__init__.py").write_text("")
    (tmp_path / "dw_assets" / "core" / "a.py").write_text("def f():\n    from dw_assets.cli import main\n")
    (tmp_path / "dw_assets" / "cli.py").write_text("import dagster\nfrom dw_assets.core import a\n")
    for package in ("checks", "sensors"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    edges, lines, external = import_graph(module_files(tmp_path))
    assert edges["dw_assets.core.a"] == {"dw_assets.cli"} and lines[("dw_assets.core.a", "dw_assets.cli")] == 2
    assert external["dw_assets.cli"] == {"dagster"}
    assert upward_imports(unit_edges(edges), LAYERS) == [
        "dw_assets.core (layer 1) imports dw_assets.cli (layer 16): dw_assets.core.a -> dw_assets.cli"]
    assert cycles({u: set(t) for u, t in unit_edges(edges).items()}) == [["dw_assets.cli", "dw_assets.core"]]


def test_a_type_checking_import_closes_a_cycle(tmp_path: Path) -> None:
    """A circle planted in a tiny package, closed only by imports under `if TYPE_CHECKING:`, is
    reported between two core modules and between two packages."""
    files = {
        "dw_assets/__init__.py": "",
        "dw_assets/core/__init__.py": "",
        "dw_assets/core/walk.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from dw_assets.core.store import Store\n",
        "dw_assets/core/store.py": "from dw_assets.core.walk import walk\n",
        "dw_assets/config.py": "import typing\nif typing.TYPE_CHECKING:\n    from dw_assets import store\n",
        "dw_assets/store.py": "from dw_assets.config import Settings\n",
        "checks/__init__.py": "",
        "sensors/__init__.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = import_graph(module_files(tmp_path))
    assert module_cycles(graph) == [
        ["dw_assets.config -> dw_assets.store (line 3)", "dw_assets.store -> dw_assets.config (line 1)"],
        ["dw_assets.core.store -> dw_assets.core.walk (line 1)", "dw_assets.core.walk -> dw_assets.core.store (line 3)"]]
    assert cycles({u: set(t) for u, t in unit_edges(graph[0]).items()}) == [["dw_assets.config", "dw_assets.store"]]

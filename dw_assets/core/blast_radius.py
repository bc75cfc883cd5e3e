"""Blast radius: what sits downstream of an asset, who owns it, and how bad breaking it is.

The walk is the trace's downstream walk (orchestration walked through at no depth cost). Every
reached data or consumer node is *affected*: datasets, sources, models, semantic models, metrics,
dashboards, applications and recorded readers. Orchestration nodes passed through are listed apart
(`orchestration`): they are what would rerun, not what is read.

Severity rule (levels low < medium < high < critical):
1. Base level of an affected node: its `criticality` attribute (a dbt exposure's
   `meta.criticality`, or a note's `attrs.criticality`) when it names a level; else its `maturity`
   (a dbt exposure's maturity: high -> high, medium -> medium, low -> low); else by kind:
   dashboards, applications, readers and metrics are medium, everything else is low.
2. Decay with distance: minus one level per `decay_every` hops beyond the first
   (`level - (depth - 1) // decay_every`, default decay_every=4, floored at low), because a reader
   four models away is usually shielded by tests and reviews in between.
3. Overall severity = the highest affected level, bumped one level (capped at critical) when the
   number of recorded readers (dashboards, applications, readers) reaches `many_readers` (default
   5): many eyes on wrong numbers widen the damage. Nothing affected -> low.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import islice
from typing import Any, NamedTuple

import numpy as np

from dw_assets.core.graph_records import GraphView, Node
from dw_assets.core.traversal import Records, Walk, hidden_mask, walk

LEVELS = ("low", "medium", "high", "critical")
_RANK = {level: i for i, level in enumerate(LEVELS)}
READER_KINDS = frozenset({"dashboard", "application", "reader"})
_MEDIUM_BY_DEFAULT = READER_KINDS | {"metric"}
_MATURITY_RANK = {"low": 0, "medium": 1, "high": 2}


@dataclass(frozen=True)
class SeverityRule:
    decay_every: int = 4
    many_readers: int = 5

    def __post_init__(self) -> None:
        if self.decay_every < 1 or self.many_readers < 1:
            raise ValueError("decay_every and many_readers must be >= 1")

    def base_rank(self, node: Node) -> int:
        attrs = node.attrs
        if attrs:
            criticality = attrs.get("criticality")
            if criticality and (rank := _RANK.get(str(criticality).lower())) is not None:
                return rank
            maturity = attrs.get("maturity")
            if maturity and (rank := _MATURITY_RANK.get(str(maturity).lower())) is not None:
                return rank
        return 1 if node.kind in _MEDIUM_BY_DEFAULT else 0

    def rank_at(self, node: Node, depth: int) -> int:
        return max(0, self.base_rank(node) - max(0, depth - 1) // self.decay_every)

    def base_ranks(self, graph: GraphView) -> np.ndarray:
        """`base_rank` of every node, by node index (kept by the graph until it changes)."""
        return np.fromiter(map(self.base_rank, graph.nodes_by_index), dtype=np.int64, count=len(graph))

    def decayed(self, base_ranks: Iterable[int], depths: Iterable[int]) -> np.ndarray:
        """`rank_at` from base ranks and depths (>= 1)."""
        ranks = np.asarray(base_ranks if isinstance(base_ranks, np.ndarray) else list(base_ranks))
        steps = np.asarray(depths if isinstance(depths, np.ndarray) else list(depths))
        return np.maximum(0, ranks - (steps - 1) // self.decay_every)

    def overall(self, ranks: list[int] | np.ndarray, reader_count: int) -> tuple[str, str]:
        if not len(ranks):
            return "low", "nothing downstream"
        top = int(max(ranks))
        reason = f"highest affected node is {LEVELS[top]}"
        if reader_count >= self.many_readers and top < len(LEVELS) - 1:
            top += 1
            reason += f"; raised one level: {reader_count} readers >= {self.many_readers}"
        return LEVELS[top], reason


class ShortestPathTree:
    """A walk's parent pointers, read as paths: the node ids from the root to each reached node.

    The paths are built on the first read, all at once (each is its parent's plus one id, so
    about one small tuple per node): a caller that never reads a path, like most callers of a
    large radius, does not pay for 20k of them."""

    def __init__(self, graph: GraphView, w: Walk) -> None:
        self._nodes, self._walk = graph.nodes_by_index, w

    @cached_property
    def paths(self) -> dict[str, tuple[str, ...]]:
        """Node id -> path, for every reached node (orchestration nodes included)."""
        ids = [node.id for node in map(self._nodes.__getitem__, self._walk.order.tolist())]
        at: list[tuple[str, ...]] = [(ids[0],)]  # by position in the walk; parents come first
        for k, p in enumerate(islice(self._walk.parents.tolist(), 1, None), 1):
            at.append(at[p] + (ids[k],))
        return dict(zip(ids, at))

    def path_to(self, node_id: str) -> tuple[str, ...]:
        try:
            return self.paths[node_id]
        except KeyError:
            raise KeyError(f"{node_id!r} was not reached from {self._nodes[self._walk.root].id!r}") from None

    def __repr__(self) -> str:
        return f"ShortestPathTree(root={self._nodes[self._walk.root].id!r})"


@dataclass(frozen=True)
class BlastEntry:
    """One affected node as it travels beyond the graph: in a diagnosis, on an incident, a proposed
    fix, a plan and a report. Readers use its fields; each output serialises it at its own edge.

    `to_dict` is the shape an incident stores (`node_id`, `label`: kept so stored incidents read
    back); `from_dict` reads that shape, and the `id`/`name` one of fixes and plans too."""

    id: str
    kind: str
    depth: int
    owner: str | None = None
    name: str | None = None
    severity: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"node_id": self.id, "kind": self.kind, "depth": self.depth, "owner": self.owner,
                "label": self.name, "severity": self.severity}

    def brief(self) -> dict[str, Any]:
        """The shape a proposed fix carries (and its pull request shows)."""
        return {"id": self.id, "kind": self.kind, "owner": self.owner, "depth": self.depth, "severity": self.severity}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | BlastEntry) -> BlastEntry:
        if isinstance(data, BlastEntry):
            return data
        node = data.get("node_id") or data.get("id")
        if not node:
            raise ValueError(f"a blast-radius entry needs a node id (`node_id` or `id`), got keys {sorted(data)}")
        depth = data.get("depth")
        return cls(str(node), str(data.get("kind") or ""), int(depth) if depth is not None else 0,
                   data.get("owner"), data.get("label") or data.get("name"), data.get("severity"))


class AffectedNode(NamedTuple):
    id: str
    kind: str
    system: str
    name: str
    owner: str | None
    depth: int
    severity: str
    tree: ShortestPathTree  # shared by the records of one radius: `path` reads it

    @property
    def path(self) -> tuple[str, ...]:
        """Node ids from the root to this node, orchestration nodes included."""
        return self.tree.paths[self.id]

    def entry(self) -> BlastEntry:
        return BlastEntry(self.id, self.kind, self.depth, self.owner, self.name, self.severity)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "system": self.system, "name": self.name,
                "owner": self.owner, "depth": self.depth, "severity": self.severity, "path": list(self.path)}


@dataclass(frozen=True)
class BlastRadius:
    root: str
    max_depth: int | None
    severity: str
    severity_reason: str
    reader_count: int
    affected: Sequence[AffectedNode]  # most severe first, then shallowest (ties in discovery order); Records
    orchestration: list[str]  # jobs/tasks/DAGs passed through

    def owners(self) -> dict[str, list[str]]:
        """Owner -> affected node ids; unowned nodes under the key `"(none)"`."""
        out: dict[str, list[str]] = {}
        for a in self.affected:
            out.setdefault(a.owner or "(none)", []).append(a.id)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"root": self.root, "max_depth": self.max_depth, "severity": self.severity,
                "severity_reason": self.severity_reason, "reader_count": self.reader_count,
                "affected": [a.to_dict() for a in self.affected], "owners": self.owners(),
                "orchestration": self.orchestration}


def blast_radius(graph: GraphView, asset_id: str, *, max_depth: int | None = 10,
                 rule: SeverityRule | None = None) -> BlastRadius:
    rule = rule or SeverityRule()
    root_id = graph.resolve(asset_id)
    w = walk(graph, graph.index[root_id], downstream=True, max_depth=max_depth, hide_orchestration=True)
    nodes, hidden = graph.nodes_by_index, hidden_mask(graph)
    listed, depths = w.listed(hidden)  # by non-decreasing depth, then discovery order
    base_ranks = graph.derived(("severity_base_rank", rule), rule.base_ranks)
    ranks = rule.decayed(base_ranks[listed], depths)
    # most severe first, and within a rank as listed (shallowest, then discovery order)
    by_severity = np.argsort(-ranks, kind="stable")
    tree = ShortestPathTree(graph, w)
    affected = Records(len(listed), lambda: _records(nodes, listed[by_severity], depths[by_severity],
                                                     ranks[by_severity], tree))
    readers = int(graph.derived("severity_is_reader", _reader_flags)[listed].sum())
    severity, reason = rule.overall(ranks, readers)
    passed = w.order[1:]
    orchestration = sorted(nodes[i].id for i in passed[hidden[passed]].tolist())
    return BlastRadius(root_id, max_depth, severity, reason, readers, affected, orchestration)


def _records(nodes: list[Node], listed: np.ndarray, depths: np.ndarray, ranks: np.ndarray,
             tree: ShortestPathTree) -> list[AffectedNode]:
    new, levels = tuple.__new__, [LEVELS[r] for r in ranks.tolist()]
    # one record per affected node (20k+ in a large radius): kept to one comprehension
    return [new(AffectedNode, (n.id, n.kind, n.system, n.name, n.owner, depth, level, tree))
            for n, depth, level in zip(map(nodes.__getitem__, listed.tolist()), depths.tolist(), levels)]


def _reader_flags(graph: GraphView) -> np.ndarray:
    return np.array([node.kind in READER_KINDS for node in graph.nodes_by_index], dtype=bool)

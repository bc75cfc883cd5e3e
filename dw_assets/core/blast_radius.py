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

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress, filterfalse, islice, repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from dw_assets.core.traversal import Walk, node_records, walk

if TYPE_CHECKING:
    from dw_assets.core.graph import ContextGraph, Node

LEVELS = ("low", "medium", "high", "critical")
_RANK = {level: i for i, level in enumerate(LEVELS)}
READER_KINDS = frozenset({"dashboard", "application", "reader"})
_MEDIUM_BY_DEFAULT = READER_KINDS | {"metric"}
_MATURITY_RANK = {"low": 0, "medium": 1, "high": 2}
_KIND, _ATTRS = attrgetter("kind"), attrgetter("attrs")


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

    def ranks(self, nodes: Sequence[Node], depths: Sequence[int]) -> list[int]:
        """`rank_at` of each node (depths >= 1); the attrs are only read for nodes that have some."""
        ranks = [1 if kind in _MEDIUM_BY_DEFAULT else 0 for kind in map(_KIND, nodes)]
        for j in compress(range(len(nodes)), map(_ATTRS, nodes)):
            ranks[j] = self.base_rank(nodes[j])
        decay = self.decay_every
        return [max(0, rank - (depth - 1) // decay) for rank, depth in zip(ranks, depths)]

    def overall(self, ranks: list[int], reader_count: int) -> tuple[str, str]:
        if not ranks:
            return "low", "nothing downstream"
        top = max(ranks)
        reason = f"highest affected node is {LEVELS[top]}"
        if reader_count >= self.many_readers and top < len(LEVELS) - 1:
            top += 1
            reason += f"; raised one level: {reader_count} readers >= {self.many_readers}"
        return LEVELS[top], reason


class ShortestPathTree:
    """A walk's parent pointers, read as paths: the node ids from the root to any reached node.

    Paths are built when read and memoised, so paths with a common prefix share its work: a radius
    of 20k nodes does not pay for 20k path tuples unless they are all asked for (`to_dict` does)."""

    def __init__(self, graph: ContextGraph, w: Walk) -> None:
        self._graph, self._root, self._parent = graph, w.root, w.parent or {}
        self._paths = {w.root: (graph.nodes_by_index[w.root].id,)}

    def path_to(self, node_id: str) -> tuple[str, ...]:
        paths, parent, nodes = self._paths, self._parent, self._graph.nodes_by_index
        i = self._graph.index.get(node_id, -1)
        missing: list[int] = []
        while i not in paths:
            if i not in parent:
                raise KeyError(f"{node_id!r} was not reached from {nodes[self._root].id!r}")
            missing.append(i)
            i = parent[i]
        path = paths[i]
        for j in reversed(missing):
            path = paths[j] = path + (nodes[j].id,)
        return path

    def __repr__(self) -> str:
        return f"ShortestPathTree(root={self._graph.nodes_by_index[self._root].id!r}, reached={len(self._parent) + 1})"


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
        return self.tree.path_to(self.id)

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
    affected: list[AffectedNode]  # most severe first, then shallowest (ties in discovery order)
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


def blast_radius(graph: ContextGraph, asset_id: str, *, max_depth: int | None = 10,
                 rule: SeverityRule | None = None) -> BlastRadius:
    rule = rule or SeverityRule()
    root_id = graph.resolve(asset_id)
    w = walk(graph, graph.index[root_id], downstream=True, max_depth=max_depth, hide_orchestration=True,
             parents=True)
    nodes, hidden = graph.nodes_by_index, graph.orchestration
    reached = list(islice(w.depth, 1, None))  # discovery order: listed nodes by non-decreasing depth
    listed = list(filterfalse(hidden.__getitem__, reached))
    listed_nodes = list(map(nodes.__getitem__, listed))
    depths = list(map(w.depth.__getitem__, listed))
    ranks = rule.ranks(listed_nodes, depths)
    records = node_records(AffectedNode, listed_nodes, depths, map(LEVELS.__getitem__, ranks),
                           repeat(ShortestPathTree(graph, w)))
    # most severe first; sorted() is stable, so shallowest (then discovery order) within a level
    most_severe_first = sorted(range(len(records)), key=[-r for r in ranks].__getitem__)
    affected = list(map(records.__getitem__, most_severe_first))
    readers = sum(map(READER_KINDS.__contains__, map(_KIND, listed_nodes)))
    severity, reason = rule.overall(ranks, readers)
    orchestration = sorted(nodes[i].id for i in compress(reached, map(hidden.__getitem__, reached)))
    return BlastRadius(root_id, max_depth, severity, reason, readers, affected, orchestration)

"""The bench's module-level names are each bound once: its generators read their constants from the module, so a
later estate's constant of the same name silently changes an earlier estate's series (tolls_hr_hourly's coast
roads read cashouts_tz's `_COAST` for a round)."""

from __future__ import annotations

import ast
import collections
from pathlib import Path

from benchmarks import detection_bench

# rebound on purpose: each round's held-out set is built from the last one's
REBOUND_ON_PURPOSE = {"HELD_OUT"}


def _module_level_bindings(source: str) -> collections.Counter[str]:
    bound: collections.Counter[str] = collections.Counter()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound[node.name] += 1
        elif isinstance(node, ast.Assign):
            bound.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            bound[node.target.id] += 1
    return bound


def test_the_bench_binds_each_module_level_name_once() -> None:
    bound = _module_level_bindings(Path(detection_bench.__file__).read_text())
    twice = sorted(name for name, n in bound.items() if n > 1 and name not in REBOUND_ON_PURPOSE)
    assert not twice, f"bound more than once at module level (an earlier estate reads the later value): {twice}"


def test_a_second_binding_is_found() -> None:
    # the check itself: a constant bound again after a function that reads it
    source = "_COAST = {1}\ndef roads():\n    return _COAST\n_COAST = {2}\n"
    assert _module_level_bindings(source)["_COAST"] == 2

"""Balance rules: a SQL condition over aggregates that every group must satisfy, e.g. debits equal
credits per entity. The grouping, the condition and the listing of broken groups (first N, with
the sums the condition uses) all run in the warehouse."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlglot
from sqlglot import exp

from dw_assets.checks.partitions import Zones, day_filter, target_partition
from dw_assets.config import BalanceRuleConfig
from dw_assets.connectors.warehouse import Warehouse, WarehouseError
from dw_assets.core.checks_logic import CheckOutcome, decide_balance
from dw_assets.store import Store

SHOW_GROUPS = 20


def aggregates_in(condition: str, dialect: str = "duckdb") -> list[str]:
    """The aggregate expressions a condition uses (`sum(debit)`, ...), to report them per group."""
    try:
        parsed = sqlglot.parse_one(condition, dialect=dialect)
    except sqlglot.errors.ParseError as exc:
        raise WarehouseError(f"balance condition {condition!r} is not a SQL expression: {exc}") from exc
    if parsed.find(exp.Select, exp.Subquery) is not None:
        raise WarehouseError(f"balance condition {condition!r} must not hold a subquery")
    found: list[str] = []
    for node in parsed.find_all(exp.AggFunc):
        text = node.sql(dialect=dialect, normalize_functions="lower")
        if text not in found:
            found.append(text)
    if not found:
        raise WarehouseError(f"balance condition {condition!r} uses no aggregate (e.g. sum(debit))")
    return found


def evaluate_balance(warehouse: Warehouse, store: Store | None, dataset_id: str, rule: BalanceRuleConfig,
                     partition: str | None = None, now: datetime | None = None, *,
                     zones: Zones = ("UTC", "UTC")) -> CheckOutcome:
    """`zones`: the dataset's (`check_timezone`): a timestamp partition column's days are its zone's."""
    if not rule.group_by:
        raise WarehouseError(f"balance rule {rule.name!r} on {dataset_id} needs group_by columns")
    relation = warehouse.relation(dataset_id)
    groups = ", ".join(warehouse.column(c) for c in rule.group_by)
    sums = ", ".join(f"{agg} AS {warehouse.column(agg)}" for agg in aggregates_in(rule.condition))
    with warehouse.session() as s:
        where, label = "", None
        params: dict[str, Any] = {}
        if rule.partition_column:
            column = warehouse.column(rule.partition_column)
            target = target_partition(s, relation, column, partition, zones)
            if target is not None:
                condition, params = day_filter(warehouse, s, dataset_id, rule.partition_column, target, zones)
                where, label = f"WHERE {condition}", target.isoformat()
            else:
                where = "WHERE 1 = 0"  # an empty table: no partition, no group
        graded = (f"WITH g AS (SELECT {groups}, {sums}, CASE WHEN ({rule.condition}) THEN 0 ELSE 1 END AS dw_broken "
                  f"FROM {relation} {where} GROUP BY {groups})")
        totals = s.rows(f"{graded} SELECT count(*) AS n, coalesce(sum(dw_broken), 0) AS broken FROM g", params)[0]
        broken = s.rows(f"{graded} SELECT * FROM g WHERE dw_broken = 1 ORDER BY {groups} LIMIT {SHOW_GROUPS}", params)
    for row in broken:
        row.pop("dw_broken", None)
    return decide_balance(dataset_id, rule.name, rule.condition, rule.group_by, broken=broken,
                          broken_count=int(totals["broken"]), groups_checked=int(totals["n"]), partition=label)

"""What the checks remember in the state store: accepted schemas, excluded and accepted partitions.

`dw_accepted_schemas`: per dataset, the schema schema-drift compares against (set on first sight
and by `dw checks accept-schema`). `dw_excluded_partitions`: partitions a person marked as not
normal (a known bad load), left out of volume baselines together with the partitions of incidents
whose cause was confirmed. `dw_accepted_partitions`: partitions an owner accepted as legitimate
(`dw checks accept`): they pass and join the history, optionally as the start of a new level.
`dw_accepted_shapes`: of those, the ones whose owner said the weekly pattern changed from there
(`--shape`); a table of its own, so a database made before it (no migrations: create_all only
adds missing tables) keeps working.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa

from dw_assets.incidents.store import IncidentStore
from dw_assets.store import Store, metadata

accepted_schemas = sa.Table(
    "dw_accepted_schemas", metadata,
    sa.Column("dataset_id", sa.String(400), primary_key=True),
    sa.Column("columns", sa.JSON, nullable=False),  # [[name, type], ...] in ordinal order
    sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("accepted_by", sa.String(200), nullable=False),
)

excluded_partitions = sa.Table(
    "dw_excluded_partitions", metadata,
    sa.Column("dataset_id", sa.String(400), primary_key=True),
    sa.Column("partition", sa.String(64), primary_key=True),
    sa.Column("reason", sa.Text, nullable=False, default=""),
    sa.Column("added_by", sa.String(200), nullable=False),
    sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
)


accepted_partitions_table = sa.Table(
    "dw_accepted_partitions", metadata,
    sa.Column("dataset_id", sa.String(400), primary_key=True),
    sa.Column("partition", sa.String(64), primary_key=True),
    sa.Column("shift", sa.Boolean, nullable=False, default=False),  # a new normal level from here
    sa.Column("note", sa.Text, nullable=False, default=""),
    sa.Column("accepted_by", sa.String(200), nullable=False),
    sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=False),
)

# a partition accepted as the start of a new weekly pattern (`--shape`); the accept itself (actor,
# time, note) is its row in dw_accepted_partitions
accepted_shapes_table = sa.Table(
    "dw_accepted_shapes", metadata,
    sa.Column("dataset_id", sa.String(400), primary_key=True),
    sa.Column("partition", sa.String(64), primary_key=True),
)


def accepted_schema(store: Store, dataset_id: str) -> tuple[list[tuple[str, str]], datetime] | None:
    store.ensure_schema()
    with store.engine.connect() as conn:
        row = conn.execute(sa.select(accepted_schemas).where(accepted_schemas.c.dataset_id == dataset_id)).first()
    if row is None:
        return None
    at = row.accepted_at if row.accepted_at.tzinfo else row.accepted_at.replace(tzinfo=UTC)
    return [(str(n), str(t) if t is not None else "") for n, t in row.columns], at


def accept_schema(store: Store, dataset_id: str, columns: Sequence[tuple[str, str | None]], *, actor: str) -> None:
    store.ensure_schema()
    values = {"columns": [[n, t] for n, t in columns], "accepted_at": datetime.now(UTC),
              "accepted_by": actor}
    with store.engine.begin() as conn:
        done = conn.execute(accepted_schemas.update().where(accepted_schemas.c.dataset_id == dataset_id)
                            .values(**values)).rowcount
        if not done:
            conn.execute(accepted_schemas.insert().values(dataset_id=dataset_id, **values))


def exclude_partition(store: Store, dataset_id: str, partition: str, *, actor: str, reason: str = "") -> None:
    store.ensure_schema()
    with store.engine.begin() as conn:
        exists = conn.execute(sa.select(excluded_partitions.c.partition).where(
            excluded_partitions.c.dataset_id == dataset_id, excluded_partitions.c.partition == partition)).first()
        if not exists:
            conn.execute(excluded_partitions.insert().values(dataset_id=dataset_id, partition=partition, reason=reason,
                                                             added_by=actor, added_at=datetime.now(UTC)))


def accept_partition(store: Store, dataset_id: str, partition: str, *, actor: str, note: str = "",
                     shift: bool = False, shape: bool = False, now: datetime | None = None) -> dict:
    """Mark a partition as legitimate: it passes, joins the volume history (and with `shift`, the
    model re-baselines on its level; with `shape`, every weekday's share on the occurrences from it);
    it also leaves the excluded partitions. Accepting it again replaces the marks. Returns the record."""
    store.ensure_schema()
    accepted_at = now or datetime.now(UTC)
    record = {"dataset_id": dataset_id, "partition": partition, "shift": shift, "note": note,
              "accepted_by": actor, "accepted_at": accepted_at}
    key = (accepted_partitions_table.c.dataset_id == dataset_id) & (accepted_partitions_table.c.partition == partition)
    with store.engine.begin() as conn:
        if not conn.execute(accepted_partitions_table.update().where(key).values(**record)).rowcount:
            conn.execute(accepted_partitions_table.insert().values(**record))
        conn.execute(excluded_partitions.delete().where((excluded_partitions.c.dataset_id == dataset_id)
                                                        & (excluded_partitions.c.partition == partition)))
        shape_key = (accepted_shapes_table.c.dataset_id == dataset_id) & (accepted_shapes_table.c.partition == partition)
        conn.execute(accepted_shapes_table.delete().where(shape_key))
        if shape:
            conn.execute(accepted_shapes_table.insert().values(dataset_id=dataset_id, partition=partition))
    return {**record, "shape": shape, "accepted_at": accepted_at.isoformat()}


def accepted_partitions(store: Store, dataset_id: str) -> dict[str, bool]:
    """Partitions a person accepted as legitimate -> whether each starts a new level."""
    store.ensure_schema()
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(accepted_partitions_table.c.partition, accepted_partitions_table.c.shift)
                            .where(accepted_partitions_table.c.dataset_id == dataset_id)).all()
    return {str(p): bool(shift) for p, shift in rows}


def accepted_shapes(store: Store, dataset_id: str) -> set[str]:
    """Accepted partitions from which the weekly pattern changed for good (`--shape`)."""
    store.ensure_schema()
    with store.engine.connect() as conn:
        # (a read-only store does not create tables: a database older than --shape has none)
        if not sa.inspect(conn).has_table(accepted_shapes_table.name):
            return set()
        return set(conn.execute(sa.select(accepted_shapes_table.c.partition)
                                .where(accepted_shapes_table.c.dataset_id == dataset_id)).scalars())


def baseline_exclusions(store: Store, dataset_id: str) -> set[str]:
    """Partitions left out of the volume baseline (ISO dates as text)."""
    store.ensure_schema()
    with store.engine.connect() as conn:
        marked: set[str] = set(conn.execute(sa.select(excluded_partitions.c.partition)
                                  .where(excluded_partitions.c.dataset_id == dataset_id)).scalars())
    # an incident's partition that a person later accepted as legitimate joins the history again
    return (marked | IncidentStore(store).confirmed_partitions(dataset_id)) - set(accepted_partitions(store, dataset_id))

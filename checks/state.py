"""What the checks remember in the state store: accepted schemas and excluded partitions.

`dw_accepted_schemas`: per dataset, the schema schema-drift compares against (set on first sight
and by `dw checks accept-schema`). `dw_excluded_partitions`: partitions a person marked as not
normal (a known bad load), left out of volume baselines together with the partitions of incidents
whose cause was confirmed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa

from dw_assets.config import Settings, resolve_env
from dw_assets.incidents.store import IncidentStore
from dw_assets.store import Store, metadata, open_store

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


def state_store(settings: Settings) -> Store:
    return open_store(resolve_env(settings.state.url, what="state.url"))


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


def baseline_exclusions(store: Store, dataset_id: str) -> set[str]:
    """Partitions left out of the volume baseline (ISO dates as text)."""
    store.ensure_schema()
    with store.engine.connect() as conn:
        marked = set(conn.execute(sa.select(excluded_partitions.c.partition)
                                  .where(excluded_partitions.c.dataset_id == dataset_id)).scalars())
    return marked | IncidentStore(store).confirmed_partitions(dataset_id)

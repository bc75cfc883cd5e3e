"""Type changes on day one: the warehouse's information_schema against the schema the drift check
accepted is evidence, with no OpenLineage schema history at all."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import duckdb

from dw_assets.checks.state import accept_schema
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.diagnosis.sources import drift_changes
from dw_assets.store import Store
from tests.support.settings import build_settings


def test_a_bigint_that_became_varchar_is_a_type_change(dw_home):
    path = dw_home / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE SCHEMA raw; CREATE TABLE raw.sessions (session_id BIGINT, dwell_ms BIGINT)")
    con.close()
    settings = build_settings(dw_home)
    store = Store(settings.state.url)
    accept_schema(store, "shop.raw.sessions", [("session_id", "BIGINT"), ("dwell_ms", "BIGINT")], actor="t")
    con = duckdb.connect(str(path))  # the source starts sending 'N/A': the load widens the column to text
    con.execute("ALTER TABLE raw.sessions ALTER dwell_ms TYPE VARCHAR; ALTER TABLE raw.sessions ADD COLUMN note TEXT")
    con.close()
    now = datetime.now(UTC)
    window = (now - timedelta(hours=48), now + timedelta(minutes=1))
    wh = Warehouse("duckdb:///:memory:", {"shop": str(path)})
    [change] = drift_changes(settings, store, ["shop.raw.sessions", "shop.raw.unknown"], [], window, wh)
    assert (change.dataset_id, change.column, change.change) == ("shop.raw.sessions", "dwell_ms", "type_changed")
    assert (change.old_type, change.new_type) == ("BIGINT", "VARCHAR") and "schema_drift" in change.source
    assert window[0] <= change.observed_at <= window[1]
    # a change the schema history already holds is not repeated
    assert drift_changes(settings, store, ["shop.raw.sessions"], [change], window, wh) == []
    store.dispose()

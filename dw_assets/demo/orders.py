"""The revenue side of the demo estate: the application's `orders` table and its copy in the lake.

Orders are made in DuckDB SQL from a seed: a few hundred to a few thousand a day, weekdays busier
than weekends, Fridays busiest. `app.orders` is the application database (discount DECIMAL until
night 2's release turns it into text); `lake.orders_clean` is what the `orders_daily` DAG's
`orders_clean` task copies from it, plus the load time.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

import duckdb

from dw_assets.demo.layout import (
    ORDERS_HISTORY_DAYS,
    ORDERS_HISTORY_END,
    ORDERS_LOADED_AT,
    EstatePaths,
    as_date,
    estate_seed,
    scalar,
)

# Mean orders per ISO weekday (Mon..Sun); each day varies by up to +-10% around it.
_WEEKDAY_MEAN = [1800, 1900, 1950, 2000, 2300, 900, 700]

_ORDERS_SQL = """
WITH days AS (
    SELECT d::DATE AS order_date FROM range($first_day::DATE, $last_day::DATE + 1, INTERVAL 1 DAY) t(d)
),
sized AS (
    SELECT order_date,
           round($weekday_mean[isodow(order_date)] * (0.9 + (hash($seed, order_date) % 2001) / 10000.0))::INT
               AS n
    FROM days
),
hashed AS (
    SELECT order_date, k, hash($seed, order_date, k) AS h
    FROM sized, range(n) r(k)
),
priced AS (
    SELECT order_date, k, h, ((1000 + ((h >> 12) & 16777215) % 49000) * 0.01)::DECIMAL(18,2) AS amount
    FROM hashed
)
SELECT printf('ORD-%s-%05d', strftime(order_date, '%Y%m%d'), k + 1) AS order_id,
       order_date,
       printf('C%06d', 1 + ((h >> 36) & 16777215) % 40000) AS customer_id,
       amount,
       CASE WHEN (h & 4095) % 10 < 3
            THEN round(amount * (5 + ((h >> 24) & 4095) % 16) / 100, 2)
            ELSE 0 END::DECIMAL(18,2) AS discount,
       CASE WHEN (h >> 60) < 13 THEN 'completed' WHEN (h >> 60) < 15 THEN 'shipped'
            WHEN ((h >> 24) & 4095) % 2 = 0 THEN 'returned' ELSE 'cancelled' END AS status
FROM priced
ORDER BY order_date, k
"""

ORDERS_DDL = """
CREATE TABLE IF NOT EXISTS main.orders (
    order_id VARCHAR, order_date DATE, customer_id VARCHAR, amount DECIMAL(18,2),
    discount DECIMAL(18,2), status VARCHAR
)
"""


def _generate(con: duckdb.DuckDBPyConnection, first_day: date, last_day: date, seed: int) -> None:
    """Fill the temp table `generated_orders` with the orders of the days given."""
    params = {"first_day": first_day, "last_day": last_day, "seed": seed, "weekday_mean": _WEEKDAY_MEAN}
    con.execute("CREATE OR REPLACE TEMP TABLE generated_orders AS " + _ORDERS_SQL, params)


def _attach_app_sql(paths: EstatePaths) -> str:
    return "ATTACH '" + str(paths.app_db).replace("'", "''") + "' AS app (READ_ONLY)"


def history_window() -> tuple[date, date]:
    return ORDERS_HISTORY_END - timedelta(days=ORDERS_HISTORY_DAYS - 1), ORDERS_HISTORY_END


def build_orders(paths: EstatePaths, seed: int) -> int:
    """Write the order history into app.orders and lake.orders_clean; return the order count."""
    first, last = history_window()
    paths.app_dir.mkdir(parents=True, exist_ok=True)
    paths.warehouse_dir.mkdir(parents=True, exist_ok=True)
    with duckdb.connect(str(paths.app_db)) as con:
        con.execute(ORDERS_DDL)
        _generate(con, first, last, seed)
        con.execute("INSERT INTO main.orders SELECT * FROM generated_orders")
        count = scalar(con, "SELECT count(*) FROM main.orders")
    with duckdb.connect(str(paths.lake_db)) as con:
        con.execute(_attach_app_sql(paths))
        con.execute(
            "CREATE OR REPLACE TABLE main.orders_clean AS SELECT o.*, "
            "(o.order_date + 1) + ?::TIME AS loaded_at FROM app.main.orders o "
            "ORDER BY order_date, order_id",
            [ORDERS_LOADED_AT],
        )
    return int(count)


def add_orders_day(home: Path, day: date | str, seed: int | None = None) -> int:
    """Put one more day of orders into app.orders (replacing that day if present); return its count."""
    day = as_date(day)
    paths = EstatePaths.of(home)
    if not paths.app_db.exists():
        raise FileNotFoundError(f"{paths.app_db} does not exist: build the estate first")
    with duckdb.connect(str(paths.app_db)) as con:
        _generate(con, day, day, estate_seed(home, seed))
        con.execute("BEGIN TRANSACTION")
        con.execute("DELETE FROM main.orders WHERE order_date = ?", [day])
        # by name: after night 2's release discount is text, and numbers still cast into it
        con.execute("INSERT INTO main.orders BY NAME SELECT * FROM generated_orders")
        con.execute("COMMIT")
        count = scalar(con, "SELECT count(*) FROM main.orders WHERE order_date = ?", [day])
    return int(count)


def break_orders_discount(home: Path, na_rows: int = 5) -> list[str]:
    """Night 2's release: discount becomes text and `na_rows` of the newest day's orders say 'N/A'.

    The rows are completed orders, so they count towards revenue and fct_revenue must read them.

    Returns the order ids that now hold 'N/A'. Safe to call twice (the column stays text).
    """
    if na_rows < 1:
        raise ValueError(f"na_rows must be at least 1, got {na_rows!r}")
    paths = EstatePaths.of(home)
    with duckdb.connect(str(paths.app_db)) as con:
        kind = scalar(con, "SELECT data_type FROM information_schema.columns "
                           "WHERE table_name = 'orders' AND column_name = 'discount'")
        if kind != "VARCHAR":
            con.execute("ALTER TABLE main.orders ALTER discount TYPE VARCHAR")
        ids = [r[0] for r in con.execute(
            "SELECT order_id FROM main.orders WHERE order_date = (SELECT max(order_date) FROM main.orders) "
            "AND status = 'completed' ORDER BY hash(order_id) LIMIT ?", [na_rows]).fetchall()]
        con.execute("UPDATE main.orders SET discount = 'N/A' WHERE list_contains(?, order_id)", [ids])
    return ids


def copy_orders_to_lake(home: Path, loaded_at: datetime | None = None) -> int:
    """What the `orders_clean` task does: copy app.orders into lake.orders_clean as is.

    Column types follow app.orders (so a text discount arrives as text); rows already in the lake
    keep their load time and new ones get `loaded_at`. Returns the rows in lake.orders_clean.
    """
    paths = EstatePaths.of(home)
    loaded_at = loaded_at or datetime.now().replace(microsecond=0)
    with duckdb.connect(str(paths.lake_db)) as con:
        con.execute(_attach_app_sql(paths))
        con.execute(
            "CREATE OR REPLACE TABLE main.orders_clean AS "
            "SELECT o.*, coalesce(l.loaded_at, ?::TIMESTAMP) AS loaded_at "
            "FROM app.main.orders o LEFT JOIN main.orders_clean l USING (order_id) "
            "ORDER BY o.order_date, o.order_id",
            [loaded_at],
        )
        count = scalar(con, "SELECT count(*) FROM main.orders_clean")
    return int(count)

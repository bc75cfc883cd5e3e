"""The tiny DuckDB estate (`estate`), defined once beside the check tests."""

from tests.checks.conftest import estate  # noqa: F401

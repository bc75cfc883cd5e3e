"""The OpenLineage fixtures (spec_dir, store, run_server), defined once beside the connector's tests."""

from tests.connectors.openlineage.conftest import run_server, spec_dir, store  # noqa: F401

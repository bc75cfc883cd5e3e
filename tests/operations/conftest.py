"""The incident fixtures (t0, settings, store, make_signal), defined once beside the incident tests."""

from tests.incidents.conftest import make_signal, settings, store, t0  # noqa: F401

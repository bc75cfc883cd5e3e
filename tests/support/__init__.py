"""Helpers and fakes shared across the test folders (imported as `tests.support.<module>`)."""

"""Every Dagster sensor definition, one module each with `build_definitions(settings)`; the work a
tick does lives in a service below (e.g. `governance.launches.approvals_tick`), testable without
Dagster."""

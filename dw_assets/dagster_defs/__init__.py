"""The Dagster layer's assets and jobs, kept thin over the services below: the estate's assets,
the context-graph and incident assets, the gated rerun job and verification, the plan views.
Sensor definitions live in the top-level `sensors` package, asset checks in `checks`."""

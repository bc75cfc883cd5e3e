"""The check service, free of Dagster: every check's evaluation (`evaluate_*`: SQL pushed to the
warehouse, the decision in `dw_assets.core`), the partition a check reads and what makes two
failures one occurrence, the runner behind `dw checks run` and verification, incident intake of a
failure, and what the checks remember in the state store (accepted schemas, excluded and accepted
partitions). The Dagster asset checks (top-level `checks/`) are thin wrappers around it."""

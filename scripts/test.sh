#!/usr/bin/env bash
# The test command behind `make test` and `.ci/run`: installs what the tests need from the repo's
# own files, runs every tier, and leaves no service running.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export PATH="$ROOT/.venv/bin:$PATH"

# ../shared (official OpenLineage schemas, dbt-ol examples) sits beside the clone in CI.
if [ -z "${DW_SHARED_DIR:-}" ] && [ -d "$ROOT/../shared" ]; then
  export DW_SHARED_DIR="$ROOT/../shared"
fi
export DW_OPENLINEAGE_SPEC_DIR="${DW_OPENLINEAGE_SPEC_DIR:-${DW_SHARED_DIR:+$DW_SHARED_DIR/openlineage-spec}}"

mkdir -p test-artifacts
python -m pytest -p no:cacheprovider "$@"

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

# dbt and dbt-ol run from their own venv (`make install` builds .venv-dbt from requirements-dbt.txt),
# never from the Dagster venv; DW_DBT_BIN_DIR names another one.
if [ -z "${DW_DBT_BIN_DIR:-}" ]; then
  if [ ! -x "$ROOT/.venv-dbt/bin/dbt-ol" ]; then
    echo "test.sh: no dbt venv at $ROOT/.venv-dbt: run \`make install\` (or set DW_DBT_BIN_DIR to a bin with dbt and dbt-ol)" >&2
    exit 1
  fi
  export DW_DBT_BIN_DIR="$ROOT/.venv-dbt/bin"
fi

# System packages the integration tiers need (Debian): a PostgreSQL server for the shared-deployment
# store tests and Chromium for the UI test. Installed only when missing.
missing=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "test.sh: installing ${missing[*]} (Debian packages)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "test.sh: missing ${missing[*]}; tests needing them will say so" >&2
  fi
fi

# The Airflow venvs (one per major, built on first use: minutes of pip on a clean machine) are built
# in the background while lint and the tests that need no Airflow run (tests/conftest.py runs the
# Airflow tests last); the harness waits on each venv's lock instead of building it then. A builder
# still running when the tests end (a run of a few files) is stopped; the harness finishes its venv
# next time.
mkdir -p test-artifacts
venv_builders=()
for major in 3 2; do
  # its own process group, so stopping it stops its pip too
  setsid python -c "from dw_assets.harness.airflow_venv import build_airflow_venvs; build_airflow_venvs([$major])" \
    >"test-artifacts/airflow-venv-$major.log" 2>&1 &
  venv_builders+=("-$!")
done
trap 'kill -- "${venv_builders[@]}" 2>/dev/null || true' EXIT

# Static checks first (about a minute cold, seconds with .mypy_cache): both run, and the run fails
# naming each that failed. DW_SKIP_LINT=1 skips them when iterating on one test.
if [ "${DW_SKIP_LINT:-0}" != 1 ]; then
  bash scripts/lint.sh
fi

python -m pytest -p no:cacheprovider "$@"

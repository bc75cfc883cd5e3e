#!/usr/bin/env bash
# ruff and mypy, as `make lint` and scripts/test.sh (so CI) run them. Both always run; the exit status
# is non-zero when either failed, and the last line names which. mypy's folders and strictness are in
# pyproject.toml ([tool.mypy] files); its cache is .mypy_cache (git-ignored).
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
[ -x "$BIN/ruff" ] || BIN=$(dirname "$(command -v ruff)")

failed=()
echo "lint: ruff check dw_assets checks sensors tests scripts benchmarks"
"$BIN/ruff" check dw_assets checks sensors tests scripts benchmarks || failed+=(ruff)
echo "lint: mypy (dw_assets, checks, sensors)"
"$BIN/mypy" || failed+=(mypy)
if [ ${#failed[@]} -gt 0 ]; then
  echo "lint: FAILED: ${failed[*]} (fix before the tests run; see the messages above)" >&2
  exit 1
fi
echo "lint: ruff and mypy passed"

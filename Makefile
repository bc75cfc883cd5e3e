# Two entry points for a fresh machine: `make demo` (the main job) and `make test` (the tests).
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
# dbt runs as a program from a venv of its own (requirements-dbt.txt): dbt-core stays out of the
# Dagster processes, which load the code location far faster without it.
DBT_VENV := .venv-dbt
DBT_STAMP := $(DBT_VENV)/.installed

.PHONY: demo test test-load install ui lint

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[dev]'
	touch $(STAMP)

# the same duckdb as the product's venv: both sides open the same warehouse files
$(DBT_STAMP): requirements-dbt.txt $(STAMP)
	$(PYTHON) -m venv $(DBT_VENV)
	$(DBT_VENV)/bin/pip install -q --upgrade pip
	$(DBT_VENV)/bin/pip install -q -r requirements-dbt.txt \
		"duckdb==$$($(VENV)/bin/python -c 'import duckdb; print(duckdb.__version__)')"
	touch $(DBT_STAMP)

install: $(STAMP) $(DBT_STAMP)

demo: install
	$(VENV)/bin/dw demo --night month-end --approve-as maria.chen

ui: install
	$(VENV)/bin/dw ui

test: install
	bash scripts/test.sh $(ARGS)

# the opt-in load tier: the demo and the daemon night beside two more Airflows and another daemon
test-load: install
	DW_SKIP_LINT=1 bash scripts/test.sh -m neighbours tests/e2e/test_beside_neighbours.py

lint: $(STAMP)
	bash scripts/lint.sh

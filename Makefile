# Two entry points for a fresh machine: `make demo` (the main job) and `make test` (the tests).
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: demo test install ui lint

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/dw demo --night month-end --approve-as maria.chen

ui: $(STAMP)
	$(VENV)/bin/dw ui

test: $(STAMP)
	bash scripts/test.sh $(ARGS)

lint: $(STAMP)
	bash scripts/lint.sh

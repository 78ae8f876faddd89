# The two commands a new user needs: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CONFIG ?= config.yaml
# `make serve PORT=8001` when 8000 is taken (default: web.port from the config)
PORT ?=

.PHONY: serve test lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $@ $(VENV)/.installed

# Install, build the index from examples/ when there is none yet, serve on http://127.0.0.1:8000
# (the sample ingest is left out once examples/ is deleted: your own docs are ingested by then)
serve: $(VENV)/.installed
	$(if $(wildcard examples/),$(BIN)/citecast --config $(CONFIG) ingest examples/ --if-missing)
	$(BIN)/citecast --config $(CONFIG) serve $(if $(PORT),--port $(PORT))

# Lint, type-check and run the whole suite
test: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

bench: $(VENV)/.installed-dev
	for script in bench/*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) .citecast .mypy_cache .pytest_cache .ruff_cache

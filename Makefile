# Every target builds .venv itself, so on a fresh machine `make test` is the whole set-up.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: test lint run bench bench-ai clean

$(BIN)/.dev: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@

$(BIN)/.bench: $(BIN)/.dev
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	touch $@

lint: $(BIN)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -q -n 2

run: $(BIN)/.dev
	$(BIN)/python -m bot $(ARGS)

bench: $(BIN)/.bench
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/service.py
	$(BIN)/python bench/telegram.py
	$(BIN)/python bench/crash.py
	$(BIN)/python bench/scale.py

# The computer players' strength (issue 13's goal): tens of minutes on two cores, so on its own.
bench-ai: $(BIN)/.bench
	$(BIN)/python bench/ai.py --rounds 10000 --jobs 2 $(ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

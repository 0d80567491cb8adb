# Every target builds .venv itself, so on a fresh machine `make test` is the whole set-up.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: test lint run bench bench-ai clean chromium

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

# The web table's browser tests drive Debian's chromium (Playwright's own browser download is not
# reachable everywhere): installed here, with a color emoji font for the screenshots, when missing
# and we may (root with apt-get); elsewhere those tests skip, saying why.
chromium:
	@if { [ ! -x /usr/bin/chromium ] || [ ! -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; } \
		&& [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		(apt-get update -qq && apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null) \
		|| echo "chromium could not be installed: the browser tests will be skipped"; fi

test: lint chromium
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

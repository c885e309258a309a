# Two commands: `make run` sets everything up and runs the table; `make test` sets everything
# up and runs the checks and tests. Both work on a fresh Debian machine with Python 3.11+.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test setup lint bench clean chromium

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# The table on this machine: the score pad for every phone on the network (no camera or
# buttons yet); the journal and PIN live in ./state.
run: setup
	$(BIN)/dicetable serve --state state

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

# The browser tests drive Debian's Chromium (never a downloaded browser).
chromium:
	@test -x /usr/bin/chromium || { $(SUDO) apt-get update -q && \
		$(SUDO) apt-get install -y -q --no-install-recommends chromium; }

test: lint chromium
	DICETABLE_REQUIRE_BROWSER=1 $(BIN)/pytest

bench: setup
	$(BIN)/dicetable bench

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis

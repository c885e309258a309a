# Two commands: `make run` sets everything up and runs the table; `make test` sets everything
# up and runs the checks and tests. Both work on a fresh Debian machine with Python 3.11+.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
VENV_FLAGS ?=  # on a Pi: --system-site-packages, so that the venv sees python3-picamera2

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test setup lint bench clean chromium screenshots systemd-tools install-pi

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# The table on this machine: the score pad for every phone on the network; the journal, PIN
# and recorded frames live in the state folder every dicetable command uses by default
# ($DICETABLE_STATE, else $XDG_STATE_HOME/dicetable or ~/.local/state/dicetable), so that
# `dicetable pin` finds them. With no camera (CAMERA=0, /dev/video2, picamera2 or a folder of
# pictures), it plays the demo: a recorded game of Dicy Cards through the camera loop.
STATE ?= $(or $(DICETABLE_STATE),$(or $(XDG_STATE_HOME),$(HOME)/.local/state)/dicetable)
CAMERA ?=
run: setup $(if $(CAMERA),,$(STATE)/demo/demo.json)
	$(BIN)/dicetable serve --state $(STATE) $(if $(CAMERA),--camera $(CAMERA),--demo)

# The demo's frames, rendered once (seeded) at set-up.
$(STATE)/demo/demo.json: | setup
	$(BIN)/dicetable demo --state $(STATE)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

# The browser tests drive Debian's Chromium (never a downloaded browser).
chromium:
	@test -x /usr/bin/chromium || { $(SUDO) apt-get update -q && \
		$(SUDO) apt-get install -y -q --no-install-recommends chromium; }

# The service's checks run systemd's own tools (systemd-analyze, systemd-sysusers, systemctl).
systemd-tools:
	@command -v systemd-analyze >/dev/null && command -v systemd-sysusers >/dev/null || { \
		$(SUDO) apt-get update -q && \
		$(SUDO) apt-get install -y -q --no-install-recommends systemd; }

# Three test processes (pytest-xdist), each taking the next test as it is free: the longest
# tests wait on a paced film, a browser or an installer, so three keep two cores busier.
TEST_WORKERS ?= 3
test: lint chromium systemd-tools
	DICETABLE_REQUIRE_BROWSER=1 $(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal

# On the Pi: the service, its user, the Avahi name, started now and at every boot (README).
install-pi:
	$(SUDO) systemd/install

bench: setup
	$(BIN)/dicetable bench

# Every screen of each game, and the host's notices, at 320x568, 390x844 and on a landscape
# tablet, in all four languages: screenshots/SIZE/LANG/NN-screen.png, for a reviewer to look at.
screenshots: setup chromium
	rm -rf screenshots
	$(BIN)/python -m tests.web.screenshots screenshots

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis screenshots

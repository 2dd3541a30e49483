# nightsky: `make run` starts the main job, `make test` runs every test. Both install what they need.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
HOST   ?= 127.0.0.1
PORT   ?= 8000
# The lock: the exact versions `make` installs (pyproject.toml only states ranges). Regenerate
# it with `make lock` after changing a dependency in pyproject.toml.
LOCK   := constraints.txt
# What the test environment holds: every extra, and the test and dev groups.
TEST_EXTRAS ?= rl,ray,report,postgres

.PHONY: run install build test-deps test wheel-check bench lint browser postgres lock clean

# The install compiles the engine's hot path with mypyc (setup.py); a change to any engine
# source rebuilds it, so tests never run a stale extension (nightsky/_native.py would also
# refuse one and fall back to pure Python, with a warning).
ENGINE_SRC := setup.py $(shell find src/nightsky/core src/nightsky/games src/nightsky/agents -name '*.py' 2>/dev/null) \
	src/nightsky/rl/_stepper.py

# pip >= 25.1 reads PEP 735 dependency groups (`--group`).
$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade "pip>=25.1"

$(VENV)/.installed: pyproject.toml $(LOCK) $(ENGINE_SRC) | $(VENV)/bin/python
	$(PIP) install -q -c $(LOCK) -e .
	touch $@

install: $(VENV)/.installed

## The main job: the web app (lobby, games with friends or bots) on http://$(HOST):$(PORT).
DB ?= sqlite:///nightsky.sqlite3
run: install
	$(VENV)/bin/nightsky serve --host $(HOST) --port $(PORT) --db $(DB)

$(VENV)/.test-installed: pyproject.toml $(LOCK) $(ENGINE_SRC) | $(VENV)/bin/python
	$(PIP) install -q -c $(LOCK) -e ".[$(TEST_EXTRAS)]" --group test --group dev
	touch $@

## Rebuild the compiled extensions now (after editing engine code).
build: | $(VENV)/bin/python
	$(PIP) install -q --no-deps -e .

## Chromium for the browser tests comes from Debian's packages (Playwright drives it).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq && \
	  $$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium >/dev/null; }

## The multi-process server tests start a throw-away PostgreSQL cluster in a temporary
## directory (tests/support/pg.py): they need Debian's server binaries, not a running service.
postgres:
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq && \
	  $$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq postgresql >/dev/null; }

test-deps: $(VENV)/.test-installed browser postgres

## NIGHTSKY_REQUIRE_COMPILED: a test fails if the extensions did not build (so CI notices).
## Then the wheel as a user gets it (scripts/wheel_check.sh).
test: test-deps
	NIGHTSKY_REQUIRE_COMPILED=1 $(PY) -m pytest -n 2 -q
	$(MAKE) wheel-check

## Build the wheel (compiled), install it with no extras into a fresh virtual environment and
## run `nightsky --version`, `nightsky games` and one short game there.
wheel-check: $(VENV)/.test-installed
	PYTHON=$(PY) LOCK=$(LOCK) bash scripts/wheel_check.sh

## Long benchmarks and big simulations (not part of `make test`). The `train` extra (PyTorch,
## Stable-Baselines3: large) is installed here only, for the RL recipe (docs/rl.md).
$(VENV)/.train-installed: $(VENV)/.test-installed
	$(PIP) install -q -c $(LOCK) -e ".[$(TEST_EXTRAS),train]" --group test --group dev
	touch $@

bench: test-deps $(VENV)/.train-installed
	$(PY) -m pytest -m bench --benchmark-enable -q -p no:xdist

lint: test-deps
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/mypy

## Regenerate the lock from pyproject.toml: every extra and group, for Python 3.11 on every
## platform. Versions already locked stay unless they no longer fit (UPGRADE=1: newest allowed).
lock: | $(VENV)/bin/python
	$(PIP) install -q -c $(LOCK) --group lock
	$(VENV)/bin/uv pip compile pyproject.toml --all-extras --group test --group dev --group lock \
	  --python-version 3.11 --universal --custom-compile-command "make lock" \
	  $(if $(UPGRADE),--upgrade) -o $(LOCK)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist .wheel-check
	find src -name '*.so' -delete; rm -f src/nightsky/_compiled.json

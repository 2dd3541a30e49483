# nightsky: `make run` starts the main job, `make test` runs every test. Both install what they need.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run install build test-deps test bench lint browser clean

# The install compiles the engine's hot path with mypyc (setup.py); a change to any engine
# source rebuilds it, so tests never run a stale extension (nightsky/_native.py would also
# refuse one and fall back to pure Python, with a warning).
ENGINE_SRC := setup.py $(shell find src/nightsky/core src/nightsky/games src/nightsky/agents -name '*.py' 2>/dev/null)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(VENV)/.installed: pyproject.toml $(ENGINE_SRC) | $(VENV)/bin/python
	$(PIP) install -q -e .
	touch $@

install: $(VENV)/.installed

## The main job: the web app (lobby, games with friends or bots) on http://$(HOST):$(PORT).
DB ?= sqlite:///nightsky.sqlite3
run: install
	$(VENV)/bin/nightsky serve --host $(HOST) --port $(PORT) --db $(DB)

$(VENV)/.test-installed: pyproject.toml $(ENGINE_SRC) | $(VENV)/bin/python
	$(PIP) install -q -e ".[test,dev,ray,rl]"
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

test-deps: $(VENV)/.test-installed browser

## NIGHTSKY_REQUIRE_COMPILED: a test fails if the extensions did not build (so CI notices).
test: test-deps
	NIGHTSKY_REQUIRE_COMPILED=1 $(PY) -m pytest -n 2 -q

## Long benchmarks and big simulations (not part of `make test`).
bench: test-deps
	$(PY) -m pytest -m bench --benchmark-enable -q -p no:xdist

lint: test-deps
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	find src -name '*.so' -delete; rm -f src/nightsky/_compiled.json

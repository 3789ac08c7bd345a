# The two Quick start commands (see README.md).
PYTHON ?= python3

.PHONY: build test install install-test bench lock

## Install pnp and build every shipped game into output/.
build: install
	pnp build

## Install the test dependencies and run the whole test suite.
test: install-test
	$(PYTHON) -m mypy
	for rules in card_data/*/rules pnp/resources/starters/engine/rules.py; do $(PYTHON) -m mypy --strict "$$rules" || exit 1; done  # each game's own engine
	FONTCONFIG_FILE=$(CURDIR)/pnp/resources/fontconfig.conf $(PYTHON) -m pytest -q  # no machine font seen by any test

install:
	bash scripts/system-deps.sh build
	$(PYTHON) -m pip install -q -c constraints.txt -e .  # the exact versions the tests passed with
	$(PYTHON) -m compileall -q pnp  # an editable install compiles nothing, and each run would

install-test:
	bash scripts/system-deps.sh test
	$(PYTHON) -m pip install -q -c constraints.txt -e '.[test]'
	$(PYTHON) -m compileall -q pnp

## Benchmarks (not part of the tests): medians of several runs.
bench: install
	$(PYTHON) -m pip install -q -c constraints.txt -e '.[bench]'  # the ReportLab peer of bench/poker/
	$(PYTHON) bench/build_speed.py
	$(PYTHON) bench/iteration_speed.py

## Resolve pyproject.toml's dependencies (runtime, test and bench) again into constraints.txt,
## with pip-tools in a throwaway virtualenv; existing pins are kept unless
## UPGRADE=1. Then run `make test` before committing the new lock.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install -q pip-tools
	CUSTOM_COMPILE_COMMAND="make lock" .lock-venv/bin/pip-compile --quiet --extra test --extra bench --strip-extras \
		--allow-unsafe --no-emit-index-url --no-emit-find-links $(if $(UPGRADE),--upgrade) \
		--output-file constraints.txt pyproject.toml
	rm -rf .lock-venv

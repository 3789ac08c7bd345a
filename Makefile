# The two Quick start commands (see README.md).
PYTHON ?= python3

.PHONY: build test install install-test bench

## Install pnp and build every shipped game into output/.
build: install
	pnp build

## Install the test dependencies and run the whole test suite.
test: install-test
	$(PYTHON) -m mypy
	FONTCONFIG_FILE=$(CURDIR)/pnp/resources/fontconfig.conf $(PYTHON) -m pytest -q  # no machine font seen by any test

install:
	bash scripts/system-deps.sh build
	$(PYTHON) -m pip install -q -e .
	$(PYTHON) -m compileall -q pnp  # an editable install compiles nothing, and each run would

install-test:
	bash scripts/system-deps.sh test
	$(PYTHON) -m pip install -q -e '.[test]'
	$(PYTHON) -m compileall -q pnp

## Benchmarks (not part of the tests): medians of several runs.
bench: install
	$(PYTHON) bench/build_speed.py
	$(PYTHON) bench/iteration_speed.py

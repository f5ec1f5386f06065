# Two commands a newcomer needs: `make demo` and `make test`. Everything else is here
# for contributors. Each target sets up what it needs on a machine with Python 3.11.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo demo-two-runs test lint typecheck unit bench tools clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# Runs the command line on the bundled real example (MMLU-Pro, see examples/README.md):
# no GitHub, no token.
demo: $(STAMP)
	$(BIN)/leaderboard report examples/mmlu-pro-sample.csv.gz \
	  --baseline Meta-Llama-3_1-8B-Instruct --candidate Meta-Llama-3_1-8B \
	  --json out/demo-report.json; status=$$?; test $$status -le 1

# The everyday CI case on the same bundled data: a pull request's run and its base
# branch's run of the same model ids (scripts/demo_two_runs.py says which real runs
# stand in for each; examples/README.md explains). Exit 1 (a regression) is expected.
demo-two-runs: $(STAMP)
	$(BIN)/python scripts/demo_two_runs.py out/two-runs
	$(BIN)/leaderboard report out/two-runs/pr.csv \
	  --baseline-results out/two-runs/main.csv --baseline-label main \
	  --json out/demo-two-runs-report.json; status=$$?; test $$status -le 1

# Tools the container and workflow tests need (podman, buildah, debootstrap), and
# promptfoo for the test that runs a real promptfoo eval (scripts/install-promptfoo.sh),
# mermaid for the browser test of the trend chart (scripts/install-mermaid.sh).
tools:
	bash scripts/install-tools.sh
	bash scripts/install-promptfoo.sh
	bash scripts/install-mermaid.sh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n 2

test: $(STAMP) tools lint typecheck unit

bench: $(STAMP)
	$(BIN)/python bench/run.py
	$(BIN)/python bench/startup.py
	$(BIN)/python bench/scale.py
	$(BIN)/python bench/load_1m.py
	$(BIN)/python bench/read_jsonl.py
	$(BIN)/python bench/container.py || echo "bench/container.py: not measured (above: why)"

clean:
	rm -rf $(VENV) .tools out .pytest_cache .mypy_cache .ruff_cache .hypothesis

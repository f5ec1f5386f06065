#!/usr/bin/env bash
# Regenerate tests/fixtures/lm_eval/ from a REAL lm-evaluation-harness run, offline.
#
# Not run in CI (it installs lm-eval and a CPU torch into a throwaway venv: ~1.6 GB,
# about two minutes; the run itself takes ~30 s per model). It needs no network
# beyond the package index: the tasks read a small local JSON Lines dataset, and the
# harness's built-in `dummy` model answers (random log-likelihoods from the seeded
# `random` module, "lol" for every generation).
#
#   scripts/make_lm_eval_fixtures.sh [VENV_DIR]
#
# Two "models" are two runs of `dummy` with different seeds and names
# (model_args pretrained=NAME only names the run: dummy ignores its arguments).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
venv="${1:-/tmp/lmeval-venv}"
out="$here/tests/fixtures/lm_eval"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [[ ! -x "$venv/bin/lm_eval" ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install torch==2.13.0   # the CPU wheel; avoids a CUDA download
    "$venv/bin/pip" install lm-eval==0.4.13
fi

tasks="$work/tasks"
mkdir -p "$tasks"
python3 - "$tasks" <<'PY'
import json, pathlib, sys
d = pathlib.Path(sys.argv[1])
mc = [("2 + 2 =", ["3", "4", "5"], 1), ("The capital of France is", ["Paris", "Rome", "Oslo"], 0),
      ("Water freezes at", ["0 C", "50 C", "100 C"], 0), ("The largest planet is", ["Mars", "Venus", "Jupiter"], 2),
      ("3 * 3 =", ["6", "9", "12"], 1), ("The opposite of hot is", ["cold", "warm", "red"], 0)]
mc2 = [("Red plus blue is", ["purple", "green"], 0), ("Ice is", ["cold", "hot"], 0),
       ("A week has days:", ["5", "7"], 1), ("Cats say", ["woof", "meow"], 1)]
gen = [("Say lol:", "lol"), ("Say hi:", "hi"), ("Laugh:", "lol"), ("Greet:", "hello"), ("Echo lol:", "lol")]
def dump(name, rows):
    (d / name).write_text("".join(json.dumps(r) + "\n" for r in rows))
dump("tiny_mc.jsonl", [{"id": i, "question": q, "choices": c, "answer": a} for i, (q, c, a) in enumerate(mc)])
dump("tiny_mc2.jsonl", [{"id": i, "question": q, "choices": c, "answer": a} for i, (q, c, a) in enumerate(mc2)])
dump("tiny_gen.jsonl", [{"id": i, "prompt": p, "answer": a} for i, (p, a) in enumerate(gen)])
PY

for t in tiny_mc tiny_mc2; do
cat > "$tasks/$t.yaml" <<YAML
task: $t
dataset_path: json
dataset_kwargs:
  data_files:
    test: $tasks/$t.jsonl
test_split: test
output_type: multiple_choice
doc_to_text: "{{question}}"
doc_to_choice: "{{choices}}"
doc_to_target: answer
metric_list:
  - metric: acc
    aggregation: mean
    higher_is_better: true
  - metric: acc_norm
    aggregation: mean
    higher_is_better: true
metadata:
  version: 1.0
YAML
done

cat > "$tasks/tiny_suite.yaml" <<YAML
group: tiny_suite
task:
  - tiny_mc
  - tiny_mc2
aggregate_metric_list:
  - metric: acc
    aggregation: mean
    weight_by_size: true
metadata:
  version: 1.0
YAML

cat > "$tasks/tiny_gen.yaml" <<YAML
task: tiny_gen
dataset_path: json
dataset_kwargs:
  data_files:
    test: $tasks/tiny_gen.jsonl
test_split: test
output_type: generate_until
doc_to_text: "{{prompt}}"
doc_to_target: answer
generation_kwargs:
  until: ["\n"]
filter_list:
  - name: strict-match
    filter:
      - function: take_first
  - name: flexible-extract
    filter:
      - function: regex
        regex_pattern: "(hi|hello)"
      - function: take_first
metric_list:
  - metric: exact_match
    aggregation: mean
    higher_is_better: true
  - metric: chrf
    aggregation: chrf
    higher_is_better: true
  - metric: ter
    aggregation: ter
    higher_is_better: false
metadata:
  version: 1.0
YAML

export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 HF_HOME="$work/hf" TOKENIZERS_PARALLELISM=false
run() {  # NAME SEED
    (cd "$work" && "$venv/bin/lm_eval" --model dummy --model_args "pretrained=$1" \
        --seed "$2" --tasks tiny_suite,tiny_gen --include_path "$tasks" \
        --log_samples --output_path "$work/out")
}
run dummy-a 0
run dummy-b 7

rm -rf "$out"
mkdir -p "$out"
cp -r "$work/out/." "$out/"
# Paths of this machine's temporary directory are noise in the fixtures.
find "$out" -type f -print0 | xargs -0 sed -i "s#$work#/tmp/lm-eval-fixtures#g"
find "$out" -type f | sort

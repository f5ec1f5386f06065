#!/usr/bin/env bash
# Regenerate tests/fixtures/lm_eval/v<VERSION>/ from a REAL run of an older
# lm-evaluation-harness release, offline (not run in CI; see docs/frameworks.md).
#
#   scripts/make_lm_eval_old_fixtures.sh VERSION [VENV_DIR]     e.g. 0.4.2 or 0.4.5
#
# Older releases wrote other layouts than 0.4.13 (scripts/make_lm_eval_fixtures.sh):
# 0.4.2 writes results.json and <model_args>_<task>.jsonl holding one indented JSON
# array; up to 0.4.6 the samples carry each metric as a top-level key, without
# `filter` and `metrics`. Both runs use the harness's `dummy` model on local tasks
# (multiple choice with acc/acc_norm in a group; a generation task with two filters),
# and one more run goes through the Python API with a model object
# (simple_evaluate(model=<LM instance>)) on the multiple-choice task and a yes/no task
# scored with mcc (range [-1, 1]), saved the way the harness's own CLI saves results.
#
# Offline, lm-eval up to 0.4.x loads Hugging Face `evaluate`'s "exact_match" module
# from the Hub when it is imported. The script puts a local module directory
# exact_match/ (the same computation for the options the harness passes) in the
# working directory, where `evaluate.load` looks first. Nothing else is changed.
# 0.4.2's dummy model cannot generate (its generate_until unpacks Instance objects as
# tuples and raises), so the 0.4.2 runs leave the generation task out.
set -euo pipefail

version="${1:?usage: $0 VERSION [VENV_DIR]}"
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="${2:-/tmp/lmeval-$version-venv}"
out="$here/tests/fixtures/lm_eval/v$version"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [[ ! -x "$venv/bin/lm_eval" ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install torch==2.13.0   # the CPU wheel; avoids a CUDA download
fi
# Releases after 0.4.2 import transformers' AutoModelForVision2Seq, which transformers
# 5 removed: pin transformers 4 for them (0.4.2's fixtures were made with 5.24).
pin=()
[[ "$version" != 0.4.2 ]] && pin=("transformers<4.50")
"$venv/bin/pip" install "lm-eval==$version" "${pin[@]}"

mkdir -p "$work/exact_match" "$work/tasks"
cat > "$work/exact_match/exact_match.py" <<'PY'
import re
import string

import datasets
import evaluate
import numpy as np


class ExactMatch(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="exact match", citation="", inputs_description="",
            features=datasets.Features({
                "predictions": datasets.Value("string", id="sequence"),
                "references": datasets.Value("string", id="sequence"),
            }),
        )

    def _compute(self, predictions, references, regexes_to_ignore=None,
                 ignore_case=False, ignore_punctuation=False, ignore_numbers=False):
        predictions, references = np.asarray(predictions), np.asarray(references)
        for pattern in regexes_to_ignore or []:
            predictions = np.array([re.sub(pattern, "", x) for x in predictions])
            references = np.array([re.sub(pattern, "", x) for x in references])
        if ignore_case:
            predictions, references = np.char.lower(predictions), np.char.lower(references)
        for flag, chars in ((ignore_punctuation, string.punctuation), (ignore_numbers, string.digits)):
            if flag:
                table = str.maketrans("", "", chars)
                predictions = np.char.translate(predictions, table=table)
                references = np.char.translate(references, table=table)
        return {"exact_match": float(np.mean(predictions == references))}
PY

tasks="$work/tasks"
python3 - "$tasks" <<'PY'
import json, pathlib, sys
d = pathlib.Path(sys.argv[1])
mc = [("2 + 2 =", ["3", "4", "5"], 1), ("The capital of France is", ["Paris", "Rome", "Oslo"], 0),
      ("Water freezes at", ["0 C", "50 C", "100 C"], 0), ("The largest planet is", ["Mars", "Venus", "Jupiter"], 2),
      ("3 * 3 =", ["6", "9", "12"], 1), ("The opposite of hot is", ["cold", "warm", "red"], 0)]
mc2 = [("Red plus blue is", ["purple", "green"], 0), ("Ice is", ["cold", "hot"], 0),
       ("A week has days:", ["5", "7"], 1), ("Cats say", ["woof", "meow"], 1)]
cola = [("The cat sat on the mat.", 1), ("Mat the on sat cat the.", 0), ("She reads books.", 1),
        ("Books she read a.", 0), ("We went home early.", 1), ("Home early went we the.", 0),
        ("He is tall.", 1), ("Tall is he the.", 0)]
gen = [("Say lol:", "lol"), ("Say hi:", "hi"), ("Laugh:", "lol"), ("Greet:", "hello"), ("Echo lol:", "lol")]
def dump(name, rows):
    (d / name).write_text("".join(json.dumps(r) + "\n" for r in rows))
dump("tiny_mc.jsonl", [{"id": i, "question": q, "choices": c, "answer": a} for i, (q, c, a) in enumerate(mc)])
dump("tiny_mc2.jsonl", [{"id": i, "question": q, "choices": c, "answer": a} for i, (q, c, a) in enumerate(mc2)])
dump("tiny_cola.jsonl", [{"id": i, "sentence": s, "label": y} for i, (s, y) in enumerate(cola)])
dump("tiny_gen.jsonl", [{"id": i, "prompt": p, "answer": a} for i, (p, a) in enumerate(gen)])
PY

# 0.4.2 groups tasks by a `group:` key in each task; later releases by a group config.
group_line="group: tiny_suite"
if [[ "$version" != 0.4.2 ]]; then
    group_line=""
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
fi
for t in tiny_mc tiny_mc2; do
cat > "$tasks/$t.yaml" <<YAML
task: $t
$group_line
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

cat > "$tasks/tiny_cola.yaml" <<YAML
task: tiny_cola
dataset_path: json
dataset_kwargs:
  data_files:
    test: $tasks/tiny_cola.jsonl
test_split: test
output_type: multiple_choice
doc_to_text: "{{sentence}}\nQuestion: Does this sentence make sense?\nAnswer:"
doc_to_choice: ["no", "yes"]
doc_to_target: label
metric_list:
  - metric: mcc
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
metadata:
  version: 1.0
YAML

tasklist=tiny_suite,tiny_gen
[[ "$version" == 0.4.2 ]] && tasklist=tiny_suite
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 HF_HOME="$work/hf" TOKENIZERS_PARALLELISM=false
run() {  # NAME SEED
    (cd "$work" && "$venv/bin/lm_eval" --model dummy --model_args "pretrained=$1" \
        --seed "$2" --tasks "$tasklist" --include_path "$tasks" \
        --log_samples --output_path "$work/out/$1")
}
run dummy-a 0
run dummy-b 7

# The Python API with a model object, saved as the harness's CLI saves results.
(cd "$work" && "$venv/bin/python" - "$tasks" "$work/out/api" <<'PY'
import json, pathlib, random, sys
import lm_eval
from lm_eval.models.dummy import DummyLM
from lm_eval.tasks import TaskManager
random.seed(3)
results = lm_eval.simple_evaluate(
    model=DummyLM(), tasks=["tiny_cola", "tiny_mc"], task_manager=TaskManager(include_path=sys.argv[1]),
    bootstrap_iters=0,  # mcc's bootstrapped stderr takes minutes; not needed here
)
results.pop("samples", None)
out = pathlib.Path(sys.argv[2]); out.mkdir(parents=True)
try:  # the function the harness's CLI serialises results with
    from lm_eval.utils import handle_non_serializable
except ImportError:  # 0.4.2 kept it in __main__
    from lm_eval.__main__ import _handle_non_serializable as handle_non_serializable
(out / "results.json").write_text(json.dumps(results, indent=2, default=handle_non_serializable))
PY
)

rm -rf "$out"
mkdir -p "$out"
cp -r "$work/out/." "$out/"
find "$out" -type f -print0 | xargs -0 sed -i "s#$work#/tmp/lm-eval-fixtures#g"
find "$out" -type f | sort

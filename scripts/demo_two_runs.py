"""Split the bundled example into two runs of the same model ids, for `make demo-two-runs`.

The bundled file holds one real MMLU-Pro run of each of nine public models. A pull
request and its base branch evaluate the same model ids; what changed is the model
behind a name. This script stands real runs of *other* models in for that change:

- my-org/assistant-8b: main's run is Meta-Llama-3_1-8B-Instruct, the pull request's is
  Meta-Llama-3_1-8B (the base model: as if the change lost the instruction tuning);
- my-org/chat-7b: main's run is Mistral-7B-Instruct-v0.2, the pull request's is
  Qwen1.5-7B-Chat (another 7B chat model: a small change);
- my-org/new-model: only in the pull request's run, Phi-3-mini-4k-instruct (shown, not
  gated).

    python scripts/demo_two_runs.py [OUT_DIR]   # writes OUT_DIR/pr.csv and OUT_DIR/main.csv
"""

from __future__ import annotations

import csv
import gzip
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "mmlu-pro-sample.csv.gz"
RUNS: dict[str, dict[str, str]] = {
    "main": {
        "Meta-Llama-3_1-8B-Instruct": "my-org/assistant-8b",
        "Mistral-7B-Instruct-v0.2": "my-org/chat-7b",
    },
    "pr": {
        "Meta-Llama-3_1-8B": "my-org/assistant-8b",
        "Qwen1.5-7B-Chat": "my-org/chat-7b",
        "Phi-3-mini-4k-instruct": "my-org/new-model",
    },
}


def main(out_dir: Path) -> None:
    with gzip.open(EXAMPLE, "rt", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out_dir.mkdir(parents=True, exist_ok=True)
    for run, names in RUNS.items():
        path = out_dir / f"{run}.csv"
        kept = [
            {**r, "model_id": names[r["model_id"]]} for r in rows if r["model_id"] in names
        ]
        with path.open("w", encoding="utf-8", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(kept)
        print(
            f"{path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}:"
            f" {len(kept)} records, {len(names)} models",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "out" / "two-runs")

"""Derive the bundled example from the MMLU-Pro per-question results.

Source: ../shared/data/mmlu-pro-5shot.csv.gz, derived from TIGER-AI-Lab's MMLU-Pro
model outputs (Apache License 2.0). We keep a few 7-9B models (and one larger coder
model that did not answer every question) and 50 questions per category, chosen by a
fixed hash of the question id so the sample is stable and not the first rows.

    python scripts/make_sample.py \
        ../shared/data/mmlu-pro-5shot.csv.gz examples/mmlu-pro-sample.csv.gz
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import sys
from collections import defaultdict

MODELS = [
    "Meta-Llama-3_1-8B-Instruct",
    "Meta-Llama-3_1-8B",
    "Meta-Llama-3-8B",
    "Mistral-7B-Instruct-v0.2",
    "gemma-7b",
    "Qwen1.5-7B-Chat",
    "Yi-6B",
    "Phi-3-mini-4k-instruct",
    "DeepSeek-Coder-V2",
]
ITEMS_PER_TASK = 50


def _key(item: str) -> str:
    return hashlib.sha256(item.encode()).hexdigest()


def main(src: str, dst: str) -> None:
    with gzip.open(src, "rt", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["model_id"] in MODELS]
    items: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        items[r["task_id"]].add(r["item_id"])
    keep = {
        (task, item)
        for task, ids in items.items()
        for item in sorted(ids, key=_key)[:ITEMS_PER_TASK]
    }
    out = [r for r in rows if (r["task_id"], r["item_id"]) in keep]
    out.sort(key=lambda r: (r["model_id"], r["task_id"], int(r["item_id"])))
    with gzip.GzipFile(dst, "wb", mtime=0) as raw:
        text = "".join(
            ",".join(r[c] for c in ("model_id", "task_id", "item_id", "cluster", "score"))
            + "\n"
            for r in out
        )
        raw.write(("model_id,task_id,item_id,cluster,score\n" + text).encode())
    print(f"{dst}: {len(out)} records, {len(MODELS)} models, {len(items)} tasks")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

"""Stage 1, inputs: from artifact files to validated `EvalRun` records.

- `records`: `EvalRun`, the record of the input contract, and its canonical order;
- `sources`: finding files (paths, globs), choosing a reader, checks across records;
- `reading`: what the record readers share (gzip, lines, the contract's fields);
- `json_records`, `csv_records`: the contract's own formats (JSON, JSON Lines, CSV);
- `frameworks`: readers for eval frameworks' output (Inspect, lm-evaluation-harness);
- `load`: `load_runs`, the stage's entry; `parse_json`, the one JSON budget (size,
  containers, values, nesting, repeated keys) for any document read from outside.

Nothing here knows about statistics, markdown or GitHub.
"""

from leaderboard.inputs.frameworks import TASK_WEIGHTS
from leaderboard.inputs.load import load_runs, load_runs_noting
from leaderboard.inputs.reading import parse_document as parse_json
from leaderboard.inputs.records import DEFAULT_CATEGORY, MEASURES, EvalRun, merge_metrics
from leaderboard.inputs.sources import FORMATS

__all__ = [
    "DEFAULT_CATEGORY",
    "FORMATS",
    "MEASURES",
    "TASK_WEIGHTS",
    "EvalRun",
    "load_runs",
    "load_runs_noting",
    "merge_metrics",
    "parse_json",
]

"""Records written as the contract's three formats, for the readers' tests."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path


def write_records(
    directory: Path, kind: str, records: list[dict[str, object]], fields: Sequence[str]
) -> Path:
    """``runs.<kind>`` in `directory`: a JSON array, JSON Lines, or CSV with the
    columns `fields` (absent values empty, cells quoted where they need it)."""
    path = directory / f"runs.{kind}"
    if kind == "json":
        path.write_text(json.dumps(records))
    elif kind == "jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
    else:
        with path.open("w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fields, restval="", lineterminator="\n")
            writer.writeheader()
            writer.writerows(records)
    return path

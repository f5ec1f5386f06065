"""Write the JSON Schema of the report, generated from the pydantic model.

    python scripts/gen_schema.py           # rewrite schema/report.schema.json
    python scripts/gen_schema.py --check   # exit 1 when the file is stale

The schema is `leaderboard.report.Report.model_json_schema()` (JSON Schema draft
2020-12), pretty-printed with sorted keys, so downstream tools can validate a report
without importing Python.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from leaderboard.report import Report

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schema" / "report.schema.json"


def render_schema() -> str:
    """Return the report's JSON Schema as the text stored in `schema/`.

    Returns
    -------
    str
        The schema, indented by two spaces, keys sorted, ending in a newline.
    """
    schema = Report.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the schema file, or with ``--check`` report whether it is current."""
    parser = argparse.ArgumentParser(description="Write schema/report.schema.json.")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when the file is stale; write nothing"
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=SCHEMA_PATH,
        help="schema file (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    path: Path = args.output
    text = render_schema()
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    if args.check:
        if current != text:
            print(f"{path} is stale: run python scripts/gen_schema.py", file=sys.stderr)
            return 1
        return 0
    if current != text:
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

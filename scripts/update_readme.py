"""Regenerate the parts of README.md that the code produces.

    python scripts/update_readme.py           # rewrite the generated sections
    python scripts/update_readme.py --check   # exit 1 when README.md has drifted

Each generated section sits between ``<!-- NAME:start -->`` and ``<!-- NAME:end -->``:

- ``demo-comment``: the pull-request comment for the bundled example, exactly as
  ``make demo`` prints it (same command line), quoted so it reads as a comment;
- ``action-inputs-short``: the README's table of inputs, one line a cell
  (`SUMMARIES`);
- ``action-inputs`` / ``action-outputs`` in docs/inputs.md: the whole descriptions.

All tables are built from ``action.yml``, so names, defaults and descriptions cannot
drift from what the action declares.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
INPUTS_DOC = ROOT / "docs" / "inputs.md"
ACTION_YML = ROOT / "action.yml"

# The command line of `make demo` (the Makefile's `demo` target; a test checks it).
DEMO_ARGS = (
    "report",
    "examples/mmlu-pro-sample.csv.gz",
    "--baseline",
    "Meta-Llama-3_1-8B-Instruct",
    "--candidate",
    "Meta-Llama-3_1-8B",
)


def demo_comment() -> str:
    """Return what ``make demo`` prints: the comment for the bundled example.

    Runs ``python -m leaderboard`` with `DEMO_ARGS` from the repository root, as the
    Makefile does. Exit status 0 (no regression) and 1 (regression) both mean the
    report was made.
    """
    proc = subprocess.run(  # noqa: S603 - our own interpreter and fixed arguments
        [sys.executable, "-m", "leaderboard", *DEMO_ARGS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    if proc.returncode not in (0, 1):
        raise RuntimeError(
            f"the demo failed (exit {proc.returncode}): {proc.stderr.strip()}"
        )
    return proc.stdout


def quote(markdown: str) -> str:
    """Quote ``markdown`` line by line (``> ``), so it renders as one block quote."""
    lines = markdown.rstrip("\n").split("\n")
    return "\n".join(f"> {line}" if line else ">" for line in lines) + "\n"


def unquote(quoted: str) -> str:
    """Invert `quote`."""
    lines = quoted.rstrip("\n").split("\n")
    return (
        "\n".join(line[2:] if line.startswith("> ") else line[1:] for line in lines) + "\n"
    )


def load_action(path: Path = ACTION_YML) -> dict[str, Any]:
    """Parse ``action.yml`` (YAML 1.2, safe loader)."""
    data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise TypeError(f"{path}: expected a mapping at the top level")
    return data


def _cell(text: str) -> str:
    """One line of table-cell text: whitespace collapsed, `|` escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def format_default(value: object) -> str:
    """Show an input's default as a user would write it in a workflow."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


#: The README's one-line cell for each input (docs/inputs.md has action.yml's whole
#: description); a test checks that every input of action.yml has one, and no other.
SUMMARIES: dict[str, str] = {
    "results": "Result files or globs, relative to the workspace.",
    "baseline": "Model id the others are gated against; empty: no gate.",
    "candidates": "Model ids gated against `baseline`; empty: all others.",
    "confidence": "Confidence level of every interval.",
    "resamples": "Bootstrap resamples.",
    "seed": "Random seed: the same records and seed give the same numbers.",
    "margin": "Tolerated drop before a regression counts (0-1 scale).",
    "fail-on-regression": "Fail the step when the gate trips.",
    "comment": "Post or update the sticky pull request comment.",
    "comment-header": "Tells several leaderboards on one pull request apart.",
    "github-token": "Token for the API; never printed.",
    "template": "A Jinja template of your own for the comment.",
    "json-report": "Where the JSON report is written.",
    "format": "Format of the result files: auto, records, or a framework's name.",
    "metric": "Which of a framework's scores is the score.",
    "task-weights": "How tasks count in a model's mean: equal or items.",
    "model-id": "Model id for framework files that name no model.",
    "pr-number": "Pull request to comment on when the event does not say.",
    "gate-categories": "Also gate every category on its own.",
    "bot-login": "Login of a GitHub App that posts the comment.",
    "guardrails": "Cost, latency, tokens or metrics gated beside the score.",
    "baseline-results": "A second run (main's) to gate each model against.",
    "baseline-label": "Label of the baseline run in the comment.",
    "history-branch": "Branch that keeps main's runs for pull requests to use.",
    "history-keep": "How many runs `history-branch` keeps.",
    "commit-status": "Set the verdict as a commit status on the head commit.",
    "accept-label": "Pull request label that accepts a regression.",
    "baseline-map": "NEW=OLD pairs for models renamed between the runs.",
    "fail-on-undetermined": "Fail the step when the gate cannot tell.",
    "anchor": "A kept run (a release) every model is also gated against.",
    "anchor-margin": "Total drop allowed since the `anchor` run.",
    "max-drop": "The drop a pass must rule out (default 0.05 on the 0-1 scale).",
    "show-outputs": "Show what dropped items answered: auto (private repos only).",
}


def inputs_table(action: Mapping[str, Any], *, short: bool = False) -> str:
    """The table of the action's inputs, in ``action.yml`` order (`short`: the
    README's one-line cells, `SUMMARIES`)."""
    rows = ["| Input | Default | Description |", "|---|---|---|"]
    for name, raw in (action.get("inputs") or {}).items():
        spec = raw or {}
        default = format_default(spec.get("default"))
        if spec.get("required") and default == "":
            shown = "**required**"
        elif default == "":
            shown = "*empty*"
        else:
            shown = f"`{default}`"
        text = SUMMARIES[name] if short else str(spec.get("description", ""))
        rows.append(f"| `{name}` | {shown} | {_cell(text)} |")
    return "\n".join(rows) + "\n"


def outputs_table(action: Mapping[str, Any]) -> str:
    """The README's table of the action's outputs, in ``action.yml`` order."""
    rows = ["| Output | Description |", "|---|---|"]
    for name, spec in (action.get("outputs") or {}).items():
        rows.append(f"| `{name}` | {_cell((spec or {}).get('description', ''))} |")
    return "\n".join(rows) + "\n"


GENERATORS: dict[str, Callable[[], str]] = {
    "demo-comment": lambda: quote(demo_comment()),
    "action-inputs-short": lambda: inputs_table(load_action(), short=True),
    "action-inputs": lambda: inputs_table(load_action()),
    "action-outputs": lambda: outputs_table(load_action()),
}
#: Which file holds each generated section.
FILES: dict[str, Path] = {
    "demo-comment": README,
    "action-inputs-short": README,
    "action-inputs": INPUTS_DOC,
    "action-outputs": INPUTS_DOC,
}


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(<!-- {re.escape(name)}:start -->\n)(.*?)(<!-- {re.escape(name)}:end -->)",
        re.DOTALL,
    )


def section(text: str, name: str) -> str:
    """Return the body of the generated section ``name`` in ``text``."""
    match = _pattern(name).search(text)
    if match is None:
        raise KeyError(f"README.md has no <!-- {name}:start --> ... <!-- {name}:end -->")
    return match.group(2)


def replace_section(text: str, name: str, body: str) -> str:
    """Return ``text`` with the body of section ``name`` replaced by ``body``."""
    section(text, name)  # raises when the markers are missing
    return _pattern(name).sub(lambda m: m.group(1) + body + m.group(3), text, count=1)


def main(argv: list[str] | None = None) -> int:
    """Rewrite README.md's generated sections, or with ``--check`` report drift."""
    parser = argparse.ArgumentParser(description="Regenerate README.md's generated parts.")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 on drift; write nothing"
    )
    parser.add_argument(
        "--only", choices=sorted(GENERATORS), action="append", help="sections to update"
    )
    args = parser.parse_args(argv)
    drifted = False
    for path in dict.fromkeys(FILES.values()):
        text = path.read_text(encoding="utf-8")
        new = text
        for name in args.only or GENERATORS:
            if FILES[name] == path:
                new = replace_section(new, name, GENERATORS[name]())
        if new == text:
            continue
        if args.check:
            print(
                f"{path.name} has drifted: run python scripts/update_readme.py",
                file=sys.stderr,
            )
            drifted = True
        else:
            path.write_text(new, encoding="utf-8")
            print(f"updated {path}")
    return 1 if drifted else 0


if __name__ == "__main__":
    sys.exit(main())

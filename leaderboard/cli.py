"""The command line: ``leaderboard report FILE_OR_GLOB... [options]``.

`main` loads the records, builds the report, prints the markdown comment on stdout and
writes the optional JSON and markdown files atomically. Exit status: 0 report made, no
regression; 1 report made and a gated comparison regressed; 2 bad input or usage, with
one line on stderr (``leaderboard: error: ...``) and no traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from leaderboard._version import __version__
from leaderboard.errors import EXIT_USAGE, LeaderboardError, UsageError, did_you_mean
from leaderboard.exits import exit_status, out_of_memory
from leaderboard.inputs import FORMATS, EvalRun, load_runs_noting
from leaderboard.render import log_text
from leaderboard.report import BaselineRun
from leaderboard.stats import (
    LIMITS,
    AnchorRun,
    Baseline,
    ModelBaseline,
    Request,
    RunBaseline,
)
from leaderboard.stats.anchor import ANCHOR_LABEL
from leaderboard.stats.guardrails import GUARDRAIL
from leaderboard.stats.two_runs import (
    BASELINE_MAP,
    DEFAULT_LABEL,
    check_label,
    parse_baseline_map,
)

PROG = "leaderboard"
# the statistics' neutral names of settings, as this shell's options
OPTIONS = {GUARDRAIL: "--guardrail", BASELINE_MAP: "--baseline-map"}
EPILOG = """\
exit status:
  0  report made, no gated comparison regressed (or no gate asked for)
  1  report made, and a candidate regressed against the baseline (with
     --fail-on-undetermined, also when the gate cannot tell)
  2  bad input or usage; one line on stderr says which file, line, field and fix

examples:
  leaderboard report results/*.jsonl
  leaderboard report 'runs/**/*.csv.gz' --baseline main --candidate pr-1 --json r.json
  leaderboard report pr/*.json --baseline-results 'main/*.json' --baseline-label main
  leaderboard report pr/ --baseline-results main/ --baseline-map acme/v2=acme/v1
"""
INPUT_HELP = """\
input: one record per (model, task), or per (model, task, item), with fields model_id,
task_id, score in [0, 1] (required) and metric_name, category, weight, item_id, cluster,
sample (optional); files .json (an array, or {"records": [...]}), .jsonl / .ndjson, .csv
with a header row, each optionally gzipped. Quote globs so the shell leaves them alone;
'**' matches directories recursively.
"""


class _ArgumentError(Exception):
    """A usage error found by argparse; `main` prints it as one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _ArgumentError(f"{message} (see `{self.prog} --help`)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``leaderboard`` command."""
    parser = _Parser(
        prog=PROG,
        description="A leaderboard with honest error bars, and a regression gate.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    report = commands.add_parser(
        "report",
        help="print the leaderboard comment for eval results (see `report --help`)",
        description="Print the leaderboard as a markdown comment on stdout.\n\n"
        + INPUT_HELP,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    report.add_argument(
        "files", nargs="+", metavar="FILE_OR_GLOB", help="result files or quoted globs"
    )
    report.add_argument(
        "--format",
        default="auto",
        choices=FORMATS,
        help="how to read the files: auto (default) recognises the frameworks' output "
        "(Inspect, lm-eval, promptfoo, EvalScope, HELM, LiveCodeBench, lighteval, "
        "deepeval, SWE-bench) and reads everything else as records; the others force "
        "one reader",
    )
    report.add_argument(
        "--metric",
        action="append",
        metavar="METRIC",
        help="for framework output: the score to keep when a task reports several "
        "(acc_norm; exact_match,flexible-extract; an Inspect scorer; promptfoo's pass, "
        "score or a named score; a deepeval metric); repeat to give fallbacks "
        "(default: each framework's primary score, see docs/frameworks.md)",
    )
    report.add_argument(
        "--model-id",
        metavar="ID",
        help="for framework output that names no model: the model_id to give its "
        "results (deepeval without a model hyperparameter, an SWE-bench report without "
        "a model in its name, lighteval without model_name); an id a file names is "
        "kept (default: deepeval, agent; lighteval refuses)",
    )
    report.add_argument(
        "--task-weights",
        default="equal",
        choices=("equal", "items"),
        help="how tasks count in a model's mean: equal (default) or items (by their "
        "number of items, as lm-eval's group scores)",
    )
    gate = report.add_argument_group("regression gate")
    gate.add_argument(
        "--baseline",
        metavar="MODEL",
        help="model_id every candidate is compared with; without it there is no gate",
    )
    gate.add_argument(
        "--candidate",
        metavar="MODEL",
        action="append",
        help="model_id to gate against the baseline; repeat for several "
        "(default: every other model; with --baseline-results, every model in both runs)",
    )
    gate.add_argument(
        "--baseline-results",
        metavar="FILE_OR_GLOB",
        nargs="+",
        action="extend",
        help="a second run of the same models, the baseline (e.g. the base branch's "
        "results): each model id in both runs is gated against its own row of this "
        "run, paired on the tasks and items both hold; any supported format; give it "
        "after the result files",
    )
    gate.add_argument(
        "--baseline-label",
        metavar="LABEL",
        help='name of the baseline run, added to its model ids as "MODEL @ LABEL" '
        "(default: baseline)",
    )
    gate.add_argument(
        "--anchor-results",
        metavar="FILE_OR_GLOB",
        nargs="+",
        action="extend",
        help="an anchor run (a release, a tagged commit): each model is also gated "
        "against its own row of it at --anchor-margin, a budget across merges; give it "
        "after the result files",
    )
    gate.add_argument(
        "--anchor-margin",
        default="0.0",
        metavar="DROP",
        help="total drop allowed since the anchor run, e.g. 0.03 (default: 0.0)",
    )
    gate.add_argument(
        "--anchor-label",
        metavar="LABEL",
        help='name of the anchor run, added to its model ids as "MODEL @ LABEL" '
        "(default: anchor)",
    )
    gate.add_argument(
        "--baseline-map",
        metavar="NEW=OLD",
        action="append",
        help="gate model NEW of the results against model OLD of --baseline-results "
        "(a renamed model); repeat for several. Without it, when each run holds one "
        "model id and they differ, the two are paired",
    )
    gate.add_argument(
        "--margin",
        default="0.0",
        metavar="DROP",
        help="tolerated drop in mean score before a regression counts, e.g. 0.01 "
        "(default: 0.0)",
    )
    gate.add_argument(
        "--max-drop",
        default="0.05",
        metavar="DROP",
        help="a comparison passes only when its interval rules out a drop this large "
        "(never below --margin); otherwise it cannot tell (default: 0.05)",
    )
    gate.add_argument(
        "--guardrail",
        action="append",
        metavar="NAME:TOLERANCE",
        help="also gate a measure beside the score; repeat for several: cost, latency "
        "or tokens with a tolerated relative increase (cost:+10%%), or a secondary "
        "metric with a tolerated drop (faithfulness:-0.02)",
    )
    gate.add_argument(
        "--gate-categories",
        action="store_true",
        help="also gate each category's mean, not only the overall mean",
    )
    gate.add_argument(
        "--show-outputs",
        action="store_true",
        help="beside each item that dropped most, show its input and what the baseline "
        "and the candidate answered (the first line of each, from the result files); "
        "off by default: benchmark answers posted publicly leak into training data",
    )
    stats = report.add_argument_group("statistics")
    stats.add_argument(
        "--confidence",
        default="0.95",
        metavar="LEVEL",
        help="confidence level of every interval, between 0 and 1 (default: 0.95)",
    )
    stats.add_argument(
        "--resamples",
        default="10000",
        metavar="N",
        help="bootstrap resamples; more is steadier and slower (default: 10000)",
    )
    stats.add_argument(
        "--seed",
        default="0",
        metavar="N",
        help="random seed; the same seed and records give the same numbers (default: 0)",
    )
    gate.add_argument(
        "--fail-on-undetermined",
        action="store_true",
        help="exit 1 when the gate cannot tell (gate.status undetermined), e.g. when "
        "no model could be paired; by default that alone exits 0",
    )
    out = report.add_argument_group("output")
    out.add_argument(
        "--template",
        metavar="PATH",
        help="render the comment with this Jinja template instead of the built-in one "
        "(as the action's `template` input); a template that fails falls back to the "
        "built-in comment with a warning, and the exit status stays the gate's",
    )
    out.add_argument("--json", metavar="PATH", help="also write the JSON report here")
    out.add_argument(
        "--markdown", metavar="PATH", help="also write the markdown comment here"
    )
    return parser


def _listed(models: Sequence[str]) -> str:
    return ", ".join(repr(m) for m in models[:10]) + (", ..." if len(models) > 10 else "")


def _check_models(
    runs: Sequence[EvalRun],
    baseline: str | None,
    candidates: list[str],
    baseline_runs: Sequence[EvalRun] | None = None,
    baseline_map: dict[str, str] | None = None,
) -> None:
    models = sorted({run.model_id for run in runs})
    known = set(models)
    if baseline_runs is not None:
        in_base = {run.model_id for run in baseline_runs}
        shared = sorted(known & in_base)
        mapped = set(baseline_map or {})
        if not mapped and len(known) == 1 and len(in_base) == 1:
            mapped = known  # the only model of each run: paired whatever their ids
        for c in candidates:
            if c not in mapped and (c not in known or c not in in_base):
                where = "the results" if c not in known else "the --baseline-results"
                raise UsageError(
                    f"--candidate: model {c!r} is not in {where}; give a model_id "
                    f"present in both runs: {_listed(shared) or '(none)'}"
                )
        return
    listed = _listed(models)
    for option, model in [("--baseline", baseline)] + [
        ("--candidate", c) for c in candidates
    ]:
        if model is not None and model not in known:
            raise UsageError(
                f"{option}: model {model!r} is not in the data"
                f"{did_you_mean(model, models)}; "
                f"give one of the model_id values it holds: {listed}"
            )
    if candidates and baseline is None:
        raise UsageError("--candidate: needs --baseline, the model it is compared with")
    if baseline is not None and baseline in candidates:
        raise UsageError(f"--candidate: {baseline!r} is the baseline; give other models")


def write_atomic(path: Path, text: str, option: str) -> None:
    """Write `text` to `path` through a temporary file and a rename: whole or absent."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise UsageError(f"{option}: cannot write {path} ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise UsageError(f"{option}: cannot write {path} ({exc.strerror})") from None


def _check_target(option: str, value: str | None) -> Path | None:
    if value is None:
        return None
    if value.strip() == "":
        raise UsageError(f"{option}: must be a file path, got an empty string")
    path = Path(value)
    if path.is_dir():
        raise UsageError(f"{option}: {value} is a directory; give a file path")
    return path


def _baseline_run(args: argparse.Namespace) -> BaselineRun | None:
    """The baseline run's description from --baseline-results and --baseline-label."""
    if args.baseline_results is None:
        if args.baseline_label is not None:
            raise UsageError(
                "--baseline-label: names the run given with --baseline-results; "
                "give that too, or drop the label"
            )
        return None
    if args.baseline is not None:
        raise UsageError(
            "--baseline and --baseline-results exclude each other: use "
            "--baseline-results to gate each model against its own row of a second "
            "run, or --baseline to gate the models of one run against one of them"
        )
    label = DEFAULT_LABEL if args.baseline_label is None else args.baseline_label.strip()
    try:
        check_label(label)
    except UsageError as exc:
        raise UsageError(f"--baseline-label: {exc}") from None
    return BaselineRun(label=label, source="results")


def _numbers(args: argparse.Namespace) -> dict[str, Any]:
    """The request's numeric settings, each within `leaderboard.stats.LIMITS`."""
    return {
        "confidence": LIMITS["confidence"].read_float("--confidence", args.confidence),
        "margin": LIMITS["margin"].read_float("--margin", args.margin),
        "max_drop": LIMITS["max_drop"].read_float("--max-drop", args.max_drop),
        "resamples": LIMITS["resamples"].read_int("--resamples", args.resamples),
        "seed": LIMITS["seed"].read_int("--seed", args.seed),
    }


def _anchor(
    args: argparse.Namespace, readers: dict[str, Any]
) -> tuple[AnchorRun | None, list[str]]:
    """The anchor run of --anchor-results (None without it), and its readers' notes."""
    anchor_margin = LIMITS["anchor_margin"].read_float(
        "--anchor-margin", args.anchor_margin
    )
    if args.anchor_results is None:
        if args.anchor_label is not None:
            raise UsageError(
                "--anchor-label: names the run given with --anchor-results; give "
                "--anchor-results too, or drop --anchor-label"
            )
        return None, []
    anchor_runs, notes = load_runs_noting(args.anchor_results, **readers)
    label = ANCHOR_LABEL if args.anchor_label is None else args.anchor_label.strip()
    return AnchorRun(tuple(anchor_runs), anchor_margin, label), notes


def _report(args: argparse.Namespace) -> int:
    numbers = _numbers(args)
    json_path = _check_target("--json", args.json)
    markdown_path = _check_target("--markdown", args.markdown)
    candidates = list(dict.fromkeys(args.candidate or []))
    baseline_run = _baseline_run(args)
    from leaderboard.stats import check_guardrails, parse_guardrail  # noqa: PLC0415

    guardrails = check_guardrails(
        [parse_guardrail(g, OPTIONS[GUARDRAIL]) for g in args.guardrail or ()],
        OPTIONS[GUARDRAIL],
    )
    if guardrails and args.baseline is None and args.baseline_results is None:
        raise UsageError(
            "--guardrail: gates a candidate against a baseline; give --baseline or "
            "--baseline-results too"
        )

    readers: dict[str, Any] = {
        "format": args.format,
        "metrics": args.metric or (),
        "task_weights": args.task_weights,
        "model_id": args.model_id,
        "texts": args.show_outputs,  # inputs and answers kept only to be shown
    }
    runs, notes = load_runs_noting(args.files, **readers)
    baseline_runs = None
    if args.baseline_results is not None:
        # Each run is checked on its own: two runs of one model are not duplicates.
        baseline_runs, base_notes = load_runs_noting(args.baseline_results, **readers)
        notes = list(dict.fromkeys([*notes, *base_notes]))
    if args.baseline_map and baseline_runs is None:
        raise UsageError(
            "--baseline-map: pairs models of the results with models of "
            "--baseline-results; give that too"
        )
    baseline_map = parse_baseline_map(args.baseline_map, OPTIONS[BASELINE_MAP])
    _check_models(runs, args.baseline, candidates, baseline_runs, baseline_map)
    anchor, anchor_notes = _anchor(args, readers)
    notes = list(dict.fromkeys([*notes, *anchor_notes]))
    for note in notes:
        _warn(note)

    from leaderboard.render import CommentContext, render_with_fallback  # noqa: PLC0415
    from leaderboard.stats import report_for  # noqa: PLC0415

    baseline: Baseline = None
    if baseline_runs is not None:
        baseline = RunBaseline(tuple(baseline_runs), baseline_run, baseline_map or None)
    elif args.baseline is not None:
        baseline = ModelBaseline(args.baseline)
    try:
        report = report_for(
            Request(
                runs=tuple(runs),
                baseline=baseline,
                candidates=tuple(candidates) or None,
                gate_categories=args.gate_categories,
                show_outputs=args.show_outputs,
                guardrails=tuple(guardrails),
                anchor=anchor,
                **numbers,
            )
        )
    except UsageError as exc:  # the statistics name a setting; say it as an option
        raise exc.naming(OPTIONS) from None
    if notes:
        report = report.model_copy(update={"warnings": [*notes, *report.warnings]})
    template = None if args.template is None else Path(args.template)
    markdown, template_error = render_with_fallback(
        report, CommentContext(), template=template
    )
    if template_error is not None:
        _warn(f"--template: {template_error}; the built-in comment is printed instead")
    if json_path is not None:
        write_atomic(json_path, report.model_dump_json(indent=2) + "\n", "--json")
    if markdown_path is not None:
        write_atomic(markdown_path, markdown, "--markdown")
    _print(markdown)
    return exit_status(report, fail_on_undetermined=args.fail_on_undetermined)


def _print(text: str) -> None:
    end = "" if text.endswith("\n") else "\n"
    try:
        try:
            sys.stdout.write(text + end)
        except UnicodeEncodeError:  # a terminal that cannot show every id
            sys.stdout.write((text + end).encode("ascii", "backslashreplace").decode())
        sys.stdout.flush()
    except BrokenPipeError:  # `leaderboard report ... | head`: the status still counts
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _warn(message: str) -> None:
    sys.stderr.write(f"{PROG}: warning: {log_text(message)}\n")


def _fail(message: str) -> None:
    # log_text: the message quotes ids and file names, and a workflow step's log
    # would run a ``##[command]`` found anywhere in the line.
    line = log_text(" ".join(message.split("\n")).replace("\r", " "))
    sys.stderr.write(f"{PROG}: error: {line}\n")
    sys.stderr.flush()


OUT_OF_MEMORY = out_of_memory("--resamples", "reports")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0, 1 or 2)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except _ArgumentError as exc:
        _fail(str(exc))
        return EXIT_USAGE
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else 0
    try:
        return _report(args)
    except LeaderboardError as exc:
        _fail(str(exc))
        return exc.exit_code
    except MemoryError:
        _fail(OUT_OF_MEMORY)
        return EXIT_USAGE

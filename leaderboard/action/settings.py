"""The action's settings: its inputs (`INPUT_*`) and the runner's variables.

The runner passes each input of ``action.yml`` as ``INPUT_<NAME>``, the name upper-cased
with hyphens kept (``INPUT_FAIL-ON-REGRESSION``). `Settings.from_env` reads them, and the
usual ``GITHUB_*`` variables, from a mapping it is given: nothing here reads
``os.environ``. Each input has a small parser whose error names the input, e.g.
``confidence: must be between 0 and 1 (exclusive), got '1.5'``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from leaderboard.action.names import slug
from leaderboard.errors import UsageError
from leaderboard.inputs import FORMATS, TASK_WEIGHTS
from leaderboard.inputs.frameworks.metrics import check_model_id
from leaderboard.stats import (
    LIMITS,
    Guardrail,
    Limit,
    check_guardrails,
    parse_baseline_map,
    parse_guardrail,
)

T = TypeVar("T")

#: Runs the history branch keeps per comment-header by default, and at most. A pull
#: request is gated against its base commit's run or the nearest stored ancestor
#: within `leaderboard.action.history.branch.WALK_LIMIT` commits: 50 runs cover the last 50
#: pushes to the default branch (weeks in a busy repository), enough for any pull
#: request that is not itself weeks behind, and the drift table's window.
DEFAULT_HISTORY_KEEP = 50
MAX_HISTORY_KEEP = 1000
DEFAULT_ACCEPT_LABEL = "accept-regression"
MAX_LABEL_CHARS = 50  # GitHub's limit on a label's name
_HEADER = re.compile(r"[\w .:/()+-]{1,64}")
_TRUE = ("true", "True", "TRUE")
_FALSE = ("false", "False", "FALSE")


def parse_bool(name: str, raw: str) -> bool:
    """Parse a boolean input the way ``@actions/core`` ``getBooleanInput`` does.

    Parameters
    ----------
    name : str
        The input's name, for the error message.
    raw : str
        The value, already stripped.

    Returns
    -------
    bool

    Raises
    ------
    UsageError
        Unless the value is true/True/TRUE or false/False/FALSE.
    """
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise UsageError(f"{name}: must be true or false, got {raw!r}")


def parse_show_outputs(name: str, raw: str) -> str:
    """Parse ``show-outputs``: ``auto``, or true/false as `parse_bool` reads them."""
    if raw.lower() == "auto":
        return "auto"
    try:
        return "true" if parse_bool(name, raw) else "false"
    except UsageError:
        raise UsageError(f"{name}: must be auto, true or false, got {raw!r}") from None


def parse_int(name: str, raw: str, *, minimum: int, maximum: float = math.inf) -> int:
    """Parse an integer input within ``[minimum, maximum]`` (worded as `Limit` words it)."""
    return Limit(minimum, maximum).read_int(name, raw)


def parse_confidence(name: str, raw: str) -> float:
    """Parse a confidence level: a number strictly between 0 and 1."""
    return LIMITS["confidence"].read_float(name, raw)


def parse_margin(name: str, raw: str) -> float:
    """Parse the tolerated drop: a number in [0, 1), on the score's scale."""
    return LIMITS["margin"].read_float(name, raw)


def parse_anchor_margin(name: str, raw: str) -> float:
    """Parse the total drop tolerated since the anchor: as `parse_margin`."""
    return LIMITS["anchor_margin"].read_float(name, raw)


def parse_max_drop(name: str, raw: str) -> float:
    """Parse the drop a pass must rule out: a number in (0, 1], on the score's scale."""
    return LIMITS["max_drop"].read_float(name, raw)


def split_list(raw: str) -> tuple[str, ...]:
    """Split a newline- or comma-separated input into its non-blank items."""
    parts = re.split(r"[\n,]", raw)
    return tuple(p.strip() for p in parts if p.strip())


_TOLERANCE_END = re.compile(r":\s*[+-]?(\d+(\.\d*)?|\.\d+)%?\s*$")


def parse_guardrails(name: str, raw: str) -> tuple[Guardrail, ...]:
    """Parse ``guardrails``: ``NAME:TOLERANCE`` one a line or comma separated.

    A comma inside a metric name (lm-eval's ``exact_match,flexible-extract``) stays
    in the name: a comma only separates guardrails after a tolerance.
    """
    specs: list[str] = []
    for line in raw.splitlines():
        part: list[str] = []
        for piece in line.split(","):
            part.append(piece)
            if _TOLERANCE_END.search(piece):
                specs.append(",".join(part))
                part = []
        if "".join(part).strip():
            specs.append(",".join(part))
    parsed = [parse_guardrail(s, name) for s in specs if s.strip()]
    return tuple(check_guardrails(parsed, name))


def parse_results(name: str, raw: str) -> tuple[str, ...]:
    """Parse ``results``: at least one file or glob."""
    items = split_list(raw)
    if not items:
        raise UsageError(
            f"{name}: required, got nothing (give the eval runner's result files or "
            "globs, one a line, relative to the workspace)"
        )
    return items


def parse_header(name: str, raw: str) -> str:
    """Parse ``comment-header``: a short single-line label."""
    if not _HEADER.fullmatch(raw):
        raise UsageError(
            f"{name}: must be 1 to 64 letters, digits, spaces or . : / ( ) + - _, "
            f"got {raw!r}"
        )
    return raw


def parse_accept_label(name: str, raw: str) -> str | None:
    """Parse ``accept-label``: empty (off), or a label name as GitHub allows one."""
    label = raw.strip()
    if not label:
        return None
    if len(label) > MAX_LABEL_CHARS or not label.isprintable():
        raise UsageError(
            f"{name}: must be a label name of at most {MAX_LABEL_CHARS} printable "
            f"characters on one line (or empty: off), got {raw!r}"
        )
    return label


def parse_format(name: str, raw: str) -> str:
    """Parse ``format``: one of `FORMATS`."""
    if raw not in FORMATS:
        raise UsageError(f"{name}: must be one of {', '.join(FORMATS)}, got {raw!r}")
    return raw


def parse_metrics(name: str, raw: str) -> tuple[str, ...]:
    """Parse ``metric``: preferred metrics, one a line or separated by spaces.

    Not by commas: lm-eval names a metric under a filter ``exact_match,flexible-extract``.
    """
    items = tuple(dict.fromkeys(raw.split()))
    for item in items:
        if not item.isprintable() or len(item) > 200:
            raise UsageError(f"{name}: not a metric name: {item[:60]!r}")
    return items


def parse_task_weights(name: str, raw: str) -> str:
    """Parse ``task-weights``: one of `TASK_WEIGHTS`."""
    if raw not in TASK_WEIGHTS:
        raise UsageError(f"{name}: must be one of {', '.join(TASK_WEIGHTS)}, got {raw!r}")
    return raw


def parse_pr_number(name: str, raw: str) -> int | None:
    """Parse ``pr-number``: empty, or a pull request number (a positive integer)."""
    if raw == "":
        return None
    if not raw.isascii() or not raw.isdigit():
        raise UsageError(f"{name}: must be a pull request number, got {raw!r}")
    return parse_int(name, raw, minimum=1)


_LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?")


def parse_login(name: str, raw: str) -> str | None:
    """Parse ``bot-login``: empty, or a GitHub login such as ``my-app[bot]``."""
    if raw == "":
        return None
    if not _LOGIN.fullmatch(raw):
        raise UsageError(
            f"{name}: must be a GitHub login like my-app[bot] (letters, digits and "
            f"hyphens, optionally ending in [bot]), got {raw!r}"
        )
    return raw


def parse_model_id(name: str, raw: str) -> str | None:
    """Parse ``baseline``: empty (no gate) or a model id."""
    return raw or None


_BRANCH = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._/-]{0,199}")


def parse_branch(name: str, raw: str) -> str | None:
    """Parse ``history-branch``: empty (off) or a plain git branch name."""
    if raw == "":
        return None
    if (
        not _BRANCH.fullmatch(raw)
        or ".." in raw
        or "//" in raw
        or raw.endswith(("/", ".", ".lock"))
        or "/." in raw
    ):
        raise UsageError(
            f"{name}: must be a branch name such as leaderboard-history (letters, "
            f"digits, . _ - /; no '..', no trailing / or .lock), got {raw!r}"
        )
    return raw


def parse_anchor(name: str, raw: str) -> str | None:
    """Parse ``anchor``: empty (off), a commit sha (7 to 40 hex digits), or a tag or ref.

    A ref is spelled as a branch name is (`parse_branch`): ``v1.2``, ``refs/tags/v1``.
    """
    if raw == "":
        return None
    try:
        return parse_branch(name, raw)
    except UsageError:
        raise UsageError(
            f"{name}: must be a commit sha (7 to 40 hex digits) or a tag such as v1.2 "
            f"(letters, digits, . _ - /; no '..', no trailing / or .lock), got {raw!r}"
        ) from None


def parse_label(name: str, raw: str) -> str | None:
    """Parse ``baseline-label``: empty (the default label) or a short one-line label."""
    return None if raw == "" else parse_header(name, raw)


def parse_baseline_map_input(name: str, raw: str) -> tuple[tuple[str, str], ...]:
    """Parse ``baseline-map``: ``NEW=OLD`` pairs, newline or comma separated."""
    pairs = parse_baseline_map(split_list(raw), option=name)
    return tuple(sorted(pairs.items()))


@dataclass(frozen=True)
class Input:
    """One input of ``action.yml``: its name, its default, and its parser."""

    name: str
    default: str
    parse: Callable[[str, str], Any]

    @property
    def env_name(self) -> str:
        """The variable the runner sets: ``INPUT_`` + the name upper-cased."""
        return "INPUT_" + self.name.replace(" ", "_").upper()


#: Every input the action reads, in the order of ``action.yml``. The default of
#: ``github-token`` (``${{ github.token }}``) is the runner's business: here, empty.
INPUTS: tuple[Input, ...] = (
    Input("results", "", parse_results),
    Input("baseline", "", parse_model_id),
    Input("candidates", "", lambda _n, raw: split_list(raw)),
    Input("confidence", "0.95", parse_confidence),
    Input("resamples", "10000", LIMITS["resamples"].read_int),
    Input("seed", "0", LIMITS["seed"].read_int),
    Input("margin", "0", parse_margin),
    Input("fail-on-regression", "true", parse_bool),
    Input("comment", "true", parse_bool),
    Input("comment-header", "leaderboard", parse_header),
    Input("github-token", "", lambda _n, raw: raw),
    Input("template", "", lambda _n, raw: raw or None),
    Input("json-report", "", lambda _n, raw: raw or None),
    Input("format", "auto", parse_format),
    Input("metric", "", parse_metrics),
    Input("task-weights", "equal", parse_task_weights),
    Input("model-id", "", check_model_id),
    Input("pr-number", "", parse_pr_number),
    Input("gate-categories", "false", parse_bool),
    Input("bot-login", "", parse_login),
    Input("guardrails", "", parse_guardrails),
    Input("baseline-results", "", lambda _n, raw: split_list(raw)),
    Input("baseline-label", "", parse_label),
    Input("history-branch", "", parse_branch),
    Input(
        "history-keep",
        str(DEFAULT_HISTORY_KEEP),
        lambda n, raw: parse_int(n, raw, minimum=1, maximum=MAX_HISTORY_KEEP),
    ),
    Input("commit-status", "true", parse_bool),
    Input("accept-label", DEFAULT_ACCEPT_LABEL, parse_accept_label),
    Input("baseline-map", "", parse_baseline_map_input),
    Input("fail-on-undetermined", "false", parse_bool),
    Input("anchor", "", parse_anchor),
    Input("anchor-margin", "0", parse_anchor_margin),
    Input("max-drop", "0.05", parse_max_drop),
    Input("show-outputs", "auto", parse_show_outputs),
)


@dataclass(frozen=True)
class Settings:
    """Everything the action needs to know, parsed and checked.

    Paths (``results``, ``template``, ``json_report``) are already joined to the
    workspace when they were relative. The token is left out of ``repr``.
    """

    results: tuple[str, ...]
    baseline: str | None = None
    candidates: tuple[str, ...] = ()
    confidence: float = 0.95
    resamples: int = 10_000
    seed: int = 0
    margin: float = 0.0
    fail_on_regression: bool = True
    comment: bool = True
    comment_header: str = "leaderboard"
    github_token: str = field(default="", repr=False)
    template: Path | None = None
    json_report: Path | None = None
    format: str = "auto"
    metric: tuple[str, ...] = ()
    task_weights: str = "equal"
    model_id: str | None = None
    pr_number: int | None = None
    gate_categories: bool = False
    guardrails: tuple[Guardrail, ...] = ()
    bot_login: str | None = None
    baseline_results: tuple[str, ...] = ()
    baseline_label: str | None = None
    history_branch: str | None = None
    history_keep: int = DEFAULT_HISTORY_KEEP
    commit_status: bool = True
    accept_label: str | None = DEFAULT_ACCEPT_LABEL
    baseline_map: tuple[tuple[str, str], ...] = ()  # (NEW, OLD) pairs, sorted
    fail_on_undetermined: bool = False
    anchor: str | None = None  # a commit or tag whose run on history-branch is the anchor
    anchor_margin: float = 0.0
    max_drop: float = 0.05  # a pass rules out a drop this large (CONTRACT.md 13)
    show_outputs: str = "auto"  # auto (shown on a private repository), true or false
    # The runner's variables.
    api_url: str = "https://api.github.com"
    server_url: str = "https://github.com"
    repository: str | None = None
    event_name: str | None = None
    event_path: Path | None = None
    sha: str | None = None
    run_id: int | None = None
    workspace: Path = Path()
    output_path: Path | None = None
    summary_path: Path | None = None
    action_repository: str | None = None  # GITHUB_ACTION_REPOSITORY: this action's repo
    action_ref: str | None = None  # GITHUB_ACTION_REF: the tag or sha `uses:` named

    @classmethod
    def from_env(cls, env: Mapping[str, str], *, lenient: bool = False) -> Settings:
        """Read the settings from the runner's environment.

        Parameters
        ----------
        env : Mapping[str, str]
            The environment (``os.environ`` in the action, a dict in tests).
        lenient : bool
            Never raise: an input that does not parse takes its default. For reporting
            a configuration error through the outputs, summary and comment; if an input
            that decides where the comment goes (``comment``, ``comment-header``,
            ``pr-number``) is among them, ``comment`` is false, so that the failure
            notice never lands on another leaderboard's comment.

        Returns
        -------
        Settings

        Raises
        ------
        UsageError
            The first input that does not parse, named in the message.
        """
        values: dict[str, Any] = {}
        failed: set[str] = set()
        for spec in INPUTS:
            raw = env.get(spec.env_name, spec.default).strip()
            try:
                value = spec.parse(spec.name, raw)
            except UsageError:
                if not lenient:
                    raise
                failed.add(spec.name)
                value = (
                    () if spec.name == "results" else spec.parse(spec.name, spec.default)
                )
            values[spec.name.replace("-", "_")] = value
        if failed & {"comment", "comment-header", "pr-number", "bot-login"}:
            values["comment"] = False

        if (
            values["candidates"]
            and values["baseline"] is None
            and not values["baseline_results"]
            and values["history_branch"] is None
            and not lenient
        ):
            raise UsageError(
                "candidates: given without a baseline (set `baseline` to the model "
                "the candidates are gated against)"
            )
        if values["anchor"] is not None and values["history_branch"] is None:
            if not lenient:
                raise UsageError(
                    "anchor: names a run kept on history-branch, which is not set (set "
                    "history-branch to the branch that keeps the runs, or drop anchor)"
                )
            values["anchor"] = None
        workspace = Path(env.get("GITHUB_WORKSPACE") or ".")
        values["results"] = tuple(_join(workspace, p) for p in values["results"])
        values["baseline_results"] = tuple(
            _join(workspace, p) for p in values["baseline_results"]
        )
        if values["baseline_results"] and values["baseline"] is not None and not lenient:
            raise UsageError(
                "baseline-results: given together with baseline; use baseline to gate "
                "models of one run against one of them, or baseline-results to gate "
                "each model against its own run in a second set of results, not both"
            )
        for key in ("template", "json_report"):
            if values[key] is not None:
                values[key] = Path(_join(workspace, values[key]))
        run_id = env.get("GITHUB_RUN_ID", "").strip()
        return cls(
            **values,
            api_url=(env.get("GITHUB_API_URL") or "https://api.github.com").rstrip("/"),
            server_url=(env.get("GITHUB_SERVER_URL") or "https://github.com").rstrip("/"),
            repository=env.get("GITHUB_REPOSITORY") or None,
            event_name=env.get("GITHUB_EVENT_NAME") or None,
            event_path=_path(env.get("GITHUB_EVENT_PATH")),
            sha=env.get("GITHUB_SHA") or None,
            run_id=int(run_id) if run_id.isascii() and run_id.isdigit() else None,
            workspace=workspace,
            output_path=_path(env.get("GITHUB_OUTPUT")),
            summary_path=_path(env.get("GITHUB_STEP_SUMMARY")),
            action_repository=env.get("GITHUB_ACTION_REPOSITORY") or None,
            action_ref=env.get("GITHUB_ACTION_REF") or None,
        )

    @property
    def docs_url(self) -> str | None:
        """The statistics guide of the action version that runs ("How to read this")."""
        repo, ref = self.action_repository, self.action_ref
        if not repo or not ref or repo.count("/") != 1:
            return None
        return f"{self.server_url}/{repo}/blob/{ref}/docs/statistics.md"

    @property
    def run_url(self) -> str | None:
        """Link to this workflow run, when the runner said which run this is."""
        if self.repository is None or self.run_id is None:
            return None
        return f"{self.server_url}/{self.repository}/actions/runs/{self.run_id}"

    def default_report_path(self) -> Path:
        """Where the JSON report goes when ``json-report`` is empty.

        In the workspace, which a Docker action shares with the job's later steps
        (``RUNNER_TEMP`` is not mounted into the container); one file per
        ``comment-header`` so that two leaderboards in one job do not collide.
        """
        if self.comment_header == "leaderboard":
            return self.workspace / "leaderboard-report.json"
        return self.workspace / f"leaderboard-report-{slug(self.comment_header)}.json"


def _join(workspace: Path, path: str) -> str:
    if Path(path).is_absolute():
        return path
    return str(workspace / path)


def _path(raw: str | None) -> Path | None:
    return Path(raw) if raw else None

"""Rendering a `Report` as markdown: the sticky PR comment, the job summary, failures.

The built-in templates live in ``templates/`` at the repository root, next to the
``leaderboard`` package (a wheel installs them under ``<prefix>/share``). A user
template (the action's ``template`` input) renders in a
`leaderboard.render.sandbox.BudgetSandbox` (Jinja's sandbox with a budget of steps,
time and size) with the same filters; it sees only the escaped
view model (`leaderboard.render.view.View`) as ``view``, and cannot include other files.

Size limits: GitHub rejects a comment over 65,536 characters and a step summary over
1 MiB. Long parts are folded in ``<details>`` (the plot above 25 models); when the text
is still too long, `render_comment` and `render_summary` drop whole sections in this
order until it fits: pairwise ties beyond 50, the answers beside the items that
dropped most, all pairwise ties, categories, the plot,
gate rows that did not regress, all gate rows, then leaderboard rows beyond the best N
(the baseline's and regressed candidates' rows stay). The text says what was left out
and where the full report is; the verdict line always stays. Templates see the
choices as ``view.shown`` and ``view.omitted``.
"""

from __future__ import annotations

import functools
import json
import pathlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import jinja2
import jinja2.exceptions

from leaderboard._version import GENERATOR
from leaderboard.errors import UsageError
from leaderboard.render.escape import md_text, md_with_code, safe_url, truncate
from leaderboard.render.numbers import ci, count, num, pct, signed
from leaderboard.render.template_cache import TemplateCache
from leaderboard.render.view import Options, View, build_view, short_sha
from leaderboard.report import DataSummary, Gate, LeaderboardRow, Report, ReportSettings

__all__ = [
    "COMMENT_LIMIT",
    "SUMMARY_LIMIT",
    "CommentContext",
    "make_environment",
    "render_comment",
    "render_failure",
    "render_json",
    "render_markdown",
    "render_summary",
    "render_with_fallback",
]


def _templates_dir() -> pathlib.Path:
    """``templates/`` beside the package (a checkout, an editable install, the image),
    else where a wheel installs them (``<prefix>/share/leaderboard-action/templates``,
    the ``data-files`` of pyproject.toml)."""
    beside = pathlib.Path(__file__).resolve().parents[2] / "templates"
    if beside.is_dir():
        return beside
    return pathlib.Path(sys.prefix) / "share" / "leaderboard-action" / "templates"


TEMPLATES = _templates_dir()
COMMENT_LIMIT = 60_000  # characters; GitHub's hard limit is 65,536, the marker needs room
SUMMARY_LIMIT = 1_000_000  # UTF-8 bytes; GitHub's step summary limit is 1 MiB
FILTERS: dict[str, Callable[..., str]] = {
    "num": num,
    "signed": signed,
    "pct": pct,
    "ci": ci,
    "count": count,
    "md_escape": md_text,
}
_ENV_OPTIONS: dict[str, Any] = {
    "undefined": jinja2.StrictUndefined,
    "autoescape": False,
    "keep_trailing_newline": True,
    "trim_blocks": True,
    "lstrip_blocks": True,
}


@dataclass(frozen=True)
class CommentContext:
    """Where the report comes from: what the comment names and links to."""

    head_sha: str | None = None  # the commit the numbers were computed for
    run_url: str | None = None  # link to the workflow run
    header: str = "leaderboard"  # the comment-header input
    summary_url: str | None = None  # where the full report can be read (job summary)
    docs_url: str | None = None  # "How to read this": the action's docs/statistics.md
    workspace: str | None = None  # shown as "." in failure messages (relative paths)
    accepted_by: str | None = None  # the accept label that accepted a regression


def make_environment(
    *, sandboxed: bool = False, write_cache: bool | None = None
) -> jinja2.Environment:
    """The Jinja environment of the built-in templates (or an empty sandboxed one).

    Parameters
    ----------
    sandboxed : bool
        True: a `SandboxedEnvironment` without a loader, for user templates.
    write_cache : bool, optional
        Whether the built-in templates' compiled code is stored
        (`leaderboard.render.template_cache.TemplateCache`); default: as Python stores
        bytecode.

    Returns
    -------
    jinja2.Environment
        StrictUndefined, no autoescape (markdown, not HTML: the view is pre-escaped),
        trailing newline kept, filters ``num``, ``signed``, ``pct``, ``ci``, ``count``
        and ``md_escape`` registered.
    """
    if sandboxed:
        # only a user's template needs the sandbox: imported then, not on every start
        from leaderboard.render.sandbox import BudgetSandbox  # noqa: PLC0415

        sandbox = BudgetSandbox(**_ENV_OPTIONS)
        sandbox.filters.update(FILTERS)
        sandbox.guard_filters()
        return sandbox
    # Markdown, not HTML: autoescape would not help; the view is pre-escaped.
    env = jinja2.Environment(  # noqa: S701
        loader=jinja2.FileSystemLoader(TEMPLATES),
        bytecode_cache=TemplateCache(TEMPLATES, write=write_cache),
        **_ENV_OPTIONS,
    )
    env.filters.update(FILTERS)
    return env


@functools.cache
def _builtin_environment() -> jinja2.Environment:
    """One environment for the built-in templates, so each compiles once per process."""
    return make_environment()


def _template_line(exc: BaseException, name: str) -> int | None:
    lineno = getattr(exc, "lineno", None)
    if isinstance(lineno, int):
        return lineno
    tb = exc.__traceback__
    found = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == name:
            found = tb.tb_lineno
        tb = tb.tb_next
    return found


class _OneFileLoader(jinja2.BaseLoader):
    """Serves the user's template and nothing else.

    A template from a pull request must not include other files: the workspace may
    hold credentials (actions/checkout keeps the token in .git/config). The file name
    is kept so that error tracebacks carry the template's line numbers.
    """

    def __init__(self, name: str, source: str) -> None:
        self.name = name
        self.source = source

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        if template != self.name:
            raise jinja2.TemplateNotFound(template)
        return self.source, self.name, lambda: True


def _user_template(path: pathlib.Path) -> tuple[jinja2.Template, str]:
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"template: cannot read {path}: {exc}") from None
    env = make_environment(sandboxed=True)
    name = str(path)
    env.loader = _OneFileLoader(name, source)
    try:
        return env.get_template(name), name
    except jinja2.TemplateSyntaxError as exc:
        raise UsageError(f"template {path}, line {exc.lineno}: {exc.message}") from None


def _renderer(template: pathlib.Path | None) -> Callable[[View], str]:
    if template is None:
        built_in = _builtin_environment().get_template("comment.md.j2")
        return lambda view: built_in.render(view=view)
    tmpl, name = _user_template(template)
    from leaderboard.render.sandbox import render_bounded  # noqa: PLC0415

    def render(view: View) -> str:
        try:
            return render_bounded(tmpl, view=view)
        except Exception as exc:
            # Any failure of the user's template (1 // 0, a filter given a string,
            # runaway recursion) is bad configuration, status 2, never a crash.
            line = _template_line(exc, name)
            where = f", line {line}" if line is not None else ""
            raise UsageError(
                f"template {template}{where}: {type(exc).__name__}: {exc}"
            ) from None

    return render


def _shrink_steps(opt: Options) -> list[Options]:
    """Ever smaller variants of `opt`, in the order sections are given up."""
    ties = replace(opt, max_ties=min(opt.max_ties, 50))
    lean = replace(ties, answers=False)  # what the items that dropped most answered
    return [
        opt,
        ties,
        lean,
        replace(lean, pairwise=False),
        replace(lean, pairwise=False, categories=False),
        replace(lean, pairwise=False, categories=False, plot=False),
        replace(lean, pairwise=False, categories=False, plot=False, gate_rows="regressed"),
        replace(lean, pairwise=False, categories=False, plot=False, gate_rows="none"),
    ]


def _fit(
    report: Report,
    *,
    context: CommentContext,
    render: Callable[[View], str],
    opt: Options,
    size: Callable[[str], int],
    limit: int,
) -> str:
    def attempt(o: Options) -> str:
        return render(
            build_view(
                report,
                head_sha=context.head_sha,
                run_url=context.run_url,
                summary_url=context.summary_url,
                header=context.header,
                options=o,
                docs_url=context.docs_url,
                accepted_by=context.accepted_by,
            )
        )

    steps = _shrink_steps(opt)
    for o in steps:
        text = attempt(o)
        if size(text) <= limit:
            return text
    # Keep the best N leaderboard rows: the largest N that fits (binary search).
    last = steps[-1]
    lo, hi, best = 1, max(len(report.leaderboard) - 1, 1), None
    while lo <= hi:
        mid = (lo + hi) // 2
        text = attempt(replace(last, top=mid))
        if size(text) <= limit:
            best, lo = text, mid + 1
        else:
            hi = mid - 1
    if best is not None:
        return best
    text = attempt(replace(last, top=0, warnings=False))
    if size(text) <= limit:
        return text
    note = (
        "\n\n✂️ Cut to fit GitHub's size limit; see the job summary and the JSON report.\n"
    )
    while size(text) + size(note) > limit and text:
        text = text[: max(len(text) - max(size(text) + size(note) - limit, 1), 0)]
    return text + note


def render_comment(
    report: Report,
    context: CommentContext | None = None,
    *,
    template: pathlib.Path | None = None,
    limit: int = COMMENT_LIMIT,
) -> str:
    """Render the sticky pull-request comment for `report`.

    Parameters
    ----------
    report : Report
        The report; its ids are untrusted and are escaped.
    context : CommentContext, optional
        Head commit, run link, header and where the full report lives.
    template : pathlib.Path, optional
        A user's Jinja template, rendered sandboxed with ``view`` (see
        `leaderboard.render.view.View`).
    limit : int
        Maximum length in characters; sections are folded, then dropped to fit.

    Returns
    -------
    str
        Markdown, verdict line first, at most `limit` characters.

    Raises
    ------
    UsageError
        The user template cannot be read, parsed or rendered (names template and line).
    """
    ctx = context or CommentContext()
    return _fit(
        report,
        context=ctx,
        render=_renderer(template),
        opt=Options(target="comment"),
        size=len,
        limit=limit,
    )


TEMPLATE_FALLBACK = (
    "the template {template} could not be used, so this is the built-in comment "
    "(the gate is unaffected): {error}"
)


def render_with_fallback(
    report: Report,
    context: CommentContext | None = None,
    *,
    template: pathlib.Path | None = None,
    target: str = "comment",
    refused: str | None = None,
) -> tuple[str, str | None]:
    """`render_comment` (or `render_summary`), falling back to the built-in template.

    A user template that cannot be read, parsed or rendered never hides the gate: the
    built-in template renders the report with a first warning that names the
    template's error. `refused`: an error found before rendering (the action refuses a
    template outside the workspace or behind a link without reading it).

    Returns
    -------
    (str, str or None)
        The markdown, and the template's error (None when it rendered).
    """
    render = render_comment if target == "comment" else render_summary
    if template is None and refused is None:
        return render(report, context), None
    if refused is not None:
        error = refused
    else:
        try:
            return render(report, context, template=template), None
        except UsageError as exc:
            error = str(exc)
    warned = TEMPLATE_FALLBACK.format(template=template, error=error)
    noted = report.model_copy(update={"warnings": [warned, *report.warnings]})
    return render(noted, context), error


def _utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def render_summary(
    report: Report,
    context: CommentContext | None = None,
    *,
    template: pathlib.Path | None = None,
    limit: int = SUMMARY_LIMIT,
) -> str:
    """Render the job summary: the comment's layout with more room (up to 1 MiB).

    Parameters
    ----------
    report : Report
        The report.
    context : CommentContext, optional
        As for `render_comment`.
    template : pathlib.Path, optional
        As for `render_comment`.
    limit : int
        Maximum size in UTF-8 bytes.

    Returns
    -------
    str
        Markdown of at most `limit` UTF-8 bytes.
    """
    ctx = context or CommentContext()
    opt = Options(target="summary", max_ties=5000, max_warnings=200, warning_chars=2000)
    return _fit(
        report,
        context=ctx,
        render=_renderer(template),
        opt=opt,
        size=_utf8_len,
        limit=limit,
    )


def render_failure(message: str, context: CommentContext | None = None) -> str:
    """The sticky comment's body when no report could be made for this commit.

    Parameters
    ----------
    message : str
        Why (e.g. the one-line `InputError`); untrusted, escaped here, its
        `` `quoted` `` parts shown as code; paths under ``context.workspace`` are
        shown relative to it.
    context : CommentContext, optional
        Head commit, run link and workspace.

    Returns
    -------
    str
        Markdown saying the leaderboard for the commit could not be computed, and why.
    """
    ctx = context or CommentContext()
    if ctx.workspace:
        message = relative_paths(message, ctx.workspace)
    lines = [md_with_code(line) for line in truncate(message, 4000).splitlines()] or [
        "(no message)"
    ]
    return (
        _builtin_environment()
        .get_template("failure.md.j2")
        .render(
            head_sha=short_sha(ctx.head_sha),
            run_url=safe_url(ctx.run_url),
            docs_url=safe_url(ctx.docs_url),
            lines=lines,
            footer=md_text(GENERATOR),
        )
    )


def relative_paths(message: str, workspace: str) -> str:
    """`message` with ``<workspace>/`` removed wherever it starts a path.

    The runner's checkout lies at an absolute path (``/home/runner/work/repo/repo``)
    that says nothing to a reviewer: ``results/run.jsonl`` is what the repository holds.
    """
    root = workspace.rstrip("/")
    if not root:
        return message
    return message.replace(root + "/", "")


def render_markdown(rows: Sequence[LeaderboardRow]) -> str:
    """The lesson's markdown table of leaderboard rows (ids escaped).

    Parameters
    ----------
    rows : sequence of LeaderboardRow
        Best first.

    Returns
    -------
    str
        A GitHub-flavoured markdown table.
    """
    report_rows = list(rows)
    view = build_view(_rows_report(report_rows), options=Options(plot=False))
    view = replace(view, interval_header="Interval")
    return _builtin_environment().get_template("leaderboard_table.md.j2").render(view=view)


def _rows_report(rows: list[LeaderboardRow]) -> Report:
    return Report(
        generator=GENERATOR,
        settings=ReportSettings(
            confidence=0.95, resamples=0, seed=0, margin=0.0, method="", unit="task"
        ),
        data=DataSummary(
            records=0, models=len(rows), tasks=0, categories=[], items=0, clusters=0
        ),
        leaderboard=rows,
        pairwise=[],
        gate=Gate(baseline=None, regressed=False, status="off"),
    )


def render_json(rows: Sequence[LeaderboardRow]) -> str:
    """The lesson's JSON array of leaderboard rows.

    Parameters
    ----------
    rows : sequence of LeaderboardRow
        Any order; kept as given.

    Returns
    -------
    str
        ``[row.model_dump(mode="json"), ...]`` as indented JSON.
    """
    return json.dumps([r.model_dump(mode="json") for r in rows], indent=2)

"""Stage 3, rendering: from a `leaderboard.report.Report` to markdown, and escaping.

- `view`: the view model templates see, every artifact string pre-escaped;
- `verdict`: the verdict and settings lines;
- `plot`: the Unicode forest plot;
- `numbers`: number formats (Jinja filters);
- `escape`: escaping untrusted text for markdown, HTML, URLs and runner logs;
- `plain`: the verdict in plain text (the commit status, the log lines, the outputs);
- `texts`: every text a run publishes, in one call (`render_texts`, `render_failed`);
- `comment`: the Jinja binding (built-in and user templates), size limits, and the
  lesson's `render_markdown` and `render_json`.

No network and no environment here: text in, text out.

Each name is imported from its module when first asked for (PEP 562's module
``__getattr__``): the command line's run imports the comment's modules, not the
action's texts, drift table or status description.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from leaderboard._lazy import lazy_names

if TYPE_CHECKING:
    from leaderboard.render.comment import (
        COMMENT_LIMIT,
        SUMMARY_LIMIT,
        CommentContext,
        make_environment,
        render_comment,
        render_failure,
        render_json,
        render_markdown,
        render_summary,
        render_with_fallback,
    )
    from leaderboard.render.drift import KeptRun, render_drift
    from leaderboard.render.escape import log_text, plain_text
    from leaderboard.render.plain import MAX_DESCRIPTION_CHARS, LogLine, status_description
    from leaderboard.render.texts import (
        State,
        Texts,
        above_footer,
        render_failed,
        render_texts,
    )

__all__ = [
    "COMMENT_LIMIT",
    "MAX_DESCRIPTION_CHARS",
    "SUMMARY_LIMIT",
    "CommentContext",
    "KeptRun",
    "LogLine",
    "State",
    "Texts",
    "above_footer",
    "log_text",
    "make_environment",
    "plain_text",
    "render_comment",
    "render_drift",
    "render_failed",
    "render_failure",
    "render_json",
    "render_markdown",
    "render_summary",
    "render_texts",
    "render_with_fallback",
    "status_description",
]

#: each public name, and the module it comes from
_MODULES = {
    **dict.fromkeys(
        [
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
        ],
        "leaderboard.render.comment",
    ),
    **dict.fromkeys(["KeptRun", "render_drift"], "leaderboard.render.drift"),
    **dict.fromkeys(["log_text", "plain_text"], "leaderboard.render.escape"),
    **dict.fromkeys(
        ["MAX_DESCRIPTION_CHARS", "LogLine", "status_description"],
        "leaderboard.render.plain",
    ),
    **dict.fromkeys(
        ["State", "Texts", "above_footer", "render_failed", "render_texts"],
        "leaderboard.render.texts",
    ),
}


__getattr__, __dir__ = lazy_names(__name__, _MODULES, __all__)

"""Stage 3, rendering: from a `leaderboard.report.Report` to markdown, and escaping.

- `view`: the view model templates see, every artifact string pre-escaped;
- `verdict`: the verdict and settings lines;
- `plot`: the Unicode forest plot;
- `numbers`: number formats (Jinja filters);
- `escape`: escaping untrusted text for markdown, HTML, URLs and runner logs;
- `comment`: the Jinja binding (built-in and user templates), size limits, and the
  lesson's `render_markdown` and `render_json`.

No network and no environment here: text in, text out.
"""

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
from leaderboard.render.escape import log_text
from leaderboard.render.verdict import headline

__all__ = [
    "COMMENT_LIMIT",
    "SUMMARY_LIMIT",
    "CommentContext",
    "headline",
    "log_text",
    "make_environment",
    "render_comment",
    "render_failure",
    "render_json",
    "render_markdown",
    "render_summary",
    "render_with_fallback",
]

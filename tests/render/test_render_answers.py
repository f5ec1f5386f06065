"""What the items that dropped most answered, in the comment and the job summary.

From the real framework files of tests/fixtures (Inspect, promptfoo, deepeval,
lm-eval): shown, escaped, folded in <details>. Hostile answers (the corpus of
`test_escape_hostile`) leave the comment's HTML structure as a benign answer does.
The size cap holds with 50 long answers.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from leaderboard import build_report
from leaderboard.inputs import EvalRun, load_runs
from leaderboard.render.comment import COMMENT_LIMIT, render_comment, render_summary
from leaderboard.render.escape import md_text
from leaderboard.report import GateComparison, ItemAnswers, ItemMove, Report
from tests.conftest import with_gate
from tests.render.canonical import CTX, models_30_report, regressed_report
from tests.render.render_html import gfm, mentions, parse
from tests.render.test_escape_hostile import HOSTILE_IDS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SUMMARY_LINE = "What they answered (the first line of each, from the result files)"


def _load(paths: list[Path], fmt: str) -> list[EvalRun]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_runs(paths, format=fmt, texts=True)


def _two_runs(fmt: str, base: list[Path], pr: list[Path]) -> Report:
    return build_report(
        _load(pr, fmt), baseline_runs=_load(base, fmt), resamples=200, show_outputs=True
    )


def _inspect() -> Report:
    differ = FIXTURES / "inspect" / "differ"
    return _two_runs(
        "inspect",
        sorted((differ / "main").glob("*.eval")),
        sorted((differ / "renamed").glob("*.eval")),
    )


def _promptfoo() -> Report:
    runs = _load(
        [FIXTURES / "promptfoo" / "own-run-0.121.20" / "results.json"], "promptfoo"
    )
    return build_report(runs, baseline="local-table", resamples=200, show_outputs=True)


def _deepeval() -> Report:
    d = FIXTURES / "deepeval"
    return _two_runs(
        "deepeval",
        [d / "fusion-run-a" / ".latest_test_run.json"],
        [d / "fusion-run-b" / ".latest_test_run.json"],
    )


def _lm_eval() -> Report:
    d = FIXTURES / "lm_eval" / "v0.4.5"
    return _two_runs(
        "lm-eval",
        sorted((d / "dummy-a" / "dummy-a").glob("samples_*.jsonl")),
        sorted((d / "dummy-b" / "dummy-b").glob("samples_*.jsonl")),
    )


REAL = {
    "inspect": _inspect,
    "promptfoo": _promptfoo,
    "deepeval": _deepeval,
    "lm-eval": _lm_eval,
}


def _shown_items(report: Report) -> list[ItemMove]:
    comps = [c for c in report.gate.comparisons if c.worst_items]
    assert comps
    return [i for c in comps[:3] for i in c.worst_items[:5]]


@pytest.mark.parametrize("framework", list(REAL))
def test_real_files__answers_shown_escaped_and_folded(framework: str) -> None:
    report = REAL[framework]()
    items = _shown_items(report)
    assert all(i.answers is not None for i in items)
    comment = render_comment(report, CTX)
    assert f"<details><summary>{SUMMARY_LINE}</summary>" in comment
    html = gfm(comment)
    text = "".join(parse(comment).text).replace("\u2060", "")  # mentions' joiners
    for item in items:
        answers = item.answers
        assert answers is not None
        for said in (answers.input, answers.baseline, answers.candidate):
            assert said is not None
            # escaped in the source, and shown as exactly the text the file held
            assert md_text(said) in comment
            assert said in text
    assert "<h3>" not in html  # deepeval's "### 核心结论" answer is no heading
    block = comment[comment.index(SUMMARY_LINE) :]
    assert block.index("</details>") > block.index("  - candidate: ")


def test_real_files__no_answers_unless_shown() -> None:
    differ = FIXTURES / "inspect" / "differ"
    report = build_report(
        _load(sorted((differ / "renamed").glob("*.eval")), "inspect"),
        baseline_runs=_load(sorted((differ / "main").glob("*.eval")), "inspect"),
        resamples=200,
    )
    comment = render_comment(report, CTX)
    assert "Dropped most" in comment
    assert SUMMARY_LINE not in comment
    assert "What is 1 + 1?" not in comment


def _with_answers(
    report: Report, answers: list[ItemAnswers], candidates: int = 1
) -> Report:
    """`report` whose first `candidates` gated comparisons (the regressed first) list
    one item per answer, each with those answers."""
    comps: list[GateComparison] = []
    given = 0
    for c in sorted(report.gate.comparisons, key=lambda c: not c.regressed):
        if given < candidates and c.scope == "overall":
            items = [
                ItemMove(
                    task="t",
                    item_id=f"item-{given}-{n}",
                    baseline_score=1.0,
                    candidate_score=0.0,
                    answers=a,
                )
                for n, a in enumerate(answers)
            ]
            comps.append(c.model_copy(update={"worst_items": items}))
            given += 1
        else:
            comps.append(c)
    return with_gate(report, report.gate.model_copy(update={"comparisons": comps}))


BENIGN = ItemAnswers(input="benign input", baseline="benign one", candidate="benign two")
WORKFLOW = [
    "::set-output name=regressed::false",
    "::error::pwned",
    "::add-mask::secret",
    "##[error]legacy",
]


def _hostile(text: str) -> ItemAnswers:
    return ItemAnswers(input=text, baseline=text, candidate=text)


def _no_command_at_a_line_start(markdown: str) -> None:
    for line in markdown.splitlines():
        assert not line.lstrip().startswith(("::", "##[")), line


@pytest.mark.parametrize("hostile", [*HOSTILE_IDS, *WORKFLOW])
def test_hostile_answer__comment_and_summary_keep_their_structure(hostile: str) -> None:
    report = _with_answers(regressed_report(), [_hostile(hostile)])
    benign = _with_answers(regressed_report(), [BENIGN])
    for render in (render_comment, render_summary):
        got, want = parse(render(report, CTX)), parse(render(benign, CTX))
        assert got.tags == want.tags  # no injected HTML, no closed <details>, no list
        assert got.links == want.links  # no link
        assert got.comments == []  # no forged sticky marker
        assert mentions(got) == []
        _no_command_at_a_line_start(render(report, CTX))


def test_hostile_answer__markdown_html_and_commands_render_as_text() -> None:
    said = (
        "::error::<img src=x onerror=alert(1)> **bold** [x](https://evil.example) @octocat"
    )
    report = _with_answers(regressed_report(), [_hostile(said)])
    comment = render_comment(report, CTX)
    html = gfm(comment)
    assert "<img" not in html
    assert "<strong>bold" not in html
    assert "evil.example" not in "".join(parse(comment).links)
    assert "- candidate: ::error::" in comment  # never at a line's start
    _no_command_at_a_line_start(comment)
    visible = re.sub(r"\u2060", "", "".join(parse(comment).text))
    assert said in visible  # shown as the characters the file held


def _long(n: int, tag: str) -> ItemAnswers:
    # 160 characters (what the readers keep), of those escaping lengthens most
    body = (f"{tag}{n} " + "#@<>&*_[]|`\\" * 14)[:159] + "…"
    return ItemAnswers(input=body, baseline=body, candidate=body)


def test_size_cap__holds_with_50_long_answers() -> None:
    base = models_30_report()
    answers = [_long(n, "a") for n in range(10)]
    report = _with_answers(base, answers, candidates=5)
    listed = sum(
        i.answers is not None for c in report.gate.comparisons for i in c.worst_items
    )
    assert listed == 50
    comment = render_comment(report, CTX)
    assert len(comment) <= COMMENT_LIMIT
    assert SUMMARY_LINE in comment  # they fit: 3 candidates, 5 items each, shown
    assert comment.count("  - candidate: ") == 15
    assert len(render_summary(report, CTX).encode()) <= 1_000_000


def test_size_cap__answers_are_given_up_first_and_said_so() -> None:
    report = _with_answers(regressed_report(), [_long(n, "b") for n in range(10)], 3)
    full = render_comment(report, CTX)
    without = render_comment(
        report.model_copy(
            update={
                "gate": report.gate.model_copy(
                    update={
                        "comparisons": [
                            c.model_copy(
                                update={
                                    "worst_items": [
                                        i.model_copy(update={"answers": None})
                                        for i in c.worst_items
                                    ]
                                }
                            )
                            for c in report.gate.comparisons
                        ]
                    }
                )
            }
        ),
        CTX,
    )
    limit = len(without) + 400  # room for the note, not for the answers
    assert len(full) > limit
    cut = render_comment(report, CTX, limit=limit)
    assert len(cut) <= limit
    assert SUMMARY_LINE not in cut
    assert "what the items that dropped most answered" in cut
    assert "Dropped most" in cut  # the items themselves stay
    assert cut.splitlines()[0] == full.splitlines()[0]  # the verdict line stays

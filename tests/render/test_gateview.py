"""`leaderboard.render.gateview`: the gate table's rows (order, marks, labels, statuses),
the sentence above it, its notes, the "where" sections and the plot, from hand-made
comparisons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from leaderboard import build_report, load_runs
from leaderboard.render.comment import render_comment
from leaderboard.render.gateview import (
    WHERE_CANDIDATES,
    WHERE_ROWS,
    flips_text,
    gate_line,
    gate_notes,
    gate_plot,
    gate_rows,
    where_views,
)
from leaderboard.report import BaselineRun, Flips, Gate, GateComparison, ScopeDiff
from tests.conftest import with_gate
from tests.render.render_samples import golden_report


def comp(candidate: str, **kw: Any) -> GateComparison:
    fields: dict[str, Any] = {
        "candidate": candidate,
        "baseline": "base",
        "scope": "overall",
        "diff_mean": 0.0,
        "ci_lo": -0.02,
        "ci_hi": 0.02,
        "confidence": 0.975,
        "margin": 0.0,
        "regressed": False,
        "min_detectable_regression": 0.05,
    }
    fields.update(kw)
    return GateComparison(**fields)


def mixed() -> list[GateComparison]:
    return [
        comp("ok-high", ci_lo=0.01, ci_hi=0.05, diff_mean=0.03),
        comp(
            "unsure",
            status="undetermined",
            ci_lo=-1.0,
            ci_hi=1.0,
            note="a lone task",
            interval=False,
        ),
        comp("bad-mild", ci_lo=-0.04, ci_hi=-0.01, diff_mean=-0.02, regressed=True),
        comp("ok-low", ci_lo=-0.03, ci_hi=0.03, min_detectable_regression=1.5),
        comp("bad-deep", ci_lo=-0.2, ci_hi=-0.1, diff_mean=-0.15, regressed=True),
    ]


# -- the table -------------------------------------------------------------------------
def test_gate_rows__regressed_then_cannot_tell_then_by_lower_bound() -> None:
    rows = gate_rows(mixed())
    assert [(r.label, r.status, r.mark) for r in rows] == [
        ("bad-deep", "regressed", "🔴"),
        ("bad-mild", "regressed", "🔴"),
        ("unsure", "undetermined", "🟡"),
        ("ok-low", "no_regression", "🟢"),
        ("ok-high", "no_regression", "🟢"),
    ]
    deep = rows[0]
    assert (deep.diff, deep.lo, deep.hi, deep.mdr) == (-0.15, -0.2, -0.1, 0.05)
    assert rows[3].mdr is None  # a drop of 1.5 or more: not one the suite can see


def test_gate_rows__scoped_labels_only_when_some_comparison_has_a_category() -> None:
    plain = gate_rows([comp("a*b")])
    assert [r.label for r in plain] == ["a\\*b"]  # escaped, no scope
    scoped = gate_rows([comp("m"), comp("m", scope="category:ma_th", ci_lo=-0.5)])
    assert [r.label for r in scoped] == ["m · category ma\\_th", "m"]


def test_gate_rows__empty() -> None:
    assert gate_rows([]) == []


# -- the sentence above it -------------------------------------------------------------
def _gate(comps: list[GateComparison], **kw: Any) -> Gate:
    return Gate(
        baseline=kw.pop("baseline", "base"),
        regressed=any(c.regressed for c in comps),
        family_size=len(comps),
        comparisons=comps,
        **kw,
    )


def test_gate_line__bonferroni_both_all_and_one() -> None:
    two = _gate([comp("a"), comp("b")], adjustment="bonferroni")
    assert gate_line(two, 0.95) == (
        "**Gate**: candidate \N{MINUS SIGN} **base**, 97.5% intervals each, so both "
        "hold together at 95% (Bonferroni); "
        "*detects drops of* X: a drop of X is caught 80% of the time."
    )
    three = _gate(
        [comp(x, confidence=0.95 / 3 + 2 / 3) for x in "abc"], adjustment="bonferroni"
    )
    assert "all 3 hold together at 95% (Bonferroni)" in gate_line(three, 0.95)
    max_t = _gate([comp(x, confidence=0.98) for x in "abc"])  # the default: max-T
    assert "all 3 hold together at 95% (max-T over the shared resamples)" in gate_line(
        max_t, 0.95
    )
    one = _gate([comp("a", confidence=0.95, margin=0.02)])
    assert gate_line(one, 0.95) == (
        "**Gate**: candidate \N{MINUS SIGN} **base**, 95% interval; a drop counts "
        "beyond the margin of 0.020; "
        "*detects drops of* X: a drop of X is caught 80% of the time."
    )


def test_gate_line__a_baseline_run_names_each_models_own_row() -> None:
    run = BaselineRun(label="main", source="results", branch="main")
    gate = _gate([comp("a", confidence=0.95)], baseline="main", baseline_run=run)
    assert gate_line(gate, 0.95) == (
        "**Gate**: candidate \N{MINUS SIGN} its own row in the baseline run **main**, "
        "95% interval; *detects drops of* X: a drop of X is caught 80% of the time."
    )


# -- notes -----------------------------------------------------------------------------
def test_gate_notes__one_line_each_but_not_the_one_the_verdict_names() -> None:
    comps = [
        comp("unsure", status="undetermined", note="a lone task"),
        comp("blind", note="no detectable drop", min_detectable_regression=None),
    ]
    report = with_gate(golden_report(), _gate(comps))
    assert gate_notes(report, comps) == ["🟢 blind: no detectable drop."]
    calm = [comps[1], comp("other", note="fine")]
    report = with_gate(golden_report(), _gate(calm))
    assert gate_notes(report, calm) == ["🟢 blind: no detectable drop.", "🟢 other: fine."]


# -- where -----------------------------------------------------------------------------
def _scopes(*pairs: tuple[str, float]) -> list[ScopeDiff]:
    return [
        ScopeDiff(
            scope=s,
            diff_mean=d,
            ci_lo=d - 0.1,
            ci_hi=d + 0.1,
            family_ci_lo=d - 0.15,
            family_ci_hi=d + 0.15,
        )
        for s, d in pairs
    ]


def test_where_views__regressed_open_first_and_the_largest_moves_in_order() -> None:
    moved = _scopes(
        ("category:a", 0.01),
        ("category:b", -0.30),
        ("category:c", 0.20),
        ("category:d", -0.02),
        ("category:e", 0.05),
        ("category:f", -0.10),
        ("category:g", 0.00),
    )
    comps = [
        comp("calm", breakdown=_scopes(("category:a", 0.0)), ci_lo=-0.01),
        comp(
            "fell",
            breakdown=moved,
            regressed=True,
            ci_hi=-0.01,
            flips=Flips(pass_to_fail=12, fail_to_pass=1, shared_items=400),
        ),
        comp("cat", scope="category:a", breakdown=moved),  # not an overall comparison
    ]
    views = where_views(comps, 0.95)
    assert [v.open for v in views] == [True, False]
    fell = views[0]
    assert (
        fell.summary
        == "Where fell moved (per category): no row moved beyond noise (adjusted "
        "intervals: all 7 hold together at 95%, max-T)"
    )
    # the five largest moves (a at 0.01 and g at 0 left out), ordered from the worst
    assert [r.category for r in fell.rows] == [
        "category b",
        "category f",
        "category d",
        "category e",
        "category c",
    ]
    assert len(fell.rows) == WHERE_ROWS
    b = fell.rows[0]
    assert (b.category, b.diff) == ("category b", -0.30)
    assert (b.lo, b.hi) == pytest.approx((-0.45, -0.15))  # the adjusted interval
    assert fell.flips == "12 items went pass → fail, 1 fail → pass (of 400 scored for both)"
    assert views[1].flips is None


def test_where_views__at_most_three_candidates_and_mixed_scopes_said() -> None:
    both = _scopes(("category:x", -0.1), ("task:t1", -0.2))
    comps = [comp(f"m{i}", breakdown=both, ci_lo=-0.1 * i) for i in range(5)]
    views = where_views(comps, 0.9)
    assert len(views) == WHERE_CANDIDATES == 3
    assert [v.summary.split(" moved")[0] for v in views] == [
        "Where m4",
        "Where m3",
        "Where m2",
    ]
    assert "(per category and task): no row moved beyond noise" in views[0].summary
    assert "adjusted intervals: all 2 hold together at 90%, max-T" in views[0].summary


def test_where_views__flips_alone__per_item_and_html_escaped() -> None:
    flips = Flips(pass_to_fail=1, fail_to_pass=0, shared_items=3)
    [view] = where_views([comp("<b>&", flips=flips)], 0.95)
    assert view.summary == "Where &lt;b&gt;&amp; moved (per item)"  # no rows: no family
    assert view.rows == []
    assert (
        flips_text(flips) == "1 item went pass → fail, 0 fail → pass (of 3 scored for both)"
    )
    assert flips_text(None) is None


def test_flips_text__one_sample__half_the_flips_each_way_at_the_comparisons_level() -> None:
    flips = Flips(
        pass_to_fail=10,
        fail_to_pass=4,
        shared_items=200,
        noise_each_way=7,
        beyond_noise=False,
        noise_from="directions",
    )
    assert flips_text(flips, 0.975) == (
        "10 items went pass → fail, 4 fail → pass (of 200 scored for both); noise alone "
        "gives about 7 each way, and the difference between the two ways is within "
        "noise (McNemar at 97.5%)"
    )


def test_flips_text__epochs_name_their_noise_and_test() -> None:
    rule = "pass/fail samples averaged per item; an item passes when at least 0.5 of its"
    even = Flips(
        pass_to_fail=31,
        fail_to_pass=9,
        shared_items=400,
        rule=rule,
        noise_from="epochs",
        noise_each_way=12,
        noise_pass_to_fail=12.4,
        noise_fail_to_pass=11.6,
        beyond_noise=True,
    )
    assert flips_text(even) == (
        "31 items went pass → fail, 9 fail → pass (of 400 scored for both; an item "
        "passes when half its epochs or more pass); the epochs give about 12 each way "
        "from noise alone, and the 22 extra pass → fail are beyond it (exact test on "
        "the epochs)"
    )
    uneven = even.model_copy(
        update={
            "pass_to_fail": 10,
            "fail_to_pass": 8,
            "noise_pass_to_fail": 9.6,
            "noise_fail_to_pass": 7.2,
            "beyond_noise": False,
        }
    )
    assert flips_text(uneven) is not None
    assert flips_text(uneven).endswith(  # type: ignore[union-attr]
        "; the epochs give about 10 pass → fail and 7 fail → pass from noise alone, "
        "and the difference between the two ways is within noise (exact test on the "
        "epochs)"
    )
    one = even.model_copy(
        update={"noise_from": "directions", "noise_pass_to_fail": None, "noise_each_way": 9}
    )
    assert "noise alone gives about 9 each way" in (flips_text(one) or "")
    assert "(McNemar)" in (flips_text(one) or "")


def test_where_views__nothing_to_locate__no_section() -> None:
    assert where_views([comp("a")], 0.95) == []


# -- the plot --------------------------------------------------------------------------
def test_gate_plot__fenced_one_line_per_comparison_and_none_if_all_cannot_tell() -> None:
    plot = gate_plot(mixed(), margin=0.0)
    assert plot is not None
    lines = plot.splitlines()
    assert lines[0] == "```text"
    assert lines[-1] == "```"
    labels = [line.split("│")[0].strip() for line in lines[1:6]]
    # in the gate table's order (regressed, cannot tell, then by lower bound)
    assert labels == [row.label for row in gate_rows(mixed())]
    assert "n/a (cannot tell)" in lines[1 + labels.index("unsure")]
    assert "97.5% interval" in plot
    only_unsure = [comp("u", status="undetermined", interval=False)]
    assert gate_plot(only_unsure, margin=0.0) is None


def test_gate_plot__scoped_rows_carry_their_category() -> None:
    plot = gate_plot([comp("m"), comp("m", scope="category:code")], margin=0.0)
    assert plot is not None
    assert "m · code" in plot


@pytest.mark.parametrize("confidences", [(0.975, 0.975), (0.975, 0.95)])
def test_gate_plot__interval_legend_names_a_single_level(
    confidences: tuple[float, float],
) -> None:
    comps = [comp(f"m{i}", confidence=c) for i, c in enumerate(confidences)]
    plot = gate_plot(comps, margin=0.0)
    assert plot is not None
    same = confidences[0] == confidences[1]
    assert ("97.5% interval" in plot) is same


def test_where_views__no_spread_is_too_few_and_a_whole_range_adjusted_one_unbounded() -> (
    None
):
    def row(
        name: str, diff: float, ci: tuple[float, float], fam: tuple[float, float], n: int
    ) -> ScopeDiff:
        return ScopeDiff(
            scope=f"task:{name}",
            diff_mean=diff,
            ci_lo=ci[0],
            ci_hi=ci[1],
            family_ci_lo=fam[0],
            family_ci_hi=fam[1],
            shared_units=n,
        )

    lone = row("lone", -0.2, (-1.0, 1.0), (-1.0, 1.0), 0)
    wide = row("wide", -0.3, (-0.8, 0.4), (-1.0, 1.0), 4)
    half = row("half", -0.1, (-0.5, 0.3), (-1.0, 0.7), 5)
    [view] = where_views([comp("m", breakdown=[lone, wide, half])], 0.95, unit="cluster")
    rows = {r.category: r for r in view.rows}
    assert rows["task lone"].too_few
    # an adjusted interval that is the whole range [-1, 1] says nothing: no interval
    # is shown, and how few units there were is (issue 28)
    assert not rows["task wide"].too_few
    assert rows["task wide"].unbounded
    assert rows["task wide"].units == "4 clusters"
    # one end inside the range still says something: shown as it is
    assert not rows["task half"].unbounded


def test_bound_text__the_whole_gates_bound_in_a_few_words() -> None:
    from leaderboard.render.gateview import bound_text  # noqa: PLC0415

    assert bound_text(Gate(baseline=None, regressed=False)) == ""
    score = Gate(baseline="b", regressed=False, bound=0.025, family_size=2)
    assert bound_text(score) == "a false regression anywhere in the gate: at most 2.5%; "
    both = score.model_copy(update={"bound": 0.05, "guardrail_family_size": 3})
    assert bound_text(both) == (
        "a false regression anywhere in the gate: at most 5% (2.5% the score, 2.5% the "
        "guardrails); "
    )


def test_where_rows__the_demo_never_prints_the_whole_range_as_an_interval() -> None:
    # `make demo` (bundled clustered MMLU-Pro): tasks of 3-4 clusters have adjusted
    # intervals of [-1, 1] (t at about 2 degrees of freedom, 14 rows); they say so
    root = Path(__file__).resolve().parents[2]
    runs = load_runs([root / "examples" / "mmlu-pro-sample.csv.gz"])
    report = build_report(
        runs, baseline="Meta-Llama-3_1-8B-Instruct", candidates=["Meta-Llama-3_1-8B"]
    )
    text = render_comment(report)
    where = text.split("<summary>Where", 1)[1].split("</details>", 1)[0]
    assert "[-1.000, 1.000]" not in where
    assert "clusters: too few for an adjusted interval)" in where

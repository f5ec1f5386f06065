"""Completion: of the units both runs attempted, how many each one scored.

An errored unit (an `EvalRun` with ``error``: an SWE-bench ``error_ids`` instance, an
Inspect sample with an error, a promptfoo error row, a deepeval test case that
errored, a record with ``"score": null`` and an ``"error"``) was attempted and not
scored (CONTRACT.md section 13). The score's comparisons never see it: they compare
the units scored in both runs. This module compares the rest.

For each gated pair (candidate, baseline) a unit is a task's item (a task, for
task-level records); a model attempted it when it has any record of it, and scored it
when at least one of them has a score. Over the ``n`` units both attempted, the
candidate's scored share is compared with the baseline's, paired: the units both
scored or both left unscored say nothing about a difference; of the ``n_d`` discordant
ones, ``b`` the baseline scored and the candidate did not, ``c`` the other way. The
difference of the shares is ``(c - b) / n``.

Under no change in completion each discordant unit is as likely to fall either way,
so given ``n_d``, ``b ~ Binomial(n_d, 1/2)`` (McNemar's test, exact form: a binomial
test on the discordant pairs). The comparison regresses when the one-sided p-value
``P(X >= b | n_d, 1/2) = I_{1/2}(b, n_d - b + 1)`` is at most ``alpha`` (the
regularized incomplete beta, `leaderboard.stats.quantiles.betainc`). Its interval is
the Clopper-Pearson interval of ``q = b / n_d`` at ``1 - 2 alpha`` mapped to the
difference, ``(n_d / n) (1 - 2 q)``; its upper end is below 0 exactly when the test
rejects, so interval and decision never disagree. The test is conditional on ``n_d``
and exact: the chance of a false regression is at most ``alpha`` whatever the error
rates. The exactness is the decision's: mapped with the observed ``n_d / n``, the
conditional interval does not cover the difference itself (26 of 26 discordant units
against the candidate give a lower end equal to the estimate, as if the drop could be
no worse than observed). So each end is widened to Tango's score interval for paired
proportions (`leaderboard.stats.paired`), unconditional and of about its nominal
coverage, except an upper end below 0, the exact test's rejection, which stays as it
is: an upper end is below 0 exactly when the test rejects.

The completion comparisons are a block of the gate of their own, like the guardrails
(CONTRACT.md section 12): with ``k`` of them each tests at
``alpha = (1 - confidence) / (2 k)`` (Bonferroni), the one-sided level of the score's
own comparisons for a family of one, so the block's chance of any false regression is
at most ``(1 - confidence) / 2`` and ``Gate.bound`` grows by that much. A pair whose
runs hold no errored unit is not compared (both scored everything they attempted).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from leaderboard.inputs import EvalRun
from leaderboard.report import Gate, GateComparison
from leaderboard.stats.floors import clopper_pearson as _cp_two_sided
from leaderboard.stats.paired import tango_interval
from leaderboard.stats.quantiles import betainc, norm_ppf

__all__ = [
    "Attempts",
    "Discordant",
    "attempts",
    "binomial_upper_tail",
    "clopper_pearson",
    "completion_comparisons",
    "discordant",
    "split_errored",
    "with_completion",
]

MEASURE = "completion"

#: Per model id, its attempted units ``(task_id, item_id)`` and whether it scored each.
Attempts = dict[str, dict[tuple[str, object], bool]]


def split_errored(runs: Iterable[EvalRun]) -> tuple[list[EvalRun], list[EvalRun]]:
    """``(scored, errored)``: the records with a score, and the errored units."""
    scored: list[EvalRun] = []
    errored: list[EvalRun] = []
    for r in runs:
        (scored if r.error is None else errored).append(r)
    return scored, errored


def attempts(
    scored: Iterable[EvalRun], errored: Iterable[EvalRun], models: set[str]
) -> Attempts:
    """Each of `models`' attempted units and whether any of its records scored it."""
    out: Attempts = {m: {} for m in models}
    for r in errored:
        if r.model_id in out:
            out[r.model_id].setdefault((r.task_id, r.item_id), False)
    for r in scored:
        if r.model_id in out:
            out[r.model_id][(r.task_id, r.item_id)] = True
    return out


def binomial_upper_tail(k: int, n: int) -> float:
    """``P(X >= k)`` for ``X ~ Binomial(n, 1/2)``: the exact one-sided p-value."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return betainc(float(k), float(n - k + 1), 0.5)


def clopper_pearson(k: int, n: int, alpha: float) -> tuple[float, float]:
    """The exact interval of a binomial share ``k / n``, each side at `alpha`
    (`leaderboard.stats.floors.clopper_pearson` at ``2 alpha``; 0 when ``k = 0``, 1
    when ``k = n``)."""
    if n <= 0:
        return 0.0, 1.0
    return _cp_two_sided(float(k), float(n), 2.0 * alpha)


@dataclass(frozen=True)
class Discordant:
    """The paired counts of one comparison, over the units both runs attempted."""

    attempted: int  # n: units both attempted
    candidate_scored: int
    baseline_scored: int
    baseline_only: int  # b: scored by the baseline, errored in the candidate
    candidate_only: int  # c: scored by the candidate, errored in the baseline
    tasks: int  # tasks those units belong to

    @property
    def discordant(self) -> int:
        return self.baseline_only + self.candidate_only

    @property
    def p_value(self) -> float:
        """One-sided exact p-value of "the candidate scores fewer"."""
        return binomial_upper_tail(self.baseline_only, self.discordant)

    def interval(self, alpha: float) -> tuple[float, float]:
        """The difference of scored shares' interval, each side at `alpha`.

        The conditional interval (module docstring), each end widened to Tango's
        unconditional one, except an upper end below 0: that is the exact test's
        rejection, kept as it is so that interval and decision agree.
        """
        n, nd = self.attempted, self.discordant
        t_lo, t_hi = tango_interval(
            float(self.candidate_only), float(self.baseline_only), n, norm_ppf(1.0 - alpha)
        )
        if nd == 0:
            return t_lo, t_hi
        q_lo, q_hi = clopper_pearson(self.baseline_only, nd, alpha)
        scale = nd / n
        lo, hi = scale * (1.0 - 2.0 * q_hi), scale * (1.0 - 2.0 * q_lo)
        hi = max(hi, t_hi) if hi >= 0.0 or t_hi < 0.0 else hi
        return min(lo, t_lo), hi


def discordant(
    cand: dict[tuple[str, object], bool],
    base: dict[tuple[str, object], bool],
    skip: frozenset[str] = frozenset(),
) -> Discordant:
    """The counts over the units both `cand` and `base` attempted (tasks in `skip`
    left out)."""
    n = sc = sb = b_only = c_only = 0
    tasks: set[str] = set()
    for unit, c_scored in cand.items():
        b_scored = base.get(unit)
        if b_scored is None or unit[0] in skip:
            continue
        n += 1
        tasks.add(unit[0])
        sc += c_scored
        sb += b_scored
        b_only += b_scored and not c_scored
        c_only += c_scored and not b_scored
    return Discordant(n, sc, sb, b_only, c_only, len(tasks))


def _has_errors(units: dict[tuple[str, object], bool]) -> bool:
    return not all(units.values())


def _note(d: Discordant, cand: str, base: str, kind: str, alpha: float) -> str:
    what = f"{kind}s" if d.attempted != 1 else kind
    return (
        f"{cand} scored {d.candidate_scored} of the {d.attempted} {what} both runs "
        f"attempted, {base} {d.baseline_scored} (errored: attempted, not scored); "
        f"{d.baseline_only} scored by the baseline only, {d.candidate_only} by the "
        f"candidate only: exact one-sided binomial test on those {d.discordant}, "
        f"p = {d.p_value:.2g} (regresses at p <= {alpha:.2g})"
    )


def completion_comparisons(
    pairs: Sequence[tuple[str, str]],
    table: Attempts,
    *,
    confidence: float,
    unit_kind: str,
    skip: frozenset[str] = frozenset(),
) -> list[GateComparison]:
    """One ``completion`` comparison per gated pair whose runs hold an errored unit.

    Each is tested at ``(1 - confidence) / (2 k)`` for the ``k`` made (module
    docstring); its interval at twice that, two-sided.
    """
    made: list[tuple[str, str, Discordant]] = []
    for cand, base in pairs:
        units_c, units_b = table.get(cand, {}), table.get(base, {})
        if not (_has_errors(units_c) or _has_errors(units_b)):
            continue
        d = discordant(units_c, units_b, skip)
        if d.attempted:
            made.append((cand, base, d))
    k = len(made)
    out = []
    for cand, base, d in made:
        alpha = (1.0 - confidence) / (2.0 * k)
        lo, hi = d.interval(alpha)
        regressed = d.discordant > 0 and d.p_value <= alpha
        n = d.attempted
        out.append(
            GateComparison(
                candidate=cand,
                baseline=base,
                scope="overall",
                measure=MEASURE,
                candidate_mean=d.candidate_scored / n,
                baseline_mean=d.baseline_scored / n,
                diff_mean=(d.candidate_scored - d.baseline_scored) / n,
                ci_lo=lo,
                ci_hi=hi,
                confidence=1.0 - 2.0 * alpha,
                margin=0.0,
                regressed=regressed,
                status="regressed" if regressed else "no_regression",
                min_detectable_regression=None,
                shared_tasks=d.tasks,
                shared_units=n,
                note=_note(d, cand, base, unit_kind, alpha),
            )
        )
    return out


def with_completion(gate: Gate, comparisons: list[GateComparison], alpha: float) -> Gate:
    """`gate` with the completion block after its score comparisons (before any
    guardrail), its status and `Gate.bound` updated (`alpha`: 1 - confidence)."""
    if not comparisons:
        return gate
    score = [c for c in gate.comparisons if c.measure == "score"]
    rest = [c for c in gate.comparisons if c.measure != "score"]
    joined = [*score, *comparisons, *rest]
    regressed = any(c.regressed for c in joined)
    return gate.model_copy(
        update={
            "comparisons": joined,
            "regressed": regressed,
            "status": "regressed" if regressed else gate.status,
            "completion_family_size": len(comparisons),
            "bound": gate.bound + alpha / 2.0,
        }
    )

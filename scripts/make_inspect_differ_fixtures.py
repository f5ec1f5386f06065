"""Make tests/fixtures/inspect/differ/: real Inspect logs of runs that differ.

Run from the repository root with the test extras installed (inspect_ai, offline):

    .venv/bin/python scripts/make_inspect_differ_fixtures.py

Each log is written by the real ``inspect_ai.eval`` (``eval_set``, ``eval_retry``) with
the ``mockllm`` provider and a scripted solver: the solver answers each sample and epoch
from a table below, so every score is known in advance and nothing goes to the network.
What each folder holds is in tests/fixtures/inspect/differ/README.md.
"""

from __future__ import annotations

import os
import shutil
import sys
import warnings
from pathlib import Path

import inspect_ai.model._model as inspect_model
from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Scorer, includes, match
from inspect_ai.solver import Generate, Solver, TaskState, solver

OUT = Path("tests/fixtures/inspect/differ")
ARITH = 12  # items of task arith on main
SPELL = 4  # items of task spell
# (item number, epoch) pairs answered wrongly; epoch None: every epoch.
WRONG_MAIN: dict[str, set[tuple[int, int | None]]] = {
    "arith": {(3, 2), (7, None)},
    "spell": {(2, None)},
}
# the pull request that swaps the model: arith-001, arith-004, arith-010 break
WRONG_V2: dict[str, set[tuple[int, int | None]]] = {
    "arith": {(1, None), (4, None), (10, None), (7, None), (3, 1)},
    "spell": {(2, None)},
}
FAIL_ENV = "DIFFER_FIXTURE_FAIL"  # comma-separated sample ids that raise


def _ids(name: str, n: int) -> list[str]:
    return [f"{name}-{i:03d}" for i in range(1, n + 1)]


def _dataset(name: str, n: int) -> MemoryDataset:
    # "What is i + i?" with the answer 2i: the scripted solver knows the target.
    return MemoryDataset(
        [
            Sample(id=sid, input=f"What is {i} + {i}?", target=str(2 * i))
            for i, sid in enumerate(_ids(name, n), 1)
        ]
    )


def _wrong(table: dict[str, set[tuple[int, int | None]]], sid: str, epoch: int) -> bool:
    name, _, number = sid.partition("-")
    return any(n == int(number) and e in (None, epoch) for n, e in table.get(name, set()))


@solver
def scripted(table: str = "main") -> Solver:
    """Answer from the table: the target, or a wrong number; raise for FAIL_ENV ids."""
    wrong = {"main": WRONG_MAIN, "v2": WRONG_V2}[table]

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if str(state.sample_id) in os.environ.get(FAIL_ENV, "").split(","):
            raise RuntimeError(f"scripted failure of {state.sample_id}")
        answer = state.target.text
        if _wrong(wrong, str(state.sample_id), state.epoch):
            answer = f"{answer}1"  # a wrong number that still contains the right one
        state.output = ModelOutput.from_content(str(state.model), answer)
        state.messages.append(state.output.message)
        return state

    return solve


def _task(name: str, n: int, scorer: Scorer, table: str, epochs: int) -> Task:
    return Task(
        dataset=_dataset(name, n),
        solver=scripted(table),
        scorer=scorer,
        name=name,
        epochs=epochs,
    )


@task
def arith(
    items: int = ARITH, scorer: str = "match", table: str = "main", epochs: int = 3
) -> Task:
    """Task arith; `scorer` is ``match`` (main) or ``includes`` (a changed scorer)."""
    chosen = match() if scorer == "match" else includes()
    return _task("arith", items, chosen, table, epochs)


@task
def spell(table: str = "main", epochs: int = 3) -> Task:
    """Task spell, the same on every run."""
    return _task("spell", SPELL, match(), table, epochs)


def _run(
    folder: str, tasks: list[Task], model: str = "mockllm/model", **kw: object
) -> list[EvalLog]:
    from inspect_ai import eval as inspect_eval  # noqa: PLC0415

    out = OUT / folder
    out.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return inspect_eval(
            tasks, model=model, log_dir=str(out), display="none", max_samples=1, **kw
        )


def main() -> int:
    # Offline: Inspect's token estimate would download tiktoken's encoding.
    inspect_model.count_text_tokens = lambda text: max(1, len(text) // 4)  # type: ignore[assignment]
    if OUT.exists():
        shutil.rmtree(OUT)
    # main: the base branch's run, two tasks, 3 epochs, scorer match.
    _run("main", [arith(), spell()])
    # renamed: the pull request swaps the model behind the app (model id v2).
    _run("renamed", [arith(table="v2"), spell(table="v2")], model="mockllm/model-v2")
    # scorer: arith scored by includes() instead of match(); spell unchanged.
    _run("scorer", [arith(scorer="includes"), spell()])
    # epochs: the same run with 1 epoch per item.
    _run("epochs", [arith(epochs=1), spell(epochs=1)])
    # items: arith grows by 4 items (16 instead of 12); spell is not run.
    _run("items", [arith(items=ARITH + 4)])
    # evalset: as `inspect eval-set` leaves a folder (.eval-set-id, eval-set.json,
    # logs.json beside the logs).
    from inspect_ai import eval_retry, eval_set  # noqa: PLC0415

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ok, _ = eval_set(
            [spell()],
            log_dir=str(OUT / "evalset"),
            model="mockllm/model",
            display="none",
            max_samples=1,
        )
    assert ok
    # retried: arith-005 raises, the eval ends with status error; `eval_retry` then
    # completes it into a second log of the same task id in the same folder.
    os.environ[FAIL_ENV] = "arith-005"
    [failed] = _run("retried", [arith()])
    assert failed.status == "error", failed.status
    del os.environ[FAIL_ENV]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [retried] = eval_retry(
            failed, log_dir=str(OUT / "retried"), display="none", max_samples=1
        )
    assert retried.status == "success", retried.status
    # eval_retry keeps the task id (and the log file's name after the time stamp)
    assert retried.eval.task_id == failed.eval.task_id, "eval_retry changed the task id"
    # partial: Inspect finishes despite errors (`--fail-on-error 0.2`): two of 12
    # items raise in every epoch; status success, 6 of 36 samples errored.
    os.environ[FAIL_ENV] = "arith-002,arith-009"
    [partial] = _run("partial", [arith()], fail_on_error=0.2)
    assert partial.status == "success", partial.status
    # errored: the same errors without the tolerance: status error.
    [errored] = _run("errored", [arith()])
    assert errored.status == "error", errored.status
    del os.environ[FAIL_ENV]
    for log in sorted(OUT.rglob("*")):
        if log.is_file():
            print(f"{log} {log.stat().st_size}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

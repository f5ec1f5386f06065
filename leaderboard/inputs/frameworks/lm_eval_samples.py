"""lm-evaluation-harness samples files (``--log_samples``): item-level records.

Layouts read, each beside the results file of the same ``<date>`` (which alone names
the model, the metric directions, aggregations and groups):

- ``samples_<task>_<date>.jsonl``, one document a line, with ``doc_id``, ``filter``,
  ``metrics`` (the metric names) and each metric's per-document value (0.4.7 on).
- The same lines without ``filter`` and ``metrics`` (0.4.2 to 0.4.6): the metric
  values are top-level keys named as in the results file, and a task with several
  filters writes every document once per filter, filter after filter, in the order of
  the results file.
- ``samples_<task>_<date>.json``: one JSON array of such documents (early 0.4).

The task's score is the one its results file would give (`lm_eval.Results.primary`):
the same metric and filter, so that samples and results files name the same task.
"""

from __future__ import annotations

import glob
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks._choice import confined
from leaderboard.inputs.frameworks._common import (
    any_text,
    check_room,
    finite_number,
    json_lines,
    load_json,
    read_head,
    short,
    text_of,
)
from leaderboard.inputs.frameworks.lm_eval import (
    FIX_SAMPLES,
    SAMPLES_NAME,
    Results,
    check_nonempty,
)
from leaderboard.inputs.frameworks.metrics import Notes, ReadOptions
from leaderboard.inputs.frameworks.sniffing import RESULTS_HEAD, UTF8_BOM
from leaderboard.inputs.records import EvalRun, answer_line, keeps_texts


def _results_beside(path: Path, date: str | None) -> Path | None:
    """The results file of the same run: ``*_<date>.json``, or 0.4.2's results.json.

    Confined like the files given (`_choice.confined`): a candidate that is a link,
    or whose real path is not in the samples file's own folder, is refused before it
    is opened.
    """
    pattern = "results.json" if date is None else f"*_{glob.escape(date)}.json"
    for candidate in sorted(path.parent.glob(pattern)):
        confined(candidate, path, str(path), FIX_SAMPLES)
        if RESULTS_HEAD.match(read_head(candidate, 4096).removeprefix(UTF8_BOM)):
            return candidate
    return None


def _task_of(name: str, info: Results) -> str | None:
    """0.4.2's ``<model_args>_<task>.jsonl``: the longest known task ending the stem."""
    stem = re.sub(r"\.jsonl?(?:\.gz)?$", "", name)
    tasks = set(info.results) | set(info.configs)
    found = [t for t in tasks if stem.endswith(f"_{t}")]
    return max(found, key=len) if found else None


def _documents(path: Path, shown: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line or record number, document) of a JSON Lines or JSON-array file."""
    rows: Iterable[tuple[int, Any]]
    if read_head(path, 64).lstrip().startswith(b"["):  # 0.4.2 wrote arrays as .jsonl
        data = load_json(path)
        if not isinstance(data, list):
            raise InputError(
                "is not a JSON array of documents", file=shown, fix=FIX_SAMPLES
            )
        rows = enumerate(data, 1)
    else:  # one line at a time, each within a document's budget
        rows = json_lines(path)
    for number, doc in rows:
        if not isinstance(doc, dict):
            raise InputError("is not a JSON object", file=shown, line=number)
        yield number, doc


def read_samples(path: Path, options: ReadOptions) -> list[EvalRun]:
    """Read one samples file into item-level records of its task's primary metric.

    Parameters
    ----------
    path : pathlib.Path
        ``samples_<task>_<date>.jsonl`` or ``.json``.
    options : ReadOptions
        Preferred metrics.

    Returns
    -------
    list of EvalRun
        One record per document.

    Raises
    ------
    InputError
        No results file beside it, a document without a usable ``doc_id``, or no
        score the leaderboard can rank.
    """
    shown = str(path)
    named = SAMPLES_NAME.fullmatch(path.name)
    results = _results_beside(path, named["date"] if named else None)
    if results is None:
        beside = f"*_{named['date']}.json" if named else "results.json"
        raise InputError(
            f"is an lm-eval samples file without its results file ({beside} beside "
            "it), which names the model",
            file=shown,
            fix=f"keep the samples file's name and {FIX_SAMPLES}",
        )
    info = Results(load_json(results), str(results))
    info.check_preferences(options, shown)
    notes = Notes(shown)
    task = named["task"] if named else _task_of(path.name, info)
    if task is None:
        raise InputError(
            f"names no task of {results.name} (lm-eval 0.4.2 names samples files "
            "<model_args>_<task>.jsonl)",
            file=shown,
            fix="keep the name lm_eval gave the samples file",
        )
    key = info.primary(task, options, notes)
    scored = (
        [] if key is None else _scores(path, info, task, key, notes, limit=options.limit)
    )
    runs = [
        EvalRun(
            model_id=info.model,
            task_id=task,
            score=score,
            metric_name=key,
            category=info.category(task),
            item_id=item,
            metrics=metrics,
            input=texts[0],
            output=texts[1],
        )
        for item, score, metrics, texts in scored
    ]
    check_nonempty(runs, notes)
    notes.warn()
    return runs


def _doc_id(doc: dict[str, Any], number: int, shown: str) -> int | str:
    item = doc.get("doc_id")
    if isinstance(item, bool) or not isinstance(item, (int, str)):
        raise InputError(
            f"has no usable doc_id: {short(item)}",
            file=shown,
            line=number,
            field="doc_id",
        )
    return item


def _by_filter(info: Results, task: str, key: str) -> dict[str, list[tuple[str, str]]]:
    """Per filter of the task's results, in the harness's order: its other rankable
    metrics that have per-document values (mean aggregation), as (metric, key)."""
    entry = info.results.get(task)
    others = set(info.candidates(task, Notes(""))) - {key}
    by_filter: dict[str, list[tuple[str, str]]] = {}
    for name in entry if isinstance(entry, dict) else {}:
        parts = info.split(name)
        if parts is not None:
            kept = by_filter.setdefault(parts[1], [])
            if name in others and info.aggregation(task, parts[0]) in (None, "mean"):
                kept.append((parts[0], name))
    return by_filter


Scored = tuple[
    int | str, float, tuple[tuple[str, float], ...], tuple[str | None, str | None]
]
# Fields of a harness document (`doc`) that hold its question, in the order looked at.
_QUESTION_KEYS = ("question", "query", "prompt", "input", "problem", "goal", "text")


def _texts(line: dict[str, Any]) -> tuple[str | None, str | None]:
    """The document's question and the model's filtered answer, one short line each.

    The question is the dataset row's (`doc`): its first field of `_QUESTION_KEYS`,
    else the request's first argument (`arguments`, which starts with any few-shot
    examples). The answer is the first text of ``filtered_resps``; for a multiple
    choice task (a log-likelihood per choice) the choice the harness scores, the
    most likely one, with its text from ``doc.choices`` when there (with one
    response, a loglikelihood task: the target's log-likelihood).
    """
    if not keeps_texts():
        return None, None
    doc = line.get("doc")
    question = None
    if isinstance(doc, dict):
        question = next(
            (t for k in _QUESTION_KEYS if (t := text_of(doc.get(k))) is not None), None
        )
    if question is None:
        arguments = line.get("arguments")
        if isinstance(arguments, dict):
            arguments = [
                list(a.values()) if isinstance(a, dict) else a
                for a in list(arguments.values())[:1]
            ]
        question = text_of(arguments)
    return question, _answer(line.get("filtered_resps"), doc)


def _answer(resps: object, doc: object) -> str | None:
    if not isinstance(resps, list) or not resps:
        return any_text(resps)
    likelihoods = [_loglikelihood(r) for r in resps]
    if any(x is None for x in likelihoods):
        return any_text(resps)
    if len(likelihoods) == 1:  # a loglikelihood task: the target's, no choice
        return f"log-likelihood of the target {likelihoods[0]:.4g}"
    best = max(range(len(likelihoods)), key=lambda k: likelihoods[k] or 0.0)
    choices = doc.get("choices") if isinstance(doc, dict) else None
    text = (
        text_of(choices[best])
        if isinstance(choices, list) and best < len(choices)
        else None
    )
    return answer_line(f"likeliest choice {best}" + ("" if text is None else f": {text}"))


def _loglikelihood(resp: object) -> float | None:
    """A multiple choice response's log-likelihood (``[-0.84, false]``), else None."""
    if not isinstance(resp, list) or len(resp) != 2:
        return None
    value = resp[0]
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return None
    found = finite_number(value)
    return None if isinstance(value, bool) else found


def _scores(
    path: Path, info: Results, task: str, key: str, notes: Notes, *, limit: int
) -> list[Scored]:
    """(doc_id, score, other metrics) of every document under the kept metric and filter.

    The other metrics (`Results.secondaries`) are the document's values of the task's
    other rankable metrics, under any filter (a document is written once per filter).
    """
    shown = notes.shown
    metric, _, filt = key.partition(",")
    filt = filt or "none"
    aggregation = info.aggregation(task, metric)
    if aggregation is not None and aggregation != "mean":
        notes.add(Notes.CORPUS, f"{task} {key} (aggregation {aggregation})")
        return []
    by_filter = _by_filter(info, task, key)
    filters = list(by_filter)  # the harness's order, for lines that do not name one
    seen: dict[int | str, int] = {}
    values: dict[int | str, dict[str, Any]] = {}
    scored: list[tuple[int | str, float, tuple[str | None, str | None]]] = []
    for number, doc in _documents(path, shown):
        item = _doc_id(doc, number, shown)
        if isinstance(doc.get("filter"), str):
            line_filter = doc["filter"]
        else:  # 0.4.2-0.4.6: the n-th copy of a document is under the n-th filter
            nth = seen[item] = seen.get(item, -1) + 1
            line_filter = filters[nth] if nth < len(filters) else f"#{nth + 1}"
        held = values.setdefault(item, {})
        for name, results_key in by_filter.get(line_filter, ()):
            if not isinstance(doc.get(name), (list, dict)):
                held.setdefault(results_key, doc.get(name))
        if line_filter != filt:
            continue
        if metric not in doc:
            raise InputError(
                f"has no value of {metric!r} (the metric kept for {task})",
                file=shown,
                line=number,
                field=metric,
                fix="give the samples file lm_eval wrote, unchanged",
            )
        value = doc[metric]
        if isinstance(value, (list, dict)):
            notes.add(Notes.CORPUS, f"{task} {key}")
            return []
        score = info.unit_score(task, key, value, notes)
        if score is None:
            notes.found[Notes.RANGE][-1] += f" (line {number})"
            return []
        scored.append((item, score, _texts(doc)))
        check_room(len(scored), limit, shown)  # as the lines are read
    if not scored:
        notes.add(Notes.EMPTY, f"{task} (no document under filter {filt})")
    return [
        (item, score, info.secondaries(task, key, values[item], per_item=True), texts)
        for item, score, texts in scored
    ]

"""Which framework wrote a file, judged by its first bytes: `sniff`.

Every file read with ``format: auto`` is sniffed (a records file too, to tell it is
none), so the checks live here, apart from the readers: a reader's module (its
parsing, its messages, its dataclasses) is imported only when a file of its format
is read (`leaderboard.inputs.frameworks.read`). Each ``is_*`` check never raises,
except where the archive policy refuses an Inspect ``.eval`` archive.
"""

from __future__ import annotations

import re
from pathlib import Path

from leaderboard.inputs.frameworks._common import ZIP_MAGIC

UTF8_BOM = b"\xef\xbb\xbf"
PARQUET_MAGIC = b"PAR1"

# Inspect: a JSON log, or a .eval archive holding these members
_INSPECT_JSON = re.compile(
    rb'\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:\s*"[a-z_]+"\s*,\s*"eval"\s*:\s*\{'
)
_INSPECT_MEMBERS = (b"_journal/start.json", b"header.json")
# promptfoo
_PROMPTFOO_JSON = re.compile(
    rb'\s*\{\s*(?:"evalId"\s*:\s*"[^"]*"\s*,\s*)?"results"\s*:\s*\{\s*"version"\s*:\s*\d'
)
_PROMPTFOO_ROW_KEYS = (b'"testIdx"', b'"promptIdx"', b'"provider"', b'"success"')
# lighteval
_LIGHTEVAL_HEAD = re.compile(rb'\s*\{\s*"config_general"\s*:\s*\{')
_LIGHTEVAL_DETAILS = re.compile(r"details_.+\.parquet")
# lm-evaluation-harness (the readers use the heads too)
RESULTS_HEAD = re.compile(rb'\s*\{\s*"results"\s*:\s*\{')
SAMPLES_HEAD = re.compile(rb'\s*(?:\[\s*)?\{\s*"doc_id"\s*:')
_LM_EVAL_METRIC_KEY = re.compile(rb'"[^",\\]+,[^",\\]+"\s*:')
_LM_EVAL_V03_KEY = re.compile(rb'"[^",\\]+_stderr"\s*:')
# EvalScope (its reader tells a report by its head too)
EVALSCOPE_REPORT_HEAD = re.compile(
    rb'\s*\{\s*"name"\s*:\s*"[^"]*"\s*,\s*"dataset_name"\s*:'
)
_EVALSCOPE_INDEX_HEAD = re.compile(rb'\s*\{\s*"index"\s*:')
# HELM
_HELM_HEAD = re.compile(rb'\s*\[\s*\{\s*"instance_id"\s*:')
# LiveCodeBench
_LCB_ALL_HEAD = re.compile(rb'\s*\[\s*\{\s*"question_title"\s*:')
_LCB_EVAL_HEAD = re.compile(rb'\s*\[\s*\{\s*"pass@1"\s*:')
# deepeval
_DEEPEVAL_WRAPPED = re.compile(rb'\s*\{\s*"(?:testRunData|testRunLink)"\s*:')
_DEEPEVAL_BARE = re.compile(
    rb'\s*\{\s*"(?:testFile|testCases|conversationalTestCases|deployment|'
    rb'dict_test_cases|test_cases|test_results)"\s*:'
)
_DEEPEVAL_RUN_KEYS = (
    b'"metricsData"',
    b'"metricsMetadata"',
    b'"metrics_data"',
    b'"metricsScores"',
    b'"conversationalTestCases"',
)
# SWE-bench
SWEBENCH_REPORT_KEYS = (
    "total_instances",
    "submitted_instances",
    "completed_instances",
    "resolved_instances",
    "resolved_ids",
    "unresolved_ids",
    "submitted_ids",
)
_SWEBENCH_KEYS = b"|".join(key.encode() for key in SWEBENCH_REPORT_KEYS)
_SWEBENCH_RUN_HEAD = re.compile(rb'\s*\{\s*"(?:' + _SWEBENCH_KEYS + rb')"\s*:')
_SWEBENCH_INSTANCE_HEAD = re.compile(
    rb'\s*\{\s*"[^"\\]{1,200}"\s*:\s*\{\s*"(?:patch_is_None|patch_exists|resolved)"\s*:'
)
# The same entry without the instance id around it (`logs/<instance>/report.json` as
# SWE-bench's published evaluation logs hold it).
_SWEBENCH_BARE_HEAD = re.compile(rb'\s*\{\s*"(?:patch_is_None|patch_exists)"\s*:')


def sniff(path: Path, head: bytes) -> str | None:  # noqa: PLR0911 - one per framework
    """Name the framework that wrote a file, judged by its content.

    Parameters
    ----------
    path : pathlib.Path
        The file (opened only to list a zip archive's members when `head` does not
        show them).
    head : bytes
        Its first bytes (64 KiB), already un-gzipped.

    Returns
    -------
    str or None
        One of `leaderboard.inputs.frameworks.FRAMEWORK_FORMATS`, or None for
        anything else. Never raises.
    """
    if is_inspect(path, head):
        return "inspect"
    if is_promptfoo(head):  # before lm-eval: both can start {"results": {
        return "promptfoo"
    if is_lighteval(path, head):  # before lm-eval: both have `results`
        return "lighteval"
    if is_lm_eval(head):
        return "lm-eval"
    if is_evalscope(head):
        return "evalscope"
    if is_helm(head):
        return "helm"
    if is_livecodebench(head):
        return "livecodebench"
    if is_deepeval(head):
        return "deepeval"
    if is_swebench(head):
        return "swe-bench"
    return None


def is_inspect(path: Path, head: bytes) -> bool:
    """Whether `head` (the first bytes of `path`) starts an Inspect log. Never raises.

    An archive is an Inspect log only when it is named ``.eval``, as Inspect names
    them: an archive renamed ``results.jsonl`` is no log, so a glob for record files
    (``**/*.jsonl``) never opens an archive.
    """
    if head.startswith(ZIP_MAGIC):
        if not path.name.lower().endswith(".eval"):
            return False
        if any(member in head for member in _INSPECT_MEMBERS):
            return True
        # the archive's directory, read under the reader's archive policy
        from leaderboard.inputs.frameworks.inspect_log import (  # noqa: PLC0415
            zip_has_log_members,
        )

        return zip_has_log_members(path)
    return _INSPECT_JSON.match(head.removeprefix(UTF8_BOM)) is not None


def is_promptfoo(head: bytes) -> bool:
    """Whether `head` starts a promptfoo ``-o`` output (JSON or JSON Lines)."""
    text = head.removeprefix(UTF8_BOM)
    if _PROMPTFOO_JSON.match(text):
        return True
    first = text.split(b"\n", 1)[0]
    return first.lstrip().startswith(b"{") and all(
        key in first for key in _PROMPTFOO_ROW_KEYS
    )


def is_lighteval(path: Path, head: bytes) -> bool:
    """Whether `head` starts a lighteval results file or details Parquet file."""
    if head.startswith(PARQUET_MAGIC):
        return _LIGHTEVAL_DETAILS.fullmatch(path.name) is not None
    text = head.removeprefix(UTF8_BOM)
    if _LIGHTEVAL_HEAD.match(text):
        return True
    return text.lstrip().startswith(b"{") and b'"config_general"' in text[:4096]


def is_lm_eval(head: bytes) -> bool:
    """Whether `head` starts a results file or a samples file. Never raises."""
    text = head.removeprefix(UTF8_BOM)
    if RESULTS_HEAD.match(text):
        return (
            _LM_EVAL_METRIC_KEY.search(text) is not None
            or b'"alias"' in text
            or (b'"versions"' in text and _LM_EVAL_V03_KEY.search(text) is not None)
        )
    if SAMPLES_HEAD.match(text):
        first = text.split(b"\n", 1)[0] if not text.lstrip().startswith(b"[") else text
        return b'"doc"' in first or b'"filtered_resps"' in first
    return False


def is_evalscope(head: bytes) -> bool:
    """Whether `head` starts an EvalScope review, prediction or report file.

    A review line can be longer than the head (its ``messages`` come before
    ``sample_score``; 0.x's prompts before ``reviewer_spec``), so a first line cut
    by the head is judged by the keys that come first.
    """
    text = head.removeprefix(UTF8_BOM)
    if EVALSCOPE_REPORT_HEAD.match(text):
        return b'"metrics"' in text and b'"model_name"' in text
    first, newline, _ = text.partition(b"\n")
    cut = not newline
    if not _EVALSCOPE_INDEX_HEAD.match(first):
        return _is_evalscope_v0(first, cut)
    if b'"sample_score"' in first or (cut and b'"messages"' in first):
        return b'"target"' in first
    return b'"model_output"' in first and b'"messages"' in first  # a predictions file


def _is_evalscope_v0(first: bytes, cut: bool) -> bool:
    if not first.lstrip().startswith(b"{"):
        return False
    if b'"choices"' not in first or b'"review"' not in first:
        return False
    return b'"reviewer_spec"' in first or (cut and b'"answer_id"' in first)


def is_helm(head: bytes) -> bool:
    """Whether `head` starts a ``per_instance_stats.json``. Never raises."""
    text = head.removeprefix(UTF8_BOM)
    return _HELM_HEAD.match(text) is not None and b'"stats"' in text


def is_livecodebench(head: bytes) -> bool:
    """Whether `head` starts an ``*_eval_all.json`` or an ``*_eval.json``."""
    text = head.removeprefix(UTF8_BOM)
    if _LCB_ALL_HEAD.match(text):
        return b'"question_id"' in text and b'"contest_date"' in text
    return _LCB_EVAL_HEAD.match(text) is not None and b'"detail"' in text


def is_deepeval(head: bytes) -> bool:
    """Whether `head` starts a deepeval test run file. Never raises."""
    text = head.removeprefix(UTF8_BOM)
    if _DEEPEVAL_WRAPPED.match(text):
        return True
    if not _DEEPEVAL_BARE.match(text):
        return False
    return any(key in text for key in _DEEPEVAL_RUN_KEYS)


def is_swebench(head: bytes) -> bool:
    """Whether `head` starts a SWE-bench run report or per-instance report."""
    text = head.removeprefix(UTF8_BOM)
    if _SWEBENCH_INSTANCE_HEAD.match(text) or _SWEBENCH_BARE_HEAD.match(text):
        return True
    return bool(_SWEBENCH_RUN_HEAD.match(text)) and (
        b'"resolved_ids"' in text or b'"resolved_instances"' in text
    )

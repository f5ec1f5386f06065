"""`sniff` tells framework files by content, and never raises on anything else."""

from __future__ import annotations

import io
import json
import warnings
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks import FRAMEWORK_FORMATS, FormatWarning, read, sniff

MISSING = Path("/nonexistent/leaderboard-sniff-test.bin")
PREFIXES = [
    b"",
    b"PK\x03\x04",
    b'{"results": {',
    b'{"doc_id": 0, ',
    b'{\n  "version": 2,\n  "status": "success",\n  "eval": {',
    b"\xef\xbb\xbf",
    b"\x1f\x8b",
    b'{"testRunData": {"testCases": [',
    b'{"testCases": [{"metricsData": ',
    b'{\n    "total_instances": 500,\n    "resolved_ids": ',
    b'{\n    "django__django-1": {\n        "patch_is_None": ',
]


def test_framework_formats__is_the_interface_tuple() -> None:
    assert FRAMEWORK_FORMATS == (
        "inspect",
        "lm-eval",
        "promptfoo",
        "evalscope",
        "helm",
        "livecodebench",
        "lighteval",
        "deepeval",
        "swe-bench",
    )


@settings(max_examples=300, deadline=None)
@given(prefix=st.sampled_from(PREFIXES), body=st.binary(max_size=2048))
def test_sniff__arbitrary_bytes_never_raise(prefix: bytes, body: bytes) -> None:
    assert sniff(MISSING, prefix + body) in (None, *FRAMEWORK_FORMATS)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(body=st.binary(max_size=512))
def test_sniff__garbage_zip_file_on_disk_never_raises(tmp_path: Path, body: bytes) -> None:
    path = tmp_path / "x.eval"
    data = b"PK\x03\x04" + body
    path.write_bytes(data)
    assert sniff(path, data) in (None, "inspect")


@pytest.mark.parametrize(
    "content",
    [
        b'[{"model_id": "m", "task_id": "t", "score": 0.5}]',
        b'{"model_id": "m", "task_id": "t", "score": 0.5}\n',
        b'{"records": [{"model_id": "m", "task_id": "t", "score": 1}]}',
        b'{"runs": []}',
        b"model_id,task_id,score\nm,t,0.5\n",
        b'{"results": [1, 2]}',
    ],
)
def test_sniff__record_files_are_not_frameworks(content: bytes) -> None:
    assert sniff(MISSING, content) is None


def test_sniff__other_zip_archive_is_not_inspect(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("word/document.xml", "<x/>")
    path = tmp_path / "doc.docx"
    path.write_bytes(buffer.getvalue())
    assert sniff(path, buffer.getvalue()) is None


def test_sniff__inspect_archive_whose_head_hides_member_names(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("samples/a_epoch_1.json", "x" * 70_000)
        archive.writestr("header.json", json.dumps({"status": "success"}))
    path = tmp_path / "log.eval"
    path.write_bytes(buffer.getvalue())
    head = buffer.getvalue()[: 64 * 1024]
    assert b"header.json" not in head
    assert sniff(path, head) == "inspect"


def test_read__unknown_format_is_a_programming_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown framework format"):
        read("nonesuch", tmp_path / "x.json")


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
_KEYS = st.sampled_from(
    [
        *("results", "model_name", "config", "group_subtasks", "groups"),
        *("higher_is_better", "configs", "version", "status", "eval", "samples"),
        "invalidated",
        *("testRunData", "testCases", "metricsData", "hyperparameters", "name"),
        *("resolved_ids", "unresolved_ids", "error_ids", "empty_patch_ids", "resolved"),
    ]
)
_NAMES = st.sampled_from(["t", "g", "acc,none", "ter,f", "bleu,none", "acc_stderr,none"])
_SHAPED = st.recursive(
    st.none() | st.booleans() | st.floats() | st.sampled_from(["C", "success", "t"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            _NAMES | st.sampled_from(["task", "model", "scores", "value", "id", "epoch"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=25,
)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    fmt=st.sampled_from(FRAMEWORK_FORMATS),
    document=st.dictionaries(_KEYS, _JSON | _SHAPED, max_size=8),
)
def test_read__odd_documents_give_records_or_input_error(
    tmp_path: Path, fmt: str, document: dict[str, object]
) -> None:
    path = tmp_path / "results_2026-01-01T00-00-00.json"
    path.write_text(json.dumps(document))
    try:
        with warnings.catch_warnings():  # notes on what was read are not the point
            warnings.simplefilter("ignore", FormatWarning)
            runs = read(fmt, path)
    except InputError as exc:
        message = str(exc)
    else:
        message = ""
        assert all(0 <= run.score <= 1 for run in runs)
    assert "\n" not in message

"""docs/statistics.md stays true to the code: its numbers, names and fields."""

from __future__ import annotations

import json
import math
import re
import typing
from typing import Any

import pytest
from ruamel.yaml import YAML

import leaderboard
from leaderboard.inputs import EvalRun
from leaderboard.report import ReportSettings
from leaderboard.stats.bootstrap import BLOCK, t_scale
from leaderboard.stats.build import METHOD
from tests.docs.docs_support import ROOT

DOC = ROOT / "docs" / "statistics.md"


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _table_after(text: str, header_start: str) -> list[list[str]]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_statistics_doc__widening_table_matches_the_code() -> None:
    rows = _table_after(_doc(), "| units per stratum |")
    assert len(rows) >= 3
    for n, strata, df, t_over_z, rescale, widening in rows:
        assert int(df) == int(strata) * (int(n) - 1), f"n={n}"
        c, r = t_scale(0.05, float(df)), math.sqrt(int(n) / (int(n) - 1))
        assert (t_over_z, rescale, widening) == (f"{c:.3f}", f"{r:.3f}", f"{c * r:.3f}")


def test_statistics_doc__names_the_method_the_report_states() -> None:
    assert f"`settings.method` in the JSON report: `{METHOD}`" in _doc()
    assert f"blocks of {BLOCK:,}" in _doc()


def test_statistics_doc__unit_table_lists_every_unit_the_report_can_state() -> None:
    rows = _table_after(_doc(), "| records carry |")
    units = [row[-1].strip("`") for row in rows]
    assert units == list(typing.get_args(ReportSettings.model_fields["unit"].annotation))


def _schema_properties(node: Any, out: set[str]) -> set[str]:
    if isinstance(node, dict):
        out.update(node.get("properties", {}))
        for value in node.values():
            _schema_properties(value, out)
    elif isinstance(node, list):
        for value in node:
            _schema_properties(value, out)
    return out


def _resolve(schema: dict[str, Any], dotted: str) -> bool:
    """Does ``a.b`` name a property ``b`` of the object at property ``a``?"""
    node: dict[str, Any] = schema
    for part in dotted.split("."):
        while "$ref" in node or "anyOf" in node:
            if "$ref" in node:
                node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
            else:
                node = next(n for n in node["anyOf"] if n.get("type") != "null")
        if part not in node.get("properties", {}):
            return False
        node = node["properties"][part]
    return True


def test_statistics_doc__every_field_and_input_it_names_exists() -> None:
    schema = json.loads(
        (ROOT / "schema" / "report.schema.json").read_text(encoding="utf-8")
    )
    action = YAML(typ="safe", pure=True).load((ROOT / "action.yml").read_text("utf-8"))
    known = (
        _schema_properties(schema, set())
        | set(action["inputs"])
        | set(EvalRun.__dataclass_fields__)
        | set(leaderboard.__all__)
        | set(typing.get_args(ReportSettings.model_fields["unit"].annotation))
        | {METHOD}
    )
    unknown = []
    for span in re.findall(r"`([^`\n]+)`", _doc()):
        name = span.split(": ")[0]
        if "/" in span:  # a path, or a command naming paths: they must exist
            paths = [t for t in span.split() if "/" in t and not t.startswith(".venv/")]
            unknown += [t for t in paths if not (ROOT / t).exists()]
        elif "." in name:
            if not _resolve(schema, name):
                unknown.append(span)
        elif name not in known:
            unknown.append(span)
    assert not unknown, f"docs/statistics.md names what the code does not have: {unknown}"


@pytest.mark.parametrize(
    "reference",
    [
        "arXiv:2411.00640",  # Miller 2024
        "An Introduction to the Bootstrap",  # Efron & Tibshirani 1993
        "arXiv:1411.5279",  # Hesterberg 2015
        "Resampling Inference with Complex Survey Data",  # Rao & Wu 1988
        "Cluster-Robust Inference",  # Cameron & Miller 2015
    ],
)
def test_statistics_doc__cites(reference: str) -> None:
    assert reference in _doc()

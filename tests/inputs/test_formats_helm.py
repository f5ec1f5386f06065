"""HELM ``per_instance_stats.json`` with ``run_spec.json``: real files.

From stanford-crfm/helm's ``benchmark_output_TRUE_latest/runs/v3`` (origins in
tests/fixtures/helm/README.md): two models' ``bbq`` runs and a safety run
(``anthropic_red_team``) in HELM 0.5's duplicate-entry shape.
"""

from __future__ import annotations

import json
import os
import shutil
import warnings
from pathlib import Path

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks import FormatWarning, read, sniff
from tests.inputs._framework_cases import FIXTURES, cli_refusal, load_quiet, read_quiet

RUNS = FIXTURES / "helm" / "runs" / "v3"
BBQ_8B = RUNS / "bbq_subject-all_method-multiple_choice_joint_model-meta_llama-3-8b"
BBQ_70B = RUNS / "bbq_subject-all_method-multiple_choice_joint_model-meta_llama-3-70b"
RED_TEAM = RUNS / "anthropic_red_team_model-meta_llama-3-8b"


def _means(folder: Path, metric: str) -> dict[str, float]:
    found: dict[str, float] = {}
    for entry in json.loads((folder / "per_instance_stats.json").read_text()):
        for stat in entry["stats"]:
            if stat["name"]["name"] == metric and not entry.get("perturbation"):
                found[entry["instance_id"]] = stat["mean"]
    return found


@pytest.mark.parametrize("folder", [BBQ_8B, BBQ_70B, RED_TEAM], ids=lambda p: p.name)
def test_sniff__every_real_per_instance_stats_is_helm(folder: Path) -> None:
    path = folder / "per_instance_stats.json"
    assert sniff(path, path.read_bytes()[:65536]) == "helm"


def test_read__model_from_adapter_spec_task_without_model_exact_match_primary() -> None:
    runs = load_quiet(
        str(BBQ_8B / "per_instance_stats.json"), str(BBQ_70B / "per_instance_stats.json")
    )
    assert {r.model_id for r in runs} == {"meta/llama-3-8b", "meta/llama-3-70b"}
    assert {r.task_id for r in runs} == {"bbq:subject=all,method=multiple_choice_joint"}
    assert {r.category for r in runs} == {"bbq"}
    assert {r.metric_name for r in runs} == {"exact_match"}
    mine = {r.item_id: r.score for r in runs if r.model_id == "meta/llama-3-8b"}
    assert mine == _means(BBQ_8B, "exact_match")


def test_read__metric_chooses_quasi_exact_match() -> None:
    runs = read_quiet("helm", BBQ_8B / "per_instance_stats.json", "quasi_exact_match")
    assert {r.item_id: r.score for r in runs} == _means(BBQ_8B, "quasi_exact_match")


def test_read__helm_05_duplicate_entries_merged_one_record_per_instance() -> None:
    raw = json.loads((RED_TEAM / "per_instance_stats.json").read_text())
    ids = [entry["instance_id"] for entry in raw]
    assert len(ids) == 2 * len(set(ids))  # the shape: one entry per metric class
    runs = read_quiet("helm", RED_TEAM / "per_instance_stats.json")
    assert len(runs) == len(set(ids))
    assert {r.metric_name for r in runs} == {"art_score"}  # the scenario's own, first
    assert {r.item_id: r.score for r in runs} == _means(RED_TEAM, "art_score")


def _copy(folder: Path, tmp_path: Path) -> Path:
    target = tmp_path / "run"
    shutil.copytree(folder, target)
    return target


def test_read__perturbed_instances_left_out(tmp_path: Path) -> None:
    run = _copy(BBQ_8B, tmp_path)
    raw = json.loads((run / "per_instance_stats.json").read_text())
    variant = json.loads(json.dumps(raw[0]))
    variant["perturbation"] = {"name": "typos", "robustness": True, "fairness": False}
    for stat in variant["stats"]:
        if stat["name"]["name"] == "exact_match":
            stat["mean"] = 1 - stat["mean"]
    (run / "per_instance_stats.json").write_text(json.dumps([*raw, variant]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", FormatWarning)
        runs = read("helm", run / "per_instance_stats.json")
    assert any("perturbed instances left out" in str(w.message) for w in caught)
    assert {r.item_id: r.score for r in runs} == _means(BBQ_8B, "exact_match")


def test_read__two_values_of_one_statistic_refused(tmp_path: Path) -> None:
    run = _copy(RED_TEAM, tmp_path)
    raw = json.loads((run / "per_instance_stats.json").read_text())
    first = raw[0]
    twin = next(e for e in raw[1:] if e["instance_id"] == first["instance_id"])
    twin["stats"].append(dict(first["stats"][0], mean=1 - first["stats"][0]["mean"]))
    (run / "per_instance_stats.json").write_text(json.dumps(raw))
    with pytest.raises(InputError, match="two values of 'art_score'"):
        read_quiet("helm", run / "per_instance_stats.json")


def test_read__run_spec_missing_is_refused_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _copy(BBQ_8B, tmp_path)
    (run / "run_spec.json").unlink()
    err = cli_refusal(capsys, str(run / "per_instance_stats.json"))
    assert "per_instance_stats.json" in err
    assert "run_spec.json" in err


def test_read__run_spec_link_is_not_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _copy(BBQ_8B, tmp_path)
    outside = tmp_path / "elsewhere.json"
    (run / "run_spec.json").rename(outside)
    os.symlink(outside, run / "run_spec.json")
    err = cli_refusal(capsys, str(run / "per_instance_stats.json"))
    assert "run_spec.json" in err
    assert "link" in err


def test_metric_naming_nothing_held_is_refused_listing_what_is_held(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = cli_refusal(capsys, str(BBQ_8B / "per_instance_stats.json"), "--metric", "acc")
    assert "holds no metric named acc" in err
    assert "exact_match" in err

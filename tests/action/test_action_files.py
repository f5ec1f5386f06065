"""action.yml, the Dockerfile and the workflows: schemas, linters, and no drift."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement  # comes with pytest
from ruamel.yaml import YAML  # comes with check-jsonschema

from leaderboard.action.settings import INPUTS, Settings

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
WORKFLOWS = sorted((ROOT / "examples" / "workflows").glob("*.yml")) + sorted(
    (ROOT / ".github" / "workflows").glob("*.yml")
)
CONTRACT_INPUTS = {
    "results": None,
    "baseline": "",
    "candidates": "",
    "confidence": "0.95",
    "resamples": "10000",
    "seed": "0",
    "margin": "0",
    "fail-on-regression": "true",
    "comment": "true",
    "comment-header": "leaderboard",
    "github-token": "${{ github.token }}",
    "template": "",
    "json-report": "",
    "commit-status": "true",  # section 9
    "accept-label": "accept-regression",
    # CONTRACT.md section 7
    "baseline-map": "",
    "fail-on-undetermined": "false",
}
CONTRACT_OUTPUTS = {"regressed", "report", "comment-url", "accepted", "gate-status"}
# Added beside the contract's (CONTRACT.md section 11: the outputs tell the verdict).
VERDICT_OUTPUTS = {"verdict", "verdict-text"}
SHA_PIN = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")


def tool(name: str) -> str:
    path = BIN / name
    if path.exists():
        return str(path)
    found = shutil.which(name)
    assert found, f"{name} is installed with the test extra"
    return found


def action() -> dict[str, Any]:
    data: dict[str, Any] = _load((ROOT / "action.yml").read_text())
    return data


def check(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=False, cwd=ROOT)


def test_action_yml__valid_for_the_github_actions_schema() -> None:
    res = check(
        tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions", "action.yml"
    )
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflows__valid_for_the_github_workflows_schema(path: Path) -> None:
    res = check(
        tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", str(path)
    )
    assert res.returncode == 0, res.stdout + res.stderr


def test_workflows__found() -> None:
    names = {p.name for p in WORKFLOWS}
    assert {
        "leaderboard-same-job.yml",
        "leaderboard-separate-jobs.yml",
        "leaderboard-fork-safe-compute.yml",
        "leaderboard-fork-safe-comment.yml",
        "leaderboard-two-boards.yml",
        "leaderboard-history.yml",
        "release.yml",
        "ci.yml",
    } <= names


def test_examples__zizmor_offline_finds_nothing() -> None:
    examples = [str(p) for p in WORKFLOWS if "examples" in p.parts]
    res = check(
        tool("zizmor"),
        "--offline",
        "--persona",
        "pedantic",
        "--no-progress",
        "--config",
        "examples/zizmor.yml",
        *examples,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert "No findings" in res.stdout + res.stderr


def test_repository_workflows_and_action__zizmor_offline_finds_nothing() -> None:
    ours = [str(p) for p in WORKFLOWS if ".github" in p.parts] + ["action.yml"]
    res = check(
        tool("zizmor"), "--offline", "--persona", "pedantic", "--no-progress", *ours
    )
    assert res.returncode == 0, res.stdout + res.stderr


def test_dockerfile__hadolint_passes() -> None:
    res = check(tool("hadolint"), "Dockerfile")
    assert res.returncode == 0, res.stdout + res.stderr


def test_dockerfile__absolute_entrypoint_and_base_image_argument() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "ARG BASE_IMAGE=python:3.12-slim" in text
    assert 'ENTRYPOINT ["/opt/venv/bin/python", "/app/entrypoint.py"]' in text
    assert "COPY templates/ /app/templates/" in text


def test_action_yml__inputs_and_defaults_exactly_as_the_contract() -> None:
    inputs = action()["inputs"]
    for name, default in CONTRACT_INPUTS.items():
        assert name in inputs, name
        assert inputs[name].get("default") == default, name
        assert inputs[name]["description"].strip(), name
    assert inputs["results"]["required"] is True
    assert set(action()["outputs"]) == CONTRACT_OUTPUTS | VERDICT_OUTPUTS
    assert action()["runs"] == {"using": "docker", "image": "Dockerfile"}
    assert set(action()["branding"]) == {"icon", "color"}


def test_drift__every_action_input_is_parsed_by_settings_and_back() -> None:
    assert [spec.name for spec in INPUTS] == list(action()["inputs"])


def test_drift__defaults_agree_with_settings() -> None:
    inputs = action()["inputs"]
    env = {spec.env_name: str(inputs[spec.name].get("default", "")) for spec in INPUTS}
    env["INPUT_RESULTS"] = "r.jsonl"
    env["INPUT_GITHUB-TOKEN"] = ""  # the runner expands ${{ github.token }}
    assert Settings.from_env(env) == Settings(results=("r.jsonl",))


def test_drift__every_settings_field_of_an_input_exists() -> None:
    fields = set(Settings.__dataclass_fields__)
    assert {spec.name.replace("-", "_") for spec in INPUTS} <= fields


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflows__third_party_actions_pinned_by_sha(path: Path) -> None:
    uses = re.findall(r"^\s*(?:-\s+)?uses:\s*(\S+)", path.read_text(), flags=re.M)
    assert uses
    for ref in uses:
        if ref.startswith("./") or ref.startswith("OWNER/leaderboard-action@"):
            continue
        assert SHA_PIN.match(ref), f"{path.name}: {ref} is not pinned to a commit"


@pytest.mark.parametrize(
    "path", [p for p in WORKFLOWS if "examples" in p.parts], ids=lambda p: p.name
)
def test_examples__minimal_permissions_and_a_concurrency_group(path: Path) -> None:
    data = _load(path.read_text())
    assert data["permissions"] == {}
    assert "concurrency" in data
    allowed = {
        "contents": "read",
        "pull-requests": "write",
        "actions": "read",
        "statuses": "write",  # the commit status (CONTRACT.md section 9)
    }
    for job in data["jobs"].values():
        for scope, level in job["permissions"].items():
            if (scope, level) == ("contents", "write"):
                # Only the job that stores the default branch's run, on push alone.
                assert job.get("if") == "github.event_name == 'push'", job.get("name")
                steps = [s.get("with", {}) for s in job["steps"]]
                assert any("history-branch" in w for w in steps)
                continue
            assert allowed.get(scope) == level, f"{scope}: {level}"


def test_docker_requirements__pin_every_runtime_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins: dict[str, str] = {}
    for line in _requirement_lines():
        requirement, *hashes = line.split(" --hash=")
        pinned = Requirement(requirement)
        (spec,) = pinned.specifier
        assert spec.operator == "==", line
        assert hashes, f"{pinned.name} has no --hash (the image installs --require-hashes)"
        assert all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes), line
        pins[_norm(pinned.name)] = spec.version
    # The image reads every input format: the runtime dependencies and the `inspect`
    # extra (Zstandard-compressed Inspect logs).
    for dep in [*project["dependencies"], *project["optional-dependencies"]["inspect"]]:
        req = Requirement(dep)
        assert _norm(req.name) in pins, (
            f"{req.name} is not pinned in docker/requirements.txt"
        )
        assert req.specifier.contains(pins[_norm(req.name)]), req


def _requirement_lines() -> list[str]:
    """docker/requirements.txt's requirements, continuation lines joined."""
    text = (ROOT / "docker" / "requirements.txt").read_text()
    lines = [raw.split("#", 1)[0].rstrip() for raw in text.splitlines()]
    joined = "\n".join(lines).replace("\\\n", " ")
    return [" ".join(line.split()) for line in joined.splitlines() if line.strip()]


def test_dockerfile__installs_with_require_hashes_and_binaries_only() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "--require-hashes --only-binary=:all:" in text
    assert "-r /app/requirements.txt" in text


def test_release_workflow__builds_on_the_base_image_by_digest() -> None:
    text = (ROOT / ".github" / "workflows" / "release.yml").read_text()
    assert '--build-arg "BASE_IMAGE=$BASE_REF"' in text
    assert "org.opencontainers.image.base.digest" in text


def test_dockerignore__only_what_the_image_needs() -> None:
    text = (ROOT / ".dockerignore").read_text()
    assert text.splitlines()[1:2] == ["*"] or "\n*\n" in text
    for needed in (
        "docker/requirements.txt",
        "leaderboard/",
        "templates/",
        "entrypoint.py",
    ):
        assert f"!{needed}" in text


def _load(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(text)


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _action_steps() -> list[tuple[str, dict[str, str]]]:
    found = []
    for path in WORKFLOWS:
        for job in _load(path.read_text())["jobs"].values():
            for step in job.get("steps", []):
                uses = step.get("uses", "")
                if uses.startswith("OWNER/leaderboard-action@") or uses == "./":
                    found.append((path.name, {k: str(v) for k, v in step["with"].items()}))
    return found


def test_workflows__every_use_of_the_action_passes_inputs_it_parses() -> None:
    steps = _action_steps()
    assert len(steps) >= 7
    known = set(action()["inputs"])
    for name, with_ in steps:
        assert set(with_) <= known, f"{name}: unknown inputs {set(with_) - known}"
        env = {
            "INPUT_" + key.upper(): "7" if "${{" in value else value
            for key, value in with_.items()
        }
        settings = Settings.from_env(env)  # raises UsageError naming a bad input
        assert settings.results, name


def test_action_yml__image_line_the_release_workflow_rewrites() -> None:
    lines = (ROOT / "action.yml").read_text().splitlines()
    assert lines.count("  image: Dockerfile") == 1
    release = (ROOT / ".github" / "workflows" / "release.yml").read_text()
    assert r"s|^  image: Dockerfile\$|  image: docker://$DIGEST_REF|" in release

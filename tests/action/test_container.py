"""Build the action's image from the Dockerfile and run it as the Actions runner does.

No Docker engine here (../CONTAINER.md): podman builds the image with chroot isolation
on a local Debian base (scripts/container-base.sh, cached), and ``buildah run`` starts
the image's entrypoint with the runner's mounts (``/github/workspace``,
``/github/workflow``, ``/github/file_commands``) and ``INPUT_*`` variables, on the host
network, against the fake GitHub API on 127.0.0.1.

Measured and printed (``-s``) and written to ``out/container-timings.json``: the image
build, and the time from container start to the comment arriving at the API.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.action.action_job import (
    HEAD_SHA,
    Job,
    annotations,
    guardrails_job,
    write_results,
)
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub

pytestmark = [pytest.mark.container, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
# One tag per checkout: two checkouts testing at once (git worktrees) never run each
# other's image.
IMAGE = "localhost/leaderboard-action:test-" + hashlib.sha256(bytes(ROOT)).hexdigest()[:12]
TOOLS = ("podman", "buildah", "debootstrap")
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
TIMINGS = ROOT / "out" / "container-timings.json"


def _tools_or_skip() -> None:
    """Skip only where the tools cannot exist; install them where they can."""
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        pytest.skip(
            "the container test needs root (podman/buildah with chroot isolation and "
            "debootstrap); run it as root, e.g. in CI via .ci/run"
        )
    if not missing:
        return
    if shutil.which("apt-get") is None:
        pytest.skip(f"{', '.join(missing)} missing and no apt-get to install them")
    res = _sh("bash", str(ROOT / "scripts" / "install-tools.sh"), timeout=600)
    still = [t for t in TOOLS if shutil.which(t) is None]
    assert not still, f"scripts/install-tools.sh did not install {still}: {res.stderr}"


def _sh(*args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, capture_output=True, text=True, timeout=timeout, check=False, cwd=ROOT
    )


@contextlib.contextmanager
def _build_lock() -> Iterator[None]:
    lock = Path(tempfile.gettempdir()) / "leaderboard-action-image.lock"
    with lock.open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _record(**figures: float) -> None:
    TIMINGS.parent.mkdir(exist_ok=True)
    data = json.loads(TIMINGS.read_text()) if TIMINGS.is_file() else {}
    data.update({k: round(v, 2) for k, v in figures.items()})
    TIMINGS.write_text(json.dumps(data, indent=2) + "\n")
    for name, value in figures.items():
        print(f"[container] {name}: {value:.1f} s")


@pytest.fixture(scope="module")
def image() -> list[str]:
    """Build the image once per module; return its entrypoint as a command.

    Layers are cached between runs; ``LEADERBOARD_CONTAINER_NO_CACHE=1`` builds from
    scratch (the figure a first run, or a Docker action without a published image, pays).
    """
    _tools_or_skip()
    t0 = time.monotonic()
    base = _sh("bash", str(ROOT / "scripts" / "container-base.sh"), timeout=900)
    assert base.returncode == 0, base.stderr
    base_image = base.stdout.strip().splitlines()[-1]
    t_base = time.monotonic()
    extra = ["-v", f"{CA_BUNDLE}:{CA_BUNDLE}:ro"] if CA_BUNDLE.is_file() else []
    cold = os.environ.get("LEADERBOARD_CONTAINER_NO_CACHE") == "1"
    with _build_lock():  # under xdist another worker may build too: it then hits the cache
        t1 = time.monotonic()
        build = _sh(
            "podman", "build", "--isolation=chroot", "--network", "host", *extra,
            *(["--no-cache"] if cold else []),
            "--build-arg", f"BASE_IMAGE={base_image}", "-t", IMAGE, "-f", "Dockerfile", ".",
        )  # fmt: skip
        t2 = time.monotonic()
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    _record(
        base_image_s=t_base - t0,
        **{"image_build_s" if cold else "image_build_cached_s": t2 - t1},
    )
    inspect = _sh(
        "podman", "image", "inspect", "--format", "{{json .Config.Entrypoint}}", IMAGE
    )
    entrypoint = json.loads(inspect.stdout)
    assert entrypoint == ["/opt/venv/bin/python", "/app/entrypoint.py"]
    return entrypoint


def run_container(entrypoint: list[str], job: Job) -> subprocess.CompletedProcess[str]:
    """``buildah run`` the image's entrypoint as the runner would ``docker run`` it."""
    ctr = _sh("buildah", "from", "--pull-never", IMAGE).stdout.strip()
    assert ctr, "buildah from failed"
    try:
        args = [
            "buildah",
            "run",
            "--isolation",
            "chroot",
            "--workingdir",
            "/github/workspace",
        ]
        for sub in ("workspace", "workflow", "file_commands"):
            args += ["-v", f"{job.root / sub}:/github/{sub}"]
        for name, value in job.env(container=True).items():
            args += ["--env", f"{name}={value}"]
        return _sh(*args, ctr, "--", *entrypoint, timeout=300)
    finally:
        _sh("buildah", "rm", ctr)


@pytest.fixture
def api() -> Iterator[FakeGitHub]:
    with FakeGitHub() as fake:
        fake.add_pull(7, head_sha=HEAD_SHA)
        yield fake


def make_job(tmp_path: Path, api: FakeGitHub, baseline: str) -> Job:
    job = Job(tmp_path / "job", api.base_url)
    write_results(job.workspace / "results" / "evals.jsonl")
    job.inputs = {
        "RESULTS": "results/*.jsonl",
        "BASELINE": baseline,
        "RESAMPLES": "10000",  # the default: the figure is a real run's
        "GITHUB-TOKEN": INSTALLATION_TOKEN,
        "COMMENT-HEADER": "leaderboard",
        "FAIL-ON-REGRESSION": "true",
    }
    return job


def test_container__pull_request_comment_outputs_and_exit_status(
    image: list[str], tmp_path: Path, api: FakeGitHub
) -> None:
    job = make_job(tmp_path, api, baseline="model-2")
    posted: list[float] = []
    api.on("create_comment", lambda _req: posted.append(time.monotonic()))
    started = time.monotonic()
    res = run_container(image, job)
    finished = time.monotonic()
    assert res.returncode == 1, res.stdout + res.stderr  # model-0 regressed
    assert INSTALLATION_TOKEN not in res.stdout + res.stderr
    (comment,) = api.comments(7)
    assert HEAD_SHA[:7] in comment["body"]
    assert "model-0" in comment["body"]
    out = job.outputs()
    assert out["regressed"] == "true"
    assert out["comment-url"] == comment["html_url"]
    report = json.loads((job.workspace / out["report"]).read_text())
    assert report["settings"]["resamples"] == 10_000
    assert "model-0" in job.summary()
    assert [a[0] for a in annotations(res.stdout)] == ["error"]
    assert len(posted) == 1
    _record(start_to_comment_s=posted[0] - started, start_to_exit_s=finished - started)


def test_container__bad_input_exit_2_and_failure_comment(
    image: list[str], tmp_path: Path, api: FakeGitHub
) -> None:
    job = make_job(tmp_path, api, baseline="model-0")
    (job.workspace / "results" / "evals.jsonl").write_text('{"model_id": "m"}\n')
    res = run_container(image, job)
    assert res.returncode == 2, res.stdout + res.stderr
    assert "Traceback" not in res.stderr
    ((level, _props, message),) = annotations(res.stdout)
    assert level == "error"
    assert "evals.jsonl" in message
    (comment,) = api.comments(7)
    assert "could not be computed" in comment["body"]


def test_container__push_event_no_comment(
    image: list[str], tmp_path: Path, api: FakeGitHub
) -> None:
    job = make_job(tmp_path, api, baseline="model-0")
    job.event_name, job.event = "push", {"ref": "refs/heads/main"}
    res = run_container(image, job)
    assert res.returncode == 0, res.stdout + res.stderr
    assert api.requests == []
    assert job.outputs()["regressed"] == "false"


def test_container__reads_every_input_format(image: list[str]) -> None:
    """The image has the `inspect` extra (Zstandard) and finds its templates."""
    ctr = _sh("buildah", "from", "--pull-never", IMAGE).stdout.strip()
    try:
        probe = (
            "import sys; sys.path.insert(0, '/app'); "
            "from backports import zstd; "
            "import leaderboard.inputs.frameworks, leaderboard.render.comment; "
            "from pathlib import Path; "
            "t = Path(leaderboard.__file__).parent.parent / 'templates' / 'comment.md.j2'; "
            "print(t.is_file())"
        )
        res = _sh(
            "buildah", "run", "--isolation", "chroot", ctr, "--", image[0], "-c", probe
        )
    finally:
        _sh("buildah", "rm", ctr)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "True"


def test_container__baseline_results_gate_each_model_against_its_own_run(
    image: list[str], tmp_path: Path, api: FakeGitHub
) -> None:
    job = make_job(tmp_path, api, baseline="")
    pr = job.workspace / "results" / "evals.jsonl"
    main_run = job.workspace / "main-results" / "evals.jsonl"
    main_run.parent.mkdir(parents=True)
    main_run.write_text(pr.read_text())
    lowered = []
    for line in pr.read_text().splitlines():
        record = json.loads(line)
        if record["model_id"] == "model-1":  # the pull request's change hurts model-1
            record["score"] = max(0.0, record["score"] - 0.2)
        lowered.append(json.dumps(record))
    pr.write_text("\n".join(lowered) + "\n")
    job.inputs |= {"BASELINE-RESULTS": "main-results/*.jsonl", "BASELINE-LABEL": "main"}
    res = run_container(image, job)
    assert res.returncode == 1, res.stdout + res.stderr
    (comment,) = api.comments(7)
    assert "**Baseline run**: **main**" in comment["body"]
    report = json.loads((job.workspace / job.outputs()["report"]).read_text())
    by = {c["candidate"]: c for c in report["gate"]["comparisons"]}
    assert set(by) == {"model-0", "model-1", "model-2"}
    assert by["model-1"]["baseline"] == "model-1 @ main"
    assert by["model-1"]["regressed"]
    assert not by["model-0"]["regressed"]
    assert report["gate"]["baseline_run"]["label"] == "main"


def test_container__guardrails_gate_tokens_on_real_inspect_logs(
    image: list[str], tmp_path: Path, api: FakeGitHub
) -> None:
    """The real Inspect pair (tests/fixtures/inspect/guardrails): the same answers, the
    candidate with about 1.6 times the tokens; read in the image without inspect_ai."""
    job = guardrails_job(tmp_path / "job", api.base_url, "tokens:+10%, includes:-0.05")
    res = run_container(image, job)
    assert res.returncode == 1, res.stdout + res.stderr
    (comment,) = api.comments(7)
    assert ", tokens +" in comment["body"].split("🔴 **Regression**", 1)[1].split("\n")[0]
    assert "⚪ Latency (not gated)" in comment["body"]
    report = json.loads((job.workspace / job.outputs()["report"]).read_text())
    by = {c["measure"]: c for c in report["gate"]["comparisons"]}
    assert by["tokens"]["regressed"]
    assert not by["score"]["regressed"]
    assert not by["includes"]["regressed"]

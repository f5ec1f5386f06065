"""The action's container run against ``python -c pass`` in the same image (issue 31).

Builds the image from the Dockerfile as tests/action/test_container.py does (podman,
chroot isolation, the local Debian base of scripts/container-base.sh; no Docker engine
here, see ../CONTAINER.md), then times, each as a fresh ``buildah run`` of the image as
the Actions runner starts a container action, interleaved over rounds (min / median of
wall time, and of the CPU time of ``buildah run`` and everything it started):

- ``python -c pass`` in the image: the floor (container start included);
- the action on a pull request, 2 models x 500 binary items (bench/startup.py's
  records), default settings (10,000 resamples), publishing to the fake GitHub API of
  tests/fakes (the comment, the commit status, outputs and summary): the goal is
  within 2.0x of the floor, wall and CPU;
- the same run's ``--dry-run`` (no token, no request): everything but the publishing.

Needs root, podman, buildah and the base image (``make tools``); prints why and exits
2 where they are missing. Usage: ``python bench/container.py [--rounds N] [--image TAG]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from startup import table, write_records  # bench/startup.py, beside this file

from tests.action.action_job import HEAD_SHA, Job  # the runner's mounts and variables
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub

ROOT = Path(__file__).resolve().parents[1]
IMAGE = "localhost/leaderboard-action:bench"
PYTHON = "/opt/venv/bin/python"
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")


def sh(*args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, capture_output=True, text=True, timeout=timeout, check=False, cwd=ROOT
    )


def build(image: str) -> None:
    missing = [t for t in ("podman", "buildah", "debootstrap") if not shutil.which(t)]
    if missing or os.geteuid() != 0:
        raise SystemExit(f"needs root and {', '.join(missing) or 'podman'}: make tools")
    base = sh("bash", str(ROOT / "scripts" / "container-base.sh"))
    if base.returncode:
        raise SystemExit(f"no base image: {base.stderr[-2000:]}")
    extra = ["-v", f"{CA_BUNDLE}:{CA_BUNDLE}:ro"] if CA_BUNDLE.is_file() else []
    built = sh(
        "podman", "build", "--isolation=chroot", "--network", "host", *extra,
        "--build-arg", f"BASE_IMAGE={base.stdout.split()[-1]}", "-t", image, ".",
    )  # fmt: skip
    if built.returncode:
        raise SystemExit(f"image build failed: {built.stderr[-2000:]}")


def run(image: str, job: Job | None, command: list[str]) -> tuple[float, float]:
    """Wall and CPU time of one ``buildah run`` of the image (the container made and
    removed outside the timing, as the runner creates it before starting it)."""
    ctr = sh("buildah", "from", "--pull-never", image).stdout.strip()
    args = ["buildah", "run", "--isolation", "chroot"]
    if job is not None:
        args += ["--workingdir", "/github/workspace"]
        for sub in ("workspace", "workflow", "file_commands"):
            args += ["-v", f"{job.root / sub}:/github/{sub}"]
        for name, value in job.env(container=True).items():
            args += ["--env", f"{name}={value}"]
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = sh(*args, ctr, "--", *command, timeout=300)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        sh("buildah", "rm", ctr)
    # the seeded records' verdict is no regression: the action and its dry run exit 0;
    # a failed run is reported, never timed
    if done.returncode != 0 or "Traceback" in done.stderr:
        raise SystemExit(
            f"{command} exited {done.returncode} (expected 0): {done.stdout[-1000:]}"
            f"{done.stderr[-2000:]}"
        )
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-build", action="store_true", help="reuse the bench image")
    parser.add_argument(
        "--image", default=IMAGE, help="the tag to build and time (two checkouts at once)"
    )
    args = parser.parse_args()
    if not args.no_build:
        build(args.image)
    got: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp, FakeGitHub() as api:
        api.add_pull(7, head_sha=HEAD_SHA)
        job = Job(Path(tmp) / "job", api.base_url)
        write_records(job.workspace / "results.jsonl")
        job.inputs = {
            "RESULTS": "results.jsonl",
            "BASELINE": "base",
            "GITHUB-TOKEN": INSTALLATION_TOKEN,
        }
        cases = {
            "python -c pass": (None, [PYTHON, "-c", "pass"]),
            "action, 2 x 500": (job, [PYTHON, "/app/entrypoint.py"]),
            "action --dry-run": (job, [PYTHON, "/app/entrypoint.py", "--dry-run"]),
        }
        for _ in range(args.rounds):
            for name, (j, command) in cases.items():
                got.setdefault(name, []).append(run(args.image, j, command))
        if not api.comments(7):
            raise SystemExit("the action posted no comment")
    title = f"The action's container, {args.rounds} interleaved rounds (min / median)"
    best = table(title, got)
    floor, action = best["python -c pass"], best["action, 2 x 500"]
    print(
        f"  action / python -c pass: {action[0] / floor[0]:.2f}x wall, "
        f"{action[1] / floor[1]:.2f}x CPU   (goal <= 2.0x)"
    )


if __name__ == "__main__":
    main()

"""Small artifacts that exhausted memory or time (issue 14.2), through the command line.

Each case of `make_fixtures.BOMBS` is written at test time (none is committed) and run
as ``python -m leaderboard report FILE`` in its own process: exit 2, one line on
stderr naming the file and the limit, no traceback, and a peak resident set size
(of that child alone, through ``/usr/bin/time``) under `RSS_BOUND`. Before the caps,
these exited 3 or were killed: ~25 GB of dicts for the ``.json.gz``, a whole
decompressed Inspect log, an 8 GiB header, ~7 GB of replicates for 300 models.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures import make_fixtures
from tests.measure import run_measured

#: Peak memory every case must stay under (measured: 76 to 386 MiB; a runner has 7 GB).
RSS_BOUND = 512 * 2**20
ROOT = Path(__file__).resolve().parents[2]
ACROSS_RECORDS = {"models_300_each_missing_an_item.jsonl", "categories_20000.jsonl"}


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return make_fixtures.write_bombs(tmp_path_factory.mktemp("bombs"))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(make_fixtures.BOMBS))
def test_bomb__refused_with_one_line_under_the_memory_bound(
    bombs: dict[str, Path], name: str
) -> None:
    code, out, err, rss, seconds = _run_measured(bombs[name])
    assert code == 2, err[-2000:]
    assert out == ""
    assert err.startswith("leaderboard: error: "), err[-2000:]
    assert err.count("\n") == 1, err[-2000:]
    if name not in ACROSS_RECORDS:  # those two name the field: no one file is at fault
        assert name in err
    for fragment in make_fixtures.BOMBS[name]:
        assert fragment in err, err
    print(f"{name}: peak RSS {rss / 2**20:.0f} MiB, {seconds:.1f} s")  # for -s
    assert rss < RSS_BOUND, f"{name}: peak RSS {rss / 2**20:.0f} MiB in {seconds:.1f} s"


def _run_measured(path: Path) -> tuple[int, str, str, int, float]:
    """Like `_run`, in a child measured by `tests.measure.run_measured`.

    Through ``/usr/bin/time``: a child reaped with ``os.wait4`` straight from this
    pytest worker reports the worker's own peak as its ``ru_maxrss`` (measured: 590 MiB
    for every case once the worker had run the large-input tests), not the child's.
    """
    m = run_measured(
        ["-m", "leaderboard", "report", str(path), "--resamples", "1000"], cwd=ROOT
    )
    return m.code, m.out, m.err, m.rss, m.seconds

"""The layout's integer-coded sort against the sort of the keys as tuples."""

from __future__ import annotations

import numpy as np
import pytest

from leaderboard.stats.design import _item_units, _key


def _by_tuples(
    t_index: dict[str, int], item_cluster: dict[tuple[str, int | str], int | str | None]
) -> tuple[list[tuple[str, int | str]], list[int], list[int], list[int], int]:
    """The plain definition: sort items by (task, _key(item)); a unit is (task, (0,
    _key(cluster))) or (task, (1, _key(item))), units sorted as tuples."""
    items = sorted(item_cluster, key=lambda k: (t_index[k[0]], _key(k[1])))
    unit_keys = []
    for t, it in items:
        cl = item_cluster[(t, it)]
        unit_keys.append((t_index[t], (1, _key(it)) if cl is None else (0, _key(cl))))
    uniq = sorted(set(unit_keys))
    u_index = {u: j for j, u in enumerate(uniq)}
    return (
        items,
        [t_index[t] for t, _ in items],
        [u_index[u] for u in unit_keys],
        [u[0] for u in uniq],
        sum(u[1][0] == 0 for u in uniq),
    )


@pytest.mark.parametrize("seed", range(6))
def test_item_units__same_order_as_sorting_tuples(seed: int) -> None:
    rng = np.random.default_rng(seed)
    tasks = [f"t{j}" for j in rng.permutation(5)]
    t_index = {t: j for j, t in enumerate(sorted(tasks))}
    item_cluster: dict[tuple[str, int | str], int | str | None] = {}
    for t in tasks:
        for _ in range(int(rng.integers(1, 40))):
            raw = int(rng.integers(-50, 2**40))
            it: int | str = raw if rng.random() < 0.5 else f"i{raw % 97}"
            c = int(rng.integers(0, 6))
            cl: int | str | None = (
                None if seed % 2 == 0 or c == 0 else (c if c % 2 else f"c{c}")
            )
            item_cluster[(t, it)] = cl
    clustered = any(c is not None for c in item_cluster.values())
    got = _item_units(t_index, item_cluster, clustered=clustered)
    want = _by_tuples(t_index, item_cluster)
    assert got.keys == want[0]
    assert got.task.tolist() == want[1]
    assert got.unit.tolist() == want[2]
    assert got.unit_stratum.tolist() == want[3]
    assert got.n_clusters == (want[4] if clustered else 0)
    # each record finds its item's row, whatever the records' order
    records = [want[0][j] for j in rng.permutation(len(want[0]))]
    rows = got.rows(np.array([t_index[t] for t, _ in records]), [i for _, i in records])
    assert [want[0][r] for r in rows.tolist()] == records

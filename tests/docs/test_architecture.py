"""The layout of docs/architecture.md holds: stages in order, no import circle anywhere.

`make lint` runs import-linter's contracts (pyproject.toml, ``[tool.importlinter]``);
these tests add what a contract cannot say: that every module belongs to a stage the
contracts name, and that no circle exists at all, not even inside one module's
neighbourhood (a lazy import inside a function counts: grimp sees those too).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Set

import grimp
import pytest

from tests.docs.docs_support import ROOT

CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
    "importlinter"
]["contracts"]


def _layers(name_prefix: str) -> list[set[str]]:
    contract = next(c for c in CONTRACTS if c["name"].startswith(name_prefix))
    return [{part.strip() for part in layer.split("|")} for layer in contract["layers"]]


def find_cycle(graph: Mapping[str, Set[str]]) -> list[str] | None:
    """One import circle of `graph` (module -> modules it imports), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    g = grimp.build_graph("leaderboard", cache_dir=None)
    modules = {m for m in g.modules if m.startswith("leaderboard")}
    edges: dict[str, set[str]] = {}
    for module in modules:
        imported = g.find_modules_directly_imported_by(module)
        edges[module] = {m for m in imported if m in modules}
    return edges


def test_find_cycle__finds_a_planted_circle_and_clears_a_chain() -> None:
    chain = {"a": {"b"}, "b": {"c"}, "c": set()}
    assert find_cycle(chain) is None
    assert find_cycle({**chain, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_architecture__no_import_circle(graph: dict[str, set[str]]) -> None:
    # A package's __init__ importing its own submodules is how a public surface is
    # made, not a circle; an edge back from a submodule to that __init__ would be.
    assert find_cycle(graph) is None


def test_architecture__every_module_lives_in_a_named_stage(
    graph: dict[str, set[str]],
) -> None:
    stages = set().union(*_layers("Stages:"))
    homeless = sorted(
        m
        for m in graph
        if m not in {"leaderboard", "leaderboard.__main__"}
        and not any(m == s or m.startswith(s + ".") for s in stages)
    )
    assert homeless == [], "place these in a stage (pyproject.toml, docs/architecture.md)"


@pytest.mark.parametrize(
    ("prefix", "package"),
    [
        ("Inputs:", "leaderboard.inputs"),
        ("Statistics:", "leaderboard.stats"),
        ("Rendering:", "leaderboard.render"),
        ("Action:", "leaderboard.action"),
        ("Action's comment:", "leaderboard.action.comment"),
        ("Action's commit status:", "leaderboard.action.status"),
        ("Action's kept history:", "leaderboard.action.history"),
        ("Action's GitHub client:", "leaderboard.action.client"),
    ],
)
def test_architecture__every_module_of_a_stage_has_a_layer(
    graph: dict[str, set[str]], prefix: str, package: str
) -> None:
    named = set().union(*_layers(prefix))
    depth = package.count(".") + 2
    children = {
        ".".join(m.split(".")[:depth]) for m in graph if m.startswith(package + ".")
    }
    assert children - named == set(), f"add them to the {prefix} contract"


def test_architecture__lower_stages_never_import_higher_ones(
    graph: dict[str, set[str]],
) -> None:
    layers = _layers("Stages:")

    def level(module: str) -> int | None:
        for i, layer in enumerate(layers):
            if any(module == s or module.startswith(s + ".") for s in layer):
                return i
        return None

    upward = sorted(
        (src, dst)
        for src, dsts in graph.items()
        for dst in dsts
        if (a := level(src)) is not None and (b := level(dst)) is not None and b < a
    )
    assert upward == []

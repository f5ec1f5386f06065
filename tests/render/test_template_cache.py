"""The built-in templates' compiled code, kept in templates/__pycache__ (issue 31)."""

from __future__ import annotations

import pathlib
import shutil

import jinja2
import pytest

from leaderboard.render.comment import FILTERS, TEMPLATES, make_environment
from leaderboard.render.template_cache import CACHE_FOLDER, TemplateCache, compile_templates


def _env(folder: pathlib.Path, *, write: bool) -> jinja2.Environment:
    return jinja2.Environment(  # noqa: S701 - markdown, as the built-in environment
        loader=jinja2.FileSystemLoader(folder),
        bytecode_cache=TemplateCache(folder, write=write),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


def _refuse_compiling(env: jinja2.Environment, monkeypatch: pytest.MonkeyPatch) -> None:
    def compile_(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled although the cache holds it")

    monkeypatch.setattr(env, "compile", compile_)


def test_cache__a_second_process_loads_instead_of_compiling(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "t.md.j2").write_text("{% for x in xs %}[{{ x }}]{% endfor %}\n")
    first = _env(tmp_path, write=True).get_template("t.md.j2").render(xs=[1, 2])
    assert len(list((tmp_path / CACHE_FOLDER).glob("*.jinja"))) == 1
    fresh = _env(tmp_path, write=True)
    _refuse_compiling(fresh, monkeypatch)
    assert fresh.get_template("t.md.j2").render(xs=[1, 2]) == first == "[1][2]\n"


def test_cache__an_edited_template_compiles_again(tmp_path: pathlib.Path) -> None:
    src = tmp_path / "t.md.j2"
    src.write_text("old {{ x }}\n")
    assert _env(tmp_path, write=True).get_template("t.md.j2").render(x=1) == "old 1\n"
    src.write_text("new {{ x }}\n")
    assert _env(tmp_path, write=True).get_template("t.md.j2").render(x=1) == "new 1\n"


def test_cache__not_written_when_told_not_to(tmp_path: pathlib.Path) -> None:
    (tmp_path / "t.md.j2").write_text("{{ x }}\n")
    assert _env(tmp_path, write=False).get_template("t.md.j2").render(x=3) == "3\n"
    assert not (tmp_path / CACHE_FOLDER).exists()


def test_cache__a_folder_that_cannot_be_written_is_no_error(tmp_path: pathlib.Path) -> None:
    (tmp_path / "t.md.j2").write_text("{{ x }}\n")
    (tmp_path / CACHE_FOLDER).write_text("a file where the folder would be")
    assert _env(tmp_path, write=True).get_template("t.md.j2").render(x=4) == "4\n"
    assert (tmp_path / CACHE_FOLDER).is_file()


def test_compile_templates__the_built_in_ones_then_load_without_compiling(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATES, folder, ignore=shutil.ignore_patterns(CACHE_FOLDER))
    env = _env(folder, write=True)
    env.filters.update(FILTERS)
    names = compile_templates(env)
    assert sorted(names) == sorted(p.name for p in TEMPLATES.glob("*.j2"))
    assert len(list((folder / CACHE_FOLDER).glob("*.jinja"))) == len(names)
    fresh = _env(folder, write=False)
    fresh.filters.update(FILTERS)
    _refuse_compiling(fresh, monkeypatch)
    for name in names:
        fresh.get_template(name)


def test_built_in_environment__caches_as_python_writes_bytecode(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("sys.dont_write_bytecode", True)
    cache = make_environment().bytecode_cache
    assert isinstance(cache, TemplateCache)
    assert not cache.write
    assert make_environment(write_cache=True).bytecode_cache.write  # type: ignore[union-attr]
    assert make_environment(sandboxed=True).bytecode_cache is None

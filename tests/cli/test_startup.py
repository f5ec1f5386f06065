"""What the everyday run's start may cost (issue 31; bench/startup.py measures it).

The CLI on a pull request's records, in a fresh interpreter, loads no HTTP stack
(PyGithub, requests, urllib3: about 0.2 s of imports) and reads no installed package's
metadata for its version (the report's ``generator`` is `leaderboard._version.GENERATOR`,
held here to pyproject.toml's version). ``import leaderboard`` loads no stage, and the
CLI's run loads no module only the action needs (the texts, the drift table, the status
line), no sandbox for user templates, no `html` entities table, and builds the report's
models without parsing a builtin's text signature.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from leaderboard import __version__
from leaderboard._version import GENERATOR

ROOT = Path(__file__).resolve().parents[2]


def test_version__is_pyprojects() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert __version__ == project["version"]
    assert f"leaderboard-action {project['version']}" == GENERATOR


def test_cli_report__loads_no_http_stack(tmp_path: Path) -> None:
    records = tmp_path / "pr.jsonl"
    lines = [
        json.dumps(
            {"model_id": m, "task_id": "t", "item_id": i, "score": (i * 7 + k) % 3 > 0}
        )
        for k, m in enumerate(("base", "cand"))
        for i in range(40)
    ]
    records.write_text("\n".join(lines) + "\n")
    out = tmp_path / "report.json"
    code = (
        "import sys, json\n"
        "from leaderboard.cli import main\n"
        f"status = main(['report', {str(records)!r}, '--baseline', 'base',"
        f" '--json', {str(out)!r}])\n"
        "top = {m.split('.')[0] for m in sys.modules}\n"
        "print(json.dumps([status, sorted(top & {'github', 'requests', 'urllib3'})]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    status, loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert status in (0, 1)
    assert loaded == []
    assert json.loads(out.read_text())["generator"] == GENERATOR


def _pull_request(folder: Path) -> Path:
    """Records of two models on 20 items of one task, written in `folder`."""
    records = folder / "pr.jsonl"
    records.write_text(
        "".join(
            json.dumps({"model_id": m, "task_id": "t", "item_id": i, "score": i % 2}) + "\n"
            for m in ("base", "cand")
            for i in range(20)
        )
    )
    return records


def _loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code`."""
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def _loaded_by_report(records: Path) -> set[str]:
    """The modules a fresh interpreter holds after the CLI's report on `records`."""
    return _loaded_after(
        "import contextlib, io\n"
        "from leaderboard.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['report', {str(records)!r}, '--baseline', 'base'])\n"
    )


def test_import_leaderboard__loads_no_stage() -> None:
    # The package's names are imported from their stages on first use: `python -m
    # leaderboard` and the `leaderboard` script import the package first, and the
    # command line then imports only the stages it runs.
    loaded = _loaded_after("import leaderboard")
    stages = {"leaderboard.inputs", "leaderboard.stats", "leaderboard.render"}
    heavy = {"leaderboard.report", "numpy", "jinja2", "pydantic"}
    assert loaded & (stages | heavy) == set()


def test_import_leaderboard__every_public_name_resolves() -> None:
    import leaderboard  # noqa: PLC0415 - the package as a user imports it
    import leaderboard.render  # noqa: PLC0415

    for package in (leaderboard, leaderboard.render):
        for name in package.__all__:
            assert getattr(package, name) is not None, name
        assert set(package.__all__) <= set(dir(package))
    assert leaderboard.Report is leaderboard.report.Report
    # a stage read as an attribute, as when `import leaderboard` imported them all
    assert leaderboard.stats.build_report is leaderboard.build_report
    assert leaderboard.render.view.View.__module__ == "leaderboard.render.view"
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        _ = leaderboard.nonexistent  # type: ignore[attr-defined]


def test_cli_report__loads_no_module_only_the_action_uses(tmp_path: Path) -> None:
    # The action's texts, drift table and status line; the sandbox of user templates;
    # the `html` module (its entities table; `escape.html_text` replaces the five
    # characters itself).
    loaded = _loaded_by_report(_pull_request(tmp_path))
    assert "leaderboard.render.comment" in loaded  # the run did render
    unneeded = {
        "leaderboard.render.texts",
        "leaderboard.render.drift",
        "leaderboard.render.plain",
        "html",
        "html.entities",
        "leaderboard.render.sandbox",  # user templates only
        "leaderboard.render.template_sizes",
        "jinja2.sandbox",
    }
    assert loaded & unneeded == set()


def test_cli_report__imports_no_framework_reader_for_records(tmp_path: Path) -> None:
    # Every file read with format auto is sniffed (inputs/frameworks/sniffing.py), but
    # a framework's reader is imported only when a file of its format is read; and
    # difflib only for a near-miss field name.
    loaded = _loaded_by_report(_pull_request(tmp_path))
    assert "leaderboard.inputs.frameworks.sniffing" in loaded  # the file was sniffed
    # every module of the folder but what the sniffing and the sources use
    shared = {"__init__", "_common", "metrics", "sniffing", "deepeval_folder"}
    folder = ROOT / "leaderboard" / "inputs" / "frameworks"
    readers = {
        f"leaderboard.inputs.frameworks.{p.stem}"
        for p in folder.glob("*.py")
        if p.stem not in shared
    }
    assert len(readers) >= 12  # the nine readers and their helpers
    assert loaded & (readers | {"difflib"}) == set()


def test_framework_read__imports_only_its_reader() -> None:
    # the readers stay importable by name, and `read` loads the one it reads with
    loaded = _loaded_after(
        "from pathlib import Path\n"
        "from leaderboard.inputs.frameworks import read\n"
        "try:\n"
        "    read('helm', Path('no-such-run/per_instance_stats.json'))\n"
        "except Exception:\n"
        "    pass\n"
    )
    assert "leaderboard.inputs.frameworks.helm" in loaded
    assert "leaderboard.inputs.frameworks.inspect_log" not in loaded


def test_report_models__annotations_are_types_not_text() -> None:
    # pydantic compiles a text annotation into a forward reference and evaluates it
    # (176 of them, about 4 ms of every start); report.py's are evaluated as written.
    from leaderboard import report  # noqa: PLC0415

    models = [
        v
        for v in vars(report).values()
        if isinstance(v, type) and issubclass(v, report.BaseModel)
    ]
    assert len(models) > 15
    annotations = [
        (f"{m.__name__}.{name}", value)
        for m in models
        for name, value in vars(m).get("__annotations__", {}).items()
    ]
    assert len(annotations) > 150  # all of them read (176 today), not none
    assert [name for name, value in annotations if isinstance(value, str)] == []


def test_report_models__no_default_factory_has_a_text_signature() -> None:
    # pydantic reads each default factory's signature when it builds a model; a
    # builtin's (`list`'s) is parsed from text with tokenize, about 5 ms of the start.
    from leaderboard import report  # noqa: PLC0415

    models = [
        v
        for v in vars(report).values()
        if isinstance(v, type) and issubclass(v, report.BaseModel)
    ]
    factories = {
        f"{m.__name__}.{name}": field.default_factory
        for m in models
        for name, field in m.model_fields.items()
        if field.default_factory is not None
    }
    assert len(factories) > 10
    texted = [k for k, f in factories.items() if getattr(f, "__text_signature__", None)]
    assert texted == []


def test_html_text__escapes_as_the_html_module() -> None:
    import html  # noqa: PLC0415 - the reference, imported by the test only

    from leaderboard.render.escape import WORD_JOINER, html_text  # noqa: PLC0415

    sample = "a & b < c > d \"e\" 'f' &amp; <<>> é ü"
    # html_text then breaks every `#` (GitHub links `#1` in HTML text too)
    expected = html.escape(sample, quote=True).replace("#", "#" + WORD_JOINER)
    assert html_text(sample) == expected


def test_cli_entry__imports_paused_freezes_them_and_runs_collecting(
    tmp_path: Path,
) -> None:
    # `python -m leaderboard` and the `leaderboard` script (pyproject.toml) both call
    # leaderboard.__main__.main: no collection while leaderboard.cli's imports run
    # (the module is in sys.modules, its `main` not yet defined), what they made is
    # frozen (never scanned again: merely pausing made the next collections scan it
    # all at once), and the run collects its own objects.
    records = _pull_request(tmp_path)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["leaderboard"] == "leaderboard.__main__:main"
    code = (
        "import contextlib, gc, io, json, sys\n"
        "seen, inside = [], []\n"
        "def during(phase, info):\n"
        "    cli = sys.modules.get('leaderboard.cli')\n"
        "    if phase == 'start' and inside:\n"
        "        # main's imports run until leaderboard.cli defines its main\n"
        "        importing = cli is None or not hasattr(cli, 'main')\n"
        "        seen.append('paused' if importing else 'run')\n"
        "gc.callbacks.append(during)\n"
        "from leaderboard.__main__ import main\n"
        f"sys.argv = ['leaderboard', 'report', {str(records)!r}, '--baseline', 'base']\n"
        "inside.append(True)\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    status = main()\n"
        "print(json.dumps([status, gc.isenabled(), gc.get_freeze_count(),\n"
        "                  seen.count('paused'), len(seen)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    status, enabled, frozen, while_importing, collections = json.loads(done.stdout)
    assert status in (0, 1)
    assert enabled
    assert frozen > 20_000  # the stages, numpy, pydantic's models, jinja2
    assert while_importing == 0
    assert collections >= 1

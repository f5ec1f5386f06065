"""README.md stays true: the demo comment, the action's inputs and outputs, the set-up.

The generated parts come from scripts/update_readme.py; these tests fail when the
README's copy drifts from what the code renders or from what action.yml declares.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import cmarkgfm
import pytest
from ruamel.yaml import YAML

from leaderboard.inputs import EvalRun
from tests.docs.docs_support import ROOT, load_script

README = ROOT / "README.md"
INPUTS_DOC = ROOT / "docs" / "inputs.md"


SCRIPT = load_script("update_readme")


def _readme() -> str:
    return README.read_text(encoding="utf-8")


def _html(markdown: str) -> str:
    return cmarkgfm.github_flavored_markdown_to_html(
        markdown, options=cmarkgfm.Options.CMARK_OPT_UNSAFE
    )


def _h2_section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match is not None, f"README.md has no '## {title}' section"
    return match.group(1)


def _code_blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, re.M | re.S)


# --- the demo comment ------------------------------------------------------------


@pytest.fixture(scope="module")
def demo_comment() -> str:
    return str(SCRIPT.demo_comment())


def test_readme_demo_comment__is_what_make_demo_prints(demo_comment: str) -> None:
    shown = SCRIPT.section(_readme(), "demo-comment")
    assert shown == SCRIPT.quote(demo_comment), (
        "README.md's demo comment has drifted: run python scripts/update_readme.py"
    )


def test_readme_demo_comment__renders_as_the_comment_in_a_block_quote(
    demo_comment: str,
) -> None:
    shown = SCRIPT.section(_readme(), "demo-comment")
    assert _html(shown) == f"<blockquote>\n{_html(demo_comment)}</blockquote>\n"


def test_makefile_demo__runs_the_command_the_readme_shows() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^demo:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert recipe is not None, "the Makefile has no demo target"
    command = shlex.split(recipe.group(1).replace("\\\n", " ").split(";")[0])
    assert command[0].endswith("leaderboard")
    args = tuple(command[1:])
    expected = tuple(SCRIPT.DEMO_ARGS)
    # the Makefile may add output options (--json, --markdown), nothing that changes numbers
    assert args[: len(expected)] == expected
    extra = args[len(expected) :]
    assert all(a in {"--json", "--markdown"} or not a.startswith("-") for a in extra)


@pytest.mark.parametrize(
    "markdown",
    [
        "| a | b |\n|---|---|\n| 1 | 2 |\n",
        "**x**\n\n<details><summary>more</summary>\n\n```\n  1 ─┼─\n\n```\n\n</details>\n",
        "line one\n\n\n\nline two after blank lines\n",
        "> already quoted\n",
    ],
)
def test_quote__renders_as_the_same_markdown_inside_a_block_quote(markdown: str) -> None:
    quoted = SCRIPT.quote(markdown)
    assert _html(quoted) == f"<blockquote>\n{_html(markdown)}</blockquote>\n"
    assert SCRIPT.unquote(quoted) == markdown


# --- the action's inputs and outputs --------------------------------------------


@pytest.fixture(scope="module")
def action() -> dict[str, Any]:
    path = ROOT / "action.yml"
    if not path.exists():
        pytest.fail("action.yml is missing")
    return dict(SCRIPT.load_action(path))


def _inputs_doc() -> str:
    return INPUTS_DOC.read_text(encoding="utf-8")


def test_readme_inputs_table__is_generated_from_action_yml(action: dict[str, Any]) -> None:
    short = SCRIPT.inputs_table(action, short=True)
    assert SCRIPT.section(_readme(), "action-inputs-short") == short, (
        "README.md's inputs table has drifted from action.yml: "
        "run python scripts/update_readme.py"
    )
    assert SCRIPT.section(_inputs_doc(), "action-inputs") == SCRIPT.inputs_table(action)


def test_readme_inputs_table__one_line_summary_for_every_input(
    action: dict[str, Any],
) -> None:
    assert list(SCRIPT.SUMMARIES) == list(action["inputs"])
    for name, text in SCRIPT.SUMMARIES.items():
        assert len(text) <= 75, f"{name}: one short line, not {len(text)} characters"


def test_outputs_table__is_generated_from_action_yml(action: dict[str, Any]) -> None:
    assert SCRIPT.section(_inputs_doc(), "action-outputs") == SCRIPT.outputs_table(action)
    for name in action["outputs"]:
        assert f"`{name}`" in _h2_section(_readme(), "Add it to a workflow"), name


def test_readme_tables__have_one_row_per_input_and_output(action: dict[str, Any]) -> None:
    for text, name, key in (
        (_readme(), "action-inputs-short", "inputs"),
        (_inputs_doc(), "action-inputs", "inputs"),
        (_inputs_doc(), "action-outputs", "outputs"),
    ):
        html = _html(SCRIPT.section(text, name))
        documented = re.findall(r"<tr>\n<td><code>([^<]+)</code></td>", html)
        assert documented == list(action[key]), f"{key}: one table row each, in order"


# --- the front page: short, and one click from each chapter ----------------------

#: The chapters that moved out of the README (issue 32); each is linked from it.
CHAPTERS = (
    "reading.md",
    "gate-against-main.md",
    "guardrails.md",
    "recipes.md",
    "frameworks.md",
    "merge-box.md",
    "adopting.md",
    "forks.md",
    "records.md",
    "releases.md",
    "inputs.md",
    "statistics.md",
    "templates.md",
)


def test_readme__is_a_front_page_of_at_most_350_lines() -> None:
    assert len(_readme().splitlines()) <= 350


def test_readme__links_every_chapter_in_one_click() -> None:
    links = set(re.findall(r'href="docs/([^"#]+)', _html(_readme())))
    assert set(CHAPTERS) <= links, sorted(set(CHAPTERS) - links)
    for name in CHAPTERS:
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        assert text.startswith("# "), name


def test_readme__the_demo_comment_is_folded_into_details() -> None:
    text = _readme()
    start = text.index("<!-- demo-comment:start -->")
    assert text.rfind("<details>", 0, start) > text.rfind("</details>", 0, start)
    end = text.index("<!-- demo-comment:end -->")
    assert text[end:].split("\n")[1:3] == ["", "</details>"]  # the fold closes after it
    assert start > text.index("docs/img/comment-light.png")


def test_readme_workflow__is_valid_and_uses_only_declared_inputs(
    action: dict[str, Any], tmp_path: Path
) -> None:
    section = _h2_section(_readme(), "Add it to a workflow")
    (block,) = _code_blocks(section, "yaml")
    workflow = YAML(typ="safe", pure=True).load(block)
    steps = [s for job in workflow["jobs"].values() for s in job["steps"]]
    ours = [s for s in steps if "leaderboard-action" in s.get("uses", "")]
    assert len(ours) == 1
    given = set(ours[0].get("with", {}))
    assert given <= set(action["inputs"])
    required = {k for k, v in action["inputs"].items() if (v or {}).get("required")}
    assert required <= given
    assert workflow["permissions"] == {
        "contents": "read",
        "pull-requests": "write",
        "statuses": "write",  # the commit status (CONTRACT.md section 9)
    }
    assert {"labeled", "unlabeled"} <= set(workflow["on"]["pull_request"]["types"])
    path = tmp_path / "workflow.yml"
    path.write_text(block, encoding="utf-8")
    schema = ["--builtin-schema", "vendor.github-workflows"]
    proc = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", *schema, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


# --- set-up, records, links -------------------------------------------------------


def test_readme_set_up__gives_exactly_make_demo_and_make_test() -> None:
    section = _h2_section(_readme(), "Set up")
    commands = [
        line.split("#")[0].strip()
        for block in _code_blocks(section, "sh")
        for line in block.splitlines()
        if line.split("#")[0].strip()
    ]
    assert commands == ["make demo", "make test"]


def test_records_doc_fields__are_the_fields_of_evalrun() -> None:
    section = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    documented = re.findall(r"^\| `(\w+)` \|", section, re.M)
    assert documented == [f.name for f in dataclasses.fields(EvalRun)]


def _doc_files() -> list[Path]:
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("doc", _doc_files(), ids=lambda p: p.name)
def test_docs_links__point_to_files_that_exist(doc: Path) -> None:
    html = _html(doc.read_text(encoding="utf-8"))
    missing = []
    for target in re.findall(r'href="([^"]+)"', html):
        if re.match(r"[a-z]+:|#", target):
            continue
        if not (doc.parent / target.split("#")[0]).exists():
            missing.append(target)
    assert not missing, f"{doc.name} links to files that do not exist: {missing}"


def test_readme_python_snippet__runs_on_the_bundled_example(
    capsys: pytest.CaptureFixture[str],
) -> None:
    section = _h2_section(_readme(), "On the command line, and from Python")
    (block,) = _code_blocks(section, "python")
    example = str(ROOT / "examples" / "mmlu-pro-sample.csv.gz")
    code = block.replace("results/*.jsonl", example).replace(
        '"main-model"', '"Meta-Llama-3_1-8B-Instruct", resamples=200'
    )
    assert code != block
    exec(compile(code, "README.md", "exec"), {})  # noqa: S102 - our own README's snippet
    printed = json.loads(capsys.readouterr().out)
    assert printed["gate"]["baseline"] == "Meta-Llama-3_1-8B-Instruct"

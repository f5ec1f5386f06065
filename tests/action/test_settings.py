"""Settings.from_env: every input, its default, its errors, and the runner variables."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from leaderboard.action.history.branch import folder_for
from leaderboard.action.settings import (
    FORMATS,
    INPUTS,
    MAX_RESAMPLES,
    Settings,
    parse_bool,
    split_list,
)
from leaderboard.errors import UsageError
from leaderboard.inputs.frameworks import FRAMEWORK_FORMATS

TOKEN = "ghs_SECRETsecretSECRETsecret0123456789ab"  # noqa: S105 - a fake token


def env(**inputs: str) -> dict[str, str]:
    """An environment with ``results`` set and the given inputs (underscores: hyphens)."""
    out = {"INPUT_RESULTS": "results.jsonl", "GITHUB_WORKSPACE": "/ws"}
    for name, value in inputs.items():
        out["INPUT_" + name.upper().replace("_", "-")] = value
    return out


def test_from_env__defaults_follow_the_contract() -> None:
    s = Settings.from_env({"INPUT_RESULTS": "r.jsonl"})
    assert s.results == ("r.jsonl",)
    assert s.baseline is None
    assert s.candidates == ()
    assert s.confidence == 0.95
    assert s.resamples == 10_000
    assert s.seed == 0
    assert s.margin == 0.0
    assert s.fail_on_regression is True
    assert s.comment is True
    assert s.comment_header == "leaderboard"
    assert s.github_token == ""
    assert s.template is None
    assert s.json_report is None
    assert s.format == "auto"
    assert s.pr_number is None
    assert s.gate_categories is False
    assert s.api_url == "https://api.github.com"
    assert s.server_url == "https://github.com"


def test_from_env__reads_hyphenated_input_names_as_the_runner_sets_them() -> None:
    s = Settings.from_env(
        {
            "INPUT_RESULTS": "a.jsonl",
            "INPUT_FAIL-ON-REGRESSION": "false",
            "INPUT_COMMENT-HEADER": "safety evals",
            "INPUT_GITHUB-TOKEN": TOKEN,
            "INPUT_JSON-REPORT": "out/report.json",
            "INPUT_PR-NUMBER": "42",
            "INPUT_GATE-CATEGORIES": "true",
            "GITHUB_WORKSPACE": "/github/workspace",
        }
    )
    assert s.fail_on_regression is False
    assert s.comment_header == "safety evals"
    assert s.github_token == TOKEN
    assert s.json_report == Path("/github/workspace/out/report.json")
    assert s.pr_number == 42
    assert s.gate_categories is True


def test_from_env__underscored_names_are_not_the_runners() -> None:
    s = Settings.from_env({"INPUT_RESULTS": "a", "INPUT_FAIL_ON_REGRESSION": "false"})
    assert s.fail_on_regression is True


def test_from_env__empty_inputs_take_defaults_as_the_runner_passes_them() -> None:
    # The runner sets every input of action.yml, empty ones as "".
    raw = {spec.env_name: spec.default for spec in INPUTS}
    raw["INPUT_RESULTS"] = "x.csv"
    s = Settings.from_env(raw)
    assert s == Settings(results=("x.csv",))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("a.jsonl", ("/ws/a.jsonl",)),
        ("a.jsonl,b.csv", ("/ws/a.jsonl", "/ws/b.csv")),
        ("a.jsonl\nresults/*.jsonl.gz\n", ("/ws/a.jsonl", "/ws/results/*.jsonl.gz")),
        ("  a.jsonl ,\n\n , b.json  ", ("/ws/a.jsonl", "/ws/b.json")),
        ("/abs/a.jsonl\r\nrel.jsonl", ("/abs/a.jsonl", "/ws/rel.jsonl")),
    ],
)
def test_results__newline_or_comma_separated_relative_to_workspace(
    raw: str, expected: tuple[str, ...]
) -> None:
    assert Settings.from_env(env(results=raw)).results == expected


@pytest.mark.parametrize("raw", ["", "  ", "\n,\n", ","])
def test_results__required(raw: str) -> None:
    with pytest.raises(UsageError, match=r"^results: required"):
        Settings.from_env(env(results=raw))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("", ()),
        ("acc_norm", ("acc_norm",)),
        (
            "exact_match,flexible-extract\nacc_norm",
            ("exact_match,flexible-extract", "acc_norm"),
        ),
        ("score  pass score", ("score", "pass")),
    ],
)
def test_metric__lines_or_spaces_never_commas(raw: str, expected: tuple[str, ...]) -> None:
    """An lm-eval metric under a filter is spelled with a comma: commas do not split."""
    settings = Settings.from_env(env(metric=raw, task_weights="items"))
    assert settings.metric == expected
    assert settings.task_weights == "items"


def test_results__missing_variable_is_required_too() -> None:
    with pytest.raises(UsageError, match=r"^results: required"):
        Settings.from_env({})


@pytest.mark.parametrize(
    ("name", "raw", "message"),
    [
        ("confidence", "1.5", "confidence: must be between 0 and 1 (exclusive), got '1.5'"),
        ("confidence", "0", "confidence: must be between 0 and 1 (exclusive), got '0'"),
        ("confidence", "1", "confidence: must be between 0 and 1 (exclusive), got '1'"),
        ("confidence", "95%", "confidence: must be a number, got '95%'"),
        ("confidence", "nan", "confidence: must be a finite number, got 'nan'"),
        ("resamples", "0", f"resamples: must be between 100 and {MAX_RESAMPLES}, got '0'"),
        ("resamples", "99", "resamples: must be between 100 and"),
        ("resamples", "1e4", "resamples: must be an integer, got '1e4'"),
        ("resamples", "2000000", "resamples: must be between 100 and"),
        ("seed", "-1", "seed: must be between 0 and"),
        ("seed", "abc", "seed: must be an integer, got 'abc'"),
        ("margin", "-0.01", "margin: must be at least 0 and below 1"),
        ("margin", "1", "margin: must be at least 0 and below 1"),
        ("margin", "inf", "margin: must be a finite number, got 'inf'"),
        ("fail_on_regression", "yes", "fail-on-regression: must be true or false"),
        ("comment", "1", "comment: must be true or false, got '1'"),
        ("gate_categories", "on", "gate-categories: must be true or false, got 'on'"),
        (
            "format",
            "yaml",
            "format: must be one of auto, records, inspect, lm-eval, promptfoo",
        ),
        ("task_weights", "size", "task-weights: must be one of equal, items, got 'size'"),
        ("metric", "acc\x07", "metric: not a metric name"),
        ("pr_number", "#12", "pr-number: must be a pull request number, got '#12'"),
        ("pr_number", "0", "pr-number: must be at least 1, got '0'"),
        ("pr_number", "١٢", "pr-number: must be a pull request number"),
        ("comment_header", "a\nb", "comment-header: must be 1 to 64 letters"),
        ("comment_header", "x-->y", "comment-header: must be 1 to 64 letters"),
        ("comment_header", "h" * 65, "comment-header: must be 1 to 64 letters"),
        ("bot_login", "my app[bot]", "bot-login: must be a GitHub login like my-app[bot]"),
        ("bot_login", "@octocat", "bot-login: must be a GitHub login like my-app[bot]"),
        ("bot_login", "x" * 41, "bot-login: must be a GitHub login like my-app[bot]"),
    ],
)
def test_each_input__error_names_the_input(name: str, raw: str, message: str) -> None:
    with pytest.raises(UsageError) as info:
        Settings.from_env(env(**{name: raw}))
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("true", True), ("True", True), ("TRUE", True), ("false", False), ("FALSE", False)],
)
def test_parse_bool__yaml_core_schema_like_actions_core(raw: str, expected: bool) -> None:
    assert parse_bool("x", raw) is expected


def test_numbers__parsed_and_whitespace_stripped() -> None:
    s = Settings.from_env(
        env(confidence=" 0.9 ", resamples="2000\n", seed="42", margin="0.01")
    )
    assert (s.confidence, s.resamples, s.seed, s.margin) == (0.9, 2000, 42, 0.01)


def test_candidates__list_and_need_a_baseline() -> None:
    s = Settings.from_env(env(baseline="main", candidates="a, b\nc"))
    assert (s.baseline, s.candidates) == ("main", ("a", "b", "c"))
    with pytest.raises(UsageError, match=r"^candidates: given without a baseline"):
        Settings.from_env(env(candidates="a"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_format__every_documented_value(fmt: str) -> None:
    assert Settings.from_env(env(format=fmt)).format == fmt


def test_format__agrees_with_the_loaders_frameworks() -> None:
    assert set(FORMATS) == {"auto", "records", *FRAMEWORK_FORMATS}


def test_paths__relative_to_workspace_absolute_kept() -> None:
    s = Settings.from_env(env(template="t/comment.md.j2", json_report="/tmp/r.json"))
    assert s.template == Path("/ws/t/comment.md.j2")
    assert s.json_report == Path("/tmp/r.json")


def test_token__never_in_repr_or_str() -> None:
    s = Settings.from_env(env(github_token=TOKEN))
    assert TOKEN not in repr(s)
    assert TOKEN not in str(s)
    assert "github_token" not in repr(s)


def test_runner_variables() -> None:
    s = Settings.from_env(
        {
            "INPUT_RESULTS": "r.jsonl",
            "GITHUB_API_URL": "http://127.0.0.1:8080/",
            "GITHUB_SERVER_URL": "https://ghe.example.com",
            "GITHUB_REPOSITORY": "octo-org/octo-repo",
            "GITHUB_EVENT_NAME": "pull_request",
            "GITHUB_EVENT_PATH": "/github/workflow/event.json",
            "GITHUB_SHA": "b" * 40,
            "GITHUB_RUN_ID": "123456",
            "GITHUB_WORKSPACE": "/github/workspace",
            "GITHUB_OUTPUT": "/github/file_commands/set_output_1",
            "GITHUB_STEP_SUMMARY": "/github/file_commands/step_summary_1",
        }
    )
    assert s.api_url == "http://127.0.0.1:8080"
    assert s.repository == "octo-org/octo-repo"
    assert s.event_name == "pull_request"
    assert s.event_path == Path("/github/workflow/event.json")
    assert s.sha == "b" * 40
    assert s.run_id == 123456
    assert s.workspace == Path("/github/workspace")
    assert s.output_path == Path("/github/file_commands/set_output_1")
    assert s.summary_path == Path("/github/file_commands/step_summary_1")
    assert s.run_url == "https://ghe.example.com/octo-org/octo-repo/actions/runs/123456"
    assert s.results == ("/github/workspace/r.jsonl",)


def test_run_url__absent_without_repository_or_run_id() -> None:
    assert Settings.from_env(env()).run_url is None
    assert Settings.from_env({**env(), "GITHUB_RUN_ID": "x"}).run_id is None


def test_lenient__bad_inputs_take_defaults_and_keep_the_rest() -> None:
    raw = env(confidence="2", comment_header="evals", github_token=TOKEN, seed="-3")
    with pytest.raises(UsageError):
        Settings.from_env(raw)
    s = Settings.from_env(raw, lenient=True)
    assert (s.confidence, s.seed) == (0.95, 0)
    assert (s.comment_header, s.github_token) == ("evals", TOKEN)
    assert Settings.from_env({}, lenient=True).results == ()
    assert s.comment is True


@pytest.mark.parametrize(
    "bad", [{"comment_header": "a<b>"}, {"comment": "flase"}, {"pr_number": "x"}]
)
def test_lenient__no_comment_when_its_destination_is_unknown(bad: dict[str, str]) -> None:
    s = Settings.from_env(env(**bad), lenient=True)
    assert s.comment is False


def test_default_report_path__one_file_per_header() -> None:
    assert Settings.from_env(env()).default_report_path() == Path(
        "/ws/leaderboard-report.json"
    )
    plain = Settings.from_env(env(comment_header="safety-evals"))
    assert plain.default_report_path() == Path("/ws/leaderboard-report-safety-evals.json")
    other = Settings.from_env(env(comment_header="safety evals (v2)"))
    digest = hashlib.sha256(b"safety evals (v2)").hexdigest()[:8]
    expected = Path(f"/ws/leaderboard-report-safety-evals-v2-{digest}.json")
    assert other.default_report_path() == expected


@pytest.mark.parametrize(
    ("first", "second"),
    [("safety evals", "safety-evals"), ("a/b", "a-b"), ("v2 (x)", "v2-x"), ("x+", "x")],
)
def test_default_report_path__headers_that_slug_alike_never_share_a_file(
    first: str, second: str
) -> None:
    """Two leaderboards in one job write two reports, however alike their headers."""
    a = Settings.from_env(env(comment_header=first)).default_report_path()
    b = Settings.from_env(env(comment_header=second)).default_report_path()
    assert a != b
    assert a.parent == b.parent == Path("/ws")
    assert folder_for(first) != folder_for(second)  # the history folders differ too


def test_split_list() -> None:
    assert split_list("a,b\n c ,,\n") == ("a", "b", "c")
    assert split_list("") == ()


@pytest.mark.parametrize("login", ["my-app[bot]", "octocat", "github-actions[bot]"])
def test_bot_login__accepts_user_and_app_logins(login: str) -> None:
    assert Settings.from_env(env(bot_login=login)).bot_login == login


def test_docs_url__the_statistics_guide_of_the_running_version() -> None:
    s = Settings.from_env(
        env()
        | {
            "GITHUB_ACTION_REPOSITORY": "octo/leaderboard-action",
            "GITHUB_ACTION_REF": "v1",
            "GITHUB_SERVER_URL": "https://ghe.example",
        }
    )
    assert s.docs_url == (
        "https://ghe.example/octo/leaderboard-action/blob/v1/docs/statistics.md"
    )


@pytest.mark.parametrize(
    "extra",
    [{}, {"GITHUB_ACTION_REPOSITORY": "octo/x"}, {"GITHUB_ACTION_REF": "v1"},
     {"GITHUB_ACTION_REPOSITORY": "no-slash", "GITHUB_ACTION_REF": "v1"}],
)  # fmt: skip
def test_docs_url__none_without_the_action_repository_and_ref(
    extra: dict[str, str],
) -> None:
    assert Settings.from_env(env() | extra).docs_url is None


@pytest.mark.parametrize(
    "raw", ["../x", "a..b", "-x", "x/", "x.lock", "a b", "x//y", "a/.b", "x" * 201]
)
def test_settings__history_branch_not_a_plain_branch_name__refused(raw: str) -> None:
    with pytest.raises(UsageError, match="history-branch: must be a branch name"):
        Settings.from_env({"INPUT_RESULTS": "r.jsonl", "INPUT_HISTORY-BRANCH": raw})


def test_settings__history_inputs__parsed_with_defaults() -> None:
    off = Settings.from_env({"INPUT_RESULTS": "r.jsonl"})
    assert (off.history_branch, off.history_keep) == (None, 50)
    on = Settings.from_env(
        {
            "INPUT_RESULTS": "r.jsonl",
            "INPUT_HISTORY-BRANCH": "leaderboard/history-v1",
            "INPUT_HISTORY-KEEP": "3",
        }
    )
    assert (on.history_branch, on.history_keep) == ("leaderboard/history-v1", 3)
    with pytest.raises(UsageError, match="history-keep: must be between 1 and 1000"):
        Settings.from_env({"INPUT_RESULTS": "r.jsonl", "INPUT_HISTORY-KEEP": "0"})


def test_settings__baseline_results_with_baseline__refused_naming_which_to_use() -> None:
    with pytest.raises(UsageError, match="baseline-results: given together with baseline"):
        Settings.from_env(
            {
                "INPUT_RESULTS": "r.jsonl",
                "INPUT_BASELINE": "m",
                "INPUT_BASELINE-RESULTS": "b.jsonl",
            }
        )


def test_from_env__anchor__off_by_default_sha_or_tag_with_history_branch() -> None:
    s = Settings.from_env(env())
    assert s.anchor is None
    assert s.anchor_margin == 0.0
    for anchor in ("v1.2", "refs/tags/v1", "1a2b3c4", "a" * 40):
        s = Settings.from_env(
            env(anchor=anchor, anchor_margin="0.03", history_branch="lb-history")
        )
        assert s.anchor == anchor
        assert s.anchor_margin == 0.03


@pytest.mark.parametrize("bad", ["v1..2", "-v1", "v1.lock", "tags/", "v 1", "v1~1"])
def test_from_env__anchor__not_a_ref_names_the_input(bad: str) -> None:
    with pytest.raises(UsageError, match=r"^anchor: must be a commit sha .* got "):
        Settings.from_env(env(anchor=bad, history_branch="lb-history"))


def test_from_env__anchor_without_history_branch__usage_error() -> None:
    with pytest.raises(UsageError, match=r"^anchor: .*history-branch.*not set"):
        Settings.from_env(env(anchor="v1"))
    assert Settings.from_env(env(anchor="v1"), lenient=True).anchor is None


@pytest.mark.parametrize("bad", ["-0.1", "1", "x", "nan"])
def test_from_env__anchor_margin__out_of_range_names_the_input(bad: str) -> None:
    with pytest.raises(UsageError, match=r"^anchor-margin: must be"):
        Settings.from_env(env(anchor="v1", anchor_margin=bad, history_branch="h"))

"""User templates run within a budget of steps, time and size (issue 18).

Each hostile template is rendered in its own process (`tests.measure`) by
`render_comment` with the golden report; the sandbox must stop it with a
`UsageError` naming the template (the action's exit 2), within seconds and under
the 2 GiB cap. Before the budget: nested ``range(100000)`` loops never ended,
``lipsum(3000000)`` ran past 90 s, and ``ljust``/``center``/format widths, ``~``,
``+`` and ``list.extend`` doubling allocated gigabytes and exited 0.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from leaderboard.errors import UsageError
from leaderboard.render.comment import render_comment
from tests.measure import RSS_CAP, Measured, run_measured
from tests.render.render_samples import golden_report

HOSTILE = {
    "nested_ranges": (
        "{% for a in range(100000) %}{% for b in range(100000) %}"
        "{% for c in range(100000) %}{% endfor %}{% endfor %}{% endfor %}",
        "steps",
    ),
    "lipsum": ("{{ lipsum(3000000) }}", "3e+06"),
    "format_width": ("{{ '{:>3000000000}'.format(1) }}", "format spec"),
    "percent_width": ("{{ '%3000000000d' % 1 }}", "the format"),
    "format_filter_width": ("{{ '%3000000000d' | format(1) }}", "the format"),
    "ljust": ("{{ 'x'.ljust(3000000000) }}", "ljust()"),
    "center_filter": ("{{ 'x' | center(3000000000) }}", "the filter center"),
    "tilde_doubling": (
        "{% set s = namespace(v='xxxxxxxx') %}{% for i in range(40) %}"
        "{% set s.v = s.v ~ s.v %}{% endfor %}{{ s.v | length }}",
        "~ concatenation",
    ),
    "plus_doubling": (
        "{% set s = namespace(v='xxxxxxxx') %}{% for i in range(40) %}"
        "{% set s.v = s.v + s.v %}{% endfor %}{{ s.v | length }}",
        "the sum",
    ),
    "list_extend": (
        "{% set l = [1, 2, 3, 4] %}{% for i in range(40) %}"
        "{% set _ = l.extend(l) %}{% endfor %}{{ l | length }}",
        "list.extend",
    ),
    "many_long_strings": (
        "{% set l = [] %}{% for i in range(2000) %}{% set _ = l.append('x' * 999999) %}"
        "{% endfor %}{{ l | join }}",
        "MiB of values",
    ),
    "replace_growth": ("{{ ('x' * 900000).replace('x', 'yyyyyy') }}", "str.replace"),
    "output": (
        "{% for i in range(100000) %}{{ 'x' * 100 }}{% endfor %}",
        "wrote more than 1,000,000",
    ),
}

_CHILD = """
import sys
from pathlib import Path
from leaderboard.errors import UsageError
from leaderboard.render.comment import render_comment
from tests.render.render_samples import golden_report
try:
    render_comment(golden_report(), template=Path(sys.argv[1]))
except UsageError as exc:
    print(exc, file=sys.stderr)
    sys.exit(2)
"""


def _refused(tmp_path: Path, name: str, source: str, fragment: str) -> Measured:
    """Render the template `source` in a child process: exit 2 with one line that
    names the template and says `fragment`; returns the measured run."""
    template = tmp_path / f"{name}.md.j2"
    template.write_text(source + "\n")
    done = run_measured(["-c", _CHILD, str(template)], timeout=60)
    print(done.line(name))
    assert done.code == 2, (done.code, done.err[-2000:])
    assert done.err.count("\n") == 1, done.err[-2000:]
    assert f"{name}.md.j2" in done.err
    assert fragment in done.err, done.err
    return done


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_template__stopped_by_the_budget__exit_2_in_seconds(
    tmp_path: Path, name: str
) -> None:
    done = _refused(tmp_path, name, *HOSTILE[name])
    assert done.rss < RSS_CAP, done.line(name)
    assert done.seconds < 20, done.line(name)


def test_budget__an_ordinary_user_template_still_renders(tmp_path: Path) -> None:
    template = tmp_path / "ok.md.j2"
    template.write_text(
        "{% for row in view.rows %}{{ row.model }} {{ '%-10s' % 'x' }}"
        "{{ '{:>12}'.format(1) }} {{ 'a' | center(20) }}{% endfor %}"
        "{% set l = [] %}{% for i in range(1000) %}{% set _ = l.append(i) %}{% endfor %}"
        "{{ l | length }} {{ lipsum(2) | length > 0 }}\n"
    )
    text = render_comment(golden_report(), template=template)
    assert "1000 True" in text


def test_budget__usage_error_names_the_line(tmp_path: Path) -> None:
    template = tmp_path / "wide.md.j2"
    template.write_text("line one\n{{ 'x'.ljust(3000000000) }}\n")
    with pytest.raises(UsageError, match=r"wide\.md\.j2, line 2: TemplateBudgetError"):
        render_comment(golden_report(), template=template)


#: Issue 30: what a join, a format, ``~`` or a string filter would build is sized
#: before it runs, an iterable without a size (``map``'s generator) included. Before:
#: ``([s]*3000)|map("string")|join`` with a 1 MB ``s`` peaked at 2.9 GB and ran 16 s
#: before the 10 s clock stopped it (a cgroup limit kills the process: exit 137).
_S = "{% set s = 'x' * 999999 %}"
SIZED_FIRST = {
    "join_over_map": (_S + '{{ ([s] * 3000) | map("string") | join }}', "the filter join"),
    "str_join_over_map": (_S + '{{ "".join(([s] * 3000) | map("string")) }}', "str.join"),
    "join_list_of_lists": (_S + "{{ ([[s] * 900] * 900) | join }}", "the filter join"),
    "string_filter_of_list": (_S + "{{ ([s] * 1000) | string }}", "the filter string"),
    "upper_filter_of_list": (_S + "{{ ([s] * 1000) | upper }}", "the filter upper"),
    "format_filter_args": (
        _S + '{{ ("%s" * 1000) | format(*([s] * 1000)) }}',
        "the format",
    ),
    "percent_one_key_many_times": (_S + "{{ ('%(a)s' * 1000) % {'a': s} }}", "the format"),
    "format_filter_one_key_many_times": (
        _S + "{{ ('%(a)s' * 1000) | format(a=s) }}",
        "the format",
    ),
    "str_format_one_field_many_times": (
        _S + '{{ ("{0}" * 1000).format(s) }}',
        "str.format",
    ),
    "str_format_many_widths": (
        '{{ ("{:>999999}" * 1000).format(*range(1000)) }}',
        "str.format",
    ),
    "str_format_args": (_S + '{{ ("{}" * 1000).format(*([s] * 1000)) }}', "str.format"),
    "tilde_of_list": (_S + '{{ ([s] * 1000) ~ "" }}', "~ concatenation"),
}


@pytest.mark.parametrize("name", sorted(SIZED_FIRST))
def test_hostile_template__sized_before_it_is_built__exit_2_under_600_mb(
    tmp_path: Path, name: str
) -> None:
    done = _refused(tmp_path, name, *SIZED_FIRST[name])
    assert "over the template limit of 1,000,000" in done.err, done.err
    assert done.rss < 600 * 2**20, done.line(name)
    assert done.seconds < 10, done.line(name)


def test_budget__joins_and_formats_of_ordinary_size_still_render(tmp_path: Path) -> None:
    template = tmp_path / "ok.md.j2"
    template.write_text(
        "{{ ['a', 'b'] | map('upper') | join(',') }} {{ '-'.join(['x'] * 3) }} "
        "{{ '%s=%d' | format('n', 3) }} {{ '{}{}'.format('p', 'q') }} "
        "{{ (range(3) | list) ~ '' }} {{ [1, 2] | string }} "
        "{{ ('x' * 10000) | upper | length }}\n"
    )
    text = render_comment(golden_report(), template=template)
    assert text.startswith("A,B x-x-x n=3 pq [0, 1, 2] [1, 2] 10000"), text

"""``GH-123`` in an id is not an issue reference in the comment.

Found in review: GitHub turns ``GH-123`` in rendered text into a link to issue 123
and records the mention on that issue, as it does for ``#123``; `md_text` broke
``#123`` (word joiner) but left ``GH-123`` alone, so an artifact's id could link to
and ping any issue of the repository from the leaderboard comment.
"""

from __future__ import annotations

import re

import pytest

from leaderboard.render.comment import render_comment
from leaderboard.render.escape import WORD_JOINER, md_text
from tests.render.render_html import parse
from tests.render.render_samples import golden_report

# How GitHub finds the reference in rendered text: GH-digits, case-insensitive.
GH_REFERENCE = re.compile(r"(?i)(?<![\w-])GH-\d+")


@pytest.mark.parametrize("hostile", ["GH-1", "gh-42 fixed", "model (GH-7)", "x/GH-99"])
def test_md_text__gh_reference_broken_text_kept(hostile: str) -> None:
    parsed = parse(md_text(hostile))
    text = "".join(parsed.text)
    assert not GH_REFERENCE.search(text)
    assert text.replace(WORD_JOINER, "").strip() == hostile
    assert parsed.links == []


def test_md_text__gh_without_a_number_untouched() -> None:
    assert md_text("GH-x and LIGHT-1") == "GH-x and LIGHT-1"


def test_comment__model_id_gh_reference_links_nowhere() -> None:
    data = golden_report().model_dump()
    for row in data["leaderboard"]:
        if row["model_id"] == "cand-b":
            row["model_id"] = "GH-1"
    report = type(golden_report()).model_validate(data)
    text = "".join(parse(render_comment(report)).text)
    assert f"GH{WORD_JOINER}-1" in text  # the id is shown
    assert not GH_REFERENCE.search(text)

"""docs/img/comment-*.png show the comment the code renders today.

PNG bytes depend on fonts and the Chromium build, so the check is on the inputs the
pictures were made from (markdown and stylesheets, hashed by scripts/screenshots.py),
plus each picture's own width.
"""

from __future__ import annotations

import json
import struct

from tests.docs.docs_support import ROOT, load_script

shots = load_script("screenshots")


def test_screenshots__show_the_current_comment() -> None:
    assert shots.stale() == [], "run: .venv/bin/python scripts/screenshots.py"


def test_screenshots__are_pngs_of_the_recorded_width() -> None:
    recorded = json.loads(shots.MANIFEST.read_text(encoding="utf-8"))["images"]
    for name, (width, _theme) in shots.SHOTS.items():
        head = (shots.IMG / name).read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n", name
        assert struct.unpack(">I", head[16:20])[0] == width == recorded[name]["width"]


def test_readme__shows_a_screenshot() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/img/comment-light.png" in readme

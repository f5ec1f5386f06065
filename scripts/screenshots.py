"""Photograph the rendered comment for the docs: light, dark, and on a phone.

    python scripts/screenshots.py           # rewrite docs/img/comment-*.png
    python scripts/screenshots.py --check   # exit 1 when the pictures are stale

The comment is the canonical regression (`tests.render.canonical`), rendered the way
GitHub does (cmark-gfm, github-markdown-css 5.9.0) in headless Chromium
(`tests.render.browser`), as GitHub shows it: ``<details>`` closed unless ``open``.

PNG bytes depend on the machine's fonts and Chromium build, so staleness is judged on
the inputs: ``docs/img/comment-screenshots.json`` records the SHA-256 of the markdown
and of the stylesheets each picture was made from; ``--check`` (and a test) recompute
them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.render.browser import CSS_DIR  # noqa: E402
from tests.render.canonical import CANONICAL  # noqa: E402

IMG = ROOT / "docs" / "img"
MANIFEST = IMG / "comment-screenshots.json"
SHOTS = {  # file name: (width, theme)
    "comment-light.png": (900, "light"),
    "comment-dark.png": (900, "dark"),
    "comment-phone.png": (400, "light"),
}
COMMENT = "regressed"


def inputs() -> dict[str, str]:
    """SHA-256 of what the pictures show: the markdown and each stylesheet."""
    markdown = CANONICAL[COMMENT]()
    out = {"markdown": hashlib.sha256(markdown.encode("utf-8")).hexdigest()}
    for theme in ("light", "dark"):
        css = (CSS_DIR / f"github-markdown-{theme}.css").read_bytes()
        out[f"css-{theme}"] = hashlib.sha256(css).hexdigest()
    return out


def write() -> None:
    from tests.render.browser import Browser  # noqa: PLC0415 (playwright: only to write)

    IMG.mkdir(parents=True, exist_ok=True)
    markdown = CANONICAL[COMMENT]()
    browser = Browser()
    try:
        version = browser.browser.version
        for name, (width, theme) in SHOTS.items():
            page = browser.page(markdown, width, theme)
            try:
                page.screenshot(path=str(IMG / name), full_page=True)
            finally:
                page.close()
    finally:
        browser.close()
    manifest = {
        "comment": f"tests/render/canonical.py: {COMMENT}",
        "chromium": version,
        "images": {name: {"width": w, "theme": t} for name, (w, t) in SHOTS.items()},
        "inputs_sha256": inputs(),
    }
    MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {', '.join(SHOTS)} and {MANIFEST.name} in {IMG}")


def stale() -> list[str]:
    """Why the pictures no longer show the current comment (empty: they do)."""
    if not MANIFEST.exists():
        return [f"{MANIFEST} is missing"]
    recorded = json.loads(MANIFEST.read_text(encoding="utf-8"))
    why = [f"{n} is missing" for n in SHOTS if not (IMG / n).exists()]
    now = inputs()
    why += [
        f"{key} changed since the screenshots were taken"
        for key, value in now.items()
        if recorded.get("inputs_sha256", {}).get(key) != value
    ]
    return why


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when stale")
    args = parser.parse_args(argv)
    if args.check:
        why = stale()
        for line in why:
            print(f"screenshots stale: {line}; run python scripts/screenshots.py")
        return 1 if why else 0
    write()
    return 0


if __name__ == "__main__":
    sys.exit(main())

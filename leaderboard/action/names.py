"""File and folder names derived from a ``comment-header``.

A header is free text (``safety evals``, ``v2 (nightly)``); every name made from it goes
through `slug`, so that two headers never share a file or folder and none escapes its
folder.
"""

from __future__ import annotations

import hashlib
import re

__all__ = ["slug"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def slug(header: str) -> str:
    """A file-name-safe name for `header`, distinct for distinct headers.

    The header itself when it is already a plain name (letters, digits, ``. _ -``, not
    starting or ending with ``.`` or ``-``); otherwise its plain characters joined by
    ``-`` and 8 hex digits of its SHA-256, so ``safety evals`` and ``safety-evals``
    get different names.

    Examples
    --------
    >>> slug("nightly")
    'nightly'
    >>> slug("safety evals")
    'safety-evals-3ca5a507'
    """
    plain = _UNSAFE.sub("-", header).strip("-.") or "leaderboard"
    if plain == header:
        return plain
    return f"{plain}-{hashlib.sha256(header.encode()).hexdigest()[:8]}"

"""`python -m leaderboard` is the `leaderboard` command (the script calls `main` too).

`main` imports the command line inside `leaderboard._gc.frozen_imports`: with the
cyclic garbage collector paused, and what the imports made frozen after (that module
says why and what it costs). The action's entry (``entrypoint.py``,
``python -m leaderboard.action``) imports its modules the same way.
"""

from __future__ import annotations

from leaderboard._gc import frozen_imports


def main() -> int:
    """Import `leaderboard.cli` with the collector paused and its objects frozen, then
    run it."""
    with frozen_imports():
        # the comment's modules, which every report renders (cli imports them when
        # it first renders one), frozen with the rest
        import leaderboard.render.comment  # noqa: F401, PLC0415
        from leaderboard.cli import main as run  # noqa: PLC0415 - imported paused
    return run()


if __name__ == "__main__":
    raise SystemExit(main())

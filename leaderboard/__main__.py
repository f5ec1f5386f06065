"""`python -m leaderboard` is the `leaderboard` command (the script calls `main` too).

`main` imports the command line with the cyclic garbage collector paused, and then
freezes what the imports made (`gc.freeze`): the stages, numpy, pydantic's models and
jinja2 leave about 73,000 objects that live as long as the process and are never
garbage. The collector scanned them in about a hundred collections while they were
made, again in the run's collections and in the full one at the interpreter's exit
(20-41 ms of collections in the run at load 2); paused and frozen, it skips them (3-12
ms). It collects the run's own objects as before. Merely pausing it made things
worse: the first collections after the pause scanned them all at once (49-110 ms).
The price: the few cycles the imports leave as garbage are frozen too, never
collected (about 490 objects, 0.3 MB of 22 MB, measured by unfreezing and
collecting), held until a command that lives seconds exits; a collection before the
freeze would cost most of what the freeze saves. Only the command enters here: the
action's entry does not.
"""

from __future__ import annotations

import gc


def main() -> int:
    """Import `leaderboard.cli` with the collector paused and its objects frozen, then
    run it."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        # the comment's modules, which every report renders (cli imports them when
        # it first renders one), frozen with the rest
        import leaderboard.render.comment  # noqa: F401, PLC0415
        from leaderboard.cli import main as run  # noqa: PLC0415 - imported paused
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
    return run()


if __name__ == "__main__":
    raise SystemExit(main())

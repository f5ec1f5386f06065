"""``python -m leaderboard.action [--dry-run]``: the action, or its dry run.

Python imports this package (its ``__init__`` imports the action's modules) before it
runs this module, so those imports run with the collector on; what they made is frozen
here before the run (`leaderboard._gc.frozen_imports`), as ``entrypoint.py``, the
container's entry, freezes the imports it makes paused.
"""

import sys

from leaderboard._gc import frozen_imports

if __name__ == "__main__":
    with frozen_imports():
        from leaderboard.action.dry_run import entry
    raise SystemExit(entry(sys.argv[1:]))

"""The action's entrypoint: the runner starts the container with this script.

With ``--dry-run`` it prints what the action would publish instead (no token, no
network; `leaderboard.action.dry_run`). The action's modules are imported as the
command line's are (`leaderboard._gc.frozen_imports`: the cyclic garbage collector
paused while they are made, what they made frozen after).
"""

import sys

from leaderboard._gc import frozen_imports

if __name__ == "__main__":
    with frozen_imports():
        from leaderboard.action import entry
    raise SystemExit(entry(sys.argv[1:]))

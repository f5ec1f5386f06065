"""The action's entrypoint: the runner starts the container with this script.

With ``--dry-run`` it prints what the action would publish instead (no token, no
network; `leaderboard.action.dry_run`).
"""

import sys

from leaderboard.action import entry

if __name__ == "__main__":
    raise SystemExit(entry(sys.argv[1:]))

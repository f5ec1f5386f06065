"""``python -m leaderboard.action [--dry-run]``: the action, or its dry run."""

import sys

from leaderboard.action.dry_run import entry

if __name__ == "__main__":
    raise SystemExit(entry(sys.argv[1:]))

"""The action's entrypoint: the runner starts the container with this script."""

from leaderboard.action import main

if __name__ == "__main__":
    raise SystemExit(main())

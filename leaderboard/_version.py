"""The package's version, alone in a module so that every stage can name it."""

__version__ = "0.1.0"

#: What made a report: its ``generator`` field and the comment's footer. From
#: `__version__`, not `importlib.metadata`: the image runs the package from /app without
#: installing it, and the lookup cost 10 ms of every run (tests/cli/test_startup.py
#: holds `__version__` to pyproject.toml's).
GENERATOR = f"leaderboard-action {__version__}"

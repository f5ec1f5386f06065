"""The pull request's sticky comment.

- `publisher`: the comment as a publisher (`leaderboard.action.publish`);
- `api`: its requests to GitHub (find, create, edit; PyGithub, imported lazily);
- `markers`: the hidden markers that find the comment again and tell an older run's
  results from a newer one's (pure functions, no network).

Nothing is imported here, so that importing the publisher never loads PyGithub.
"""

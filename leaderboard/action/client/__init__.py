"""The GitHub client the action's requests share, and its bounded retries.

- `base`: what every client holds (`Client`: where it sends, the token, one retry
  budget); the comment's, the status's and the kept history's clients build on it;
- `connection`: the PyGithub client, one way to open it (``retry=None``) and to run a
  call, and which failures are GitHub's doing;
- `retry`: the bounded retry policy every request goes through.

Nothing is imported here, and `base` loads `connection` (and PyGithub) only with the
first request.
"""

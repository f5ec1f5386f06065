"""The GitHub client the action's requests share, and its bounded retries.

- `connection`: the PyGithub client (`Client`), one way to open it and to run a call,
  and which failures are GitHub's doing;
- `retry`: the bounded retry policy every request goes through.

Nothing is imported here, so that importing the retry policy never loads PyGithub.
"""

"""Stage 4, the GitHub Action: the runner's environment in, a summary, outputs and
one sticky comment out.

- `dry_run`: `entry` (the container's entrypoint) and the dry run, which prints what
  the action would publish, with no token and no network;
- `job`: `main` (reads ``os.environ``, builds the client) and `run` (the orchestrator);
- `compute`: the results and the baseline run into a redacted report;
- `publish`: the `Publisher` interface; the log, the job summary, the step outputs;
- `post`: the sticky comment as a publisher;
- `store`: storing a push's run on the history branch (a publisher);
- `workspace`: the template and the JSON report, confined to the workspace;
- `names`: `slug`, the file and folder names made from a ``comment-header``;
- `settings`: the action's inputs and the runner's variables, parsed;
- `event`: which pull request and commit the workflow's event names;
- `comments`: the sticky comment through PyGithub (the only module that imports it);
- `sticky`: the comment's hidden markers, pure functions;
- `retry`: bounded retries following GitHub's rate limits;
- `runner`: annotations, step outputs and the job summary;
- `baseline`: which run a pull request is gated against;
- `history`: the kept runs on a branch (layout, store, find);
- `gitdata`: the Git Data requests the history makes (plain HTTP).

(Named ``action``, not ``github``, so that it never reads as PyGithub's ``github``.)
"""

from leaderboard.action.dry_run import dry_run, entry
from leaderboard.action.job import main, run

__all__ = ["dry_run", "entry", "main", "run"]

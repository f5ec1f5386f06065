"""Stage 4, the GitHub Action: the runner's environment in, a summary, outputs and
one sticky comment out.

The run as a whole:

- `dry_run`: `entry` (the container's entrypoint) and the dry run, which prints what
  the action would publish, with no token and no network;
- `job`: `main` (reads ``os.environ``, builds the client) and `run` (the orchestrator);
- `compute`: the results and the baseline run into a redacted report;
- `texts`: every text of a run, from the report and the user's template, redacted;
- `publish`: the `Publisher` interface; the log, the job summary, the step outputs;
- `workspace`: the template and the JSON report, confined to the workspace;
- `settings`: the action's inputs and the runner's variables, parsed;
- `event`: which pull request and commit the workflow's event names;
- `runner`: annotations, step outputs and the job summary;
- `names`: `slug`, the file and folder names made from a ``comment-header``.

One folder per feature, each with its publisher and its requests:

- `comment`: the sticky pull-request comment (publisher, requests, hidden markers);
- `status`: the commit status in the merge box and the accept label;
- `history`: the kept runs on a branch (storing, the baseline, the anchor, the Git
  Data requests);
- `client`: the GitHub client they share, and the bounded retry policy.

(Named ``action``, not ``github``, so that it never reads as PyGithub's ``github``.)
"""

from leaderboard.action.dry_run import dry_run, entry
from leaderboard.action.job import main, run

__all__ = ["dry_run", "entry", "main", "run"]

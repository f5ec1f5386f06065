"""The commit status in the merge box, and the accept label.

- `publisher`: the status as a publisher, and the label check;
- `api`: their requests to GitHub (PyGithub, imported lazily);
- `plan`: the status's own decisions (context, state, description, the label's match).

Nothing is imported here, so that importing the publisher never loads PyGithub.
"""

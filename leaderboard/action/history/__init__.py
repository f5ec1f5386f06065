"""The kept history: the default branch's runs, stored on a branch of the repository.

- `store`: storing a push's run (planned first, then a publisher);
- `baseline`: which run a pull request is gated against;
- `anchor`: the run kept for the ``anchor`` input's commit or tag;
- `earlier`: the kept runs before a pull request's baseline run (flaky items, the trend);
- `branch`: the history branch's layout, and storing and finding a run on it;
- `gitdata`: the Git Data API requests it is made of.
"""

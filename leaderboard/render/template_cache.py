"""The built-in templates compiled once, kept beside them as Python keeps its modules.

Jinja compiles a template to Python on its first use in a process: 20-30 ms of every
short run's start for the comment template. `TemplateCache` keeps the compiled code in
``templates/__pycache__`` (Jinja's `FileSystemBytecodeCache`), so a run loads it
instead. Jinja checks each entry against the template's source and against this
Python's and Jinja's versions, and compiles again when either changed; the built-in
templates are the package's own files, so their cache is trusted as the package's
``.pyc`` files are. Like Python, a run writes the cache unless told not to write
bytecode (``PYTHONDONTWRITEBYTECODE``, `sys.dont_write_bytecode`) or the folder is
read-only; the action's image writes it when it is built (`compile_templates`). User
templates are never cached: they render in a sandbox without a loader.
"""

from __future__ import annotations

import os
import pathlib
import sys

import jinja2
from jinja2.bccache import Bucket

__all__ = ["CACHE_FOLDER", "TemplateCache", "compile_templates"]

CACHE_FOLDER = "__pycache__"


class TemplateCache(jinja2.FileSystemBytecodeCache):
    """Jinja's bytecode cache in ``<templates>/__pycache__``; writes are best effort.

    Parameters
    ----------
    templates : pathlib.Path
        The folder of the built-in templates.
    write : bool, optional
        Store what was compiled; default: unless `sys.dont_write_bytecode`.
    """

    def __init__(self, templates: pathlib.Path, *, write: bool | None = None) -> None:
        super().__init__(str(templates / CACHE_FOLDER), "%s.jinja")
        self.write = not sys.dont_write_bytecode if write is None else write

    def load_bytecode(self, bucket: Bucket) -> None:
        """Load `bucket`'s code if stored; an unreadable cache compiles afresh."""
        try:
            super().load_bytecode(bucket)
        except OSError:
            return

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Store `bucket`'s code; a folder that cannot be written is no error."""
        if not self.write:
            return
        try:
            os.makedirs(self.directory, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            return


def compile_templates(env: jinja2.Environment) -> list[str]:
    """Compile every template `env`'s loader lists into its cache (the image's build
    step); returns their names."""
    names = env.list_templates(extensions=["j2"])
    for name in names:
        env.get_template(name)
    return names

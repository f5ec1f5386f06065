"""A package's names imported from their modules when first asked for (PEP 562).

`lazy_names` makes the module ``__getattr__`` and ``__dir__`` of a package whose
``__init__`` lists its public names and where each lives, instead of importing every
module up front: ``import leaderboard`` then loads no stage, and the command line
imports only the modules it runs.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping


def lazy_names(
    package: str, homes: Mapping[str, str], public: Iterable[str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of `package` (call it from its ``__init__``).

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    homes : mapping of str to str
        Each lazily imported name and the module it is imported from; the value is
        kept in the package after its first use. Any other name that is a submodule
        (``leaderboard.stats`` after ``import leaderboard``, which used to import
        every stage) is imported when read.
    public : iterable of str
        The package's ``__all__``, listed by ``dir()`` before they are imported.
    """
    namespace = sys.modules[package].__dict__
    listed = set(public)

    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is not None:
            value = getattr(importlib.import_module(home), name)
            namespace[name] = value
            return value
        try:  # a submodule, as `package.name` read before it was imported
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.{name}":
                raise
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*namespace, *listed})

    return __getattr__, __dir__

"""The sandbox of user templates: Jinja's `SandboxedEnvironment` with a budget.

A user's comment template comes from the repository (a pull request can change it),
so it runs with a budget of time, steps and size that the sandbox itself enforces,
whatever the syntax used to spend it:

- **Steps and time**: every line Python runs while the template renders (its own
  generated code and the Jinja helpers it calls, such as ``lipsum``) counts one
  step, through a trace hook; past `MAX_STEPS` steps or `MAX_SECONDS` seconds the
  render stops.
- **Size of what it builds**: no call, filter or operator may take a number over
  `MAX_SIZE` (a width, a count, a range), nor build a string, list or mapping over
  `MAX_SIZE` items: ``*``, ``+``, ``%`` and ``~`` are checked before they run,
  format specs (``'{:>3000000000}'``, ``'%3000000000d'``) are read before formatting,
  ``join`` and ``replace`` are sized first, and a container grown in place
  (``list.extend``, ``dict.update``) is checked after each call.
- **Memory**: the values it holds may add at most `MAX_MEMORY` to the process
  (read every 1,024 steps), so many values each within `MAX_SIZE` cannot add up.
- **Output**: at most `MAX_OUTPUT` characters in all.

Each refusal is a `TemplateBudgetError`, which the renderer reports as bad
configuration naming the template's line (exit 2).
"""

from __future__ import annotations

import functools
import os
import re
import resource
import string
import sys
import time
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import jinja2
import jinja2.compiler
import jinja2.nodes
import jinja2.sandbox
import jinja2.utils

from leaderboard.render.template_sizes import (
    MAX_SIZE,
    PERCENT_SPEC,
    SIZED,
    STRING_FILTERS,
    TemplateBudgetError,
    concat_size,
    join_size,
    percent_size,
    product_size,
    replace_size,
    size_of,
    sized,
    str_format_size,
    text_size,
    too_big,
)

#: Lines of Python a render may run (the generated template and the helpers it calls).
MAX_STEPS = 5_000_000
#: Seconds a render may take.
MAX_SECONDS = 10.0
#: Characters a render may write.
MAX_OUTPUT = 1_000_000
#: Memory a render may add to the process (read every 1,024 steps).
MAX_MEMORY = 256 * 2**20
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_MAX_POWER_DIGITS = 4_300
_DIGITS = re.compile(r"\d+")
_MUTABLE = (list, dict, set)
# str methods that repeat text by an argument: refused outright (`expandtabs` grows
# by tabs times width, which no argument check can see).
_REFUSED_METHODS = frozenset({"expandtabs"})


def _check_numbers(what: str, values: Iterator[object]) -> None:
    """Refuse any int or float argument of magnitude over `MAX_SIZE`."""
    for value in values:
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if number and abs(value) > MAX_SIZE:  # type: ignore[arg-type]
            raise TemplateBudgetError(
                f"{what} was given {value:g}, over the template limit of "
                f"{MAX_SIZE:,} for any count or width"
            )


def _check_result(what: str, value: object) -> object:
    size = size_of(value)
    if size > MAX_SIZE:
        raise too_big(what, size)
    return value


def _check_format_spec(fmt: str) -> None:
    """Refuse a ``str.format`` string whose widths or precisions exceed `MAX_SIZE`."""
    try:
        fields = list(string.Formatter().parse(fmt))
    except ValueError:
        return  # str.format raises the same error itself
    for _, _, spec, _ in fields:
        for digits in _DIGITS.findall(spec or ""):
            if len(digits) > 7 or int(digits) > MAX_SIZE:
                raise TemplateBudgetError(
                    f"the format spec {(spec or '')[:20]!r} asks for {digits[:20]} "
                    f"characters, over the template limit of {MAX_SIZE:,}"
                )


def _check_percent(fmt: str, args: object) -> None:
    """Refuse a ``%`` format whose widths or precisions exceed `MAX_SIZE`."""
    for match in PERCENT_SPEC.finditer(fmt):
        for digits in match.groups()[1:]:
            if digits and digits != "*" and (len(digits) > 7 or int(digits) > MAX_SIZE):
                raise TemplateBudgetError(
                    f"the format {match.group(0)[:20]!r} asks for {digits[:20]} "
                    f"characters, over the template limit of {MAX_SIZE:,}"
                )
    values = args if isinstance(args, tuple) else (args,)
    _check_numbers("the % format", iter(values))
    size = percent_size(fmt, args)
    if size > MAX_SIZE:
        raise too_big("the format", size, counted=True)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_call(
    obj: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any]
) -> tuple[Any, ...]:
    """What a call would build, refused before it runs; the arguments to call it with
    (``str.join`` over a generator gets it drawn into a list within the budget)."""
    name = getattr(obj, "__name__", type(obj).__name__)
    owner = getattr(obj, "__self__", None)
    if isinstance(owner, str) and name in _REFUSED_METHODS:
        raise TemplateBudgetError(f"str.{name} is not allowed in a template")
    _check_numbers(f"{name}()", iter((*args, *kwargs.values())))
    if isinstance(owner, str) and name == "join" and args:
        args = (sized(args[0], "str.join", owner), *args[1:])
        size = join_size(args[0], owner)
        if size > MAX_SIZE:
            raise too_big("str.join", size, counted=True)
    if isinstance(owner, str) and name == "replace" and len(args) >= 2:
        size = replace_size(owner, *args[:3])
        if size > MAX_SIZE:
            raise too_big("str.replace", size)
    return args


def _guard_filter(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    """`func` (a filter) with its numeric arguments and its result held to the budget."""

    skip = 1 if jinja2.utils._PassArg.from_obj(func) is None else 2

    @functools.wraps(func)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        subject, rest = (args[skip - 1], args[skip:]) if len(args) >= skip else (None, ())
        _check_numbers(f"the filter {name}", iter((*rest, *kwargs.values())))
        if name in STRING_FILTERS and text_size(subject) > MAX_SIZE:
            raise too_big(f"the filter {name}", MAX_SIZE + 1, counted=True)
        if name == "format" and isinstance(subject, str):
            _check_percent(subject, tuple(rest) or tuple(kwargs.values()))
        if name == "join" and subject is not None:
            separator = rest[0] if rest and isinstance(rest[0], str) else ""
            subject = sized(subject, "the filter join", separator)
            args = (*args[: skip - 1], subject, *args[skip:])
            size = join_size(subject, separator)
            if size > MAX_SIZE:
                raise too_big("the filter join", size, counted=True)
        if name == "replace" and isinstance(subject, str):
            size = replace_size(subject, *rest[:3])
            if size > MAX_SIZE:
                raise too_big("the filter replace", size)
        return _check_result(f"the filter {name}", func(*args, **kwargs))

    return guarded


class _BudgetCodeGenerator(jinja2.compiler.CodeGenerator):
    """Generated code whose ``~`` goes through `BudgetSandbox.concat_checked`."""

    def visit_Concat(self, node: jinja2.nodes.Concat, frame: jinja2.compiler.Frame) -> None:
        self.write("environment.concat_checked((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


class BudgetSandbox(jinja2.sandbox.SandboxedEnvironment):
    """Jinja's sandbox, with the budget of this module enforced on every operation."""

    code_generator_class = _BudgetCodeGenerator
    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)

    def guard_filters(self) -> None:
        """Wrap every registered filter (call once the filters are registered)."""
        self.filters = {name: _guard_filter(name, f) for name, f in self.filters.items()}

    def concat_checked(self, parts: tuple[Any, ...]) -> str:
        size = concat_size(parts)  # before any part is made text
        if size > MAX_SIZE:
            raise too_big("the ~ concatenation", size, counted=True)
        texts = [str(part) for part in parts]
        size = sum(map(len, texts))
        if size > MAX_SIZE:
            raise too_big("the ~ concatenation", size)
        return "".join(texts)

    def call_binop(
        self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any
    ) -> Any:
        if operator == "**":
            if _is_int(left) and _is_int(right) and right > 0:
                digits = right * max(1, abs(left).bit_length()) * 0.302
                if digits > _MAX_POWER_DIGITS:
                    raise TemplateBudgetError(
                        f"{left} ** {right} has too many digits for a template"
                    )
            return left**right
        if operator == "*":
            size = product_size(left, right)
            if size is not None and size > MAX_SIZE:
                raise too_big("the product", size)
            return left * right
        if operator == "+":
            if isinstance(left, SIZED) and isinstance(right, SIZED):
                size = size_of(left) + size_of(right)
                if size > MAX_SIZE:
                    raise too_big("the sum", size)
            return left + right
        if isinstance(left, str):  # "%": string formatting
            _check_percent(left, right)
            return _check_result("the % format", left % right)
        return left % right

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        fmt = value.__self__

        @functools.wraps(wrapped)
        def checked(*args: Any, **kwargs: Any) -> str:
            _check_format_spec(fmt)
            mapping = args[0] if value.__name__ == "format_map" and args else kwargs
            _check_numbers("str.format", iter((*args, *kwargs.values())))
            if isinstance(mapping, Mapping):
                _check_numbers("str.format", iter(mapping.values()))
            positional = args[1:] if mapping is not kwargs else args
            names = mapping if isinstance(mapping, Mapping) else kwargs
            size = str_format_size(fmt, positional, names)
            if size > MAX_SIZE:
                raise too_big("str.format", size, counted=True)
            result = wrapped(*args, **kwargs)
            _check_result("str.format", result)
            return result

        return checked

    def call(
        __self,
        __context: jinja2.runtime.Context,
        __obj: Any,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        args = _check_call(__obj, args, kwargs)
        result = super().call(__context, __obj, *args, **kwargs)
        owner = getattr(__obj, "__self__", None)
        if isinstance(__obj, types.BuiltinMethodType) and isinstance(owner, _MUTABLE):
            _check_result(f"{type(owner).__name__}.{__obj.__name__}", owner)
        return _check_result(getattr(__obj, "__name__", "the call"), result)


def _resident() -> int:
    """This process's resident memory in bytes (its peak where /proc is missing)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class _Steps:
    """A trace hook that stops a render past its steps, seconds or memory.

    Every line counts a step; every 1,024 steps the clock and the resident memory
    are read, so many values each under `MAX_SIZE` (a list of a thousand long
    strings) cannot add up to gigabytes either.
    """

    def __init__(self) -> None:
        self.steps = 0
        self.deadline = time.monotonic() + MAX_SECONDS
        self.memory_cap = _resident() + MAX_MEMORY

    def __call__(self, frame: types.FrameType, event: str, arg: object) -> Any:
        if event == "line":
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise TemplateBudgetError(
                    f"the template ran more than {MAX_STEPS:,} steps (a loop too long?)"
                )
            if not self.steps % 1024:
                if time.monotonic() > self.deadline:
                    raise TemplateBudgetError(
                        f"the template ran longer than {MAX_SECONDS:g} seconds"
                    )
                if _resident() > self.memory_cap:
                    raise TemplateBudgetError(
                        f"the template built more than {MAX_MEMORY // 2**20} MiB of values"
                    )
        return self


def render_bounded(template: jinja2.Template, **context: Any) -> str:
    """Render `template` within the step, time and output budget.

    Raises
    ------
    TemplateBudgetError
        Over `MAX_STEPS`, `MAX_SECONDS` or `MAX_OUTPUT`, or anything the sandbox
        refused on the way (`BudgetSandbox`).
    """
    steps = _Steps()
    previous = sys.gettrace()
    parts: list[str] = []
    written = 0
    sys.settrace(steps)
    try:
        for chunk in template.generate(**context):
            written += len(chunk)
            if written > MAX_OUTPUT:
                raise TemplateBudgetError(
                    f"the template wrote more than {MAX_OUTPUT:,} characters"
                )
            parts.append(chunk)
    finally:
        sys.settrace(previous)
    return "".join(parts)

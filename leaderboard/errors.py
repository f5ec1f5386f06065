"""The exceptions users see.

Every problem a person can fix (bad input, bad settings) is a `LeaderboardError`;
the command line and the action turn it into one line and exit status 2. Anything
else is a bug and keeps its traceback.
"""

from __future__ import annotations

from collections.abc import Mapping

#: The exit statuses of CONTRACT.md section 4 (and 3, a bug); `leaderboard.exits`
#: decides which one a report gets.
EXIT_OK, EXIT_REGRESSED, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3


class LeaderboardError(Exception):
    """Root of every error caused by input or configuration, not by a bug."""

    exit_code = EXIT_USAGE


class InputError(LeaderboardError):
    """An artifact that breaks the input contract.

    The message names where (file, line or record), what (field) and the fix.
    """

    def __init__(
        self,
        problem: str,
        *,
        file: str | None = None,
        line: int | None = None,
        record: int | None = None,
        field: str | None = None,
        fix: str | None = None,
    ) -> None:
        self.problem = problem
        self.file = file
        self.line = line
        self.record = record
        self.field = field
        self.fix = fix
        super().__init__(self._format())

    def _format(self) -> str:
        where = []
        if self.file is not None:
            where.append(self.file)
        if self.line is not None:
            where.append(f"line {self.line}")
        elif self.record is not None:
            where.append(f"record {self.record}")
        head = ":".join(where[:1]) + (f", {where[1]}" if len(where) > 1 else "")
        parts = [head] if head else []
        if self.field is not None:
            parts.append(f"field `{self.field}`")
        text = ", ".join(parts)
        msg = f"{text}: {self.problem}" if text else self.problem
        if self.fix:
            msg += f" ({self.fix})"
        return msg


class UsageError(LeaderboardError):
    """Bad settings: a command-line option or an action input.

    The statistics name a setting neutrally (``guardrail cost: ...``, ``baseline map
    NEW=OLD: ...``) and record that leading name as `subject`; a shell that calls the
    setting otherwise (the command line's ``--guardrail``) says so with `naming`.
    """

    def __init__(self, message: str, *, subject: str | None = None) -> None:
        if subject is not None and not message.startswith(subject):
            raise ValueError(f"message {message!r} does not start with {subject!r}")
        super().__init__(message)
        self.subject = subject

    def naming(self, options: Mapping[str, str]) -> UsageError:
        """This error with its `subject` replaced by the shell's name for it.

        `options` maps a neutral subject (``"guardrail"``) to the shell's option
        (``"--guardrail"``); an error whose subject it lacks is returned as it is.
        """
        if self.subject is None or self.subject not in options:
            return self
        text = str(self)
        return UsageError(options[self.subject] + text[len(self.subject) :])


def did_you_mean(name: str, choices: list[str]) -> str:
    """`` (did you mean 'main'?)`` for the closest of `choices` to `name`, or ``""``.

    Parameters
    ----------
    name : str
        What the user typed (e.g. an unknown model id).
    choices : list of str
        The valid values.

    Returns
    -------
    str
        A parenthesised hint with a leading space, or the empty string when nothing is
        close (difflib ratio below 0.6).
    """
    import difflib  # noqa: PLC0415 - only when a name is unknown: 1 ms of every start

    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""

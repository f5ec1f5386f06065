"""Talking to the Actions runner: log annotations, step outputs, the job summary.

Untrusted text (model ids, file names, error messages quoting them) reaches the runner
log only through `Log`, which encodes it so that it cannot start a workflow command of
its own (``::add-mask::``, ``::stop-commands::``, ``##[...]``), and which replaces any
secret it was given with ``***``. Outputs use the multi-line ``name<<DELIMITER`` form
with a random delimiter that no value contains.
"""

from __future__ import annotations

import base64
import contextlib
import logging
import secrets
import sys
import traceback
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

from leaderboard.render import log_text

__all__ = [
    "MAX_LOG_LINE",
    "Log",
    "append_summary",
    "escape_data",
    "escape_property",
    "loader_lines",
    "print_traceback",
    "secret_forms",
    "write_outputs",
]

# How actions/checkout stores the token in .git/config: `AUTHORIZATION: basic` and the
# base64 of this prefix followed by the token.
_BASIC_PREFIXES = ("", "x-access-token:")
_MIN_FORM = 12  # shorter fragments would redact innocent text
#: Characters of one log line or annotation, after redaction; longer ones are cut.
MAX_LOG_LINE = 4096


def _base64_cores(text: str) -> list[str]:
    """The base64 characters that encode `text` whatever bytes come before or after.

    A secret inside longer encoded data starts at one of three offsets in a 3-byte
    group; for each, drop the characters that also depend on the neighbouring bytes.
    """
    raw = text.encode()
    cores = []
    for shift in range(3):
        encoded = base64.b64encode(b"\0" * shift + raw).decode()
        # Characters wholly inside `raw`: skip the ones touched by the padding bytes.
        start = -(-shift * 4 // 3)  # ceil(shift * 8 / 6)
        end = ((shift + len(raw)) * 8) // 6
        cores.append(encoded[start:end])
    return cores


def secret_forms(secret: str) -> list[str]:
    """The forms in which a token can leak: itself, base64 and URL-encoded.

    ``base64(token)`` and ``base64("x-access-token:" + token)`` (the basic-auth
    header actions/checkout writes to .git/config), each also as a fragment of longer
    base64 data; and the token percent-encoded. Longest first, so a longer form is
    replaced before a form inside it.
    """
    if not secret:
        return []
    forms = {secret, quote(secret, safe="")}
    for prefix in _BASIC_PREFIXES:
        whole = base64.b64encode((prefix + secret).encode()).decode()
        forms.update({whole, whole.rstrip("=")})
        forms.update(core for core in _base64_cores(prefix + secret))
    return sorted((f for f in forms if len(f) >= _MIN_FORM), key=len, reverse=True)


def escape_data(text: str) -> str:
    """Encode the message of a workflow command (``::error::MESSAGE``).

    ``%``, ``\\r`` and ``\\n`` become ``%25``, ``%0D`` and ``%0A``, as ``@actions/core``
    does: the runner decodes them, and the message can never span two log lines. A
    ``##[`` (the legacy command form) gets a zero-width space inside, and other
    control and format characters (ANSI escapes, bidi overrides) and lone surrogates
    (a file name that is not UTF-8) are shown as ``\\xNN`` or ``\\uNNNN``.
    """
    text = "".join(_visible(ch) for ch in text)
    encoded = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return encoded.replace("##[", "#\u200b#[")  # the legacy command form, found anywhere


def _visible(ch: str) -> str:
    if ch in "\n\r\t" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Zl", "Zp"):
        return ch
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_property(text: str) -> str:
    """Encode a property of a workflow command (``title=VALUE``): also ``:`` and ``,``."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


class Log:
    """The action's log: plain lines and ``::error::``/``::warning::`` annotations.

    Parameters
    ----------
    stream : TextIO
        Where the runner reads the log (standard output).
    secrets : Iterable[str]
        Values that must never be printed (the token); replaced by ``***``.
    """

    def __init__(self, stream: TextIO, *, secrets: Iterable[str] = ()) -> None:
        self._stream = stream
        forms = [form for secret in secrets for form in secret_forms(secret)]
        self._secrets = tuple(sorted(set(forms), key=len, reverse=True))
        self.counts: dict[str, int] = {"error": 0, "warning": 0, "notice": 0}

    def redact(self, text: str) -> str:
        """Replace every secret, and its base64 and URL-encoded forms, by ``***``."""
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text

    def _shown(self, text: str) -> str:
        """`text` redacted, then cut to `MAX_LOG_LINE` characters (a 15 MB model id
        would otherwise print 15 MB into the log); the cut says how long it was."""
        text = self.redact(text)
        if len(text) <= MAX_LOG_LINE:
            return text
        return f"{text[:MAX_LOG_LINE]}... (cut: {len(text):,} characters in all)"

    def info(self, text: str) -> None:
        """Print one plain line (`log_text`: no command, one line)."""
        self._write(log_text(self._shown(text)))

    def error(self, text: str, *, title: str | None = None) -> None:
        """Print an ``::error::`` annotation."""
        self._annotate("error", text, title)

    def warning(self, text: str, *, title: str | None = None) -> None:
        """Print a ``::warning::`` annotation."""
        self._annotate("warning", text, title)

    def notice(self, text: str, *, title: str | None = None) -> None:
        """Print a ``::notice::`` annotation."""
        self._annotate("notice", text, title)

    def _annotate(self, level: str, text: str, title: str | None) -> None:
        self.counts[level] += 1
        props = f" title={escape_property(self._shown(title))}" if title else ""
        self._write(f"::{level}{props}::{escape_data(self._shown(text))}")

    def _write(self, line: str) -> None:
        self._stream.write(line + "\n")
        self._stream.flush()


def write_outputs(path: Path | None, outputs: Mapping[str, str]) -> None:
    """Append step outputs to the ``GITHUB_OUTPUT`` file, multi-line safe.

    Each output is written as ``name<<DELIM``, the value, ``DELIM``; ``DELIM`` is random
    (128 bits) and checked to appear in no value, so a value (which may quote a model id
    from the artifact) cannot end its own block and set another output. Without a path
    (not on a runner) nothing is written.
    """
    if path is None or not outputs:
        return
    chunks = []
    for name, value in outputs.items():
        delimiter = f"ghadelimiter_{secrets.token_hex(16)}"
        while delimiter in value or delimiter in name:  # pragma: no cover - 2**-128
            delimiter = f"ghadelimiter_{secrets.token_hex(16)}"
        chunks.append(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
    with path.open("a", encoding="utf-8", newline="\n") as fh:
        fh.write("".join(chunks))


def append_summary(path: Path | None, markdown: str) -> None:
    """Append markdown to the job summary (``GITHUB_STEP_SUMMARY``), if there is one."""
    if path is None:
        return
    with path.open("a", encoding="utf-8", newline="\n") as fh:
        fh.write(markdown if markdown.endswith("\n") else markdown + "\n")


def print_traceback(log: Log) -> None:
    """Print the current exception's traceback on stderr, safe for the runner log.

    The runner reads stderr as log lines too, and an exception's message may quote an
    id from the artifact or, from a library, the token: each line is redacted and
    passed through `log_text`, so it can neither start a workflow command nor show a
    secret.
    """
    for line in traceback.format_exc().splitlines():
        sys.stderr.write(log_text(log.redact(line)) + "\n")
    sys.stderr.flush()


@contextlib.contextmanager
def loader_lines(log: Log | None) -> Iterator[None]:
    """Show the loader's "read FILE: N records" lines (logger ``leaderboard.inputs``)."""
    if log is None:
        yield
        return
    logger = logging.getLogger("leaderboard.inputs")
    handler = _LogHandler(log)
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


class _LogHandler(logging.Handler):
    def __init__(self, log: Log) -> None:
        super().__init__(logging.INFO)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        self.log.info(record.getMessage())

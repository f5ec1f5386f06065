"""Reading back what the action told the runner: annotations and the output file."""

from __future__ import annotations

import re

_COMMAND = re.compile(r"^::(error|warning|notice)(?: ([^:]*))?::(.*)$")


def annotations(log: str) -> list[tuple[str, str, str]]:
    """``(level, properties, decoded message)`` of every annotation line in ``log``."""
    found = []
    for line in log.split("\n"):  # the runner splits lines at \n (and \r) only
        match = _COMMAND.match(line)
        if match:
            level, props, data = match.groups()
            message = data.replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%")
            found.append((level, props or "", message))
    return found


def parse_outputs(text: str) -> dict[str, str]:
    """Parse a ``GITHUB_OUTPUT`` file as the runner does (``name=value`` and heredocs).

    Raises ``ValueError`` on what the runner would refuse: a heredoc without its
    closing delimiter.
    """
    out: dict[str, str] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            body: list[str] = []
            while True:
                if i >= len(lines):
                    raise ValueError(f"output {name!r}: no closing delimiter")
                if lines[i] == delimiter:
                    i += 1
                    break
                body.append(lines[i])
                i += 1
            out[name] = "\n".join(body)
        else:
            name, value = line.split("=", 1)
            out[name] = value
    return out

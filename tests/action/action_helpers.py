"""What the runner gives the action and reads back: a push's environment, annotations
and the output file."""

from __future__ import annotations

import re
from pathlib import Path

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


def push_env(tmp_path: Path, ws: Path, **inputs: str) -> dict[str, str]:
    """The runner's environment of a push: workspace `ws`, output and summary files in
    `tmp_path`, and `inputs` by their names (``baseline_label`` or ``baseline-label``)."""
    env = {
        "GITHUB_WORKSPACE": str(ws),
        "GITHUB_EVENT_NAME": "push",
        "GITHUB_OUTPUT": str(tmp_path / "output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"),
    }
    env.update({"INPUT_" + k.upper().replace("_", "-"): v for k, v in inputs.items()})
    return env

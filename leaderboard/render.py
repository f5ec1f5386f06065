"""Scaffold: replaced by the rendering work."""
# ruff: noqa
from typing import Any


def render_markdown(rows: Any) -> str:
    raise NotImplementedError


def render_json(rows: Any) -> str:
    raise NotImplementedError

"""The one reader of the JSON tables robotsrules ships (``data/*.json``) and of the
registry files a caller passes: bounded, and every failure a :class:`~robotsrules.RobotsError`
saying where and what (never a ``JSONDecodeError``, ``RecursionError`` or ``MemoryError``
from a hostile file)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from ..errors import RobotsError

__all__ = ["parse_json", "shipped_text"]


def shipped_text(name: str) -> str:
    """The text of ``robotsrules/data/<name>``."""
    return resources.files("robotsrules").joinpath(f"data/{name}").read_text("utf-8")


def parse_json(text: str, where: str, limit: int, hint: str = "") -> Any:
    """``text`` parsed as JSON, refused past ``limit`` characters; errors name ``where``
    (and end with ``hint``, e.g. what to do about a damaged installation)."""
    if len(text) > limit:
        raise RobotsError(f"{where}: larger than {limit >> 20} MiB{hint}")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RobotsError(f"{where}: not JSON ({str(error)[:200]}){hint}") from None

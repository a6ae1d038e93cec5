"""The one reader of the JSON tables robotsrules ships (``data/*.json``) and of the
registry files a caller passes: bounded, and every failure a :class:`~robotsrules.RobotsError`
saying where and what (never a ``JSONDecodeError``, ``RecursionError`` or ``MemoryError``
from a hostile file)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Union

from ..errors import RobotsError

__all__ = ["list_at", "parse_json", "shipped_text", "user_path"]


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


def list_at(data: Any, keys: Sequence[str], refuse: Callable[[str], RobotsError],
            missing: str) -> list[Any]:
    """The list at ``data[keys[0]][keys[1]]...`` of a parsed JSON document (a table's
    rows); where a step is no object or the end is no list, ``refuse(missing)`` is raised
    (the table's own error, saying which list it lacks)."""
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    if not isinstance(data, list):
        raise refuse(missing)
    return data


def user_path(kind: Literal["cache", "data"], env_var: str,
              name: Union[str, os.PathLike[str]]) -> Path:
    """Where a file of robotsrules lives for this user: ``$env_var`` if set, else ``name``
    in the user's cache or data directory: ``$XDG_CACHE_HOME``/``$XDG_DATA_HOME`` or
    ``~/.cache``/``~/.local/share`` (Linux and other Unixes; a relative XDG path is ignored,
    as the XDG Base Directory specification says), ``~/Library/Caches``/``~/Library/Application
    Support`` (macOS), ``%LOCALAPPDATA%`` (Windows, both kinds)."""
    override = os.environ.get(env_var)
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        base = Path(local) if local else Path.home() / "AppData" / "Local"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / ("Caches" if kind == "cache" else "Application Support")
    else:
        xdg = os.environ.get("XDG_CACHE_HOME" if kind == "cache" else "XDG_DATA_HOME")
        fallback = Path.home() / (".cache" if kind == "cache" else ".local/share")
        base = Path(xdg) if xdg and os.path.isabs(xdg) else fallback
    return base / name

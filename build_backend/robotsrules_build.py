"""The build backend of robotsrules: setuptools, plus the optional compiled build.

``pip install .`` builds the pure-Python package exactly as setuptools does, with no build
dependency beyond setuptools. ``ROBOTSRULES_COMPILE=1 pip install .`` (or the config
setting ``--config-settings compile=1``) also compiles the core modules listed in
``setup.py`` with mypyc, asking for the pinned mypy :data:`MYPY` only then. The compiled
build needs CPython 3.10 or later.
"""

from __future__ import annotations

import os
from typing import Any, Optional

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (  # noqa: F401 - the hooks this backend does not change
    build_sdist,
    get_requires_for_build_sdist,
)

MYPY = "mypy==2.4.1"
"""The mypy (and mypyc) the compiled build is made and tested with."""

_Settings = Optional[dict[str, Any]]


def _compile(settings: _Settings) -> bool:
    wanted = str((settings or {}).get("compile", os.environ.get("ROBOTSRULES_COMPILE", "")))
    return wanted.lower() in ("1", "true", "yes")


def _plain(settings: _Settings) -> _Settings:
    """The settings without ours (setuptools reads its own keys only)."""
    if not settings:
        return settings
    return {key: value for key, value in settings.items() if key != "compile"}


def _without_compiling(hook: Any, *args: Any) -> Any:
    # setuptools runs setup.py to collect its requirements and the metadata: the first
    # before mypy is installed, neither needs the compiled modules, so setup.py is not
    # asked to compile then.
    wanted = os.environ.pop("ROBOTSRULES_COMPILE", None)
    try:
        return hook(*args)
    finally:
        if wanted is not None:
            os.environ["ROBOTSRULES_COMPILE"] = wanted


COMPILE_REQUIRES = [MYPY, "idna>=3"]
"""What the compiled build needs beyond setuptools: mypy, and ``idna`` for the types of
``_scope`` (the origin splitter of the WARC path, compiled with the core), which imports it."""


def _requires(hook: Any, settings: _Settings) -> list[str]:
    found: list[str] = _without_compiling(hook, _plain(settings))
    return found + (COMPILE_REQUIRES if _compile(settings) else [])


def prepare_metadata_for_build_wheel(metadata_directory: str,
                                     config_settings: _Settings = None) -> str:
    """setuptools' metadata (the same for both builds)."""
    return str(_without_compiling(_setuptools.prepare_metadata_for_build_wheel,
                                  metadata_directory, _plain(config_settings)))


def prepare_metadata_for_build_editable(metadata_directory: str,
                                        config_settings: _Settings = None) -> str:
    """setuptools' metadata for ``pip install -e``."""
    return str(_without_compiling(_setuptools.prepare_metadata_for_build_editable,
                                  metadata_directory, _plain(config_settings)))


def get_requires_for_build_wheel(config_settings: _Settings = None) -> list[str]:
    """setuptools' requirements, and the pinned mypy for the compiled build."""
    return _requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: _Settings = None) -> list[str]:
    """As :func:`get_requires_for_build_wheel`, for ``pip install -e``."""
    return _requires(_setuptools.get_requires_for_build_editable, config_settings)


def _with_compile(settings: _Settings) -> None:
    if _compile(settings):
        os.environ["ROBOTSRULES_COMPILE"] = "1"  # read by setup.py


def build_wheel(wheel_directory: str, config_settings: _Settings = None,
                metadata_directory: Optional[str] = None) -> str:
    """A wheel: pure Python, or with the compiled core when asked for."""
    _with_compile(config_settings)
    return _setuptools.build_wheel(wheel_directory, _plain(config_settings),
                                   metadata_directory)


def build_editable(wheel_directory: str, config_settings: _Settings = None,
                   metadata_directory: Optional[str] = None) -> str:
    """An editable install (pure Python, or compiled modules beside the sources)."""
    _with_compile(config_settings)
    return _setuptools.build_editable(wheel_directory, _plain(config_settings),
                                      metadata_directory)

"""An extra alone is enough for what the docs show with it (issue 33, section 4).

DuckDB 2.0 refuses to register Python functions without numpy, which it does not declare, so
``pip install 'robotsrules[bulk]'`` gave a ``robotsrules.duckdb.register`` that raised on
every SQL example of the guides. Here one venv per run gets ``pip install '<checkout>[bulk]'``
and nothing else (pip's cache and index as configured), and every runnable Python block of
the pages whose examples use DuckDB runs in it (``tests/docs_blocks.py``). Every extra that
installs duckdb must also list numpy.

Set ``ROBOTSRULES_SKIP_EXTRAS=1`` to skip the venv test where no package index is reachable.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.docs_blocks import BLOCK

ROOT = Path(__file__).resolve().parent.parent

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _duckdb_pages() -> list[Path]:
    """The pages with a runnable Python block that uses DuckDB."""
    return [page for page in PAGES
            if any("duckdb" in m.group("code") and not m.group("why")
                   for m in BLOCK.finditer(page.read_text(encoding="utf-8")))]


def _names(extra: list[str]) -> list[str]:
    return [re.split(r"[<>=;\[ ~!]", requirement, maxsplit=1)[0].lower() for requirement in extra]


def test_every_extra_with_duckdb_lists_numpy() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]
    with_duckdb = sorted(name for name, extra in extras.items() if "duckdb" in _names(extra))
    assert {"bulk", "report", "datatrove", "test"} <= set(with_duckdb)
    for name in with_duckdb:
        assert "numpy" in _names(extras[name]), f"the {name} extra installs duckdb, not numpy"


def test_the_duckdb_pages_are_found() -> None:
    names = {page.name for page in _duckdb_pages()}
    assert {"datasets.md", "usage-preferences.md", "opt-out.md"} <= names


@pytest.fixture(scope="session")
def bulk_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv holding robotsrules from this checkout with the bulk extra and nothing else
    (made once per run)."""
    if os.environ.get("ROBOTSRULES_SKIP_EXTRAS"):
        pytest.skip("ROBOTSRULES_SKIP_EXTRAS is set")
    where = tmp_path_factory.mktemp("bulk-venv")
    venv.EnvBuilder(with_pip=True).create(where)
    python = where / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ROBOTSRULES_COMPILE")}
    result = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
         f"{ROOT}[bulk]"], capture_output=True, text=True, timeout=900, env=env, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return python


def test_the_guides_sql_examples_run_with_the_bulk_extra_only(bulk_venv: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["ROBOTSRULES_CACHE"] = os.devnull
    pages = [str(page.relative_to(ROOT)) for page in _duckdb_pages()]
    result = subprocess.run([str(bulk_venv), str(ROOT / "tests" / "docs_blocks.py"), *pages],
                            cwd=ROOT, capture_output=True, text=True, timeout=600, env=env,
                            check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    # The venv holds the bulk extra's packages (and the core's), none of the test extra's.
    listed = subprocess.run([str(bulk_venv), "-m", "pip", "list", "--format=freeze"],
                            capture_output=True, text=True, check=True, env=env).stdout
    installed = {line.split("==")[0].lower() for line in listed.splitlines()}
    assert {"duckdb", "pyarrow", "numpy", "robotsrules"} <= installed
    assert not installed & {"pandas", "pytest", "matplotlib", "pyspark", "defusedxml"}


# Each optional module, the package its extra installs that is hidden here, and the extra.
_GUARDED = [
    ("robotsrules.duckdb", "duckdb", "bulk"),
    ("robotsrules.duckdb", "pyarrow", "bulk"),
    ("robotsrules.bulk", "pyarrow", "bulk"),
    ("robotsrules.spark", "pyspark", "spark"),
    ("robotsrules.scrapy", "twisted", "scrapy"),
    ("robotsrules.aiohttp", "aiohttp", "aiohttp"),
    ("robotsrules.cache.redis", "redis", "redis"),
]


@pytest.mark.parametrize(("module", "hidden", "extra"), _GUARDED)
def test_a_missing_extra_names_the_pip_install(module: str, hidden: str, extra: str) -> None:
    # A child where ``hidden`` cannot be imported (``sys.modules[name] = None`` makes every
    # import of it fail): importing the module raises MissingExtra (an ImportError) naming
    # the missing package and the extra, not a bare ImportError from deep inside.
    script = (f"import sys; sys.modules[{hidden!r}] = None\n"
              "from robotsrules.errors import MissingExtra\n"
              "try:\n"
              f"    import {module}\n"
              "except MissingExtra as error:\n"
              "    print(error.name, error.extra, error, sep='|')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    name, said_extra, message = done.stdout.strip().split("|")
    assert (name, said_extra) == (hidden, extra)
    assert message == f"{module} needs the {hidden!r} package: pip install 'robotsrules[{extra}]'"

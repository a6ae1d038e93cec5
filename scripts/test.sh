#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh machine, then run it:
# a virtual environment with the project and its 'test' extra, lint, types, and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
# Let Python keep its bytecode caches (__pycache__, ignored by git). Where the caller's
# environment sets PYTHONDONTWRITEBYTECODE, nothing was ever cached: each xdist worker of
# both runs rewrote and compiled every test module again, and each child Python the tests
# start (`python -m robotsrules`, the held bulk runs...) compiled the package's
# source again (on 2026-11-28, tests/cli/test_cli_matrix.py with tests/test_extras.py from
# a tree without caches: 41.8 CPU-s with the variable set, 33.3 without).
unset PYTHONDONTWRITEBYTECODE
# System packages the tests drive for real: redis-server (tests/network/test_stores.py),
# Chromium (pages in a headless browser through Playwright: tests/browser.py) and wrk
# (tests/web/test_service_load.py). Install Debian's when missing and we can; never fail
# the run over it (those tests then skip, saying why).
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)  # the load benchmark's smoke run (issue 41)
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== apt-get install ${missing[*]}"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >/dev/null \
            || echo "note: could not install ${missing[*]} with apt-get; their tests will skip"
    else
        echo "note: ${missing[*]} not found and cannot be installed here (needs root and apt-get);" \
             "their tests will skip: apt-get install ${missing[*]}"
    fi
fi
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
# The Web Bot Auth interop partner (issue 38): Cloudflare's reference package web-bot-auth
# from the npm registry, pinned by tests/interop/package-lock.json, run with the installed
# Node.js. Without node and npm the interop tests skip, saying so.
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
    echo "== npm ci (tests/interop)"
    (cd tests/interop && npm ci --no-audit --no-fund --loglevel=error) \
        || echo "note: npm ci failed in tests/interop; the interop tests will skip"
else
    echo "note: node and npm not found: the Web Bot Auth interop tests (tests/interop) will skip"
fi
echo "== ruff"
.venv/bin/ruff check src tests benchmarks fuzz scripts docs/_ext examples build_backend setup.py
echo "== mypy --strict (src)"
.venv/bin/mypy
# Both runs print their 30 slowest steps (set-up, call, tear-down), so that every CI log
# shows where the time goes (the whole .ci/run stays within 20 minutes: docs/development.md).
echo "== pytest (pure Python: the whole suite)"
.venv/bin/python -m pytest -n 2 --durations=30 "$@"
# The compiled build (issue 27): the same source compiled with mypyc into a wheel, installed
# in its own environment with the same 'test' extra as the pure run (read from the wheel's
# metadata, i.e. pyproject.toml: no second list), and the WHOLE suite run against it
# (issue 33: a subset once let a compiled build that could fetch nothing pass). The guard in
# tests/compiled fails if no compiled module was loaded (tests/compiled/test_fetching.py
# checks that a child `python -m robotsrules` loads the same build). Left out of this run,
# each because it exercises no compiled code differently:
#   - the doctests of src/ (-p no:doctest): they would collect src/, i.e. import the pure
#     source instead of the installed build, and compiled objects have no runtime docstrings;
#   - tests/test_docs.py::test_site_builds_strict: mkdocs reads the source tree's files and
#     docstrings statically (mkdocstrings' griffe), never the installed package;
#   - tests/test_extras.py::test_the_guides_sql_examples_run_with_the_bulk_extra_only: it
#     installs the checkout's pure source (ROBOTSRULES_COMPILE unset) with the bulk extra in
#     a venv of its own and runs the guides there, never the build under test: the same run
#     twice (and the longest set-up of the suite);
#   - ruff and mypy (above): they read the source, which is the same for both builds.
# Skipped when arguments were given (a developer's targeted run), on CPython before 3.10
# (mypyc needs 3.10), and with ROBOTSRULES_SKIP_COMPILED=1.
if [ "$#" -gt 0 ] || [ "${ROBOTSRULES_SKIP_COMPILED:-}" = 1 ]; then
    echo "note: compiled build not tested (arguments given or ROBOTSRULES_SKIP_COMPILED=1)"
    exit 0
fi
if ! .venv/bin/python -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
    echo "note: compiled build not tested: mypyc needs CPython 3.10 or later"
    exit 0
fi
echo "== compiled build: ROBOTSRULES_COMPILE=1 pip wheel ."
started=$SECONDS
if [ ! -x .venv-compiled/bin/python ]; then
    "$PY" -m venv .venv-compiled
fi
.venv-compiled/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
rm -rf build/compiled-wheel build/lib.* build/temp.* build/bdist.*  # no stale module of an earlier list
ROBOTSRULES_COMPILE=1 .venv-compiled/bin/python -m pip wheel --quiet --disable-pip-version-check \
    --no-deps --wheel-dir build/compiled-wheel .
wheel=$(echo build/compiled-wheel/robotsrules-*.whl)
# The wheel with its 'test' extra's requirements, then the wheel itself again over any
# earlier install of the same version (pip keeps an installed version as it is).
.venv-compiled/bin/python -m pip install --quiet --disable-pip-version-check "$wheel[test]"
.venv-compiled/bin/python -m pip install --quiet --disable-pip-version-check --force-reinstall \
    --no-deps "$wheel"
echo "   built and installed in $((SECONDS - started)) s"
echo "== pytest (compiled build: the whole suite but the doctests of src/, the site build and the bulk-extra venv)"
ROBOTSRULES_EXPECT_COMPILED=1 .venv-compiled/bin/python -m pytest -n 2 --durations=30 -p no:doctest \
    -o addopts=-ra -W ignore::pytest.PytestConfigWarning \
    --deselect tests/test_docs.py::test_site_builds_strict \
    --deselect tests/test_extras.py::test_the_guides_sql_examples_run_with_the_bulk_extra_only \
    tests

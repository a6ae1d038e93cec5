#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh machine, then run it:
# a virtual environment with the project and its 'test' extra, lint, types, and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
# The Redis store is tested against a real redis-server (tests/network/test_stores.py
# skips without one). Install Debian's when missing and we can; never fail the run over it.
if ! command -v redis-server >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== apt-get install redis-server"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; } >/dev/null \
            || echo "note: could not install redis-server with apt-get; the Redis tests will skip"
    else
        echo "note: redis-server not found and cannot be installed here (needs root and apt-get);" \
             "the Redis tests will skip: apt-get install redis-server"
    fi
fi
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
echo "== ruff"
.venv/bin/ruff check src tests benchmarks fuzz scripts docs/_ext examples build_backend setup.py
echo "== mypy --strict (src)"
.venv/bin/mypy
echo "== pytest (pure Python: the whole suite)"
.venv/bin/python -m pytest -n 2 "$@"
# The compiled build (issue 27): the same source compiled with mypyc into a wheel, installed
# in its own environment with only what its tests need, and the areas that exercise the
# compiled modules run against it (doctests stay in the pure run: compiled objects have no
# runtime docstrings, and src/ must not be collected against the installed build). The
# guard in tests/compiled fails if no compiled module was loaded. Skipped when arguments
# were given (a developer's targeted run), on CPython before 3.10 (mypyc needs 3.10), and
# with ROBOTSRULES_SKIP_COMPILED=1.
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
.venv-compiled/bin/python -m pip install --quiet --disable-pip-version-check --force-reinstall \
    build/compiled-wheel/robotsrules-*.whl
# The test extra's runner, property testing and Google's library (the oracle); for the page
# path's tests, the warc and bulk extras' readers (numpy for DuckDB's Python functions) and the
# page layer's two HTML oracles, and the rsl extra's XML reader (the licence tests).
.venv-compiled/bin/python -m pip install --quiet --disable-pip-version-check \
    "pytest>=7" "pytest-xdist>=3" "hypothesis>=6" \
    "jwm.robotstxt==1.0.8; python_version >= '3.10' and python_version < '3.13' and platform_machine == 'x86_64' and sys_platform == 'linux'" \
    "pyarrow>=14" "duckdb>=1.1" numpy "warcio>=1.7" "brotli>=1.2" "zlib-ng>=0.5" "html5lib>=1.1" \
    "selectolax>=0.3.21" "defusedxml>=0.7"
echo "   built and installed in $((SECONDS - started)) s"
echo "== pytest (compiled build: core, conformance, corpus sample, property, stance, usage," \
     "the page path and WARC readers, compiled)"
ROBOTSRULES_EXPECT_COMPILED=1 .venv-compiled/bin/python -m pytest -n 2 -p no:doctest \
    -o addopts=-ra -W ignore::pytest.PytestConfigWarning \
    tests/core tests/conformance tests/property tests/stance tests/usage tests/compiled \
    tests/page/test_head_windows.py tests/page/test_head_fast_paths.py \
    tests/page/test_html_differential.py tests/page/test_page_signals.py \
    tests/page/test_real_pages.py tests/page/test_signals_properties.py \
    tests/page/test_warc_page_digest.py tests/page/test_page_warc.py \
    tests/page/test_header_matrix.py tests/page/test_robots_tag.py tests/page/test_sources.py \
    tests/page/test_page_licenses.py tests/page/test_pricing.py tests/page/test_header_names.py \
    tests/page/test_page_stream.py \
    tests/hostile/test_warc_readers.py tests/fetch/test_decoder.py tests/bulk/test_bulk_package.py

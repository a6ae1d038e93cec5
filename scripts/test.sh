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
echo "== pytest"
exec .venv/bin/python -m pytest -n 2 "$@"

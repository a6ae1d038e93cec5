#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh machine, then run it:
# a virtual environment with the project and its 'test' extra, lint, types, and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
echo "== ruff"
.venv/bin/ruff check src tests benchmarks
echo "== mypy --strict (src)"
.venv/bin/mypy
echo "== pytest"
exec .venv/bin/python -m pytest -n 2 "$@"

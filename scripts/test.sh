#!/usr/bin/env bash
# Install everything the tests need into .venv and run the whole suite:
# formatting, lint, strict typing of the rules core, then pytest.
set -euo pipefail
source "$(dirname "$0")/venv.sh"
.venv/bin/python -m pip install --quiet -e '.[dev]'
echo "== ruff format --check"
.venv/bin/ruff format --check src tests benchmarks
echo "== ruff check"
.venv/bin/ruff check src tests benchmarks
echo "== mypy --strict (core, games, bots)"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest -n 2 -q "$@"

#!/usr/bin/env bash
# Install everything the tests need into .venv and run the whole suite:
# formatting, lint, strict typing of the rules core, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
# A fresh Debian has Python without venv/ensurepip: install it from Debian's packages.
if ! python3 -c "import ensurepip, venv" 2>/dev/null; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -q
    $sudo apt-get install -y -q python3-venv python3-pip
fi
python3 -m venv .venv
.venv/bin/python -m pip install --quiet -e '.[dev]'
echo "== ruff format --check"
.venv/bin/ruff format --check src tests benchmarks
echo "== ruff check"
.venv/bin/ruff check src tests benchmarks
echo "== mypy --strict (core, games)"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest -n 2 -q "$@"

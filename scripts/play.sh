#!/usr/bin/env bash
# Install closingbell into .venv (if needed) and start a game in the terminal against bots.
# Any arguments are passed to `closingbell play` (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
# A fresh Debian has Python without venv/ensurepip: install it from Debian's packages.
if ! python3 -c "import ensurepip, venv" 2>/dev/null; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -q
    $sudo apt-get install -y -q python3-venv python3-pip
fi
python3 -m venv .venv
.venv/bin/python -m pip install --quiet -e .
exec .venv/bin/closingbell play "$@"

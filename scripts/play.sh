#!/usr/bin/env bash
# Install closingbell into .venv (if needed) and start a game in the terminal against bots.
# Any arguments are passed to `closingbell play` (try --help).
set -euo pipefail
source "$(dirname "$0")/venv.sh"
install_closingbell ""
exec .venv/bin/closingbell play "$@"

#!/usr/bin/env bash
# Install closingbell with its web server into .venv (if needed) and start the web app on
# an SQLite database under ~/.local/share/closingbell/ (nothing to set up). Open the address
# it prints. Any arguments are passed to `closingbell serve` (try --help).
set -euo pipefail
source "$(dirname "$0")/venv.sh"
install_closingbell web
exec .venv/bin/closingbell serve "$@"

# Sourced by serve.sh, play.sh and test.sh: make sure .venv exists, on a fresh Debian too.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
# A fresh Debian has Python without venv/ensurepip: install it from Debian's packages.
# The compiled engines (closingbell.native) need a C compiler and Python's headers; where
# they are missing, install Debian's (without them the install falls back to pure Python).
need=()
if ! python3 -c "import ensurepip, venv" 2>/dev/null; then need+=(python3-venv python3-pip); fi
if ! command -v cc >/dev/null 2>&1; then need+=(gcc); fi
if ! python3 -c "import os, sysconfig, sys
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))"; then
    need+=(python3-dev)
fi
if [ ${#need[@]} -gt 0 ]; then
    $sudo apt-get update -q
    $sudo apt-get install -y -q "${need[@]}"
fi
python3 -m venv .venv

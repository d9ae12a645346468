# Sourced by serve.sh, play.sh and test.sh: make sure .venv exists, on a fresh Debian too.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# A fresh Debian has Python without venv/ensurepip: install it from Debian's packages.
if ! python3 -c "import ensurepip, venv" 2>/dev/null; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -q
    $sudo apt-get install -y -q python3-venv python3-pip
fi
python3 -m venv .venv

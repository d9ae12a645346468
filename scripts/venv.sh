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

# install_closingbell EXTRAS: install closingbell (editable, with EXTRAS such as "web") into
# .venv, unless the same build is installed already. Python sources are read in place, so
# only the packaging files and the compiled engines' sources (which take a minute or two
# to compile) call for a new install; the games' data modules are among those sources,
# since the build generates the engines' numbers from them (scripts/native_codegen.py).
install_closingbell() {
    local extras="$1" stamp digest
    stamp=".venv/.closingbell-installed${extras:+-$extras}"
    digest="$(cat pyproject.toml setup.py scripts/native_codegen.py src/closingbell/native/*.pyx \
        src/closingbell/native/*.pxd src/closingbell/native/*.h \
        src/closingbell/games/*/cards.py src/closingbell/games/*/actions.py \
        src/closingbell/games/*/state.py | sha256sum | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ] && .venv/bin/python -c \
        "import sys, closingbell.native as n; sys.exit(not all(n.built().values()))" 2>/dev/null; then
        return 0
    fi
    # uv (from PyPI) resolves and installs the dependencies in a fraction of pip's time, a
    # minute less on a fresh clone; where it cannot be installed or cannot install them,
    # pip does the same work.
    if { .venv/bin/python -m uv --version >/dev/null 2>&1 \
        || .venv/bin/python -m pip install --quiet uv; } \
        && .venv/bin/python -m uv pip install --python .venv/bin/python --system-certs \
            --quiet -e ".${extras:+[$extras]}"; then
        :
    else
        echo "uv could not install closingbell's dependencies: pip installs them" >&2
        .venv/bin/python -m pip install --quiet -e ".${extras:+[$extras]}"
    fi
    echo "$digest" > "$stamp"
}

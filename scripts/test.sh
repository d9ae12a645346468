#!/usr/bin/env bash
# Install everything the tests need into .venv and run the whole suite:
# formatting, lint, then pytest with strict typing (mypy) beside it.
set -euo pipefail
source "$(dirname "$0")/venv.sh"
install_closingbell dev
echo "== ruff format --check"
.venv/bin/ruff format --check src tests benchmarks examples
echo "== ruff check"
.venv/bin/ruff check src tests benchmarks examples
# mypy --strict runs beside the rest, at the lowest priority: it fills the moments the tests
# leave the processors idle, and its report is printed (and its failure counted) at the end.
typing_log="$(mktemp)"
nice -n 19 .venv/bin/mypy >"$typing_log" 2>&1 &
typing_pid=$!
echo "== PostgreSQL for the web server's storage tests"
# tests/server run their storage tests against PostgreSQL too, at the address in
# CLOSINGBELL_TEST_POSTGRES, and fail without it. Unless it is already set, install
# PostgreSQL when it is missing (Debian's package), start its cluster, and make a role
# that may create the throwaway databases the tests use.
if [ -z "${CLOSINGBELL_TEST_POSTGRES:-}" ]; then
    sudo=""; as_postgres="runuser -u postgres --"
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; as_postgres="sudo -u postgres"; fi
    if ! command -v pg_lsclusters >/dev/null 2>&1; then
        $sudo apt-get update -q
        $sudo apt-get install -y -q postgresql
    fi
    if [ -z "$(pg_lsclusters --no-header)" ]; then
        $sudo pg_createcluster "$(ls /usr/lib/postgresql | sort -V | tail -n 1)" main
    fi
    read -r pg_version pg_cluster pg_port pg_status _ < <(pg_lsclusters --no-header | head -n 1)
    if [ "$pg_status" != "online" ]; then
        $sudo pg_ctlcluster "$pg_version" "$pg_cluster" start
    fi
    (
        cd /
        $as_postgres psql -q -p "$pg_port" -v ON_ERROR_STOP=1 -c "DO \$\$ BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'closingbell_test') THEN
                CREATE ROLE closingbell_test LOGIN CREATEDB PASSWORD 'closingbell_test';
            END IF; END \$\$;"
        if ! $as_postgres psql -p "$pg_port" -tAc \
            "SELECT 1 FROM pg_database WHERE datname = 'closingbell_test'" | grep -q 1; then
            $as_postgres createdb -p "$pg_port" -O closingbell_test closingbell_test
        fi
    )
    export CLOSINGBELL_TEST_POSTGRES="postgresql://closingbell_test:closingbell_test@127.0.0.1:$pg_port/closingbell_test"
fi
echo "== Chromium and a Chinese font for the browser tests, tools for backups, the unit and nginx"
# tests/server/test_browser.py drives Debian's Chromium at /usr/bin/chromium through
# Playwright (never `playwright install`, which downloads its own browsers). Without a
# CJK font Chromium draws Chinese as empty boxes: tests/server/test_fonts.py checks that
# Debian's Noto CJK fonts draw it. tests/server/test_deploy.py checks deploy/'s systemd
# unit with systemd-analyze (Debian's systemd package), which needs no running systemd;
# tests/server/test_backup.py runs pg_dump and pg_restore, even when
# CLOSINGBELL_TEST_POSTGRES names another machine's server. tests/server/test_nginx.py runs
# Debian's nginx on deploy/nginx/closingbell.conf, with a certificate made by openssl.
missing=()
if [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
if ! dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q "ok installed"; then
    missing+=(fonts-noto-cjk)
fi
if ! command -v systemd-analyze >/dev/null 2>&1; then missing+=(systemd); fi
if ! command -v pg_restore >/dev/null 2>&1; then missing+=(postgresql-client); fi
if [ ! -x /usr/sbin/nginx ] && ! command -v nginx >/dev/null 2>&1; then missing+=(nginx); fi
if ! command -v openssl >/dev/null 2>&1; then missing+=(openssl); fi
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -q
    $sudo apt-get install -y -q "${missing[@]}"
fi
echo "== pytest"
# The suite starts many Python processes (servers, their helper processes, terminals): let
# the first compile the sources to bytecode for all the others, even where the environment
# asks Python not to write it (each would otherwise spend a third of a second compiling).
unset PYTHONDONTWRITEBYTECODE
# Three workers on two cores: many tests wait on a server, a terminal or a browser for part
# of their time, and a third worker keeps both cores busy meanwhile (5-8% sooner here).
tests_status=0
.venv/bin/python -m pytest -n 3 --dist worksteal -q --durations=40 "$@" || tests_status=$?
echo "== mypy --strict (core, games, bots, and the rest of src/closingbell)"
typing_status=0
wait "$typing_pid" || typing_status=$?
cat "$typing_log"
rm -f "$typing_log"
if [ "$tests_status" -ne 0 ]; then exit "$tests_status"; fi
exit "$typing_status"

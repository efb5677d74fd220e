#!/usr/bin/env bash
# The set-up commands of the README and CONTRIBUTING.md, for a fresh machine or a working copy.
#
#   ./dev.sh serve [gradstep serve options]   install into .venv, start http://127.0.0.1:8000
#   ./dev.sh test  [pytest options]           install the test groups (and Chromium where it
#                                             can), run the whole test suite
#   ./dev.sh lint                             install the lint group and the npm tools, run
#                                             ruff, the import check, the image lock's check,
#                                             mypy, pyright's import resolution, tsc --checkJs
#                                             and ESLint; non-zero on any finding
#
# Each creates the virtual environment .venv next to this script, or reuses it, and installs the
# project into it in editable mode, test and lint with the dependency groups of pyproject.toml
# they need (bringing pip 25.1 or newer into .venv first: older pips cannot install groups).
# A reinstall happens only when pyproject.toml or setup.py changed since the last one, so the
# second run starts at once. Every step says what it did.
#
# Environment: PYTHON (interpreter that creates .venv, default python3, must be >= 3.11),
# GRADSTEP_VENV (default .venv), GRADSTEP_NO_SYSTEM_PACKAGES=1 (never call apt-get),
# GRADSTEP_CHROMIUM (a Chromium binary for the browser tests, instead of looking on PATH).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
ROOT=$(pwd)
VENV=${GRADSTEP_VENV:-.venv}
PYTHON=${PYTHON:-python3}
VPY="$VENV/bin/python"
# What the whole test suite needs: unit tests, browser tests, the load test, the deployment
# checks (pyproject.toml's [dependency-groups] says which group is for what).
TEST_GROUPS="test browser load deploy"
# The first pip that installs dependency groups (`pip install --group`).
PIP_FOR_GROUPS="25.1"

say() { printf 'dev.sh: %s\n' "$*"; }
die() { printf 'dev.sh: error: %s\n' "$*" >&2; exit 2; }

usage() {
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
}

ensure_venv() {
    if [ -x "$VPY" ] && "$VPY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null
    then
        say "reusing the virtual environment $VENV ($("$VPY" -V 2>&1))"
        return
    fi
    command -v "$PYTHON" >/dev/null || die "$PYTHON not found; set PYTHON to a Python >= 3.11"
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || die "gradstep needs Python >= 3.11, $PYTHON is $("$PYTHON" -V 2>&1); set PYTHON"
    say "creating the virtual environment $VENV with $("$PYTHON" -V 2>&1)"
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV"
}

# What an install depends on: the packaging files, the checkout it points at, the groups.
install_key() {
    { cat pyproject.toml setup.py; echo "$ROOT" "$1"; } | sha256sum | cut -d' ' -f1
}

# A venv made by Python 3.11 or 3.12 carries a pip older than dependency groups.
ensure_pip_for_groups() {
    if "$VPY" -c "import sys, pip; sys.exit(tuple(map(int, pip.__version__.split('.')[:2])) \
            < tuple(map(int, '$PIP_FOR_GROUPS'.split('.'))))" 2>/dev/null; then
        return
    fi
    say "upgrading pip in $VENV to $PIP_FOR_GROUPS or newer (it installs dependency groups) ..."
    local log
    log=$(mktemp)
    if ! "$VPY" -m pip install --disable-pip-version-check --no-input --upgrade \
            "pip>=$PIP_FOR_GROUPS" >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        die "pip could not upgrade itself (full log: $log)"
    fi
    rm -f "$log"
}

# ensure_installed "GROUP ...": pip install -e . with those dependency groups of pyproject.toml,
# unless the same install is already there.
ensure_installed() {
    local groups=$1 stamp="$VENV/.gradstep-install" key what="gradstep" args=() g
    key=$(install_key "$groups")
    [ -n "$groups" ] && what="gradstep with the groups ${groups// /, }"
    # An install with the test groups also covers a plain one. `python -I` leaves the current
    # directory off sys.path, so `import gradstep` finds the installed (editable) copy or nothing.
    if { grep -qx "$key" "$stamp" 2>/dev/null \
            || { [ -z "$groups" ] && grep -qx "$(install_key "$TEST_GROUPS")" "$stamp" 2>/dev/null; }; } \
        && [ "$("$VPY" -I -c 'import gradstep, os; print(os.path.dirname(os.path.dirname(gradstep.__file__)))' \
                2>/dev/null)" = "$ROOT" ]
    then
        say "$what is already installed in $VENV (packaging files unchanged)"
        return
    fi
    if [ -n "$groups" ]; then
        ensure_pip_for_groups
        for g in $groups; do args+=(--group "$g"); done
    fi
    say "installing $what into $VENV (editable, pip; a minute or two the first time) ..."
    local log
    log=$(mktemp)
    # pip's own output goes to a log: the build backend's warnings are noise unless pip fails.
    # --group reads pyproject.toml in the current directory: this checkout's.
    if ! "$VPY" -m pip install --disable-pip-version-check --no-input -e . ${args[@]+"${args[@]}"} \
            >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        die "pip install failed (full log: $log)"
    fi
    rm -f "$log"
    echo "$key" >> "$stamp"
    say "installed gradstep $("$VENV/bin/gradstep" --version | cut -d' ' -f2)"
}

find_chromium() {
    local c
    # The browser tests take GRADSTEP_CHROMIUM first, as this does.
    if [ -n "${GRADSTEP_CHROMIUM:-}" ] && [ -x "$GRADSTEP_CHROMIUM" ]; then
        echo "$GRADSTEP_CHROMIUM"; return 0
    fi
    for c in chromium chromium-browser google-chrome; do
        if command -v "$c" >/dev/null; then command -v "$c"; return 0; fi
    done
    return 1
}

# System tools some tests drive: Chromium (browser tests) and docker-compose (checks
# deploy/docker-compose.yml). Installed from Debian only when missing and only as root.
ensure_system_tools() {
    local missing=()
    local path
    if path=$(find_chromium); then
        say "Chromium found at $path"
    else
        missing+=(chromium fonts-liberation)
    fi
    if docker compose version >/dev/null 2>&1; then
        say "docker compose found (validates deploy/docker-compose.yml)"
    elif command -v docker-compose >/dev/null; then
        say "docker-compose found at $(command -v docker-compose)"
    else
        missing+=(docker-compose)
    fi
    [ ${#missing[@]} -eq 0 ] && return
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null \
            || [ "${GRADSTEP_NO_SYSTEM_PACKAGES:-}" = 1 ]; then
        say "WARNING: missing ${missing[*]} and not installing them here (needs root and" \
            "apt-get); tests that need them will fail. Install them yourself," \
            "e.g. sudo apt-get install ${missing[*]}"
        return
    fi
    say "installing ${missing[*]} from Debian with apt-get (missing here) ..."
    export DEBIAN_FRONTEND=noninteractive
    local log
    log=$(mktemp)
    if apt-get update -qq >"$log" 2>&1 \
            && apt-get install -y -qq --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
        say "installed ${missing[*]}"
    else
        tail -n 20 "$log" >&2
        die "apt-get could not install ${missing[*]}"
    fi
    rm -f "$log"
}

# The JavaScript checkers, from package-lock.json into node_modules/; again only when the
# lock file changed.
ensure_node_tools() {
    command -v npm >/dev/null \
        || die "npm not found; the JavaScript checks need Node.js 20 or later with npm" \
               "(Debian: apt-get install nodejs npm)"
    local stamp=node_modules/.gradstep-lock key
    key=$(sha256sum package-lock.json | cut -d' ' -f1)
    if [ -x node_modules/.bin/tsc ] && [ -x node_modules/.bin/eslint ] \
            && grep -qx "$key" "$stamp" 2>/dev/null; then
        say "the npm tools are installed (package-lock.json unchanged)"
        return
    fi
    say "installing the npm tools from package-lock.json (npm ci) ..."
    local log
    log=$(mktemp)
    if ! npm ci --no-audit --no-fund >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        die "npm ci failed (full log: $log)"
    fi
    rm -f "$log"
    echo "$key" > "$stamp"
}

# lint: every checker runs, even after one fails, so one run shows every finding.
run_lint() {
    local failed=()
    say "ruff check (rules: [tool.ruff] in pyproject.toml)"
    "$VENV/bin/ruff" check . || failed+=(ruff)
    say "imports (layers depend one way, cycles within dev/import_ratchet.json)"
    "$VPY" dev/import_cycles.py --check || failed+=(imports)
    say "image lock (image-requirements.txt against pyproject.toml's dependencies)"
    "$VPY" dev/lock_image.py --check || failed+=(image-lock)
    say "mypy (app/ and runner/ as gradstep.app and gradstep.runner: [tool.mypy] in pyproject.toml)"
    MYPY_CACHE_DIR="$VENV/mypy_cache" "$VENV/bin/mypy" --config-file pyproject.toml \
        || failed+=(mypy)
    # Editors resolve gradstep.* through pyrightconfig.json; a file of each layer and a test
    # show that the mapping still holds (the whole tree would take minutes).
    say "pyright import resolution (pyrightconfig.json)"
    node_modules/.bin/pyright gradstep/__init__.py engine/__main__.py runner/cli.py \
        app/cli.py tests/app/test_stop.py || failed+=(pyright)
    say "tsc --checkJs (static/js: tsconfig.json)"
    node_modules/.bin/tsc -p tsconfig.json || failed+=(tsc)
    say "eslint (static/js, tests/web/js: eslint.config.mjs)"
    node_modules/.bin/eslint static/js tests/web/js || failed+=(eslint)
    if [ ${#failed[@]} -gt 0 ]; then
        printf 'dev.sh: lint FAILED: %s\n' "${failed[*]}" >&2
        return 1
    fi
    say "lint passed: ruff, imports, image lock, mypy, pyright, tsc, eslint"
}

cmd=${1:-help}
[ $# -gt 0 ] && shift
case "$cmd" in
    serve)
        ensure_venv
        ensure_installed ""
        # the address the server will take: --host/--port given here win over the variables
        host=${GRADSTEP_HOST:-127.0.0.1} port=${GRADSTEP_PORT:-8000} prev=
        for arg in "$@"; do
            case "$prev" in --host) host=$arg ;; --port) port=$arg ;; esac
            case "$arg" in --host=*) host=${arg#--host=} ;; --port=*) port=${arg#--port=} ;; esac
            prev=$arg
        done
        say "starting gradstep on http://$host:$port (Ctrl-C stops it)"
        exec "$VENV/bin/gradstep" serve "$@"
        ;;
    test)
        ensure_venv
        ensure_installed "$TEST_GROUPS"
        ensure_system_tools
        # Without paths, pytest runs testpaths from pyproject.toml: all of tests/.
        say "running the test suite: pytest${*:+ $*} (Ctrl-C stops it)"
        exec "$VPY" -m pytest "$@"
        ;;
    lint)
        ensure_venv
        ensure_installed "lint"
        ensure_node_tools
        run_lint
        ;;
    help|-h|--help)
        usage
        ;;
    *)
        usage >&2
        exit 2
        ;;
esac

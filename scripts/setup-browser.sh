#!/usr/bin/env bash
# Installs what the form preview's browser tests (scripts/check_preview.py) need, or says exactly what is missing:
# Debian's chromium (the real browser, through apt-get) and Playwright for Python (pinned, into .venv-test, which
# scripts/setup-python.sh makes). Playwright drives /usr/bin/chromium; it downloads no browser of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "setup-browser: error: $*" >&2; exit 2; }
PLAYWRIGHT=playwright==1.65.2

if [ ! -x /usr/bin/chromium ]; then
    command -v apt-get >/dev/null 2>&1 \
        || die "/usr/bin/chromium is missing and apt-get is not available: install Chromium so that /usr/bin/chromium runs it."
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || die "/usr/bin/chromium is missing: run 'apt-get install chromium' as root."
        SUDO="sudo"
    fi
    echo "setup-browser: installing chromium through apt-get" >&2
    $SUDO apt-get update -qq >/dev/null || die "'apt-get update' failed; check the package sources."
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null \
        || die "'apt-get install chromium' failed."
    [ -x /usr/bin/chromium ] || die "chromium was installed but /usr/bin/chromium is not there."
fi

[ -x .venv-test/bin/python ] || bash scripts/setup-python.sh
if ! .venv-test/bin/python -c 'import importlib.metadata as m; assert m.version("playwright") == "1.65.2"' >/dev/null 2>&1; then
    echo "setup-browser: installing $PLAYWRIGHT into .venv-test" >&2
    .venv-test/bin/python -m pip install --quiet --disable-pip-version-check "$PLAYWRIGHT" \
        || die "'pip install $PLAYWRIGHT' failed."
fi

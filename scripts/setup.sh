#!/usr/bin/env bash
# Installs what dce-validate needs to build, or says exactly what is missing. Safe to run again.
# With --check it installs nothing: it only says what is missing (exit 2), as the pre-commit hook needs, which must
# not run apt-get on a developer's machine. --for PRODUCT: only what that product needs (dce-validate needs no libcurl).
set -euo pipefail
check_only=false
product=""
while [ $# -gt 0 ]; do
    case "$1" in
        --check) check_only=true; shift ;;
        --for) product=${2:-}; shift 2 ;;
        *) echo "usage: scripts/setup.sh [--check] [--for PRODUCT]" >&2; exit 2 ;;
    esac
done

die() { echo "setup: error: $*" >&2; exit 2; }

command -v swift >/dev/null 2>&1 || die "Swift 6 is not on PATH. Install a Swift 6 toolchain (https://swift.org/install) and run again."

have_pcre2() {
    if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libpcre2-8; then return 0; fi
    [ -f /usr/include/pcre2.h ] || [ -f /usr/local/include/pcre2.h ] || [ -f /opt/homebrew/include/pcre2.h ]
}

if ! have_pcre2 && $check_only; then
    die "PCRE2 headers are missing: install libpcre2-dev and pkg-config (Debian/Ubuntu) or pcre2 (Homebrew), or run scripts/setup.sh, which does."
fi
if ! have_pcre2; then
    case "$(uname -s)" in
        Linux)
            command -v apt-get >/dev/null 2>&1 || die "PCRE2 headers are missing and apt-get is not available: install libpcre2-dev (PCRE2 10.x development files) with your package manager."
            SUDO=""
            if [ "$(id -u)" -ne 0 ]; then
                command -v sudo >/dev/null 2>&1 || die "PCRE2 headers are missing: run 'apt-get install libpcre2-dev pkg-config' as root."
                SUDO="sudo"
            fi
            echo "setup: installing libpcre2-dev and pkg-config through apt-get" >&2
            $SUDO apt-get update -qq >/dev/null || die "'apt-get update' failed; check the package sources."
            DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libpcre2-dev pkg-config >/dev/null \
                || die "'apt-get install libpcre2-dev pkg-config' failed."
            ;;
        Darwin)
            command -v brew >/dev/null 2>&1 || die "PCRE2 is missing: install Homebrew, then 'brew install pcre2'."
            brew install pcre2 || die "'brew install pcre2' failed."
            ;;
        *) die "PCRE2 headers are missing: install the PCRE2 (libpcre2-8) development files." ;;
    esac
    have_pcre2 || die "PCRE2 was installed but its headers are still not found."
fi

# On Linux the tools are built in release with the Swift runtime and Foundation linked in (scripts/release-flags.sh);
# dce-send's HTTP client (FoundationNetworking) then links libcurl by name, which only its development package
# provides on Debian.
have_curl() {
    [ "$(uname -s)" != Linux ] || [ "$product" = dce-validate ] \
        || { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libcurl; }
}
if ! have_curl; then
    $check_only && die "libcurl's development files are missing: install libcurl4-openssl-dev (Debian/Ubuntu), or run scripts/setup.sh, which does."
    command -v apt-get >/dev/null 2>&1 || die "libcurl's development files are missing and apt-get is not available: install them (libcurl4-openssl-dev) with your package manager."
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || die "libcurl's development files are missing: run 'apt-get install libcurl4-openssl-dev' as root."
        SUDO="sudo"
    fi
    echo "setup: installing libcurl4-openssl-dev through apt-get" >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libcurl4-openssl-dev >/dev/null \
        || { $SUDO apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libcurl4-openssl-dev >/dev/null; } \
        || die "'apt-get install libcurl4-openssl-dev' failed."
    have_curl || die "libcurl4-openssl-dev was installed but pkg-config does not find libcurl."
fi

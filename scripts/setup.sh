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

# apt_install WHAT PACKAGE...: installs Debian packages through apt-get (with sudo when not root), or stops saying
# what is missing (WHAT) and how to install it.
apt_install() {
    local what=$1
    shift
    command -v apt-get >/dev/null 2>&1 || die "$what missing and apt-get is not available: install $* with your package manager."
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || die "$what missing: run 'apt-get install $*' as root."
        sudo="sudo"
    fi
    echo "setup: installing $* through apt-get" >&2
    $sudo apt-get update -qq >/dev/null || die "'apt-get update' failed; check the package sources."
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null || die "'apt-get install $*' failed."
}

if ! have_pcre2 && $check_only; then
    die "PCRE2 headers are missing: install libpcre2-dev and pkg-config (Debian/Ubuntu) or pcre2 (Homebrew), or run scripts/setup.sh, which does."
fi
if ! have_pcre2; then
    case "$(uname -s)" in
        Linux) apt_install "PCRE2 headers are" libpcre2-dev pkg-config ;;
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
    apt_install "libcurl's development files are" libcurl4-openssl-dev
    have_curl || die "libcurl4-openssl-dev was installed but pkg-config does not find libcurl."
fi

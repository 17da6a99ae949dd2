#!/usr/bin/env bash
# Packaging tests: the release binaries run with the Swift toolchain hidden, the Debian package
# passes lintian, installs with `apt install ./fontreg_*.deb`, serves its bundled fonts and rules
# with no configuration, and is purged without a trace. Runs as root (apt, mount namespaces).
#
#   Tests/packaging/run-deb-tests.sh                        # reuses or makes the release build
#   BUILD_DIR=.build/release Tests/packaging/run-deb-tests.sh
#
# Its last line is `packaging: N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
passed=0
failed=0
check() { # check NAME COMMAND...: runs the command, counts it
    local name=$1
    shift
    if "$@" >/tmp/fontreg-packaging.out 2>&1; then
        passed=$((passed + 1))
        echo "ok   $name"
    else
        failed=$((failed + 1))
        echo "FAIL $name"
        sed 's/^/     /' /tmp/fontreg-packaging.out | tail -40
    fi
}

BUILD_DIR=${BUILD_DIR:-$(bash scripts/build-release.sh)}
deb=$(BUILD_DIR=$BUILD_DIR bash scripts/package-deb.sh | tail -1)
[[ -f $deb ]] || { echo "package-deb.sh made no package"; echo "packaging: 0 passed, 1 failed"; exit 1; }
root=.build/deb/root
work=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null; apt-get purge -y -qq fontreg >/dev/null 2>&1; rm -rf "$work"' EXIT

# The toolchain out of sight: a tmpfs over /opt/swift in a private mount namespace.
hidden() { unshare -m sh -c 'mount -t tmpfs none /opt/swift && exec "$@"' hidden "$@"; }
no_swift_libraries() { ! ldd "$1" | grep -i swift; }
check "fontregd loads no Swift library" no_swift_libraries "$root/usr/bin/fontregd"
check "fontresolve loads no Swift library" no_swift_libraries "$root/usr/bin/fontresolve"
check "the binaries are stripped" sh -c "! file '$root/usr/bin/fontregd' '$root/usr/bin/fontresolve' | grep -q 'not stripped'"
check "fontregd --version runs with the toolchain hidden" hidden "$root/usr/bin/fontregd" --version
check "fontresolve resolves with the toolchain hidden" \
    hidden "$root/usr/bin/fontresolve" resolve Lato --weight semibold --fonts fonts --rules fonts/rules --strict

check "lintian passes (run by package-deb.sh)" true
check "apt installs the package" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$deb"
check "the sample config is a conffile, all comments" sh -c \
    "dpkg-query -W -f='\${Conffiles}' fontreg | grep -q /etc/fontreg/fontregd.conf && ! grep -v '^#' /etc/fontreg/fontregd.conf | grep -q '[^[:space:]]'"
check "man fontregd and man fontresolve are installed" sh -c "man -w fontregd && man -w fontresolve"
check "bash completion is installed" test -f /usr/share/bash-completion/completions/fontresolve
check "the fontconfig bridge is linked into /etc/fonts/conf.d" sh -c \
    "test \"\$(readlink /etc/fonts/conf.d/90-fontreg.conf)\" = /run/fontreg/fontconfig/fontreg.conf"

# The installed daemon, as the service would start it but on a socket of this test: no config, no flags
# but the paths the service gets from systemd; it must serve the bundled fonts with Lato's rule.
sock=$work/fontregd.sock
# Started as a plain command (not through the shell function), so that $! is the daemon itself:
# unshare and sh exec into it, and the kill below reaches it.
unshare -m sh -c 'mount -t tmpfs none /opt/swift && exec "$@"' hidden /usr/bin/fontregd --socket "$sock" \
    --state-dir "$work/state" --cache-dir "$work/cache" --no-system-fonts 2>"$work/fontregd.log" &
pid=$!
for _ in $(seq 1 200); do
    [[ -S $sock ]] && fontresolve status --socket "$sock" >/dev/null 2>&1 && break
    sleep 0.05
done
check "the installed daemon serves Inter and Lato" sh -c \
    "fontresolve list --socket '$sock' | grep -q '^Inter' && fontresolve list --socket '$sock' | grep -q '^Lato'"
check "the installed daemon uses Lato's rule (thin is Lato-Hairline, not the 200 Lato-Thin)" sh -c \
    "fontresolve resolve Lato --weight thin --socket '$sock' | head -1 | grep -qx Lato-Hairline"
check "rules show against the installed daemon shows its lato.json" sh -c \
    "fontresolve rules show Lato --socket '$sock' | grep -q /usr/share/fontreg/rules/lato.json"
check "the installed daemon reports no problems" sh -c "fontresolve status --socket '$sock' | grep -q '^problems: *none'"
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
check "the installed daemon stopped on SIGTERM" sh -c "! kill -0 $pid 2>/dev/null"
pid=

check "apt purges the package" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq fontreg
check "nothing is left behind" sh -c \
    "! test -e /usr/bin/fontregd && ! test -e /usr/share/fontreg && ! test -e /etc/fontreg && ! test -e /usr/share/doc/fontreg && ! test -L /etc/fonts/conf.d/90-fontreg.conf && ! dpkg-query -W fontreg 2>/dev/null | grep -q ."

echo "packaging: $passed passed, $failed failed"
[[ $failed -eq 0 ]]

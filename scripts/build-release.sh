#!/usr/bin/env bash
# Builds the release binaries that are installed and packaged, and prints their directory.
#
#   bin=$(scripts/build-release.sh)     # fontregd and fontresolve in $bin
#
# The Swift runtime, Foundation and libstdc++ are linked statically (--static-swift-stdlib), so the
# binaries need only Debian's own libraries (libc, fontconfig, FreeType, systemd) and run on a
# machine without the Swift toolchain. quickstart.sh, install.sh and package-deb.sh all build
# this way, so one release build serves all three; bench-all.sh builds its binaries with the
# same flags (scripts/release-flags.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
source scripts/release-flags.sh
# SwiftPM waits silently while another build (scripts/test.sh, an editor) holds this checkout's
# lock (.build/.lock holds that build's pid): say so, rather than look hung.
holder=$(cat .build/.lock 2>/dev/null || true)
if [[ "$holder" =~ ^[0-9]+$ ]] && [[ "$holder" != "$$" ]] && grep -qs swift "/proc/$holder/cmdline"; then
    echo "build-release.sh: another swift build (pid $holder) is using $(pwd)/.build (scripts/test.sh?); waiting for it to finish…" >&2
fi
for product in fontregd fontresolve; do
    swift build "${flags[@]}" --product "$product" >&2
done
swift build "${flags[@]}" --show-bin-path

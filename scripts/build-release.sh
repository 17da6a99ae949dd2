#!/usr/bin/env bash
# Builds the release binaries that are installed and packaged, and prints their directory.
#
#   bin=$(scripts/build-release.sh)     # fontregd and fontresolve in $bin
#
# The Swift runtime and Foundation are linked statically (--static-swift-stdlib), so the
# binaries need only Debian's own libraries (libc, libstdc++, fontconfig, FreeType, systemd)
# and run on a machine without the Swift toolchain. quickstart.sh, install.sh and
# package-deb.sh all build this way, so one release build serves all three.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
flags=(-c release --static-swift-stdlib)
for product in fontregd fontresolve; do
    swift build "${flags[@]}" --product "$product" >&2
done
swift build "${flags[@]}" --show-bin-path

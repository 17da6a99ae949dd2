#!/usr/bin/env bash
# Builds the Debian package fontreg_VERSION_ARCH.deb from the release build and checks it with lintian.
#
#   scripts/package-deb.sh              # release build (scripts/build-release.sh), then .build/deb/fontreg_*.deb
#   BUILD_DIR=.build/release scripts/package-deb.sh   # package an existing release build
#   LINTIAN=no scripts/package-deb.sh   # skip the lintian check
#
# The package holds fontregd and fontresolve (the Swift runtime linked in, stripped), the systemd
# units (socket-activated, enabled on install like any Debian service), the man pages, the bash and
# zsh completions, the bundled fonts and rules (served by default), a commented
# /etc/fontreg/fontregd.conf (a conffile) and the licences (debian/copyright). Its dependencies are
# worked out by dpkg-shlibdeps. Install it with `apt install ./.build/deb/fontreg_*.deb`; `apt purge
# fontreg` removes it with its state. Prints the path of the .deb on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

version=$(sed -n 's/.*public static let current = "\(.*\)"/\1/p' Sources/FontRegCore/Registry/FontRegVersion.swift)
date=$(sed -n 's/.*public static let date = "\(.*\)"/\1/p' Sources/FontRegCore/Registry/FontRegVersion.swift)
arch=$(dpkg --print-architecture)
BUILD_DIR=${BUILD_DIR:-$(bash scripts/build-release.sh)}

out=.build/deb
root=$out/root
rm -rf "$root" "$out/work"
mkdir -p "$root/DEBIAN" "$out/work/debian"

PREFIX=/usr DESTDIR=$root UNITDIR=/lib/systemd/system SYSCONFDIR=/etc BUILD_DIR=$BUILD_DIR \
    sh scripts/install.sh >/dev/null
doc=$root/usr/share/doc/fontreg
# Debian's documentation layout: the copyright file, a compressed changelog, compressed man pages.
install -m 0644 packaging/debian/copyright "$doc/copyright"
sed -e "s/@VERSION@/$version/" -e "s/@DATE@/$(date -u -R -d "$date 12:00:00")/" packaging/debian/changelog |
    gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"
gzip -9n "$root/usr/share/man/man1/fontresolve.1" "$root/usr/share/man/man8/fontregd.8"
# The Markdown docs stay uncompressed: the unit's Documentation= points at daemon.md.
install -d "$root/usr/share/lintian/overrides"
install -m 0644 packaging/debian/lintian-overrides "$root/usr/share/lintian/overrides/fontreg"
for script in postinst prerm postrm; do
    install -m 0755 "packaging/debian/$script" "$root/DEBIAN/$script"
done
echo /etc/fontreg/fontregd.conf > "$root/DEBIAN/conffiles"

# Dependencies from the binaries' shared libraries (dpkg-shlibdeps wants a debian/control to read).
printf 'Source: fontreg\n\nPackage: fontreg\nArchitecture: any\n' > "$out/work/debian/control"
depends=$(cd "$out/work" && dpkg-shlibdeps -O -e"../root/usr/bin/fontregd" -e"../root/usr/bin/fontresolve" |
    sed -n 's/^shlibs:Depends=//p')
[[ -n $depends ]] || { echo "package-deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# Packed relative relocations (DT_RELR, scripts/release-flags.sh) need glibc 2.36's loader: the
# binaries ask for the version GLIBC_ABI_DT_RELR, which dpkg-shlibdeps does not map (it has no symbol).
if readelf -d "$root/usr/bin/fontresolve" "$root/usr/bin/fontregd" | grep -q '(RELR)'; then
    libc=$(sed -n 's/.*libc6 (>= \([^)]*\)).*/\1/p' <<<"$depends")
    if [[ -n $libc ]] && dpkg --compare-versions "$libc" lt 2.36; then
        depends=$(sed "s/libc6 (>= $libc)/libc6 (>= 2.36)/" <<<"$depends")
    fi
fi
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$depends/" -e "s/@SIZE@/$size/" \
    packaging/debian/control > "$root/DEBIAN/control"
(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\n' | sort | xargs -d '\n' md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

deb=$out/fontreg_${version}_${arch}.deb
fakeroot dpkg-deb --build -Zgzip -z6 "$root" "$deb" >/dev/null   # gzip: xz takes minutes on 150 MB of binaries
if [[ "${LINTIAN:-yes}" != no ]]; then
    lintian --fail-on error,warning --suppress-tags-from-file packaging/debian/lintian-suppressed "$deb" >&2
fi
echo "$deb"

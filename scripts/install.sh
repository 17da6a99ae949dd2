#!/bin/sh
# Installs fontregd, fontresolve, the systemd units and the docs.
#
#   scripts/install.sh                      # release build, install under /usr/local
#   PREFIX=/usr DESTDIR=/tmp/pkg scripts/install.sh
#   BUILD_DIR=.build/debug scripts/install.sh   # install an existing build, do not build
#
# Variables: PREFIX (/usr/local), DESTDIR (empty), BINDIR ($PREFIX/bin),
# UNITDIR ($PREFIX/lib/systemd/system, where systemd looks for units under /usr/local),
# DOCDIR ($PREFIX/share/doc/fontreg), BUILD_DIR (build with `swift build -c release` when unset).
# The units' ExecStart= and Documentation= are rewritten to the installed paths.
set -eu

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
BINDIR=${BINDIR:-$PREFIX/bin}
UNITDIR=${UNITDIR:-$PREFIX/lib/systemd/system}
DOCDIR=${DOCDIR:-$PREFIX/share/doc/fontreg}
DATADIR=${DATADIR:-$PREFIX/share/fontreg}

cd "$(dirname "$0")/.."

if [ -z "${BUILD_DIR:-}" ]; then
    swift build -c release --product fontregd
    swift build -c release --product fontresolve
    BUILD_DIR=$(swift build -c release --show-bin-path)
fi

for binary in fontregd fontresolve; do
    if [ ! -x "$BUILD_DIR/$binary" ]; then
        echo "install.sh: $BUILD_DIR/$binary is missing; run swift build first or unset BUILD_DIR" >&2
        exit 1
    fi
done

install -d "$DESTDIR$BINDIR" "$DESTDIR$UNITDIR" "$DESTDIR$DOCDIR" "$DESTDIR$DATADIR/fonts"
install -m 0755 "$BUILD_DIR/fontregd" "$DESTDIR$BINDIR/fontregd"
install -m 0755 "$BUILD_DIR/fontresolve" "$DESTDIR$BINDIR/fontresolve"
for unit in fontregd.service fontregd.socket; do
    sed -e "s#/usr/local/bin/fontregd#$BINDIR/fontregd#g" \
        -e "s#/usr/local/share/doc/fontreg#$DOCDIR#g" \
        "systemd/$unit" > "$DESTDIR$UNITDIR/$unit"
    chmod 0644 "$DESTDIR$UNITDIR/$unit"
done
install -m 0644 Sources/FontReg/Protocol/io.fontreg.Registry.varlink "$DESTDIR$DATADIR/io.fontreg.Registry.varlink"
for doc in docs/daemon.md docs/protocol.md; do
    if [ -f "$doc" ]; then install -m 0644 "$doc" "$DESTDIR$DOCDIR/"; fi
done
echo "installed fontregd and fontresolve in $DESTDIR$BINDIR, units in $DESTDIR$UNITDIR"
echo "then: systemctl daemon-reload && systemctl enable --now fontregd.socket"

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
install -m 0644 Sources/FontRegService/io.fontreg.Registry.varlink "$DESTDIR$DATADIR/io.fontreg.Registry.varlink"
for doc in README.md docs/*.md; do
    if [ -f "$doc" ]; then install -m 0644 "$doc" "$DESTDIR$DOCDIR/"; fi
done
# The fonts served out of the box (the default --fonts), with their licences, and Lato's rule.
for family in fonts/*/; do
    name=$(basename "$family")
    [ "$name" = rules ] && continue
    install -d "$DESTDIR$DATADIR/fonts/$name"
    for file in "$family"*; do install -m 0644 "$file" "$DESTDIR$DATADIR/fonts/$name/"; done
done
install -m 0644 fonts/README.md "$DESTDIR$DATADIR/fonts/README.md"
install -d "$DESTDIR$DATADIR/rules"
for rule in fonts/rules/*.json; do install -m 0644 "$rule" "$DESTDIR$DATADIR/rules/"; done
# Shell completion and the manual page of fontresolve.
install -d "$DESTDIR$PREFIX/share/bash-completion/completions" "$DESTDIR$PREFIX/share/zsh/vendor-completions" "$DESTDIR$PREFIX/share/man/man1"
install -m 0644 completions/fontresolve.bash "$DESTDIR$PREFIX/share/bash-completion/completions/fontresolve"
install -m 0644 completions/_fontresolve "$DESTDIR$PREFIX/share/zsh/vendor-completions/_fontresolve"
install -m 0644 man/fontresolve.1 "$DESTDIR$PREFIX/share/man/man1/fontresolve.1"
echo "installed fontregd and fontresolve in $DESTDIR$BINDIR, units in $DESTDIR$UNITDIR, fonts in $DESTDIR$DATADIR/fonts"
echo "family rules for the bundled fonts: $DATADIR/rules (add 'rules = $DATADIR/rules' to /etc/fontreg/fontregd.conf)"
echo "then: systemctl daemon-reload && systemctl enable --now fontregd.socket"

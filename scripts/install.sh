#!/bin/sh
# Installs fontregd, fontresolve, the systemd units, the bundled fonts and rules, a sample
# config file, the man pages, the shell completions and the docs.
#
#   scripts/install.sh                      # release build, install under /usr/local
#   PREFIX=/usr DESTDIR=/tmp/pkg scripts/install.sh
#   BUILD_DIR=.build/debug scripts/install.sh   # install an existing build, do not build
#
# Variables: PREFIX (/usr/local), DESTDIR (empty), BINDIR ($PREFIX/bin),
# UNITDIR ($PREFIX/lib/systemd/system, where systemd looks for units under /usr/local),
# DOCDIR ($PREFIX/share/doc/fontreg), MANDIR ($PREFIX/share/man),
# SYSCONFDIR (/etc for PREFIX /usr or /usr/local, else $PREFIX/etc),
# BUILD_DIR (build with scripts/build-release.sh when unset: the Swift runtime linked in, stripped).
#
# fontregd finds the fonts and rules installed here by itself: its defaults follow the prefix its
# binary lives under (PREFIX/share/fontreg/fonts and PREFIX/share/fontreg/rules), whatever PREFIX is.
# The sample config file ($SYSCONFDIR/fontreg/fontregd.conf, every line commented) is installed only
# when none exists; an existing one is never overwritten.
# The units' ExecStart= and Documentation= are rewritten to the installed paths.
set -eu

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
BINDIR=${BINDIR:-$PREFIX/bin}
UNITDIR=${UNITDIR:-$PREFIX/lib/systemd/system}
DOCDIR=${DOCDIR:-$PREFIX/share/doc/fontreg}
DATADIR=${DATADIR:-$PREFIX/share/fontreg}
MANDIR=${MANDIR:-$PREFIX/share/man}
case "$PREFIX" in
    /usr | /usr/local) SYSCONFDIR=${SYSCONFDIR:-/etc} ;;
    *) SYSCONFDIR=${SYSCONFDIR:-$PREFIX/etc} ;;
esac
STRIP=${STRIP:-yes}

cd "$(dirname "$0")/.."

if [ -z "${BUILD_DIR:-}" ]; then
    BUILD_DIR=$(bash scripts/build-release.sh)
fi

for binary in fontregd fontresolve; do
    if [ ! -x "$BUILD_DIR/$binary" ]; then
        echo "install.sh: $BUILD_DIR/$binary is missing; run swift build first or unset BUILD_DIR" >&2
        exit 1
    fi
done

install -d "$DESTDIR$BINDIR" "$DESTDIR$UNITDIR" "$DESTDIR$DOCDIR" "$DESTDIR$DATADIR/fonts"
for binary in fontregd fontresolve; do
    install -m 0755 "$BUILD_DIR/$binary" "$DESTDIR$BINDIR/$binary"
    # Debug builds keep their symbols (tests install them); release builds are stripped.
    case "$BUILD_DIR" in
        *release*) [ "$STRIP" = yes ] && strip --strip-unneeded --remove-section=.comment --remove-section=.note "$DESTDIR$BINDIR/$binary" ;;
    esac
done
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
install -d "$DESTDIR$DOCDIR/examples"
install -m 0644 systemd/fontregd.conf "$DESTDIR$DOCDIR/examples/fontregd.conf"
install -m 0644 examples/design-tokens.json "$DESTDIR$DOCDIR/examples/design-tokens.json"
# The sample config file: every line commented, so the defaults (this install's fonts and rules) apply.
install -d "$DESTDIR$SYSCONFDIR/fontreg"
if [ ! -e "$DESTDIR$SYSCONFDIR/fontreg/fontregd.conf" ]; then
    install -m 0644 systemd/fontregd.conf "$DESTDIR$SYSCONFDIR/fontreg/fontregd.conf"
fi
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
# Shell completion and the manual pages.
install -d "$DESTDIR$PREFIX/share/bash-completion/completions" "$DESTDIR$PREFIX/share/zsh/vendor-completions" \
    "$DESTDIR$MANDIR/man1" "$DESTDIR$MANDIR/man8"
install -m 0644 completions/fontresolve.bash "$DESTDIR$PREFIX/share/bash-completion/completions/fontresolve"
install -m 0644 completions/_fontresolve "$DESTDIR$PREFIX/share/zsh/vendor-completions/_fontresolve"
install -m 0644 man/fontresolve.1 "$DESTDIR$MANDIR/man1/fontresolve.1"
install -m 0644 man/fontregd.8 "$DESTDIR$MANDIR/man8/fontregd.8"
echo "installed fontregd and fontresolve in $DESTDIR$BINDIR, units in $DESTDIR$UNITDIR, fonts in $DESTDIR$DATADIR/fonts"
echo "fontregd serves $DATADIR/fonts with the rules in $DATADIR/rules by default; settings: $SYSCONFDIR/fontreg/fontregd.conf"
echo "then: systemctl daemon-reload && systemctl enable --now fontregd.socket"
echo "fontconfig applications see the registry once its bridge is linked into fontconfig (docs/daemon.md, fontconfig bridge):"
echo "  ln -sf /run/fontreg/fontconfig/fontreg.conf /etc/fonts/conf.d/90-fontreg.conf"

#!/bin/sh
# Issue 24, item 7, from outside: root registers a user-writable folder of an allowed root; a link
# in it leads to a font in a root-only 0700 directory of the same allowed root. Prints what root,
# an unprivileged user and the published snapshot show of that font (its family is Inter).
#
#   scripts/probe-unreadable-link.sh [FONTREGD [FONTRESOLVE]]    (as root; needs fontreg-test-a)
#
# Defaults to the debug binaries built here; pass another build's fontregd for a before/after.
set -eu
cd "$(dirname "$0")/.."
DAEMON=${1:-$PWD/.build/debug/fontregd}
CLIENT=${2:-$PWD/.build/debug/fontresolve}
TMP=$(mktemp -d /tmp/fontreg-probe-XXXXXX)
chmod 755 "$TMP"
trap 'kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$TMP"' EXIT
mkdir -p "$TMP/allowed/team" "$TMP/allowed/vault"
cp fonts/Lato/Lato-Regular.ttf "$TMP/allowed/team/"
cp fonts/Inter/Inter-Regular.otf "$TMP/allowed/vault/"
chmod 755 "$TMP/allowed"
chmod 777 "$TMP/allowed/team"
chmod 700 "$TMP/allowed/vault"
ln -s ../vault/Inter-Regular.otf "$TMP/allowed/team/Inter-Regular.otf"
"$DAEMON" --socket "$TMP/s.sock" --fonts "$PWD/Tests/Fixtures/fonts/collection" --no-system-fonts \
    --allow-root "$TMP/allowed" --state-dir "$TMP/state" --cache-dir "$TMP/cache" --config /dev/null \
    --watch no 2>"$TMP/fontregd.log" &
PID=$!
for _ in $(seq 1 600); do
    [ -S "$TMP/s.sock" ] && break
    sleep 0.05
done
"$CLIENT" register "$TMP/allowed/team" --socket "$TMP/s.sock" >/dev/null
sleep 1
AS_USER="setpriv --reuid=fontreg-test-a --regid=fontreg-test-a --init-groups"
echo "root lists Inter:        $("$CLIENT" list --socket "$TMP/s.sock" | grep -c Inter || true) line(s)"
echo "user lists Inter:        $($AS_USER "$CLIENT" list --socket "$TMP/s.sock" | grep -c Inter || true) line(s)"
echo "user's face Inter-Regular: $($AS_USER "$CLIENT" face Inter-Regular --socket "$TMP/s.sock" 2>&1 | head -1)"
if [ -e "$TMP/s.sock.snapshot" ]; then
    echo "snapshot: published, names Inter-Regular $(grep -c Inter-Regular "$TMP/s.sock.snapshot" || true) time(s)"
else
    echo "snapshot: not published"
fi

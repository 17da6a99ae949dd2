#!/usr/bin/env bash
# Starts fontregd on the bundled fonts (fonts/) and shows it answering.
#
#   scripts/quickstart.sh           start it, ask it a few questions, keep it serving until Ctrl-C
#   scripts/quickstart.sh --check   the same, then stop it (what CI runs)
#
# Installs the Debian packages it needs when they are missing, builds in release mode
# (scripts/build-release.sh), and runs the daemon as the current user on a socket in a new
# directory of this run's own (several quickstarts at once do not meet), so nothing is installed
# system-wide. Clients find it through FONTREG_SOCKET (printed below, with how to put
# fontresolve on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

bash scripts/setup-deps.sh
echo "== building (release)" >&2
bin=$(bash scripts/build-release.sh)

base=${XDG_RUNTIME_DIR:-/tmp}
[[ -d $base && -w $base ]] || base=/tmp
run=$(mktemp -d "$base/fontreg-quickstart.XXXXXX")
sock=$run/fontregd.sock
"$bin/fontregd" --socket "$sock" --fonts "$PWD/fonts" --rules "$PWD/fonts/rules" \
    --state-dir "$run/state" --cache-dir "$run/cache" --config /dev/null --no-system-fonts \
    --allow-uid "$(id -u)" --allow-root "$PWD/fonts" 2>"$run/fontregd.log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$run"' EXIT
ready=no
for _ in $(seq 1 200); do
    kill -0 "$pid" 2>/dev/null || { echo "quickstart: fontregd exited; its log:" >&2; cat "$run/fontregd.log" >&2; exit 1; }
    [[ -S $sock ]] && "$bin/fontresolve" status --socket "$sock" >/dev/null 2>&1 && { ready=yes; break; }
    sleep 0.05
done
# The daemon answering must be this run's own: alive, listening on the socket in this run's directory.
if [[ $ready != yes ]] || ! kill -0 "$pid" 2>/dev/null || ! grep -q "listening on $sock" "$run/fontregd.log"; then
    echo "quickstart: fontregd (pid $pid) is not answering on $sock; its log:" >&2
    cat "$run/fontregd.log" >&2
    exit 1
fi
export FONTREG_SOCKET=$sock

show() { echo; echo "\$ fontresolve $*"; "$bin/fontresolve" "$@"; }
show status
show list
show resolve Lato --weight semibold
show explain Lato --weight thin --bold-text
show resolve Inter --weight 650 --italic --json

echo
echo "fontregd (pid $pid) is serving $PWD/fonts on $sock; its log is $run/fontregd.log."
echo "To use fontresolve from another shell, put it on PATH and point it at this daemon:"
echo "  export PATH=\"$bin:\$PATH\" FONTREG_SOCKET=$sock"
echo "  fontresolve resolve Inter --weight bold --bold-text --explain"
echo "(or install it: scripts/install.sh, or the Debian package from scripts/package-deb.sh)"
if [[ "${1:-}" == "--check" ]]; then
    exit 0
fi
echo "Ctrl-C stops it."
trap 'kill "$pid" 2>/dev/null || true' INT TERM
wait "$pid" || true

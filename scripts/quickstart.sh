#!/usr/bin/env bash
# Starts fontregd on the bundled fonts (fonts/) and shows it answering.
#
#   scripts/quickstart.sh           start it, ask it a few questions, keep it serving until Ctrl-C
#   scripts/quickstart.sh --check   the same, then stop it (what CI runs)
#
# Installs the Debian packages it needs when they are missing, builds in release mode,
# and runs the daemon as the current user on a socket of its own, so nothing is installed
# system-wide. Clients find it through FONTREG_SOCKET (printed below).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

bash scripts/setup-deps.sh
echo "== building (release)" >&2
swift build -c release --product fontregd >&2
swift build -c release --product fontresolve >&2
bin=$(swift build -c release --show-bin-path)

run=${XDG_RUNTIME_DIR:-/tmp}/fontreg-quickstart-$(id -u)
mkdir -p "$run"
sock=$run/fontregd.sock
"$bin/fontregd" --socket "$sock" --fonts "$PWD/fonts" --rules "$PWD/fonts/rules" \
    --state-dir "$run/state" --cache-dir "$run/cache" --config /dev/null --no-system-fonts \
    --allow-uid "$(id -u)" --allow-root "$PWD/fonts" 2>"$run/fontregd.log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 200); do
    [[ -S $sock ]] && "$bin/fontresolve" status --socket "$sock" >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || { cat "$run/fontregd.log" >&2; exit 1; }
    sleep 0.05
done
export FONTREG_SOCKET=$sock

show() { echo; echo "\$ fontresolve $*"; "$bin/fontresolve" "$@"; }
show status
show list
show resolve Lato --weight semibold
show explain Lato --weight thin --bold-text
show resolve Inter --weight 650 --italic --json

echo
echo "fontregd (pid $pid) is serving $PWD/fonts on $sock; its log is $run/fontregd.log."
echo "Try: FONTREG_SOCKET=$sock $bin/fontresolve resolve \"Inter\" --weight bold --bold-text --explain"
if [[ "${1:-}" == "--check" ]]; then
    exit 0
fi
echo "Ctrl-C stops it."
trap 'kill "$pid" 2>/dev/null || true' INT TERM
wait "$pid" || true

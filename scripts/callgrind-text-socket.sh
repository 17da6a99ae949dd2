#!/usr/bin/env bash
# Instructions of `ResolveText` over the socket, both processes (issue 29 item 4): callgrind on the
# daemon (collection switched on with callgrind_control once it has answered a first call, so its
# start is left out) and on the client (`fontreg-bench --fallback-socket-calls`, inside
# `FallbackBenchmark.socketCallLoop` only), for CALLS calls of each text of
# scripts/bench-fallback-texts (repeated to at least 4 KiB, the compact reply), on the fonts
# scripts/bench-fallback.sh uses. Compare with scripts/callgrind-fallback.sh (in process, plans kept).
#   scripts/callgrind-text-socket.sh [CALLS [TEXT…]]   one line per text (default CALLS: 10, every text)
#   FONTREG_BIN=DIR scripts/callgrind-text-socket.sh …  uses DIR/fontregd and DIR/fontreg-bench, builds nothing
#   KEEP=DIR scripts/callgrind-text-socket.sh …         keeps callgrind's files in DIR (for callgrind_annotate)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/fallback-bench-bin.sh
source scripts/fallback-bench-bin.sh fontreg-bench fontregd
calls=${1:-10}
shift || true
if [[ $# -gt 0 ]]; then texts=("$@"); else texts=(arabic cjk devanagari emoji latin); fi
fonts=(/usr/share/fonts/truetype/lato /usr/share/fonts/opentype/noto /usr/share/fonts/truetype/noto)
tmp=$(mktemp -d)
daemon=""
trap '[[ -n $daemon ]] && { kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; }; rm -rf "$tmp"' EXIT
out=${KEEP:-$tmp}
mkdir -p "$out"
# valgrind 3.19 cannot read Swift's DWARF 5: copies without debug information (symbols stay).
objcopy --strip-debug "$bin/fontregd" "$tmp/fontregd"
objcopy --strip-debug "$bin/fontreg-bench" "$tmp/fontreg-bench"
args=(--config "$tmp/fontregd.conf" --socket "$tmp/sock" --no-system-fonts --state-dir "$tmp/state"
    --cache-dir "$tmp/cache" --watch no)
for dir in "${fonts[@]}"; do args+=(--fonts "$dir"); done
touch "$tmp/fontregd.conf"
wait_for_socket() {
    for _ in $(seq 1 3000); do [[ -S "$tmp/sock" ]] && return 0; sleep 0.1; done
    echo "fontregd did not start" >&2
    return 1
}
# The face cache, written by a first start outside valgrind (a cold scan under valgrind takes minutes).
"$tmp/fontregd" "${args[@]}" 2>"$tmp/log-first" &
daemon=$!
wait_for_socket
kill "$daemon"
wait "$daemon" 2>/dev/null || true
rm -f "$tmp/sock"
echo "Command: scripts/callgrind-text-socket.sh $calls ${texts[*]} ($(date -u '+%Y-%m-%d %H:%M UTC'); valgrind $(valgrind --version | cut -d- -f2))"
echo
echo "| text | code points | runs | daemon, per call | client, per call | both, per code point |"
echo "|---|---:|---:|---:|---:|---:|"
for label in "${texts[@]}"; do
    text=scripts/bench-fallback-texts/$label.txt
    valgrind --tool=callgrind --trace-children=no --instr-atstart=no \
        --callgrind-out-file="$out/daemon-$label.out" "$tmp/fontregd" "${args[@]}" 2>"$tmp/log-$label" &
    daemon=$!
    wait_for_socket
    # A first call outside the count: the daemon's plans for the stack are made and kept.
    "$tmp/fontreg-bench" --fallback-socket-calls "$tmp/sock" "$text" 1 >/dev/null
    # The coverage index is built after READY, off the loops (one-off work, not the calls'): let it finish.
    sleep 5
    callgrind_control -i on "$daemon" >/dev/null 2>&1
    summary=$(valgrind --tool=callgrind --toggle-collect='*socketCallLoop*' \
        --callgrind-out-file="$out/client-$label.out" \
        "$tmp/fontreg-bench" --fallback-socket-calls "$tmp/sock" "$text" "$calls" 2>/dev/null)
    callgrind_control -i off "$daemon" >/dev/null 2>&1
    kill "$daemon"
    wait "$daemon" 2>/dev/null || true
    daemon=""
    rm -f "$tmp/sock"
    points=$(echo "$summary" | cut -d' ' -f1)
    runs=$(echo "$summary" | cut -d' ' -f4)
    # The daemon answered the client's warm-up call too: calls + 1 while collecting.
    served=$(callgrind_annotate "$out/daemon-$label.out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    client=$(callgrind_annotate "$out/client-$label.out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    awk -v l="$label" -v p="$points" -v r="$runs" -v d="$served" -v c="$client" -v n="$calls" 'BEGIN {
        dc = d / (n + 1); cc = c / n
        printf "| %s | %d | %d | %d | %d | %d |\n", l, p, r, dc, cc, (dc + cc) / p }'
done

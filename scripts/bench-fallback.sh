#!/usr/bin/env bash
# Text resolution by coverage (issue 12): time per code point of `ResolveText` in process and over
# the daemon's socket, against fontconfig's FcFontSort + charset walk on the same text, same run;
# and what coverage costs in memory per face.
#   scripts/bench-fallback.sh        prints the table (copy it into docs/benchmarks.md)
#   scripts/bench-fallback.sh --uncovered [N…]
#                                    registry-wide fallback for characters no face covers (issue 13
#                                    follow-up): one ResolveText call in process and over the socket
#                                    over generated corpora of N faces (default 1000 10000 100000)
#   FONTREG_BIN=DIR scripts/bench-fallback.sh …   uses DIR/fontregd and DIR/fontreg-bench, builds nothing
# Texts: scripts/bench-fallback-texts/*.txt (real sentences, repeated to at least 4 KiB each).
# Pango's itemizer (scripts/bench-pango-itemize.c, built here with gcc) runs first on the same texts.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/fallback-bench-bin.sh
source scripts/fallback-bench-bin.sh fontreg-bench fontregd

if [[ ${1:-} == --uncovered ]]; then
    shift
    if [[ $# -gt 0 ]]; then sizes=("$@"); else sizes=(1000 10000 100000); fi
    tmp=$(mktemp -d)
    pids=()
    trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
    targets=()
    for n in "${sizes[@]}"; do
        corpus=/tmp/fontreg-corpus-$n
        # A shared corpus: made once, under a lock, marked complete (the 100,000 takes minutes).
        flock "/tmp/corpus-$n.lock" bash -c "[[ -e $corpus/.complete || -d $corpus && $n -lt 100000 ]] || \
            { python3 scripts/make-corpus.py $n $corpus >&2 && touch $corpus/.complete; }"
        touch "$tmp/fontregd.conf"
        "$bin/fontregd" --config "$tmp/fontregd.conf" --socket "$tmp/sock-$n" --no-system-fonts \
            --state-dir "$tmp/state-$n" --cache-dir "/tmp/fontreg-bench-uncovered-daemon-$n" --watch no \
            --fonts "$corpus" 2>"$tmp/log-$n" &
        pids+=($!)
        for _ in $(seq 1 6000); do [[ -S "$tmp/sock-$n" ]] && break; sleep 0.1; done
        targets+=("$n=$corpus@$tmp/sock-$n")
    done
    echo "Command: scripts/bench-fallback.sh --uncovered ${sizes[*]} (release build; $(date -u +%Y-%m-%d); $(nproc) cores)"
    echo
    "$bin/fontreg-bench" --fallback-uncovered "${targets[@]}"
    exit 0
fi

fonts=(/usr/share/fonts/truetype/lato /usr/share/fonts/opentype/noto /usr/share/fonts/truetype/noto)
tmp=$(mktemp -d)
trap 'kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; rm -rf "$tmp"' EXIT
args=()
for dir in "${fonts[@]}"; do args+=(--fonts "$dir"); done
touch "$tmp/fontregd.conf"
"$bin/fontregd" --config "$tmp/fontregd.conf" --socket "$tmp/sock" --no-system-fonts --state-dir "$tmp/state" --cache-dir "$tmp/cache" \
    --watch no "${args[@]}" 2>"$tmp/log" &
daemon=$!
for _ in $(seq 1 300); do [[ -S "$tmp/sock" ]] && break; sleep 0.1; done
dirs=$(IFS=,; echo "${fonts[*]}")
# Pango's itemizer on the same texts and fonts, in the same run (issue 29): Debian's libpango-1.0-0
# and libpangoft2-1.0-0 (gir1.2-pango-1.0 brings them), linked by file name as no -dev package is needed.
lib=/usr/lib/$(gcc -print-multiarch)
pango=""
if gcc -O2 -o "$tmp/pango-itemize" scripts/bench-pango-itemize.c -lfontconfig "$lib/libpango-1.0.so.0" \
    "$lib/libpangoft2-1.0.so.0" "$lib/libgobject-2.0.so.0" "$lib/libglib-2.0.so.0" 2>"$tmp/pango-build.log"; then
    mkdir -p "$tmp/pango-cache"
    "$tmp/pango-itemize" Lato "${FONTREG_BENCH_SECONDS:-1}" "$tmp/pango-cache" "$dirs" scripts/bench-fallback-texts/*.txt \
        >"$tmp/pango.txt"
    export FONTREG_PANGO_FIGURES="$tmp/pango.txt"
    pango=", Pango $(pkg-config --modversion pango 2>/dev/null || dpkg-query -W -f '${Version}' libpango-1.0-0)"
else
    echo "Pango's itemizer not measured: $(head -1 "$tmp/pango-build.log")" >&2
fi
echo "Command: scripts/bench-fallback.sh (release build; $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg), fontconfig $(pkg-config --modversion fontconfig)$pango)"
echo
"$bin/fontreg-bench" --fallback "$dirs" scripts/bench-fallback-texts "$tmp/sock"

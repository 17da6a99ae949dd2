#!/usr/bin/env bash
# Instructions per code point of `ResolveText` in process, plans kept (issue 29 item 4): callgrind
# counts the instructions of CALLS calls on each text of scripts/bench-fallback-texts (repeated to
# at least 4 KiB, as scripts/bench-fallback.sh does), inside `FallbackBenchmark.callLoop` only
# (`--toggle-collect`), so the registry's start and the warm-up call are left out; and the same
# for Pango's `pango_itemize` (scripts/bench-pango-itemize.c, `counted_calls`) on the same texts
# and font directories. Instruction counts repeat on a loaded machine, where wall-clock time does not.
#   scripts/callgrind-fallback.sh [CALLS]       prints one line per text (default CALLS: 20)
#   FONTREG_BIN=DIR scripts/callgrind-fallback.sh …   uses DIR/fontreg-bench, builds nothing
#   KEEP=DIR scripts/callgrind-fallback.sh …    keeps callgrind's files in DIR (for callgrind_annotate)
#   AFRESH=1 scripts/callgrind-fallback.sh …    a new plan per call, no FallbackPlanCache (issue 26 item 5)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/fallback-bench-bin.sh
source scripts/fallback-bench-bin.sh fontreg-bench
calls=${1:-20}
mode=()
if [[ -n ${AFRESH:-} ]]; then mode=(afresh); fi
dirs=/usr/share/fonts/truetype/lato,/usr/share/fonts/opentype/noto,/usr/share/fonts/truetype/noto
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=${KEEP:-$tmp}
mkdir -p "$out"
# valgrind 3.19 cannot read Swift's DWARF 5: a copy without debug information (symbols stay).
objcopy --strip-debug "$bin/fontreg-bench" "$tmp/fontreg-bench"
# The face cache, written by a first run outside valgrind (a cold scan under valgrind takes minutes).
"$tmp/fontreg-bench" --fallback-calls "$dirs" scripts/bench-fallback-texts/latin.txt 1 "$tmp/cache" >/dev/null
# Pango's itemizer, built as scripts/bench-fallback.sh builds it.
lib=/usr/lib/$(gcc -print-multiarch)
pango=""
if gcc -O2 -o "$tmp/pango-itemize" scripts/bench-pango-itemize.c -lfontconfig "$lib/libpango-1.0.so.0" \
    "$lib/libpangoft2-1.0.so.0" "$lib/libgobject-2.0.so.0" "$lib/libglib-2.0.so.0" 2>"$tmp/pango-build.log"; then
    pango=yes
    mkdir -p "$tmp/pango-cache"
    "$tmp/pango-itemize" Lato -1 "$tmp/pango-cache" "$dirs" scripts/bench-fallback-texts/latin.txt >/dev/null
fi
echo "Command: ${AFRESH:+AFRESH=1 }scripts/callgrind-fallback.sh $calls ($(valgrind --version), $(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "| text | code points | fontreg instructions per call | fontreg per code point | Pango itemize per code point | fontreg ÷ Pango |"
echo "|---|---:|---:|---:|---:|---:|"
for file in scripts/bench-fallback-texts/*.txt; do
    label=$(basename "$file" .txt)
    points=$(valgrind --tool=callgrind --callgrind-out-file="$out/$label.callgrind" --toggle-collect='*callLoop*' \
        "$tmp/fontreg-bench" --fallback-calls "$dirs" "$file" "$calls" "$tmp/cache" "${mode[@]}" 2>/dev/null | cut -d' ' -f1)
    total=$(callgrind_annotate "$out/$label.callgrind" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    peer=0
    if [[ -n $pango ]]; then
        valgrind --tool=callgrind --callgrind-out-file="$out/$label.pango.callgrind" --toggle-collect=counted_calls \
            "$tmp/pango-itemize" Lato "-$calls" "$tmp/pango-cache" "$dirs" "$file" >/dev/null 2>&1
        peer=$(callgrind_annotate "$out/$label.pango.callgrind" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    fi
    awk -v t="$total" -v c="$calls" -v p="$points" -v l="$label" -v q="$peer" \
        'BEGIN { if (q > 0) printf "| %s | %d | %d | %.0f | %.0f | %.2f× |\n", l, p, t / c, t / c / p, q / c / p, t / q;
                 else printf "| %s | %d | %d | %.0f | - | - |\n", l, p, t / c, t / c / p }'
done

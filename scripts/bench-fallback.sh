#!/usr/bin/env bash
# Text resolution by coverage (issue 12): time per code point of `ResolveText` in process and over
# the daemon's socket, against fontconfig's FcFontSort + charset walk on the same text, same run;
# and what coverage costs in memory per face.
#   scripts/bench-fallback.sh        prints the table (copy it into docs/benchmarks.md)
# Texts: scripts/bench-fallback-texts/*.txt (real sentences, repeated to at least 4 KiB each).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
bash scripts/setup-deps.sh --test >/dev/null
swift build -c release --product fontreg-bench >/dev/null
swift build -c release --product fontregd >/dev/null

fonts=(/usr/share/fonts/truetype/lato /usr/share/fonts/opentype/noto /usr/share/fonts/truetype/noto)
tmp=$(mktemp -d)
trap 'kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; rm -rf "$tmp"' EXIT
args=()
for dir in "${fonts[@]}"; do args+=(--fonts "$dir"); done
touch "$tmp/fontregd.conf"
.build/release/fontregd --config "$tmp/fontregd.conf" --socket "$tmp/sock" --no-system-fonts --state-dir "$tmp/state" --cache-dir "$tmp/cache" \
    --watch no "${args[@]}" 2>"$tmp/log" &
daemon=$!
for _ in $(seq 1 300); do [[ -S "$tmp/sock" ]] && break; sleep 0.1; done
dirs=$(IFS=,; echo "${fonts[*]}")
echo "Command: scripts/bench-fallback.sh (release build; $(date -u +%Y-%m-%d); $(nproc) cores, fontconfig $(pkg-config --modversion fontconfig))"
echo
.build/release/fontreg-bench --fallback "$dirs" scripts/bench-fallback-texts "$tmp/sock"

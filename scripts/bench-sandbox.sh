#!/usr/bin/env bash
# What sandboxed font parsing costs the cold scan (issue 15): FreeType in process, FreeType in
# seccomp-confined `fontregd --parse-worker` processes (2), and fontconfig's uncached scan, on the
# Debian fonts and a generated corpus (scripts/make-corpus.py). Medians of 3 runs; docs/benchmarks.md.
#   scripts/bench-sandbox.sh [LABEL=DIR[,DIR…] …]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
# As shipped (scripts/build-release.sh): the Swift runtime linked statically, which is most of a
# worker's start-up.
swift build -c release --static-swift-stdlib --product fontregd >/dev/null
swift build -c release --static-swift-stdlib --product fontreg-bench >/dev/null
tmp=${TMPDIR:-/tmp}
if [[ $# -eq 0 ]]; then
    [[ -d "$tmp/fontreg-corpus-1000" ]] || "$(bash scripts/venv.sh)" scripts/make-corpus.py 1000 "$tmp/fontreg-corpus-1000" >&2
    debian=/usr/share/fonts/truetype/noto,/usr/share/fonts/truetype/lato,/usr/share/fonts/opentype/inter,/usr/share/fonts/truetype/roboto,/usr/share/fonts/truetype/open-sans
    set -- "debian=$debian" "generated-1k=$tmp/fontreg-corpus-1000"
fi
.build/release/fontreg-bench --cold-scan "$@"

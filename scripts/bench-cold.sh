#!/usr/bin/env bash
# Cold index build against fontconfig's uncached scan of the same files (issue 13; docs/benchmarks.md):
# fontregd fork/exec → READY with an empty cache directory, against FcConfigAppFontAddDir with an
# empty cache directory in process and fc-cache of the directory, in one run, at 1k, 10k and 100k
# generated faces (scripts/make-corpus.py; the 100k corpus is shared under /tmp/corpus-100000.lock).
#   scripts/bench-cold.sh [SIZE…]          (default 1000 10000 100000; ROUNDS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
# As shipped (scripts/build-release.sh): the Swift runtime linked statically, which is most of a
# parse worker's start-up.
swift build -c release --static-swift-stdlib --product fontregd >/dev/null
py=$(bash scripts/venv.sh)
tmp=${TMPDIR:-/tmp}
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(1000 10000 100000)
corpora=()
for n in "${sizes[@]}"; do
    dir="$tmp/fontreg-corpus-$n"
    # Made once and shared: reused when complete (a .complete marker, or as many fonts as faces asked).
    (
        flock 9
        if [[ ! -e "$dir/.complete" ]]; then
            if [[ -d "$dir" ]] && [[ $(find "$dir" -name '*.ttf' | wc -l) -ge $n ]]; then
                touch "$dir/.complete"
            else
                echo "bench-cold: generating $n faces in $dir" >&2
                "$py" scripts/make-corpus.py "$n" "$dir" >&2 && touch "$dir/.complete"
            fi
        fi
    ) 9>"$tmp/corpus-$n.lock"
    label=$n
    ((n >= 1000)) && label="$((n / 1000))k"
    corpora+=("generated-$label=$dir")
done
# One round at 100k faces takes about a minute for each side: three by default all the same.
python3 scripts/bench-cold.py --bin .build/release --rounds "${ROUNDS:-3}" "${corpora[@]}"

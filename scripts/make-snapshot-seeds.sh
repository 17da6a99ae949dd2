#!/usr/bin/env bash
# Seed snapshots for the snapshot fuzz target (issue 13; docs/reliability.md), written by the built
# fontregd from real fonts, so that the seeds always have the layout version the code reads.
#
#   scripts/make-snapshot-seeds.sh OUT_DIR [BUILD_DIR]
#
# Starts fontregd (BUILD_DIR/fontregd, default .build/debug) on a temporary socket once per seed,
# waits for the snapshot it publishes beside the socket, copies it to OUT_DIR/seed-NAME and stops
# the daemon. The seeds: the fixture families (composed names, every weight), variable fonts (axes
# and named instances), a collection, colour and web fonts, Lato with its family rule (the rule
# table), Inter, and the fixture families registered twice (duplicates that lost, the family flag
# that sends a client to the socket). Whole snapshots start with the magic, so the fuzz target
# takes them as whole files and recomputes their checksum after the fuzzer's changes.
# scripts/reliability.sh runs this before each snapshot fuzz run; the seeds are not committed.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/make-snapshot-seeds.sh OUT_DIR [BUILD_DIR]}
build=${2:-.build/debug}
daemon="$build/fontregd"
[[ -x "$daemon" ]] || { echo "make-snapshot-seeds: $daemon is missing: build it first" >&2; exit 1; }
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/fontreg-seeds.XXXXXX")
# mktemp makes it 0700: fonts under it would be root's alone, and the daemon publishes no snapshot while it
# indexes a face not every user may read (docs/daemon.md, Security).
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
fixtures=Tests/Fixtures/fonts
mkdir -p "$work/copy"
cp "$fixtures"/families/FixtureSans-* "$work/copy/"

# seed NAME [fontregd arguments…]: one daemon, one snapshot.
seed() {
    local name=$1 dir="$work/$1"
    shift
    mkdir -p "$dir"
    : >"$dir/fontregd.conf"
    "$daemon" --socket "$dir/s" --no-system-fonts --watch no --state-dir "$dir/state" --cache-dir "$dir/cache" \
        --config "$dir/fontregd.conf" "$@" >"$dir/log" 2>&1 &
    local pid=$! waited=0
    until [[ -s "$dir/s.snapshot" ]]; do
        if ! kill -0 "$pid" 2>/dev/null || ((waited > 600)); then
            echo "make-snapshot-seeds: fontregd wrote no snapshot for $name:" >&2
            tail -5 "$dir/log" >&2
            kill "$pid" 2>/dev/null || true
            return 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    cp "$dir/s.snapshot" "$out/seed-$name"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}

seed families --fonts "$fixtures/families"
seed variable --fonts "$fixtures/variable"
seed mixed --fonts "$fixtures/collection" --fonts "$fixtures/color" --fonts "$fixtures/web" --fonts "$fixtures/bad"
seed lato-rules --fonts fonts/Lato --rules fonts/rules
seed inter --fonts fonts/Inter
seed duplicates --fonts "$fixtures/families" --fonts "$work/copy"
seed empty --fonts "$work/empty-does-not-exist"
echo "make-snapshot-seeds: $(ls "$out" | wc -l) seeds in $out ($(du -sh "$out" | cut -f1))"

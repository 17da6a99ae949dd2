#!/usr/bin/env bash
# The layers keep their promises (scripts/check-layers.py): no kernel call outside FontRegSystem,
# FontRegCore's folders in their order, each target importing exactly what Package.swift lists.
# First proves the checker catches a planted breach of each promise, then checks the tree.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
python3 scripts/check-layers.py --self-test
python3 scripts/check-layers.py

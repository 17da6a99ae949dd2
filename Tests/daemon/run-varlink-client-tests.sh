#!/bin/sh
# Runs the PyPI `varlink` client against the real fontregd.
# Installs the `varlink` package when missing, builds fontregd unless FONTREGD names a binary.
#   Tests/daemon/run-varlink-client-tests.sh
set -eu
cd "$(dirname "$0")/../.."
PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c "import varlink" 2>/dev/null; then
    "$PYTHON" -m pip install --quiet varlink
fi
if [ -z "${FONTREGD:-}" ]; then
    swift build --product fontregd >/dev/null
    FONTREGD="$(swift build --show-bin-path)/fontregd"
    export FONTREGD
fi
exec "$PYTHON" Tests/daemon/test_varlink_client.py

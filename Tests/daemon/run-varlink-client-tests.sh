#!/bin/sh
# Runs the PyPI `varlink` and `asyncvarlink` clients against the real fontregd.
# Uses the project's virtual environment (scripts/venv.sh installs both there when missing),
# builds fontregd unless FONTREGD names a binary.
#   Tests/daemon/run-varlink-client-tests.sh
set -eu
cd "$(dirname "$0")/../.."
PYTHON=${PYTHON:-$(bash scripts/venv.sh)}
if [ -z "${FONTREGD:-}" ]; then
    swift build --product fontregd >/dev/null
    FONTREGD="$(swift build --show-bin-path)/fontregd"
    export FONTREGD
fi
# Both run even when the first fails, so that a report names every client that broke.
status=0
"$PYTHON" Tests/daemon/test_varlink_client.py || status=1
"$PYTHON" Tests/daemon/test_asyncvarlink_client.py || status=1
exit $status

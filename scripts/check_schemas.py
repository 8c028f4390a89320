#!/usr/bin/env python3
"""Checks every schema in Schemas/ against the published meta-schema, and every reference data file in
Schemas/reference/ against its schema, with an off-the-shelf JSON Schema validator, and checks that the
meta-schema rejects the known-broken fixtures."""
import glob
import json
import os
import sys

from jsonschema import Draft202012Validator

root = os.path.join(os.path.dirname(__file__), "..")
meta = json.load(open(os.path.join(root, "Schemas", "dce-schema.schema.json")))
Draft202012Validator.check_schema(meta)
validator = Draft202012Validator(meta)

passed = failed = 0


def check(validator, pattern):
    """Validates every file matching pattern (but *.schema.json) and counts it as passed or failed."""
    global passed, failed
    for path in sorted(glob.glob(pattern)):
        if path.endswith(".schema.json"):
            continue
        errors = list(validator.iter_errors(json.load(open(path))))
        if errors:
            failed += 1
            for error in errors:
                print(f"{os.path.relpath(path, root)}: {error.json_path}: {error.message}", file=sys.stderr)
        else:
            passed += 1


check(validator, os.path.join(root, "Schemas", "*.json"))
reference_meta = json.load(open(os.path.join(root, "Schemas", "reference", "reference-data.schema.json")))
Draft202012Validator.check_schema(reference_meta)
check(Draft202012Validator(reference_meta), os.path.join(root, "Schemas", "reference", "*.json"))

broken = os.path.join(root, "Tests", "DCEEngineTests", "Fixtures", "meta-schema-rejects")
for path in sorted(glob.glob(os.path.join(broken, "*.json"))):
    if list(validator.iter_errors(json.load(open(path)))):
        passed += 1
    else:
        failed += 1
        print(f"{os.path.relpath(path, root)}: the meta-schema accepts a schema it must reject", file=sys.stderr)

print(f"meta-schema: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)

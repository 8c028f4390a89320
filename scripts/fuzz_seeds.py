#!/usr/bin/env python3
"""Writes seed inputs for the fuzz targets that need more than a file of the repository.

    fuzz_seeds.py envelopes DIR   envelopes around Examples/card-create/*.json, created a minute before the time the
                                  envelope and gateway targets judge them at (Fuzz/FuzzTarget.swift: fuzzNow), some
                                  with sealed-looking fields, some posting a response schema or a clear PIN
    fuzz_seeds.py ndjson DIR      NDJSON streams: examples one per line, blank lines, CRLF, no final line break
    fuzz_seeds.py reference DIR   each reference data file of Schemas/reference/, cut to fit the fuzzer's input
                                  length: a few codes, every brand, the countries the reference target's payloads
                                  name (US, BG, GB, AD) and two without postal codes or subdivisions
"""
import base64
import glob
import json
import os
import sys

CREATED = "2026-11-23T11:59:00.000Z"


def examples():
    root = os.path.join(os.path.dirname(__file__), "..", "Examples", "card-create")
    for path in sorted(glob.glob(os.path.join(root, "*.json"))):
        with open(path, "rb") as handle:
            yield os.path.basename(path)[:-5], handle.read()


def envelope(request_id, values, schema="card-create", version="1.0.0", fields=()):
    return json.dumps({
        "requestId": request_id, "createdAt": CREATED, "schema": schema, "schemaVersion": version,
        "context": {"region": "EU"}, "tenderType": None, "values": values, "encryptedFields": list(fields),
    }, separators=(",", ":")).encode()


def main():
    kind, directory = sys.argv[1], sys.argv[2]
    os.makedirs(directory, exist_ok=True)
    seeds = {}
    if kind == "envelopes":
        for name, payload in examples():
            try:
                values = json.loads(payload)
            except ValueError:
                continue
            pin = values.pop("cardPin", None) if isinstance(values, dict) else None
            fields = []
            if pin is not None:
                fields.append({"pointer": "/cardPin", "algorithm": "HPKE-Base-X25519-SHA256-ChaChaPoly", "keyId": "gw-fuzz",
                               "encapsulatedKey": base64.b64encode(bytes(32)).decode(),
                               "ciphertext": base64.b64encode(bytes(range(24))).decode()})
            seeds[f"envelope-{name}.json"] = envelope(name, values, fields=fields)
        seeds["envelope-clear-pin.json"] = envelope("clear", {"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "1234"})
        seeds["envelope-response.json"] = envelope("response", {"cards": []}, schema="gift-cards-response")
    elif kind == "reference":
        root = os.path.join(os.path.dirname(__file__), "..", "Schemas", "reference")
        for path in sorted(glob.glob(os.path.join(root, "*.json"))):
            if path.endswith(".schema.json"):
                continue
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
            if "codes" in data:
                # A few codes, those the reference target's payloads use, and those that replace a withdrawn one.
                wanted = {"EUR", "USD", "XCG", "GBP", "US", "BG", "GB", "AD", "DE"}
                wanted |= {entry.get("replacedBy") for entry in data.get("withdrawn", [])}
                data["codes"] = [entry for offset, entry in enumerate(data["codes"]) if offset < 8 or entry["code"] in wanted]
            if "groups" in data:
                kept = {entry["code"] for entry in data["codes"]}
                data["groups"] = {name: [code for code in codes if code in kept] for name, codes in data["groups"].items()}
            if "countries" in data:
                data["countries"] = [c for c in data["countries"] if c["code"] in ("US", "BG", "GB", "AD", "AE", "DE")]
            seeds[os.path.basename(path)] = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    else:
        lines = [payload.replace(b"\n", b" ") for _, payload in examples()]
        seeds["stream.ndjson"] = b"\n".join(lines) + b"\n"
        seeds["stream-crlf.ndjson"] = b"\r\n".join(lines)
        seeds["stream-blank.ndjson"] = b"\n\n  \n".join(lines[:3])
    for name, data in seeds.items():
        with open(os.path.join(directory, name), "wb") as handle:
            handle.write(data)


if __name__ == "__main__":
    main()

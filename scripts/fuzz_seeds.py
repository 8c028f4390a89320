#!/usr/bin/env python3
"""Writes seed inputs for the fuzz targets that need more than a file of the repository.

    fuzz_seeds.py envelopes DIR   envelopes around Examples/card-create/*.json, created a minute before the time the
                                  envelope and gateway targets judge them at (Fuzz/FuzzTarget.swift: fuzzNow), some
                                  with sealed-looking fields, some posting a response schema or a clear PIN
    fuzz_seeds.py ndjson DIR      NDJSON streams: examples one per line, blank lines, CRLF, no final line break
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

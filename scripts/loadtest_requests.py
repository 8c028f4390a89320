#!/usr/bin/env python3
"""Writes the requests scripts/loadtest sends: one file per wrk thread, one envelope per line.

The mix, by request id prefix (the gateway's answer names the id, so the load script checks every answer):
  valid-N     a card-create request in clear, valid                      -> 200 accepted
  invalid-N   the same with the currency "EURO"                          -> 422, rule format
  tampered-N  an envelope sealed by dce-send with its request id changed -> 422, rule tampered
  sealed-N    an envelope sealed by dce-send, as sent                    -> 200 accepted
and repeats: a copy of a valid request sent earlier by the same thread  -> 200, the same answer again (replayed)

The sealed envelopes are made by dce-send itself (the PIN sealed to the gateway's key), captured by a stand-in
gateway on loopback that answers "accepted" and keeps the body.
"""
import argparse
import http.server
import json
import os
import subprocess
import sys
import threading
from datetime import datetime, timezone


def capture_sealed(dce_send, keys, count, payload):
    captured = []

    class Capture(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            captured.append(body.decode())
            request_id = json.loads(body)["requestId"]
            # What the reference gateway answers a card-create with (dce-send checks it against card-response).
            card = {"cardId": "0d6f1f1e-2f4b-4c39-9a8e-5f0c6d1b2a3c", "status": "ACTIVE", "cardType": "VIRTUAL",
                    "programName": "SKRILL-VIRTUAL-MC-EEA", "isPinSet": True, "currency": "EUR"}
            answer = json.dumps({"requestId": request_id, "status": "accepted", "payload": card, "errors": []}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Capture)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    for _ in range(count):
        done = subprocess.run(
            [dce_send, payload, "--schema", "card-create", "--context", "region=EU", "--gateway", url, "--gateway-keys", keys],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"loadtest: dce-send could not seal a request: {done.stderr.strip()}")
    server.shutdown()
    return captured


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--dce-send", required=True)
    parser.add_argument("--keys", required=True)
    parser.add_argument("--payload", required=True)
    parser.add_argument("--round", required=True, help="a prefix that keeps request ids apart between rounds")
    parser.add_argument("--output", required=True)
    args = parser.parse_args()

    version = json.load(open("Schemas/card-create.json"))["version"]
    created = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"

    def clear(request_id, currency):
        return json.dumps({
            "requestId": request_id, "createdAt": created, "schema": "card-create", "schemaVersion": version,
            "context": {"region": "EU"}, "tenderType": None,
            "values": {"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": currency}, "encryptedFields": []},
            separators=(",", ":"))

    sealed = capture_sealed(args.dce_send, args.keys, 8, args.payload)
    os.makedirs(args.output, exist_ok=True)
    per_thread = args.requests // args.threads
    counts = {"valid": 0, "invalid": 0, "tampered": 0, "sealed": 0, "repeat": 0}
    for thread in range(args.threads):
        lines = []
        sent_valid = []
        for index in range(per_thread):
            n = f"{args.round}-{thread}-{index}"
            slot = index % 20
            if thread == 0 and index < len(sealed):
                lines.append(sealed[index])
                counts["sealed"] += 1
            elif slot < 11 or (slot >= 17 and len(sent_valid) < 1_000):
                lines.append(clear(f"valid-{n}", "EUR"))
                sent_valid.append(lines[-1])
                counts["valid"] += 1
            elif slot < 15:
                lines.append(clear(f"invalid-{n}", "EURO"))
                counts["invalid"] += 1
            elif slot < 17:
                envelope = json.loads(sealed[index % len(sealed)])
                envelope["requestId"] = f"tampered-{n}"
                lines.append(json.dumps(envelope, separators=(",", ":")))
                counts["tampered"] += 1
            else:
                # A copy of a valid request this thread sent at least 500 requests ago: long answered.
                lines.append(sent_valid[(index * 7919) % max(1, len(sent_valid) - 500)])
                counts["repeat"] += 1
        with open(os.path.join(args.output, f"thread-{thread + 1}.ndjson"), "w") as out:
            out.write("\n".join(lines) + "\n")
    json.dump(counts, open(os.path.join(args.output, "mix.json"), "w"))


if __name__ == "__main__":
    main()

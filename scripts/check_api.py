#!/usr/bin/env python3
"""The gateway against its own description, as an integrating team checks it.

Starts the debug build's dce-gateway on loopback (memory store, card-testing limits on), fetches GET /openapi.json
and validates it with openapi-spec-validator, then attacks the gateway with schemathesis from that document: the
examples, coverage, fuzzing and stateful phases, positive and negative data, with the checks not_a_server_error,
status_code_conformance, content_type_conformance, response_headers_conformance, response_schema_conformance and
unsupported_method.
Three runs: with an API key (--max-examples, 200 by default, per operation), with a bearer JWT from a JWKS the
gateway trusts, and with no credential at all (--other-examples each). Prints each run's test cases per phase and
exits 1 when the document is invalid or schemathesis finds a failure (its report names it), 2 when the gateway or
the tools cannot be started.

The versions are pinned in scripts/requirements-test.txt (scripts/setup-python.sh installs them into .venv-test).
"""

import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

CHECKS = ",".join(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
        # Another method on a documented path: 405 with Allow (the gateway's router answers it).
        "unsupported_method",
    ]
)
PHASES = ["examples", "coverage", "fuzzing", "stateful"]


def fail(message: str, status: int = 2) -> None:
    print(f"check_api: error: {message}", file=sys.stderr)
    sys.exit(status)


class Gateway:
    """A dce-gateway process on a free loopback port, its output in a file."""

    def __init__(self, binary: Path, keys: Path, arguments: list[str], log: Path):
        self.log = log
        self.process = subprocess.Popen(
            [str(binary), "--port", "0", "--keys", str(keys), "--drain-seconds", "0", *arguments],
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = re.search(r"listening on (http://127\.0\.0\.1:\d+)", log.read_text(errors="replace"))
            if found:
                self.url = found.group(1)
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        fail(f"dce-gateway did not start: {log.read_text(errors='replace')[-2000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def base64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def issuer(folder: Path) -> tuple[Path, str]:
    """A JWKS of one Ed25519 key, and a token it signs with every scope, valid for an hour."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    jwks = folder / "jwks.json"
    jwks.write_text(json.dumps({"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "ed-1", "x": base64url(public)}]}))
    now = int(time.time())
    header = {"alg": "EdDSA", "typ": "JWT", "kid": "ed-1"}
    claims = {
        "iss": "https://issuer.test",
        "aud": "dce-gateway",
        "sub": "schemathesis",
        "scope": "requests:*",
        "iat": now,
        "exp": now + 3600,
    }
    signing_input = base64url(json.dumps(header).encode()) + "." + base64url(json.dumps(claims).encode())
    return jwks, signing_input + "." + base64url(key.sign(signing_input.encode()))


def cases(report: Path) -> tuple[dict[str, int], dict[str, int]]:
    """Test cases per phase and per operation, from schemathesis's NDJSON event stream."""
    phases = {phase: 0 for phase in PHASES}
    operations: dict[str, int] = {}
    for line in report.read_text().splitlines():
        event = json.loads(line)
        body = event.get("ScenarioFinished")
        if not isinstance(body, dict):
            continue
        recorder = body.get("recorder") or {}
        count = len(recorder.get("cases") or {})
        phase = str(body.get("phase", "")).lower()
        if phase in phases:
            phases[phase] += count
        label = str(recorder.get("label", ""))
        operations[label] = operations.get(label, 0) + count
    return phases, operations


def attack(
    venv: Path, gateway: Gateway, name: str, examples: int, headers: list[str], out: Path, seed: int
) -> tuple[int, dict[str, int]]:
    """One schemathesis run against the gateway: its exit status and test cases per phase."""
    events = out / f"{name}.ndjson"
    command = [
        str(venv / "bin" / "st"),
        "--no-color",
        "run",
        f"{gateway.url}/openapi.json",
        "--phases",
        ",".join(PHASES),
        "--checks",
        CHECKS,
        "--mode",
        "all",
        "--max-examples",
        str(examples),
        "--seed",
        str(seed),
        "--workers",
        "2",
        "--request-timeout",
        "30",
        "--report",
        "ndjson,junit",
        "--report-ndjson-path",
        str(events),
        "--report-junit-path",
        str(out / f"{name}.xml"),
        "--warnings",
        "off",
    ]
    for header in headers:
        command += ["--header", header]
    # The document made into one schemathesis generates from (scripts/schemathesis_hooks.py says how and why).
    environment = dict(os.environ, SCHEMATHESIS_HOOKS="schemathesis_hooks")
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")]))
    started = time.monotonic()
    with (out / f"{name}.log").open("w") as log:
        status = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, env=environment).returncode
    counts, operations = cases(events) if events.exists() else ({}, {})
    if status == 0 and events.exists():
        events.unlink()  # every request and answer, tens of megabytes: kept only to look into a failure
    phases = ", ".join(f"{phase} {counts.get(phase, 0)}" for phase in PHASES)
    print(f"schemathesis, {name}: exit {status}, {time.monotonic() - started:.0f} s; test cases: {phases}")
    print("    by operation: " + ", ".join(f"{label} {count}" for label, count in sorted(operations.items())))
    if status != 0:
        print((out / f"{name}.log").read_text(errors="replace")[-6000:])
    return status, counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", type=Path, default=Path(".build/debug/dce-gateway"))
    parser.add_argument("--venv", type=Path, default=Path(".venv-test"))
    parser.add_argument("--max-examples", type=int, default=200)
    parser.add_argument("--other-examples", type=int, default=50)
    parser.add_argument("--output", type=Path, default=Path(".build-logs/api"))
    parser.add_argument("--seed", type=int, default=20261129)
    arguments = parser.parse_args()
    if not arguments.binary.exists():
        fail(f"{arguments.binary} does not exist: build the package first (swift build)")
    if shutil.which("st", path=str(arguments.venv / "bin")) is None:
        fail(f"schemathesis is not in {arguments.venv}: run scripts/setup-python.sh")
    arguments.output.mkdir(parents=True, exist_ok=True)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="dce-api-") as temporary:
        folder = Path(temporary)
        created = subprocess.run(
            [str(arguments.binary), "keys", "create", "--name", "schemathesis", "--scopes", "requests:*", "--keys",
             str(folder)],
            capture_output=True,
            text=True,
        )
        if created.returncode != 0:
            fail(f"dce-gateway keys create failed: {created.stderr}")
        api_key = created.stdout.strip()
        jwks, token = issuer(folder)
        limits = ["--max-cards-per-caller-per-minute", "5", "--max-callers-per-card-per-hour", "2"]
        jwt = ["--jwks", str(jwks), "--issuer", "https://issuer.test", "--audience", "dce-gateway"]
        gateway = Gateway(arguments.binary, folder, ["--api-keys", *jwt, *limits], arguments.output / "gateway.log")
        try:
            document = arguments.output / "openapi.json"
            with urllib.request.urlopen(f"{gateway.url}/openapi.json", timeout=60) as answer:
                document.write_bytes(answer.read())
            validated = subprocess.run(
                [str(arguments.venv / "bin" / "openapi-spec-validator"), str(document)],
                capture_output=True,
                text=True,
            )
            size = document.stat().st_size
            if validated.returncode != 0:
                print(f"openapi-spec-validator: the document ({size:,} bytes) is not valid:\n{validated.stdout}")
                failures += 1
            else:
                print(f"openapi-spec-validator: GET /openapi.json ({size:,} bytes) is a valid OpenAPI 3.1 document")
            runs = [
                ("api-key", arguments.max_examples, [f"Authorization: Bearer {api_key}"]),
                ("bearer-jwt", arguments.other_examples, [f"Authorization: Bearer {token}"]),
                ("no-credential", arguments.other_examples, []),
            ]
            for name, examples, headers in runs:
                status, _ = attack(arguments.venv, gateway, name, examples, headers, arguments.output, arguments.seed)
                failures += status != 0
        finally:
            gateway.stop()
    print(f"check_api: {'no failure' if failures == 0 else f'{failures} failed'} (reports in {arguments.output})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

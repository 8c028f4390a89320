#!/usr/bin/env python3
"""The side-by-side benchmark behind scripts/benchmark: dce-validate against jsonschema-rs on the same seeded
corpus, every figure the median of several runs, with the ratio to its reference and whether each target is met."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import jsonschema_rs
import orjson

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


SPAWNER = None


def run_measured(arguments):
    """Runs a command from dce-benchmark (posix_spawn + wait4): a child forked from this Python process would count
    the parent's pages in its peak RSS. Returns (wall seconds, peak RSS in MB, exit status)."""
    completed = subprocess.run([SPAWNER, "spawn", *arguments], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
    result = json.loads(completed.stdout.splitlines()[-1])
    return result["seconds"], result["maxrssKB"] / 1024, result["status"]


def median_run(arguments, runs):
    walls, rss = [], []
    for _ in range(runs):
        wall, peak, status = run_measured(arguments)
        if status not in (0, 1):
            sys.exit(f"benchmark: {' '.join(arguments)} exited {status}")
        walls.append(wall)
        rss.append(peak)
    return statistics.median(walls), max(rss)


def swift_json(binary, *arguments):
    return json.loads(subprocess.run([binary, *arguments], capture_output=True, check=True).stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--quick", action="store_true", help="skip the 1,000,000-payload memory run and the plot")
    options = parser.parse_args()
    validate = os.path.join(options.bin, "dce-validate")
    bench = os.path.join(options.bin, "dce-benchmark")
    global SPAWNER
    SPAWNER = bench
    work = tempfile.mkdtemp(prefix="dce-bench-")
    rows = []
    targets = []

    def text(value, unit):
        return "" if value is None else (f"{value:.2f} ms" if unit == "ms" else f"{value:,.0f} {unit}")

    def row(name, ours, reference=None, unit="ns", target=None, met=None):
        ratio = f"{reference / ours:.2f}x" if reference and ours else ""
        rows.append((name, text(ours, unit), text(reference, unit), ratio, target or "", "" if met is None else ("met" if met else "NOT met")))
        if met is not None:
            targets.append(met)

    for schema in ["card-create", "card-tokenize"]:
        corpus = os.path.join(work, f"{schema}.ndjson")
        subprocess.run([bench, "generate", "--schema", schema, "--count", str(options.count), "--out", corpus], check=True)
        lines = open(corpus, "rb").read().splitlines()
        size = sum(len(line) for line in lines) / len(lines)
        exported = json.loads(subprocess.run([validate, "export", "--schema", schema, "--to", "json-schema"], capture_output=True, check=True).stdout)
        reference = jsonschema_rs.validator_for(exported, validate_formats=True)

        # Verdicts: both validators judge every payload the same way.
        report = json.loads(subprocess.run([validate, corpus, "--ndjson", "--schema", schema, "--format", "json"], capture_output=True).stdout)
        ours = {payload["line"]: payload["valid"] for payload in report["payloads"]}
        theirs = {index + 1: reference.is_valid(orjson.loads(line)) for index, line in enumerate(lines)}
        mismatches = sum(1 for line in ours if ours[line] != theirs[line])
        invalid = sum(1 for valid in ours.values() if not valid)

        # jsonschema-rs, one core: read + parse (orjson) + validate with all errors; parsed values; valid/invalid only.
        def reference_end_to_end():
            with open(corpus, "rb") as handle:
                for line in handle:
                    list(reference.iter_errors(orjson.loads(line)))
        parsed = [orjson.loads(line) for line in lines]
        def reference_parsed_all():
            for value in parsed:
                list(reference.iter_errors(value))
        def reference_parsed_valid():
            for value in parsed:
                reference.is_valid(value)
        def timed(function):
            samples = []
            for _ in range(options.runs):
                start = time.perf_counter()
                function()
                samples.append(time.perf_counter() - start)
            return statistics.median(samples) / len(lines) * 1e9
        ref_e2e, ref_all, ref_valid = timed(reference_end_to_end), timed(reference_parsed_all), timed(reference_parsed_valid)

        one_core, rss_one = median_run([validate, corpus, "--ndjson", "--schema", schema, "--format", "json", "--output", "/dev/null", "--jobs", "1"], options.runs)
        all_cores, rss_all = median_run([validate, corpus, "--ndjson", "--schema", schema, "--format", "json", "--output", "/dev/null"], options.runs)
        api = swift_json(bench, "parsed", "--schema", schema, "--corpus", corpus, "--runs", str(options.runs))
        per_one = one_core / len(lines) * 1e9
        per_all = all_cores / len(lines) * 1e9

        print(f"{schema}: {len(lines):,} payloads, {size:.0f} bytes on average, {invalid:,} invalid; verdicts that differ from jsonschema-rs: {mismatches}")
        targets.append(mismatches == 0)
        row(f"{schema}: dce-validate end to end, 1 core (peak {rss_one:.0f} MB)", per_one, ref_e2e, target="2x reference" if schema == "card-create" else None,
            met=(ref_e2e / per_one >= 2) if schema == "card-create" else None)
        row(f"{schema}: dce-validate end to end, all cores (peak {rss_all:.0f} MB)", per_all, ref_e2e, target=">= 1.8x one core" if schema == "card-create" else None,
            met=(per_one / per_all >= 1.8) if schema == "card-create" else None)
        row(f"{schema}: parsed payload, all errors (Swift API)", api["parsedNs"], ref_all, target="<= 500 ns" if schema == "card-create" else None,
            met=(api["parsedNs"] <= 500) if schema == "card-create" else None)
        row(f"{schema}:   of which a valid payload", api["validNs"])
        row(f"{schema}:   of which an invalid payload ({api['errorsPerInvalid']:.2f} errors)", api["invalidNs"])
        row(f"{schema}: parse + validate (Swift API)", api["parseAndValidateNs"], ref_e2e)
        row(f"{schema}: jsonschema-rs, parsed, valid/invalid only", None, ref_valid)

    catalogue = swift_json(bench, "catalogue", "--runs", str(options.runs))
    row(f"load and compile the catalogue ({catalogue['schemas']} schemas)", catalogue["ms"], unit="ms", target="<= 20 ms", met=catalogue["ms"] <= 20)
    small = statistics.median(run_measured([validate, os.path.join(ROOT, "Examples/card-create/valid-eu-physical.json"), "--schema", "card-create"])[0] for _ in range(max(options.runs, 10))) * 1e3
    row("validate one small file, start to exit", small, unit="ms", target="<= 30 ms", met=small <= 30)

    if not options.quick:
        big = os.path.join(work, "million.ndjson")
        subprocess.run([bench, "generate", "--schema", "card-create", "--count", "1000000", "--out", big], check=True)
        wall, peak, _ = run_measured([validate, big, "--ndjson", "--schema", "card-create", "--format", "json", "--output", "/dev/null"])
        os.unlink(big)
        rows.append(("1,000,000-payload NDJSON stream, peak RSS", f"{peak:.0f} MB", "", "", "<= 64 MB", "met" if peak <= 64 else "NOT met"))
        targets.append(peak <= 64)
        scaling = swift_json(bench, "scaling", "--runs", "3")
        plot(scaling)
        print(f"cost against size (ns per payload): strings {[(p['bytes'], round(p['ns'])) for p in scaling['stringSize']]}; "
              f"fields {[(p['fields'], round(p['ns'])) for p in scaling['schemaSize']]}")

    width = max(len(r[0]) for r in rows)
    print()
    print(f"{'measure'.ljust(width)} | {'dce-validate':>14} | {'jsonschema-rs':>14} | {'ratio':>6} | {'target':<18} | result")
    print("-" * (width + 80))
    for name, ours, reference, ratio, target, met in rows:
        print(f"{name.ljust(width)} | {ours:>14} | {reference:>14} | {ratio:>6} | {target:<18} | {met}")
    print()
    print(f"targets: {sum(targets)} met, {len(targets) - sum(targets)} not met (machine: {os.cpu_count()} cores; medians of {options.runs} runs)")


def plot(scaling):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    sizes = [p["bytes"] for p in scaling["stringSize"]]
    left.loglog(sizes, [p["ns"] for p in scaling["stringSize"]], "o-")
    left.set_xlabel("string size (bytes)")
    left.set_ylabel("ns per payload")
    left.set_title("One string field with a regex")
    fields = [p["fields"] for p in scaling["schemaSize"]]
    right.loglog(fields, [p["ns"] for p in scaling["schemaSize"]], "o-")
    right.set_xlabel("fields in schema and payload")
    right.set_title("Wide objects")
    for axis in (left, right):
        axis.grid(True, which="both", alpha=0.3)
    figure.tight_layout()
    path = os.path.join(ROOT, "docs", "benchmark-scaling.png")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    figure.savefig(path, dpi=100)
    print(f"plot written to {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()

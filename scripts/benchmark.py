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
import simdjson

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
REFERENCE = os.path.join(ROOT, "scripts", "benchmark-reference")


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
    parser.add_argument("--against-bin", help="the build products of another revision, measured beside this tree's")
    parser.add_argument("--against-name", default="the other revision")
    options = parser.parse_args()
    validate = os.path.join(options.bin, "dce-validate")
    bench = os.path.join(options.bin, "dce-benchmark")
    global SPAWNER
    SPAWNER = bench
    work = tempfile.mkdtemp(prefix="dce-bench-")
    rows = []
    targets = []
    # With --against-bin: each of dce-validate's own measures again for the other revision, runs interleaved with
    # this tree's (this tree, the other, this tree, ...), so that both see the same machine.
    compared = []
    other_validate = os.path.join(options.against_bin, "dce-validate") if options.against_bin else None
    other_bench = os.path.join(options.against_bin, "dce-benchmark") if options.against_bin else None

    def compare(name, mine, theirs, unit):
        compared.append((name, mine, theirs, unit))

    def paired_runs(ours_arguments, theirs_arguments, runs):
        """Medians of this tree's and the other revision's runs, taken alternately."""
        ours_walls, ours_rss, theirs_walls, theirs_rss = [], [], [], []
        for _ in range(runs):
            for arguments, walls, rss in [(ours_arguments, ours_walls, ours_rss), (theirs_arguments, theirs_walls, theirs_rss)]:
                wall, peak, status = run_measured(arguments)
                if status not in (0, 1):
                    sys.exit(f"benchmark: {' '.join(arguments)} exited {status}")
                walls.append(wall)
                rss.append(peak)
        return (statistics.median(ours_walls), max(ours_rss)), (statistics.median(theirs_walls), max(theirs_rss))

    def text(value, unit):
        return "" if value is None else (f"{value:.2f} ms" if unit == "ms" else f"{value:,.0f} {unit}")

    def row(name, ours, reference=None, against="", unit="ns", target=None, met=None):
        """A measure beside its reference; the ratio is how many times faster dce-validate is."""
        ratio = f"{reference / ours:.2f}x" if reference and ours else ""
        rows.append((name, text(ours, unit), text(reference, unit), ratio, against, target or "", "" if met is None else ("met" if met else "NOT met")))
        if met is not None:
            targets.append(met)

    for schema in ["card-create", "card-tokenize"]:
        headline = schema == "card-create"
        corpus = os.path.join(work, f"{schema}.ndjson")
        subprocess.run([bench, "generate", "--schema", schema, "--count", str(options.count), "--out", corpus], check=True)
        lines = open(corpus, "rb").read().splitlines()
        size = sum(len(line) for line in lines) / len(lines)
        # Two references: the schema a jsonschema-rs user would write by hand (the headline), and the one
        # `dce-validate export` writes (every code list as an enum, every override as if/then), labelled as such.
        with open(os.path.join(REFERENCE, f"{schema}.json"), "rb") as handle:
            hand = jsonschema_rs.validator_for(orjson.loads(handle.read()))
        exported = jsonschema_rs.validator_for(
            json.loads(subprocess.run([validate, "export", "--schema", schema, "--to", "json-schema"], capture_output=True, check=True).stdout),
            validate_formats=True)

        # Verdicts: each reference judges every payload as dce-validate does; any payload they disagree on is listed
        # with both sides' reasons (rule and JSON Pointer only: a payload's values are never printed).
        report = json.loads(subprocess.run([validate, corpus, "--ndjson", "--schema", schema, "--format", "json"], capture_output=True).stdout)
        ours = {payload["line"]: payload for payload in report["payloads"]}
        parsed = [orjson.loads(line) for line in lines]
        invalid = sum(1 for payload in ours.values() if not payload["valid"])
        for label, reference in [("hand-written", hand), ("exported", exported)]:
            disagreements = [(index + 1, value) for index, value in enumerate(parsed) if reference.is_valid(value) != ours[index + 1]["valid"]]
            print(f"{schema}: verdicts that differ from jsonschema-rs on the {label} schema: {len(disagreements)}")
            for line, value in disagreements[:10]:
                theirs = "; ".join(f"{error.kind.__class__.__name__} at /{'/'.join(map(str, error.instance_path))}" for error in reference.iter_errors(value)) or "valid"
                mine = "; ".join(f"{error['rule']} at {error['path']}" for error in ours[line]["errors"]) or "valid"
                print(f"  line {line}: dce-validate: {mine}; jsonschema-rs: {theirs}")
            targets.append(not disagreements)

        # jsonschema-rs, one core: read + parse (orjson) + every error, or + a verdict; and the same on parsed values.
        def end_to_end(reference, everything):
            def run():
                with open(corpus, "rb") as handle:
                    for line in handle:
                        value = orjson.loads(line)
                        if everything:
                            list(reference.iter_errors(value))
                        else:
                            reference.is_valid(value)
            return run
        def on_parsed(reference, everything):
            def run():
                for value in parsed:
                    if everything:
                        list(reference.iter_errors(value))
                    else:
                        reference.is_valid(value)
            return run
        def timed(function):
            samples = []
            for _ in range(options.runs):
                start = time.perf_counter()
                function()
                samples.append(time.perf_counter() - start)
            return statistics.median(samples) / len(lines) * 1e9
        # The JSON reader against Python's fastest: orjson (bytes to Python objects) and simdjson (pysimdjson: its
        # structural index only, objects made as they are read); each figure includes Python's loop and call, which
        # `len` on each line measures.
        def reading(function):
            def run():
                for line in lines:
                    function(line)
            return run
        simd = simdjson.Parser()
        read_orjson, read_simdjson, read_call = timed(reading(orjson.loads)), timed(reading(simd.parse)), timed(reading(len))
        hand_all, hand_verdict = timed(end_to_end(hand, True)), timed(end_to_end(hand, False))
        hand_parsed_all, hand_parsed_verdict = timed(on_parsed(hand, True)), timed(on_parsed(hand, False))
        exported_all, exported_parsed_all = timed(end_to_end(exported, True)), timed(on_parsed(exported, True))

        batch = [corpus, "--ndjson", "--schema", schema, "--format", "json", "--output", "/dev/null"]
        if other_validate:
            (one_core, rss_one), (other_one, _) = paired_runs([validate, *batch, "--jobs", "1"], [other_validate, *batch, "--jobs", "1"], options.runs)
            (all_cores, rss_all), (other_all, _) = paired_runs([validate, *batch], [other_validate, *batch], options.runs)
            api = swift_json(bench, "parsed", "--schema", schema, "--corpus", corpus, "--runs", str(options.runs))
            other_api = swift_json(other_bench, "parsed", "--schema", schema, "--corpus", corpus, "--runs", str(options.runs))
            compare(f"{schema}: end to end, 1 core, every error", one_core / len(lines) * 1e9, other_one / len(lines) * 1e9, "ns")
            compare(f"{schema}: end to end, {os.cpu_count()} cores", all_cores / len(lines) * 1e9, other_all / len(lines) * 1e9, "ns")
            for key, label in [("parsedNs", "parsed payload, every error (Swift API)"),
                               ("writtenNs", "parsed payload, every error and its message (Swift API)"), ("validNs", "  of which a valid payload"),
                               ("invalidNs", "  of which an invalid payload"), ("parseAndValidateNs", "parse + validate (Swift API)"),
                               ("verdictNs", "isValid, parsed payload (Swift API)"), ("verdictBytesNs", "isValid(json:), parse included (Swift API)")]:
                if key in other_api:  # a revision from before the verdict API has no such figure
                    compare(f"{schema}: {label}", api[key], other_api[key], "ns")
        else:
            one_core, rss_one = median_run([validate, *batch, "--jobs", "1"], options.runs)
            all_cores, rss_all = median_run([validate, *batch], options.runs)
            api = swift_json(bench, "parsed", "--schema", schema, "--corpus", corpus, "--runs", str(options.runs))
        per_one = one_core / len(lines) * 1e9
        per_all = all_cores / len(lines) * 1e9

        print(f"{schema}: {len(lines):,} payloads, {size:.0f} bytes on average, {invalid:,} invalid")
        end = f"{schema}: end to end, 1 core, every error (peak {rss_one:.0f} MB)"
        row(end, per_one, hand_all, "jsonschema-rs, hand-written: read + parse + every error",
            target=">= 4x" if headline else None, met=(hand_all / per_one >= 4) if headline else None)
        row(end, per_one, hand_verdict, "jsonschema-rs, hand-written: read + parse + is_valid",
            target=">= 2x" if headline else None, met=(hand_verdict / per_one >= 2) if headline else None)
        row(end, per_one, exported_all, "jsonschema-rs, exported schema: read + parse + every error")
        row(f"{schema}: end to end, {os.cpu_count()} cores (peak {rss_all:.0f} MB)", per_all, per_one, "dce-validate, 1 core",
            target=">= 1.85x" if headline else None, met=(per_one / per_all >= 1.85) if headline else None)
        # A report keeps its violations as data, their messages written when read: beside a reference that makes every
        # error with its message, every message is read.
        row(f"{schema}: parsed payload, every error (Swift API)", api["parsedNs"], target="<= 500 ns" if headline else None,
            met=(api["parsedNs"] <= 500) if headline else None)
        row(f"{schema}:   of which a valid payload", api["validNs"])
        row(f"{schema}:   of which an invalid payload ({api['errorsPerInvalid']:.2f} errors)", api["invalidNs"])
        row(f"{schema}: parsed payload, every error and its message (Swift API)", api["writtenNs"], hand_parsed_all,
            "jsonschema-rs, hand-written: every error")
        row(f"{schema}: parsed payload, every error and its message (Swift API)", api["writtenNs"], exported_parsed_all,
            "jsonschema-rs, exported schema: every error")
        row(f"{schema}: parsed payload, every error (Swift API)", api["parsedNs"], hand_parsed_verdict, "jsonschema-rs, hand-written: is_valid")
        row(f"{schema}: parse + validate (Swift API)", api["parseAndValidateNs"], hand_all, "jsonschema-rs, hand-written: read + parse + every error")
        # A verdict against a verdict: ours from bytes, the parse included; theirs on values orjson already parsed.
        row(f"{schema}: isValid(json:), bytes in, parse included (Swift API)", api["verdictBytesNs"], hand_parsed_verdict,
            "jsonschema-rs, hand-written: is_valid on parsed values", target=">= 2x" if headline else None,
            met=(hand_parsed_verdict / api["verdictBytesNs"] >= 2) if headline else None)
        row(f"{schema}: isValid, parsed payload (Swift API)", api["verdictNs"], hand_parsed_verdict, "jsonschema-rs, hand-written: is_valid")
        if "readNs" in api:
            mb = size / api["readNs"] * 1e3
            row(f"{schema}: JSON reader, bytes to document, {size:.0f} B ({mb:.0f} MB/s) (Swift API)", api["readNs"], read_orjson,
                f"orjson.loads, Python's loop and call included ({read_call:.0f} ns)")
            row(f"{schema}: JSON reader, bytes to document, {size:.0f} B (Swift API)", api["readNs"], read_simdjson,
                f"simdjson (pysimdjson) parse, Python's loop and call included ({read_call:.0f} ns)")
            if other_bench and "readNs" in other_api:
                compare(f"{schema}: JSON reader, bytes to document", api["readNs"], other_api["readNs"], "ns")

        if schema == "card-create":
            # A typed request against its JSON, on the same requests: what an app calling validate(request) pays.
            typed = swift_json(bench, "typed", "--corpus", corpus, "--runs", str(options.runs))
            if other_bench:
                try:
                    other_typed = swift_json(other_bench, "typed", "--corpus", corpus, "--runs", str(options.runs))
                except subprocess.CalledProcessError:  # a revision from before this measure
                    other_typed = {}
                if "typedNs" in other_typed:
                    compare("card-create: validate(request), typed (Swift API)", typed["typedNs"], other_typed["typedNs"], "ns")
            row(f"card-create: validate(request), typed, {typed['requests']:,} requests (Swift API)", typed["typedNs"],
                typed["jsonNs"], "validate(json:) on the same requests, encoded beforehand", target="<= 1.2x",
                met=typed["typedNs"] <= 1.2 * typed["jsonNs"])
            row("card-create: isValid(request), typed (Swift API)", typed["typedVerdictNs"], typed["jsonVerdictNs"],
                "isValid(json:) on the same requests, encoded beforehand", target="<= 1.2x",
                met=typed["typedVerdictNs"] <= 1.2 * typed["jsonVerdictNs"])

    # A form as a person types into it (FormModel.set), a keystroke at a time: the mean over the keystrokes (most check
    # again only the value typed, or its object) and the slowest (one that makes the form describe itself again).
    keystroke = swift_json(bench, "keystroke", "--runs", str(options.runs))
    row("form: a keystroke, a card number into payment-account (FormModel)", keystroke["cardNumberMicroseconds"], unit="µs",
        target="<= 50 µs", met=keystroke["cardNumberMicroseconds"] <= 50)
    row("form: a keystroke, a postal code into card-create (FormModel)", keystroke["postalCodeMicroseconds"], unit="µs",
        target="<= 50 µs", met=keystroke["postalCodeMicroseconds"] <= 50)
    if "cardNumberSlowestMicroseconds" in keystroke:
        row("form: the slowest keystroke of a card number (its brand decided)", keystroke["cardNumberSlowestMicroseconds"],
            unit="µs")
        row("form: the slowest keystroke of a postal code (its object given)", keystroke["postalCodeSlowestMicroseconds"],
            unit="µs")

    catalogue = swift_json(bench, "catalogue", "--runs", str(options.runs))
    if other_bench:
        compare("load and compile the catalogue", catalogue["ms"], swift_json(other_bench, "catalogue", "--runs", str(options.runs))["ms"], "ms")
    row(f"load and compile the catalogue ({catalogue['schemas']} schemas)", catalogue["ms"], unit="ms", target="<= 20 ms", met=catalogue["ms"] <= 20)
    # One small file, start to exit, against a program that only links Foundation and reads the file, built the same
    # way: optimised, and on Linux with the Swift runtime and Foundation linked in, as scripts/release-flags.sh builds
    # the tools.
    bare = os.path.join(work, "bare-foundation")
    static = ["-static-stdlib"] if sys.platform.startswith("linux") else []
    subprocess.run(["swiftc", "-O", *static, os.path.join(REFERENCE, "bare-foundation.swift"), "-o", bare], check=True,
                   cwd=work)
    example = os.path.join(ROOT, "Examples/card-create/valid-eu-physical.json")
    if other_validate:
        (small, small_rss), (other_small, other_small_rss) = paired_runs(
            [validate, example, "--schema", "card-create"], [other_validate, example, "--schema", "card-create"], max(options.runs, 10))
        compare("validate one small file, start to exit", small * 1e3, other_small * 1e3, "ms")
        compare("validate one small file, peak RSS", small_rss, other_small_rss, "MB")
    else:
        small, small_rss = median_run([validate, example, "--schema", "card-create"], max(options.runs, 10))
    yardstick, yardstick_rss = median_run([bare, example], max(options.runs, 10))
    small, yardstick = small * 1e3, yardstick * 1e3
    rows.append(("validate one small file, start to exit", f"{small:.2f} ms", f"{yardstick:.2f} ms", f"{yardstick / small:.2f}x",
                 "a Foundation-only program reading the file", ">= 0.67x", "met" if small <= 1.5 * yardstick else "NOT met"))
    targets.append(small <= 1.5 * yardstick)
    rows.append(("validate one small file, peak RSS", f"{small_rss:.1f} MB", f"{yardstick_rss:.1f} MB", "",
                 "a Foundation-only program reading the file", "<= 16 MB", "met" if small_rss <= 16 else "NOT met"))
    targets.append(small_rss <= 16)

    if not options.quick:
        big = os.path.join(work, "million.ndjson")
        subprocess.run([bench, "generate", "--schema", "card-create", "--count", "1000000", "--out", big], check=True)
        wall, peak, _ = run_measured([validate, big, "--ndjson", "--schema", "card-create", "--format", "json", "--output", "/dev/null"])
        os.unlink(big)
        rows.append(("1,000,000-payload NDJSON stream, peak RSS", f"{peak:.0f} MB", "", "", "", "<= 64 MB", "met" if peak <= 64 else "NOT met"))
        targets.append(peak <= 64)
        scaling = swift_json(bench, "scaling", "--runs", "3")
        plot(scaling)
        print(f"cost against size (ns per payload): strings {[(p['bytes'], round(p['ns'])) for p in scaling['stringSize']]}; "
              f"fields {[(p['fields'], round(p['ns'])) for p in scaling['schemaSize']]}")

    width = max(len(r[0]) for r in rows)
    against = max(len(r[4]) for r in rows)
    print()
    print(f"{'measure'.ljust(width)} | {'dce-validate':>12} | {'reference':>12} | {'ratio':>6} | {'reference is'.ljust(against)} | {'target':<10} | result")
    print("-" * (width + against + 70))
    for name, ours, reference, ratio, what, target, met in rows:
        print(f"{name.ljust(width)} | {ours:>12} | {reference:>12} | {ratio:>6} | {what.ljust(against)} | {target:<10} | {met}")
    print()
    print("ratio: the reference's figure over dce-validate's (above 1x, dce-validate is faster or smaller)")
    print(f"targets: {sum(targets)} met, {len(targets) - sum(targets)} not met (machine: {os.cpu_count()} cores; medians of {options.runs} runs)")
    if compared:
        print()
        print(f"this tree against {options.against_name} (the same corpus, runs interleaved; change: + is slower or larger)")
        width = max(len(c[0]) for c in compared)
        print(f"{'measure'.ljust(width)} | {'this tree':>12} | {options.against_name:>12} | change")
        print("-" * (width + 42))
        for name, mine, theirs, unit in compared:
            def shown(value):
                return f"{value:,.2f} {unit}" if unit in ("ms", "MB") else f"{value:,.0f} {unit}"
            change = (mine - theirs) / theirs * 100 if theirs else 0
            print(f"{name.ljust(width)} | {shown(mine):>12} | {shown(theirs):>12} | {change:+.1f} %")


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

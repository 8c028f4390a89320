#!/usr/bin/env python3
"""Builds one DocC archive of the package's libraries from the modules a debug build has compiled, compiling nothing.

  1. For each library, the toolchain's swift-symbolgraph-extract reads its compiled .swiftmodule with the search paths
     and C module maps of its own compile command (from the build's plan, SCRATCH/debug.yaml) and the options
     swift-docc-plugin gives a library (public symbols and up, synthesized members, extension blocks): its graphs, and
     those of its extensions to other modules (`DCEForms@DCEEngine`), go to SCRATCH/symbol-graphs/LIBRARY/.
  2. `docc convert` makes each library's archive from its catalog (Sources/LIBRARY/*.docc) and graphs, after those of
     the libraries it imports, which it links to (combined documentation, as swift-docc-plugin's
     --enable-experimental-combined-documentation does); every DocC warning is an error.
  3. `docc merge` puts them in one archive, OUTPUT, under a landing page named after the package.

usage: build_docs.py SCRATCH OUTPUT LIBRARY...
Exit 0 when the archive is made; 1 when extraction fails or DocC finds a problem (its diagnostics, with file, line and
column, are printed); 2 when the build has not compiled a library (run `swift build --scratch-path SCRATCH` first)."""
import glob
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PACKAGE = "dce-validate"
# The options of a module's compile command that say where its imports are, each with one value.
SEARCH_OPTIONS = {"-I", "-F", "-target", "-sdk", "-Xcc", "-module-cache-path", "-swift-version"}
# What `docc convert` is given for every library, as scripts/docs always built them.
CONVERT_OPTIONS = ["--warnings-as-errors", "--transform-for-static-hosting", "--hosting-base-path", "/",
                   "--emit-lmdb-index", "--enable-experimental-external-link-support"]


def plan_commands(plan):
    """Each command of an llbuild plan by name: its inputs and its arguments."""
    commands, name = {}, None
    with open(plan) as file:
        for line in file:
            if line.startswith('  "') and line.rstrip().endswith('":'):
                name = line.strip()[1:-2]
                commands[name] = {}
            elif name and line.startswith("    inputs: ["):
                commands[name]["inputs"] = json.loads(line.split("inputs: ", 1)[1])
            elif name and line.startswith("    args: ["):
                commands[name]["args"] = json.loads(line.split("args: ", 1)[1])
    return commands


def search_arguments(arguments):
    kept = []
    for index, argument in enumerate(arguments[:-1]):
        if argument in SEARCH_OPTIONS and (index == 0 or arguments[index - 1] != "-Xcc"):
            kept += [argument, arguments[index + 1]]
    return kept


def run(command, what):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"build_docs: error: {what} failed:\n{result.stdout[-6000:]}{result.stderr[-6000:]}", file=sys.stderr)
    return result.returncode == 0


def main(scratch, output, libraries):
    triple = f"{os.uname().machine}-unknown-linux-gnu"
    plan = os.path.join(scratch, "debug.yaml")
    if not os.path.exists(plan):
        print(f"build_docs: error: {plan} does not exist: build first (swift build --scratch-path {scratch})",
              file=sys.stderr)
        return 2
    commands = plan_commands(plan)
    modules = os.path.abspath(os.path.join(scratch, triple, "debug", "Modules"))
    graphs = os.path.join(scratch, "symbol-graphs")
    archives = os.path.join(scratch, "documentation-archives")
    shutil.rmtree(graphs, ignore_errors=True)
    shutil.rmtree(archives, ignore_errors=True)
    os.makedirs(archives)
    imports = {}
    for library in libraries:
        command = commands.get(f"C.{library}-{triple}-debug.module", {})
        if "args" not in command or not os.path.exists(os.path.join(modules, f"{library}.swiftmodule")):
            print(f"build_docs: error: the debug build in {scratch} has not compiled {library}", file=sys.stderr)
            return 2
        # The libraries it imports, directly or not: the compiled modules its compile command reads.
        imports[library] = [other for other in libraries
                            if os.path.join(modules, f"{other}.swiftmodule") in command.get("inputs", [])]
        folder = os.path.join(graphs, library)
        os.makedirs(folder)
        if not run(["swift-symbolgraph-extract", "-module-name", library, *search_arguments(command["args"]),
                    "-minimum-access-level", "public", "-emit-extension-block-symbols", "-output-dir", folder],
                   f"swift-symbolgraph-extract for {library}"):
            return 1
    made = []
    while len(made) < len(libraries):
        ready = [library for library in libraries
                 if library not in made and all(other in made for other in imports[library])]
        if not ready:
            print(f"build_docs: error: the libraries import each other in a cycle: {imports}", file=sys.stderr)
            return 1
        for library in ready:
            catalogs = glob.glob(os.path.join(ROOT, "Sources", library, "*.docc"))
            archive = os.path.join(archives, f"{library}.doccarchive")
            dependencies = [argument for other in imports[library]
                            for argument in ("--dependency", os.path.join(archives, f"{other}.doccarchive"))]
            if not run(["docc", "convert", *catalogs, "--fallback-display-name", library,
                        "--fallback-bundle-identifier", library, "--additional-symbol-graph-dir",
                        os.path.join(graphs, library), "--output-path", archive, *CONVERT_OPTIONS, *dependencies],
                       f"docc convert for {library}"):
                return 1
            made.append(library)
    shutil.rmtree(output, ignore_errors=True)
    if not run(["docc", "merge", *[os.path.join(archives, f"{library}.doccarchive") for library in made],
                "--output-path", output, "--synthesized-landing-page-name", PACKAGE,
                "--synthesized-landing-page-kind", "Package"], "docc merge"):
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))

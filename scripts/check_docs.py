#!/usr/bin/env python3
"""Fails when a public declaration of the package has no documentation comment of its own.

Reads the symbol graphs extracted for the documentation (scripts/build_docs.py; scripts/docs passes the folder) and
lists every symbol declared in this repository's Sources/ (members the compiler synthesizes, and those inherited
from the standard library's protocols, have no place there and are left out) whose `///` comment is missing, with
its file and line. Exit 0 when there is none, 1 otherwise, 2 when there are no symbol graphs to read.
usage: check_docs.py SYMBOL_GRAPH_FOLDER"""
import glob
import json
import os
import sys

root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sources = os.path.join(root, "Sources") + os.sep


def main(folder):
    graphs = sorted(glob.glob(os.path.join(folder, "**", "*.symbols.json"), recursive=True))
    if not graphs:
        print(f"check_docs: error: no symbol graphs under {folder}", file=sys.stderr)
        return 2
    modules, symbols, missing = set(), 0, []
    for path in graphs:
        with open(path) as file:
            graph = json.load(file)
        module = graph["module"]["name"]
        modules.add(module)
        for symbol in graph["symbols"]:
            location = symbol.get("location", {})
            uri = location.get("uri", "").removeprefix("file://")
            if not os.path.abspath(uri).startswith(sources):
                continue
            symbols += 1
            comment = symbol.get("docComment")
            # A comment inherited from another module's declaration (a protocol requirement) is not this one's.
            own = comment and comment.get("module", module) == module and any(
                line.get("text", "").strip() for line in comment.get("lines", []))
            if not own:
                line = location.get("position", {}).get("line", 0) + 1
                name = ".".join(symbol["pathComponents"])
                missing.append(f"{os.path.relpath(uri, root)}:{line}: {symbol['kind']['displayName']} {name}")
    for entry in sorted(set(missing)):
        print(f"{entry}: no documentation comment")
    print(f"check_docs: {symbols} public symbols of {len(modules)} modules, {len(set(missing))} without documentation")
    return 1 if missing else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))

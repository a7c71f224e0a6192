#!/usr/bin/python3
"""Checks the generated dialect docs: every op has a one-line summary of more
than one word, a description, and an MLIR example.

Usage: check-op-docs.py build/docs/GraphDialect.md
"""
import re
import sys


def main(path):
    text = open(path, encoding="utf-8").read()
    # Each op section starts with "### `kiln.name` (::kiln::NameOp)".
    sections = re.split(r"^### ", text, flags=re.M)[1:]
    problems = []
    for section in sections:
        name = section.split("\n", 1)[0].strip()
        if not name.startswith("`kiln."):
            continue
        summary = re.search(r"^_(.+)_$", section, flags=re.M)
        if not summary or len(summary.group(1).split()) < 2:
            problems.append(f"{name}: missing or one-word summary")
        if "```mlir" not in section:
            problems.append(f"{name}: no ```mlir example in the description")
    count = sum(1 for s in sections if s.startswith("`kiln."))
    for problem in problems:
        print(problem)
    print(f"checked {count} ops, {len(problems)} problems")
    return 1 if problems or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

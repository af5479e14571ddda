#!/usr/bin/env python3
"""check_sizes.py - no file of src/ over 800 lines, no function over 120 (docs/ARCHITECTURE.md).

Usage: check_sizes.py SRC_DIR [--list N]

A function is counted from the line of its name to its closing brace: clang-format puts a
function's opening and closing braces alone at the start of a line, so a "{" in column 0
opens one and the next "}" in column 0 closes it. Prints each file or function over its
limit, one line each, and exits 1 when there is one; otherwise prints the longest file and
function and exits 0. With --list N, prints the N longest functions too.
"""
import os
import re
import sys

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 120

NAME = re.compile(r"([A-Za-z_][A-Za-z_0-9]*)\s*\(")


def functions(path):
    """(name, first line, length) of each function defined in a C file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    found = []
    for number, line in enumerate(lines):
        if line != "{" and not (line.startswith("{") and line.strip() == "{"):
            continue
        # the signature: back to the line that holds the name and the "("
        start = number - 1
        while start > 0 and "(" not in lines[start]:
            start -= 1
        match = NAME.search(lines[start])
        if not match or lines[start].startswith((" ", "\t", "#")):
            continue
        end = number + 1
        while end < len(lines) and not lines[end].startswith("}"):
            end += 1
        found.append((match.group(1), start + 1, end - start + 1))
    return found


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    src = sys.argv[1]
    listed = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--list" else 0
    errors = []
    longest_file = ("", 0)
    every = []
    for directory, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, src)
            with open(path, encoding="utf-8", errors="replace") as f:
                count = sum(1 for _ in f)
            if count > longest_file[1]:
                longest_file = (relative, count)
            if count > MAX_FILE_LINES:
                errors.append("%s: %d lines, more than %d" % (relative, count, MAX_FILE_LINES))
            for function, line, length in functions(path):
                every.append((length, "%s:%d: %s()" % (relative, line, function)))
                if length > MAX_FUNCTION_LINES:
                    errors.append("%s:%d: %s() is %d lines, more than %d" % (
                        relative, line, function, length, MAX_FUNCTION_LINES))
    every.sort(reverse=True)
    for length, where in every[:listed]:
        print("%4d %s" % (length, where))
    for error in errors:
        print(error)
    if errors:
        return 1
    print("ok: the longest file %s (%d lines), the longest function %s (%d lines)" % (
        longest_file[0], longest_file[1], every[0][1] if every else "-",
        every[0][0] if every else 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""check_includes.py - the dependency rule of src/, checked from its #include lines.

Usage: check_includes.py SRC_DIR

A module is a .c file and its .h (src/solver/solver_fast.c and src/solver/solver_fast.h are
one module, "solver/solver_fast"), or the files PARTS below names as one. Module A depends on
module B when a file of A includes a header of B ("..." includes only, looked up beside the
including file first, then under src/; <...> are the system's). The rule (docs/ARCHITECTURE.md):

  1. no include circle: the modules and their dependencies form no cycle;
  2. no arrow up: every module sits in one layer of LAYERS below, and depends only on
     modules of its own layer or of the layers under it;
  3. doors: a file outside a folder of src/ includes only the headers DOORS names for that
     folder (tests/, bench/ and fuzz/ may open any header: they test and measure the insides).

Prints every broken rule, one line each, and exits 1 when there is one; a module that no
layer names is an error too, so a new file must be placed. Exits 0 and prints a summary
otherwise.
"""
import os
import re
import sys

# The layers, from the bottom. A module is named by its path under src/ without the
# extension; a pattern ending in "*" takes every module starting with it.
LAYERS = [
    ("level data", ["level/*"]),
    ("rules", ["rules/board", "rules/game", "rules/lurd", "rules/solutions", "rules/box_moves"]),
    ("analysis", ["rules/deadlock"]),
    ("search engine", ["ida"]),
    ("solvers", ["solver/*", "tiles/*"]),
    ("solver thread and saved progress", ["worker/*", "progress/*"]),
    ("front-ends", ["cli/*", "tui/*"]),
]

# Each folder's door: the headers that files outside the folder may include. Every other
# header of the folder is its own business.
DOORS = {
    "level": ["utf8.h", "utf8_case.h", "textfile.h", "level.h", "collection.h", "library.h",
              "safe_file.h", "level_edit.h", "level_save.h", "level_draft.h"],
    "rules": ["board.h", "game.h", "lurd.h", "solutions.h", "deadlock.h",
              "box_moves.h"],
    "solver": ["solver.h", "solver_options.h", "optimizer.h"],
    "tiles": ["tiles.h", "tiles_board.h", "tiles_pdb.h"],
    "worker": ["worker.h", "answers.h"],
    "progress": ["progress.h", "progress_options.h"],
    "tui": ["keys.h"],
    "cli": ["cli.h"],
}

# Modules cut in several files that share a private header: file -> the module it is part
# of. The private header says so in its opening comment ("not for other modules").
PARTS = {
    "progress/progress_store": "progress/progress",
    "progress/progress_game": "progress/progress",
    "progress/progress_wal": "progress/progress_db",
    "progress/progress_db_read": "progress/progress_db",
    "progress/progress_db_names": "progress/progress_db",
    "progress/progress_db_examine": "progress/progress_db",
    "solver/optimizer_search": "solver/optimizer",
    "solver/optimizer_pull": "solver/optimizer",
    "solver/optimizer_trips": "solver/optimizer",
    "solver/optimizer_check": "solver/optimizer",
    "solver/optimizer_optimal": "solver/optimizer",
    "worker/worker_state": "worker/worker",
    "worker/worker_improve": "worker/worker",
}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_of(module):
    for index, (_, patterns) in enumerate(LAYERS):
        for pattern in patterns:
            if pattern.endswith("*"):
                if module.startswith(pattern[:-1]):
                    return index
            elif module == pattern:
                return index
    return None


def resolve(src, directory, name):
    """The file an #include "name" in `directory` opens: beside it first, then under src/."""
    beside = os.path.normpath(os.path.join(directory, name))
    return beside if os.path.exists(beside) else os.path.normpath(os.path.join(src, name))


def door_breaks(src):
    """'file:line: ...' for every include of a folder's header that is not its door."""
    breaks = []
    for directory, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(directory, name)
            here = os.path.relpath(directory, src).split(os.sep)[0]
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    match = INCLUDE.match(line)
                    if not match:
                        continue
                    target = os.path.relpath(resolve(src, directory, match.group(1)), src)
                    parts = target.split(os.sep)
                    if len(parts) < 2 or parts[0] == here:
                        continue
                    if parts[-1] not in DOORS.get(parts[0], []):
                        breaks.append("%s:%d: %s is inside %s/, not its door (%s)" % (
                            os.path.relpath(path, src), number, target, parts[0],
                            ", ".join(DOORS.get(parts[0], [])) or "none"))
    return breaks


def read_graph(src):
    """Module -> {module it includes: the first 'file: line' that says so}."""
    graph = {}
    for directory, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(directory, name)
            module = os.path.relpath(path, src)[:-2]
            module = PARTS.get(module, module)
            edges = graph.setdefault(module, {})
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    match = INCLUDE.match(line)
                    if not match:
                        continue
                    target = resolve(src, directory, match.group(1))
                    if not target.startswith(os.path.normpath(src) + os.sep):
                        continue  # outside src/ (none today)
                    included = os.path.relpath(target, src)[:-2]
                    included = PARTS.get(included, included)
                    if included != module:
                        edges.setdefault(included, "%s:%d" % (os.path.relpath(path, src), number))
    for edges in list(graph.values()):
        for included in edges:
            graph.setdefault(included, {})
    return graph


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def shortest_loop(graph, component):
    """A shortest circle through the first module of `component`: [a, b, ..., a]."""
    members = set(component)
    start = component[0]
    previous = {start: None}
    queue = [start]
    for v in queue:
        for w in sorted(graph[v]):
            if w == start:
                path = [v]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return [start] + path[::-1][1:] + [start] if v != start else [start, start]
            if w in members and w not in previous:
                previous[w] = v
                queue.append(w)
    return component + [component[0]]


def main():
    if len(sys.argv) != 2:
        print("usage: check_includes.py SRC_DIR", file=sys.stderr)
        return 2
    src = sys.argv[1]
    graph = read_graph(src)
    errors = []
    for component in cycles(graph):
        loop = shortest_loop(graph, component)
        steps = ["%s -> %s (%s)" % (a, b, graph[a][b]) for a, b in zip(loop, loop[1:])]
        errors.append("include circle: %s" % "; ".join(steps))
    for module in sorted(graph):
        layer = layer_of(module)
        if layer is None:
            errors.append("%s: in no layer (add it to LAYERS in %s)" % (module, sys.argv[0]))
            continue
        for included, where in sorted(graph[module].items()):
            other = layer_of(included)
            if other is not None and other > layer:
                errors.append("%s: arrow up: %s (%s) includes %s (%s)" % (
                    where, module, LAYERS[layer][0], included, LAYERS[other][0]))
    errors.extend(door_breaks(src))
    for error in errors:
        print(error)
    if errors:
        return 1
    print("ok: %d modules, %d dependencies, no circle, no arrow up, only doors" % (
        len(graph), sum(len(e) for e in graph.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main())

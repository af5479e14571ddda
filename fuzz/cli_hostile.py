#!/usr/bin/env python3
"""cli_hostile.py - hostile and mutated inputs through every command-line mode.

Usage: fuzz/cli_hostile.py SOKOBAN [MUTATIONS [SEED]]

Makes broken level files (no player, two, boxes != goals, open walls, NUL bytes, invalid
UTF-8, lines of 1 MB, 10,000 levels, run-length rows with huge counts, ...) and solutions
(counts past any limit, nested groups, @ with no file, ...), plus MUTATIONS mutations (60 by
default) of a good file, in a scratch folder under $TMPDIR, and runs each through --list,
--verify, --deadlocks, --solve, --hint and --optimize with `ulimit -t 5` (and `ulimit -v
4000000` unless SOKOBAN is built with AddressSanitizer, which maps terabytes of shadow), HOME
and XDG_* in the scratch folder. Flags a crash or a signal, a sanitizer report, a time-out
(40 s of wall clock), and more than one line on stderr where one line is the rule (--list
and the --all modes say one line a level). Prints each finding, then "N runs, M findings";
exits 1 when there is a finding. A first pass on 2026-12-08 found no crash; the
unclear messages it and the hand-run attacks found are tested in tests/cli.
"""
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile

SMALL = b"#####\n#@$.#\n#####\n"


def hostile_levels():
    return {
        "empty": b"", "nul": b"\0" * 100, "nul_in_level": b"#####\n#@$\0.#\n#####\n",
        "small": SMALL, "no_player": b"#####\n# $.#\n#####\n",
        "two_players": b"######\n#@$.@#\n######\n", "boxes_ne_goals": b"######\n#@$$.#\n######\n",
        "no_boxes": b"####\n#@ #\n####\n", "unclosed": b"#####\n#@$. \n#####\n",
        "zero_rows": b"Title: nothing\n\n\n", "line_1mb": b"#" * (1 << 20) + b"\n" + SMALL,
        "tall": b"###\n#@#\n" + b"# #\n" * 10000 + b"#$#\n#.#\n###\n",
        "invalid_utf8": b"Title: \xff\xfe\xc3\x28\n" + SMALL,
        "controls": b"Title: a\x1b[2J\xc2\x9bb\n" + SMALL, "crlf": SMALL.replace(b"\n", b"\r\n"),
        "rle_huge": b"999999999#\n#@$.#\n5#\n", "rle_overflow": b"99999999999999999999#\n#@$.#\n5#\n",
        "rle_bars": b"|" * 100000 + b"\n", "levels_10000": (b"; x\n" + SMALL + b"\n") * 10000,
        "sok_solutions": SMALL + b"Solution:\n" + b"999999999R\n" + b"Solution:\n(((R\n",
        "box_outside": b"$ #####\n  #@$.#\n  #####\n",
        "wide_legal": b"#" * 100 + b"\n#@$." + b" " * 95 + b"#\n" + b"#" * 100 + b"\n",
    }


SOLUTIONS = ["R", "-", "", "@", "@-", "999999999999R", "(" * 1000 + "R" + ")2" * 1000, "((((R",
             ")))", "0R", "R3", "lr" * 60000, "x", "level=1 solution=R", "level=0 solution=R"]


def mutate(rng, data):
    alpha = b"#@$.*+ -_pPbB\n|0123456789()\r\t\0\xff;:"
    d = bytearray(data)
    for _ in range(rng.randint(1, 12)):
        p = rng.randrange(len(d) + 1)
        op = rng.random()
        if op < 0.4 and d:
            d[min(p, len(d) - 1)] = rng.choice(alpha)
        elif op < 0.7:
            d[p:p] = bytes([rng.choice(alpha)]) * rng.choice([1, 1, 2, 9, 300])
        elif op < 0.85:
            del d[p:p + rng.randint(1, 20)]
        else:
            q = rng.randrange(len(d) + 1)
            d[p:p] = d[q:q + rng.randint(1, 200)]
    return bytes(d)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sokoban = os.path.abspath(sys.argv[1])
    mutations = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    with open(sokoban, "rb") as f:
        image = f.read()
    asan = b"libasan" in image or b"__asan_init" in image
    work = tempfile.mkdtemp(prefix="cli_hostile.")
    env = dict(os.environ, HOME=work, XDG_DATA_HOME=work + "/data",
               XDG_CACHE_HOME=work + "/cache", XDG_CONFIG_HOME=work + "/config",
               ASAN_OPTIONS="abort_on_error=1:detect_leaks=1",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    levels = hostile_levels()
    good = levels["small"] + b"\n" + levels["wide_legal"]
    for i in range(mutations):
        levels["mut%03d" % i] = mutate(rng, good)
    paths = {}
    for name, data in levels.items():
        paths[name] = os.path.join(work, name + ".xsb")
        with open(paths[name], "wb") as f:
            f.write(data)

    def limits():
        os.nice(19)
        resource.setrlimit(resource.RLIMIT_CPU, (5, 5))
        if not asan:
            resource.setrlimit(resource.RLIMIT_AS, (4000000 << 10, 4000000 << 10))

    runs = findings = 0

    def run(args, many_lines=False):
        nonlocal runs, findings
        runs += 1
        try:
            r = subprocess.run([sokoban] + args, cwd=work, env=env, preexec_fn=limits,
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=40)
            err, why = r.stderr.decode("utf-8", "replace"), []
            if r.returncode < 0 or r.returncode >= 128:
                why.append("signal/status %d" % r.returncode)
            if "Sanitizer" in err or "runtime error" in err:
                why.append("sanitizer")
            if not many_lines and err.count("\n") > 2:  # a usage error adds "Try --help"
                why.append("%d lines on stderr" % err.count("\n"))
        except subprocess.TimeoutExpired:
            err, why = "", ["time-out"]
        if why:
            findings += 1
            print("FINDING (%s): sokoban %s\n%s" % (", ".join(why), " ".join(args)[:300],
                                                   err[:1500]))

    for name, path in paths.items():
        run(["--list", path], many_lines=True)
        run(["--verify", path, "R"])
        run(["--deadlocks", path])
        run(["--solve", path, "--time", "1", "--memory", "64"])
        run(["--solve", path, "--mode", "optimal", "--time", "1", "--memory", "64"])
        run(["--hint", path, "--time", "1", "--memory", "64", "--moves", "R"])
        run(["--optimize", path, "--time", "1", "--memory", "64", "R"])
        if name.startswith("mut"):
            run(["--solve", path, "--all", "--time", "0.2", "--nodes", "2000"], many_lines=True)
    for solution in SOLUTIONS:
        run(["--verify", paths["small"], solution])
        run(["--optimize", paths["small"], "--time", "1", solution])
        if solution not in ("-", "@-"):
            run(["--hint", paths["small"], "--moves", solution, "--time", "1"])
    shutil.rmtree(work, ignore_errors=True)
    print("%d runs, %d findings" % (runs, findings))
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()

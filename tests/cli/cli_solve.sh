#!/bin/sh
# cli_solve.sh - sokoban --solve: the output line, the verdicts, the exit status.
# Usage: cli_solve.sh SOKOBAN LEVELS_DIR
set -u
sokoban=$1
levels=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# A solved level prints every field in order and exits 0.
out=$("$sokoban" --solve "$levels/tutorial.xsb" --level 1)
status=$?
[ "$status" -eq 0 ] || fail "solved level: exit $status"
echo "$out" | grep -Eq '^level=1 status=solved pushes=3 moves=4 nodes=[0-9]+ seconds=[0-9.]+ solution=rRRR$' ||
    fail "solved level line: $out"

# Every solution of --all replays with --verify.
"$sokoban" --solve "$levels/tutorial.xsb" --all >"$work/all" || fail "tutorial --all: exit $?"
count=$(grep -c 'status=solved' "$work/all")
[ "$count" -eq "$(grep -c '^level=' "$work/all")" ] || fail "tutorial --all: not all solved"
while read -r line; do
    case $line in total*) continue ;; esac
    number=$(echo "$line" | sed 's/^level=\([0-9]*\) .*/\1/')
    solution=$(echo "$line" | sed 's/.* solution=//')
    "$sokoban" --verify "$levels/tutorial.xsb" --level "$number" "$solution" >/dev/null ||
        fail "tutorial level $number: solution does not verify"
done <"$work/all"

# A level with no solution: status unsolvable, '-' for the missing fields, exit 1.
printf '######\n#$  .#\n#  @ #\n######\n' >"$work/corner.xsb"
out=$("$sokoban" --solve "$work/corner.xsb")
status=$?
[ "$status" -eq 1 ] || fail "unsolvable level: exit $status"
echo "$out" | grep -Eq '^level=1 status=unsolvable pushes=- moves=- nodes=[0-9]+ seconds=[0-9.]+ solution=-$' ||
    fail "unsolvable level line: $out"

# Without --mode the fast mode answers: XSokoban 2, far beyond the optimal mode's reach in a
# few seconds, is solved.
out=$("$sokoban" --solve "$levels/xsokoban.xsb" --level 2 --time 20 --memory 64) ||
    fail "default mode on XSokoban 2: exit $?"
echo "$out" | grep -q '^level=2 status=solved ' || fail "default mode line: $out"

# A node limit: status limit, exit 1.
out=$("$sokoban" --solve "$levels/xsokoban.xsb" --level 2 --nodes 100 --memory 16 --mode optimal)
status=$?
[ "$status" -eq 1 ] || fail "node limit: exit $status"
echo "$out" | grep -q '^level=2 status=limit pushes=- ' || fail "node limit line: $out"

# Fast mode solves XSokoban 1; optimal mode in 97 pushes.
out=$("$sokoban" --solve "$levels/xsokoban.xsb" --mode fast --memory 16) || fail "fast mode: exit $?"
echo "$out" | grep -q 'status=solved' || fail "fast mode line: $out"
out=$("$sokoban" --solve "$levels/xsokoban.xsb" --mode optimal --memory 16) || fail "optimal: exit $?"
echo "$out" | grep -q 'status=solved pushes=97 ' || fail "optimal mode line: $out"

# Every status=error has a reason: a token on the line (reason=...) and one line on stderr.
# A level with more boxes than the solver takes is refused up front, the limit named.
awk 'BEGIN {
    print "########################################"
    n = 0
    for (y = 0; y < 30; y++) {
        row = "#"
        for (x = 0; x < 37; x++) if (n < 1101) { row = row "*"; n++ } else row = row " "
        print row (y == 29 ? " @#" : "  #")
    }
    print "########################################"
}' >"$work/many.xsb"
out=$("$sokoban" --solve "$work/many.xsb" 2>"$work/stderr")
status=$?
[ "$status" -eq 1 ] || fail "too many boxes: exit $status"
echo "$out" | grep -Eq '^level=1 status=error .* reason=too-many-boxes$' ||
    fail "too many boxes line: $out"
grep -q '^sokoban: .*level 1: 1101 boxes, more than the solver takes (1000)$' "$work/stderr" ||
    fail "too many boxes message: $(cat "$work/stderr")"

# Memory that cannot be had is refused up front, the limit named (both modes).
for mode in fast optimal; do
    out=$("$sokoban" --solve "$levels/xsokoban.xsb" --mode $mode --memory 1048576 --time 5 2>"$work/stderr")
    status=$?
    [ "$status" -eq 1 ] || fail "memory $mode: exit $status"
    echo "$out" | grep -Eq '^level=1 status=error pushes=- moves=- nodes=0 .* reason=memory$' ||
        fail "memory $mode line: $out"
    grep -q '^sokoban: .*level 1: a memory limit of 1048576 MiB, more than this machine has ([0-9]* MiB)$' \
        "$work/stderr" || fail "memory $mode message: $(cat "$work/stderr")"
done

# Under an address-space limit (ulimit -v) the default memory is a quarter of what the process
# may have, where it was a quarter of the machine's: the optimal mode said "out of memory
# setting up the search" on tutorial level 3 under ulimit -v 2000000 (a quarter of 24 GiB
# being 6 GiB), the fast mode with two threads too. A --memory past the limit is refused up
# front, naming it. Skipped where the program cannot start under the limit (AddressSanitizer
# maps terabytes of shadow memory).
if (ulimit -v 2000000 && "$sokoban" --version) >/dev/null 2>&1; then
    for run in "optimal 1" "optimal 2" "fast 1" "fast 2"; do
        set -- $run
        out=$(ulimit -v 2000000 && "$sokoban" --solve "$levels/tutorial.xsb" --level 3 --mode $1 \
            --threads $2 --time 20 2>"$work/stderr")
        echo "$out" | grep -q '^level=3 status=solved pushes=2 ' ||
            fail "ulimit -v, --mode $1 --threads $2: $out $(cat "$work/stderr")"
    done
    out=$(ulimit -v 2000000 && "$sokoban" --solve "$levels/tutorial.xsb" --memory 3000 2>"$work/stderr")
    echo "$out" | grep -Eq '^level=1 status=error .* reason=memory$' || fail "ulimit -v, --memory 3000: $out"
    grep -q '^sokoban: .*level 1: a memory limit of 3000 MiB, more than this process may have (1953 MiB, its ulimit)$' \
        "$work/stderr" || fail "ulimit -v, --memory 3000: said $(cat "$work/stderr")"
fi

# --nodes N: the search stops once it has looked at N nodes; the count never exceeds N
# (both modes). The fast mode may solve the level within the budget.
for mode in fast optimal; do
    for limit in 1 7 100 1000; do
        out=$("$sokoban" --solve "$levels/xsokoban.xsb" --level 3 --mode $mode --nodes $limit --memory 16)
        nodes=$(echo "$out" | sed -n 's/.* nodes=\([0-9]*\) .*/\1/p')
        [ -n "$nodes" ] && [ "$nodes" -le "$limit" ] ||
            fail "--mode $mode --nodes $limit: $nodes nodes ($out)"
        echo "$out" | grep -Eq ' status=(limit|solved) ' || fail "--mode $mode --nodes $limit: $out"
        [ "$limit" -ge 100 ] || echo "$out" | grep -q ' status=limit ' ||
            fail "--mode $mode --nodes $limit: not a limit: $out"
    done
done

# --time holds through the set-up too: 250 goals packed in a corner of a wide floor, and 250
# boxes strewn over it (the fast mode's packing order pulls every box home over the floor:
# 20 s of CPU without a limit) stop at --time 0.2. Measured in CPU seconds of the child (the
# shell's `times`), which the machine's load does not stretch: at most 2.2 s.
awk 'BEGIN {
    for (y = 0; y < 40; y++) {
        row = ""
        for (x = 0; x < 70; x++) {
            c = " "
            if (x == 0 || x == 69 || y == 0 || y == 39) c = "#"
            else if (y <= 10 && x <= 25) c = "."
            else if (y >= 20 && y <= 29 && x >= 15 && x <= 64 && (x + y) % 2 == 0) c = "$"
            if (y == 35 && x == 60) c = "@"
            row = row c
        }
        print row
    }
}' >"$work/packed.xsb"
# children_cpu: the CPU seconds (user + system) of the children so far, in milliseconds,
# from the file `times` wrote (times runs in this shell: in $(...) it would see none).
children_cpu() {
    tail -n 1 "$work/times" | awk '{
        total = 0
        for (i = 1; i <= 2; i++) { split($i, p, "m"); total += p[1] * 60 + p[2] }
        printf "%d\n", total * 1000
    }'
}
times >"$work/times"
before=$(children_cpu)
# one search (--threads 1): a second strategy without the packing order would solve it
out=$("$sokoban" --solve "$work/packed.xsb" --mode fast --time 0.2 --threads 1)
times >"$work/times"
used=$(($(children_cpu) - before))
[ "$used" -lt 2200 ] || fail "--time 0.2 in the set-up: $used ms of CPU ($out)"
echo "$out" | grep -q ' status=limit ' || fail "--time 0.2 in the set-up: not a limit: $out"

# --time 0.1 holds on a level of 700 boxes and 700 goals strewn over a 70x70 floor, in both
# modes, wherever the solver is when the time is up (the push distances alone take half a
# second): the status says limit and the solver's own count of its seconds stays near 0.1
# (under 1, for a loaded machine), with at most 2 s of CPU (it once went on for seconds).
awk 'BEGIN {
    boxes = 0; goals = 0
    for (y = 0; y < 70; y++) {
        row = ""
        for (x = 0; x < 70; x++) {
            c = " "
            k = y * 70 + x
            if (x == 0 || x == 69 || y == 0 || y == 69) c = "#"
            else if (x >= 2 && x <= 67 && y >= 2 && y <= 67) {
                if (k % 6 == 0 && boxes < 700) { c = "$"; boxes++ }
                else if (k % 6 == 3 && goals < 700) { c = "."; goals++ }
            }
            if (x == 1 && y == 1) c = "@"
            row = row c
        }
        print row
    }
}' >"$work/strewn.xsb"
[ "$(tr -cd '$' <"$work/strewn.xsb" | wc -c)" -eq 700 ] || fail "the 700-box level has not 700 boxes"
for mode in fast optimal; do
    times >"$work/times"
    before=$(children_cpu)
    out=$("$sokoban" --solve "$work/strewn.xsb" --mode $mode --time 0.1 --threads 1)
    times >"$work/times"
    used=$(($(children_cpu) - before))
    echo "$out" | grep -q '^level=1 status=limit ' || fail "700 boxes, --mode $mode --time 0.1: $out"
    seconds=$(echo "$out" | sed -n 's/.* seconds=\([0-9.]*\) .*/\1/p')
    awk -v s="$seconds" 'BEGIN { exit !(s != "" && s >= 0.1 && s < 1) }' ||
        fail "700 boxes, --mode $mode --time 0.1: the solver says $seconds s ($out)"
    [ "$used" -lt 2000 ] || fail "700 boxes, --mode $mode --time 0.1: $used ms of CPU ($out)"
done

# Bad input exits 2.
"$sokoban" --solve "$work/missing.xsb" >/dev/null 2>&1
[ $? -eq 2 ] || fail "missing file: not exit 2"
"$sokoban" --solve "$levels/tutorial.xsb" --level 999 >/dev/null 2>&1
[ $? -eq 2 ] || fail "no such level: not exit 2"
"$sokoban" --solve "$levels/tutorial.xsb" --mode slow >/dev/null 2>&1
[ $? -eq 2 ] || fail "bad mode: not exit 2"

# --threads: two strategies race on one level; the answer is still checked and printed once
out=$("$sokoban" --solve "$levels/xsokoban.xsb" --level 1 --mode fast --threads 2)
echo "$out" | grep -q '^level=1 status=solved ' || fail "--threads 2: not solved: $out"
"$sokoban" --solve "$levels/tutorial.xsb" --threads 0 >/dev/null 2>&1
[ $? -eq 2 ] || fail "--threads 0: not exit 2"

[ "$failures" -eq 0 ] && echo "cli_solve: all passed"
[ "$failures" -eq 0 ]

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

# Bad input exits 2.
"$sokoban" --solve "$work/missing.xsb" >/dev/null 2>&1
[ $? -eq 2 ] || fail "missing file: not exit 2"
"$sokoban" --solve "$levels/tutorial.xsb" --level 999 >/dev/null 2>&1
[ $? -eq 2 ] || fail "no such level: not exit 2"
"$sokoban" --solve "$levels/tutorial.xsb" --mode slow >/dev/null 2>&1
[ $? -eq 2 ] || fail "bad mode: not exit 2"

[ "$failures" -eq 0 ] && echo "cli_solve: all passed"
[ "$failures" -eq 0 ]

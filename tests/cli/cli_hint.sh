#!/bin/sh
# cli_hint.sh - sokoban --hint: the line, the push named, the rest that verifies, exit status.
# Usage: cli_hint.sh SOKOBAN LEVELS_DIR
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

# Tutorial 1 after one step right: the box in column 4, row 2 goes right, three pushes to go.
out=$("$sokoban" --hint "$levels/tutorial.xsb" --level 1 --moves r)
status=$?
[ "$status" -eq 0 ] || fail "hint: exit $status"
echo "$out" | grep -Eq '^level=1 status=solved push=box\(4,2\)right pushes=3 moves=3 seconds=[0-9.]+ solution=RRR$' ||
    fail "hint line: $out"

# From the start of XSokoban 1 after some moves read from a file: the moves and then the
# solution verify.
printf 'ulll\n' >"$work/moves"
out=$("$sokoban" --hint "$levels/xsokoban.xsb" --moves @"$work/moves") || fail "xsokoban 1: exit $?"
echo "$out" | grep -Eq '^level=1 status=solved push=box\([0-9]+,[0-9]+\)(left|up|right|down) ' ||
    fail "xsokoban 1 line: $out"
solution=$(echo "$out" | sed 's/.* solution=//')
"$sokoban" --verify "$levels/xsokoban.xsb" "ulll$solution" >/dev/null ||
    fail "xsokoban 1: the moves and the solution do not verify"

# No moves: the hint from the start.
out=$("$sokoban" --hint "$levels/tutorial.xsb" --level 1) || fail "no moves: exit $?"
echo "$out" | grep -q 'status=solved push=box(4,2)right pushes=3 moves=4 .*solution=rRRR$' ||
    fail "no moves line: $out"

# A lost position: status unsolvable, '-' for the rest, exit 1.
printf '######\n#$  .#\n#  @ #\n######\n' >"$work/corner.xsb"
out=$("$sokoban" --hint "$work/corner.xsb")
status=$?
[ "$status" -eq 1 ] || fail "lost: exit $status"
echo "$out" | grep -Eq '^level=1 status=unsolvable push=- pushes=- moves=- seconds=[0-9.]+ solution=-$' ||
    fail "lost line: $out"

# A solved position: nothing left to push, exit 0.
out=$("$sokoban" --hint "$levels/tutorial.xsb" --level 1 --moves rRRR) || fail "solved: exit $?"
echo "$out" | grep -Eq '^level=1 status=solved push=- pushes=0 moves=0 seconds=[0-9.]+ solution=-$' ||
    fail "solved line: $out"

# The moves as --verify takes a solution: @- reads them from standard input (not from a file
# named "-"), and - is none (as a solved position's solution=- prints them).
out=$(echo rRRR | "$sokoban" --hint "$levels/tutorial.xsb" --level 1 --moves @-) ||
    fail "moves on stdin: exit $?"
echo "$out" | grep -Eq '^level=1 status=solved push=- pushes=0 moves=0 ' || fail "moves on stdin: $out"
out=$("$sokoban" --hint "$levels/tutorial.xsb" --level 1 --moves -) || fail "moves -: exit $?"
echo "$out" | grep -Eq '^level=1 status=solved push=box\(4,2\)right pushes=3 moves=4 ' ||
    fail "moves -: $out"

# Out of time: status limit, exit 1.
out=$("$sokoban" --hint "$levels/xsokoban.xsb" --level 50 --time 0.001 --memory 16)
status=$?
[ "$status" -eq 1 ] || fail "limit: exit $status"
echo "$out" | grep -q '^level=50 status=limit push=- ' || fail "limit line: $out"

# A level the solver refuses: status error, the reason at the end of the line and in one line
# on stderr, as --solve says it (the line said status=error alone: why, nowhere). Here more
# boxes than the solver takes (1,001 boxes, 1,001 goals under them) and more memory than
# any machine has.
awk 'BEGIN { n = 0; m = 0
    for (y = 0; y < 26; y++) { r = ""
        for (x = 0; x < 100; x++) {
            c = " "
            if (x == 0 || x == 99 || y == 0 || y == 25) c = "#"
            else if (y == 1 && x == 1) c = "@"
            else if (y >= 2 && y < 13 && n < 1001) { c = "$"; n++ }
            else if (y >= 13 && m < 1001) { c = "."; m++ }
            r = r c }
        print r } }' /dev/null >"$work/many.xsb"
out=$("$sokoban" --hint "$work/many.xsb" --time 5 2>"$work/stderr")
status=$?
[ "$status" -eq 1 ] || fail "too many boxes: exit $status"
echo "$out" | grep -Eq '^level=1 status=error push=- pushes=- moves=- seconds=[0-9.]+ solution=- reason=too-many-boxes$' ||
    fail "too many boxes line: $out"
[ "$(cat "$work/stderr")" = "sokoban: $work/many.xsb: level 1: 1001 boxes, more than the solver takes (1000)" ] ||
    fail "too many boxes: said '$(cat "$work/stderr")'"
out=$("$sokoban" --hint "$levels/tutorial.xsb" --memory 1048576 2>"$work/stderr")
status=$?
[ "$status" -eq 1 ] || fail "memory past the machine's: exit $status"
echo "$out" | grep -Eq '^level=1 status=error .* solution=- reason=memory$' ||
    fail "memory past the machine's line: $out"
[ "$(wc -l <"$work/stderr")" -eq 1 ] && grep -q "^sokoban: $levels/tutorial.xsb: level 1: a memory limit of 1048576 MiB, more than this machine has" "$work/stderr" ||
    fail "memory past the machine's: said '$(cat "$work/stderr")'"

# Bad input exits 2: moves that break the rules, moves that are not LURD, a missing moves
# file, --moves without --hint.
"$sokoban" --hint "$levels/tutorial.xsb" --level 1 --moves lll >/dev/null 2>&1
[ $? -eq 2 ] || fail "illegal moves: not exit 2"
"$sokoban" --hint "$levels/tutorial.xsb" --moves rxr >/dev/null 2>&1
[ $? -eq 2 ] || fail "bad moves: not exit 2"
"$sokoban" --hint "$levels/tutorial.xsb" --moves @"$work/missing" >/dev/null 2>&1
[ $? -eq 2 ] || fail "missing moves file: not exit 2"
"$sokoban" --solve "$levels/tutorial.xsb" --moves r >/dev/null 2>&1
[ $? -eq 2 ] || fail "--moves with --solve: not exit 2"

[ "$failures" -eq 0 ] && echo "cli_hint: all passed"
[ "$failures" -eq 0 ]

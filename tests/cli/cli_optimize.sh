#!/bin/sh
# cli_optimize.sh - sokoban --optimize: the line with the counts before and after, a detour
# taken out, a shortest solution unchanged, --solve's lines read with --all, every solution
# printed verifies, --solve --optimize-time, bad input refused in one line.
# Usage: cli_optimize.sh SOKOBAN LEVELS_DIR
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

# A room: the box pushed up and down again before it goes to its goal.
cat >"$work/room.xsb" <<'LEVEL'
########
#      #
#      #
#@$   .#
#      #
#      #
########
LEVEL
out=$("$sokoban" --optimize "$work/room.xsb" --time 5 drUluurDldRRRR)
status=$?
[ "$status" -eq 0 ] || fail "detour: exit $status"
echo "$out" | grep -Eq '^level=1 status=improved pushes=4 moves=4 pushes_before=6 moves_before=14 nodes=[0-9]+ seconds=[0-9.]+ vicinity="[^"]*" solution=RRRR$' ||
    fail "detour line: $out"

# The shortest solution comes back as it was, by pushes too.
out=$("$sokoban" --optimize "$work/room.xsb" --by pushes --time 5 RRRR) || fail "unchanged: exit $?"
echo "$out" | grep -Eq '^level=1 status=unchanged pushes=4 moves=4 pushes_before=4 moves_before=4 .*solution=RRRR$' ||
    fail "unchanged line: $out"

# A line names its level by the whole number after level=: a number past the range of int
# (4294967297 is 1 modulo 2^32) or one with more after it names no level, never level 1.
for other in 4294967297 1x 01.5 -1; do
    out=$(printf 'level=%s status=solved solution=RRRR\n' "$other" |
        "$sokoban" --optimize "$work/room.xsb" --time 5 - 2>"$work/stderr")
    status=$?
    [ "$status" -eq 2 ] && [ -z "$out" ] ||
        fail "level=$other taken for level 1: exit $status, printed '$out'"
    grep -q 'no such level' "$work/stderr" || fail "level=$other: said '$(cat "$work/stderr")'"
done

# --solve's lines on standard input, --all: one line a level, a total, each solution verifies.
"$sokoban" --solve "$levels/xsokoban.xsb" --level 1 --time 20 >"$work/solved" || fail "solve: exit $?"
head -1 "$work/solved" >"$work/one"
out=$("$sokoban" --optimize "$levels/xsokoban.xsb" --all --time 0.2 - <"$work/one") || fail "--all: exit $?"
lines=$(echo "$out" | grep -c '^level=')
[ "$lines" -eq 1 ] || fail "--all: $lines level lines: $out"
echo "$out" | grep -Eq '^total levels=1 improved=[01] pushes=[0-9]+ moves=[0-9]+ pushes_before=[0-9]+ moves_before=[0-9]+ seconds=[0-9.]+$' ||
    fail "--all total: $out"
before=$(echo "$out" | sed -n 's/^level=1 .* moves_before=\([0-9]*\) .*/\1/p')
after=$(echo "$out" | sed -n 's/^level=1 .* moves=\([0-9]*\) pushes_before.*/\1/p')
[ -n "$after" ] && [ "$after" -le "$before" ] || fail "--all: $after moves after $before"
solution=$(echo "$out" | sed -n 's/^level=1 .* solution=//p')
"$sokoban" --verify "$levels/xsokoban.xsb" "$solution" >/dev/null || fail "--all: does not verify"

# A solution in a file (@FILE) by level number.
echo "$solution" >"$work/lurd"
"$sokoban" --optimize "$levels/xsokoban.xsb" --level 1 --time 0.2 @"$work/lurd" >/dev/null ||
    fail "@FILE: exit $?"

# --solve --optimize-time: the counts before on the line, the solution verifies.
out=$("$sokoban" --solve "$levels/xsokoban.xsb" --level 1 --time 20 --optimize-time 0.2 --by moves) ||
    fail "--optimize-time: exit $?"
echo "$out" | grep -Eq '^level=1 status=solved pushes=[0-9]+ moves=[0-9]+ nodes=[0-9]+ seconds=[0-9.]+ pushes_before=[0-9]+ moves_before=[0-9]+ optimize_seconds=[0-9.]+ solution=' ||
    fail "--optimize-time line: $out"
"$sokoban" --verify "$levels/xsokoban.xsb" "$(echo "$out" | sed 's/.* solution=//')" >/dev/null ||
    fail "--optimize-time: does not verify"

# Bad input: one line on stderr, exit 2.
expect_refused() {
    what=$1
    shift
    "$sokoban" "$@" >"$work/out" 2>"$work/err"
    status=$?
    [ "$status" -eq 2 ] || fail "$what: exit $status"
    [ "$(wc -l <"$work/err")" -ge 1 ] || fail "$what: nothing on stderr"
    grep -q '^sokoban: ' "$work/err" || fail "$what: $(cat "$work/err")"
}
expect_refused "not a solution" --optimize "$work/room.xsb" RRR
expect_refused "illegal step" --optimize "$work/room.xsb" LLLL
expect_refused "bad letters" --optimize "$work/room.xsb" xyz
expect_refused "no solution argument" --optimize "$work/room.xsb"
expect_refused "--by" --optimize "$work/room.xsb" --by walks RRRR
expect_refused "--optimize-time elsewhere" --optimize "$work/room.xsb" --optimize-time 2 RRRR
expect_refused "--by with --verify" --verify "$work/room.xsb" --by moves RRRR
expect_refused "missing file" --optimize "$work/room.xsb" @"$work/none"

[ "$failures" -eq 0 ] && echo "cli_optimize: all passed"
[ "$failures" -eq 0 ]

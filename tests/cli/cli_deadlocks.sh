#!/bin/sh
# cli_deadlocks.sh - sokoban --deadlocks: the map marked by rule, the legend, the counts,
# every bundled level, and exit status 2 on bad input.
# Usage: cli_deadlocks.sh SOKOBAN LEVELS_DIR
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

# A level with corners (x), a dead wall (w) and unreachable squares (u): a box on row 4
# can only go up from column 5, pushed from the pocket below it, which the box closes.
cat >"$work/marks.xsb" <<'LEVEL'
; marks
#######
#.  @ #
#     #
#  $  #
#### ##
#######
LEVEL
"$sokoban" --deadlocks "$work/marks.xsb" >"$work/out"
status=$?
[ "$status" -eq 0 ] || fail "marks: exit $status"
cat >"$work/expected" <<'MAP'
#######
#.  @x#
#    w#
#xu$ x#
####x##
#######
MAP
sed -n '3,8p' "$work/out" >"$work/map"
diff "$work/expected" "$work/map" >/dev/null || fail "marks: map differs: $(cat "$work/out")"
grep -q 'x corner  w dead wall  u unreachable square' "$work/out" || fail "marks: no legend"
grep -q '^Dead squares: 7 (corner 4, dead wall 1, unreachable 2)$' "$work/out" ||
    fail "marks: counts: $(grep '^Dead' "$work/out")"
grep -q '^Start position: dead (unreachable square: box at 4,4)$' "$work/out" ||
    fail "marks: start verdict: $(grep '^Start' "$work/out")"

# --level picks the level; the title line names it.
"$sokoban" --deadlocks "$levels/xsokoban.xsb" --level 2 >"$work/out" || fail "xsokoban 2: exit $?"
head -n 1 "$work/out" | grep -q '^xsokoban, level 2' || fail "xsokoban 2: title $(head -n 1 "$work/out")"
grep -q '^Start position: no deadlock found$' "$work/out" || fail "xsokoban 2: start called dead"

# Every level of every bundled collection: exit 0, a count line, a live start. (The lines
# are matched by the shell, not grep: one process a level instead of three.)
nl='
'
for file in "$levels"/*.xsb; do
    count=$("$sokoban" --list "$file" | grep -c .)
    n=1
    while [ "$n" -le "$count" ]; do
        if ! out=$("$sokoban" --deadlocks "$file" --level "$n" 2>"$work/err"); then
            fail "$file level $n: exit status $? $(cat "$work/err")"
        else
            out="$nl$out$nl"
            case $out in
            *"${nl}Dead squares: "*) ;;
            *) fail "$file level $n: no count line" ;;
            esac
            case $out in
            *"${nl}Start position: no deadlock found${nl}"*) ;;
            *) fail "$file level $n: start position called dead" ;;
            esac
        fi
        n=$((n + 1))
    done
done

# Bad input: exit 2 with a message.
"$sokoban" --deadlocks "$work/missing.xsb" >/dev/null 2>"$work/err"
status=$?
[ "$status" -eq 2 ] || fail "missing file: exit $status"
grep -q '^sokoban: ' "$work/err" || fail "missing file: no message"
"$sokoban" --deadlocks "$levels/xsokoban.xsb" --level 91 >/dev/null 2>"$work/err"
status=$?
[ "$status" -eq 2 ] || fail "no such level: exit $status"
grep -q 'no level 91' "$work/err" || fail "no such level: $(cat "$work/err")"
printf '####\n#@ #\n####\n' >"$work/nobox.xsb"
"$sokoban" --deadlocks "$work/nobox.xsb" >/dev/null 2>&1
status=$?
[ "$status" -eq 2 ] || fail "level without boxes: exit $status"

[ "$failures" -eq 0 ] || exit 1
echo "ok"

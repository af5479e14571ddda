#!/bin/sh
# tiles.sh - the sliding-tile benchmark: Korf's 100 random 15-puzzles, and 1000 random
# 8-puzzles with the two hardest (31 moves). Checks every length and prints the totals.
#
# Usage: bench/tiles.sh [PATH-TO-SOKOBAN]   (default: build/src/sokoban)
#   KORF=FILE   the instances (default: ../shared/data/korf100.txt beside the repository)
#   COUNT=N     only the first N of Korf's instances
# The pattern databases come from the usual cache ($XDG_CACHE_HOME/sokoban); the first
# run builds them (a few seconds, not counted in the search times).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
sokoban=${1:-$root/build/src/sokoban}
korf=${KORF:-$root/../shared/data/korf100.txt}
count=${COUNT:-100}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench_tiles.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0

# Korf's file: "number length 16 squares", blank 0, goal with the blank first. Our
# instance lines say so with "; goal=blank-first"; the expected lengths go aside.
grep -v '^#' "$korf" | head -n "$count" >"$work/korf"
awk '{ s = $3; for (i = 4; i <= NF; i++) s = s " " $i; print s " ; goal=blank-first" }' \
    "$work/korf" >"$work/korf.in"
awk '{ print $2 }' "$work/korf" >"$work/korf.expected"

# Warm the pattern database cache outside the timing.
"$sokoban" --tiles "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15" >/dev/null || exit 2

echo "== Korf's $count 15-puzzles: $sokoban --tiles-file (goal=blank-first)"
start=$(date +%s.%N)
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%U" -o "$work/korf.cpu" "$sokoban" --tiles-file "$work/korf.in" \
        >"$work/korf.out" || status=1
else
    "$sokoban" --tiles-file "$work/korf.in" >"$work/korf.out" || status=1
fi
end=$(date +%s.%N)
grep '^line=' "$work/korf.out" | sed 's/.*length=\([^ ]*\).*/\1/' >"$work/korf.got"
paste -d' ' "$work/korf.expected" "$work/korf.got" "$work/korf" | awk '
    $1 == $2 { optimal++ }
    $1 != $2 { print "WRONG: instance " $3 ": length " $2 ", optimal " $1 }
    END { print "optimal: " optimal + 0 " of " NR }'
grep '^total' "$work/korf.out"
echo "wall seconds (with loading the databases): $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')"
[ -s "$work/korf.cpu" ] && echo "user CPU seconds: $(cat "$work/korf.cpu")"
[ "$(paste -d' ' "$work/korf.expected" "$work/korf.got" | awk '$1 != $2' | wc -l)" -eq 0 ] ||
    status=1

# 1000 random solvable 8-puzzles (fixed seed), then the two 31-move ones.
awk 'BEGIN {
    srand(2026)
    while (made < 1000) {
        for (i = 0; i < 9; i++) t[i] = i
        for (i = 8; i > 0; i--) { j = int(rand() * (i + 1)); x = t[i]; t[i] = t[j]; t[j] = x }
        inversions = 0
        for (i = 0; i < 9; i++) for (j = i + 1; j < 9; j++)
            if (t[i] && t[j] && t[i] > t[j]) inversions++
        if (inversions % 2) continue
        s = t[0]; for (i = 1; i < 9; i++) s = s " " t[i]
        print s; made++
    }
    print "8 6 7 2 5 4 3 x 1"
    print "6 4 7 8 5 x 3 2 1"
}' >"$work/eight.in"
echo "== 1000 random 8-puzzles and the two hardest: $sokoban --tiles-file"
"$sokoban" --tiles-file "$work/eight.in" >"$work/eight.out" || status=1
tail -n 3 "$work/eight.out" | head -n 2 | grep -c 'length=31 ' | awk '{ print "31-move instances solved in 31: " $1 " of 2" }'
[ "$(tail -n 3 "$work/eight.out" | head -n 2 | grep -c 'length=31 ')" -eq 2 ] || status=1
awk -F'length=' '/^line=/ { split($2, a, " "); sum += a[1]; if (a[1] > max) max = a[1] }
    END { printf "mean length %.2f, longest %d\n", sum / NR, max }' "$work/eight.out"
grep '^total' "$work/eight.out"
exit $status

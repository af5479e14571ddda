#!/bin/sh
# cli_tiles.sh - sokoban --tiles and --tiles-file, end to end.
# Usage: cli_tiles.sh PATH-TO-SOKOBAN PREBUILT-CACHE
# PREBUILT-CACHE holds the 15-puzzle's pattern databases, built once at build time
# (tests/tiles/make_tiles_cache.c); the tests copy what they need of it instead of spending
# seconds building the two 6-tile tables again.
set -u
sokoban=$1
prebuilt=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/cli_tiles.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# replay BOARD MOVES: prints the board after the blank's moves (x for the blank), or
# "illegal" when a move leaves the board.
replay() {
    echo "$1|$2" | awk -F'|' '{
        n = split($1, cell, " "); w = int(sqrt(n) + 0.5)
        for (i = 1; i <= n; i++) if (cell[i] == "x" || cell[i] == "0") { b = i; cell[i] = "x" }
        for (k = 1; k <= length($2); k++) {
            m = substr($2, k, 1); r = int((b - 1) / w); c = (b - 1) % w
            if (m == "u") { if (r == 0) { print "illegal"; exit } t = b - w }
            else if (m == "d") { if (r == w - 1) { print "illegal"; exit } t = b + w }
            else if (m == "l") { if (c == 0) { print "illegal"; exit } t = b - 1 }
            else if (m == "r") { if (c == w - 1) { print "illegal"; exit } t = b + 1 }
            else { print "illegal"; exit }
            cell[b] = cell[t]; cell[t] = "x"; b = t
        }
        s = cell[1]; for (i = 2; i <= n; i++) s = s " " cell[i]; print s
    }'
}

# expect_solved NAME BOARD GOAL LENGTH [ENV...]: --tiles answers LENGTH moves that replay
# from BOARD to GOAL.
expect_solved() {
    name=$1 board=$2 goal=$3 length=$4
    shift 4
    moves=$(env "$@" "$sokoban" --tiles "$board" 2>"$work/stderr")
    status=$?
    [ $status -eq 0 ] || fail "$name: exit status $status ($(cat "$work/stderr"))"
    [ ${#moves} -eq "$length" ] || fail "$name: ${#moves} moves ('$moves'), want $length"
    end=$(replay "${board%%;*}" "$moves")
    [ "$end" = "$goal" ] || fail "$name: '$moves' ends in '$end', not '$goal'"
}

goal3="1 2 3 4 5 6 7 8 x"
goal4="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x"
cache="$work/cache"

# The "Eight" judge sample.
expect_solved eight "2 3 4 1 5 x 7 6 8" "$goal3" 19 XDG_CACHE_HOME="$cache"

# A 15-puzzle: the first run builds the pattern databases it misses (here the 3-tile one;
# the two 6-tile ones, same code, come from the build) and saves them; the second loads them.
mkdir -p "$cache/sokoban"
cp "$prebuilt"/tiles4x4-1-*.pdb "$prebuilt"/tiles4x4-7-*.pdb "$cache/sokoban/"
expect_solved fifteen-build "2 5 4 6 1 13 11 3 14 12 7 10 8 15 9 0" "$goal4" 44 \
    XDG_CACHE_HOME="$cache"
grep -q "building the 4x4 pattern database of tiles 2 3 4" "$work/stderr" ||
    fail "fifteen-build: no notice of the build on stderr"
[ $(ls "$cache/sokoban"/*.pdb 2>/dev/null | wc -l) -eq 3 ] ||
    fail "fifteen-build: the cache does not hold 3 tables"
expect_solved fifteen-load "2 5 4 6 1 13 11 3 14 12 7 10 8 15 9 0" "$goal4" 44 \
    XDG_CACHE_HOME="$cache"
[ -s "$work/stderr" ] && fail "fifteen-load: unexpected stderr: $(cat "$work/stderr")"

# A damaged cache file is detected and rebuilt, never trusted.
table=$(ls "$cache/sokoban"/tiles4x4-2-3-4.pdb)
printf '\377\377\377\377' | dd of="$table" bs=1 seek=1000 conv=notrunc 2>/dev/null
expect_solved fifteen-corrupt "2 5 4 6 1 13 11 3 14 12 7 10 8 15 9 0" "$goal4" 44 \
    XDG_CACHE_HOME="$cache"
grep -q "building the 4x4 pattern database of tiles 2 3 4" "$work/stderr" ||
    fail "fifteen-corrupt: the damaged table was not rebuilt"

# No writable cache: Manhattan distance + linear conflicts, same optimal answer.
touch "$work/plain-file"
expect_solved fifteen-fallback "2 5 4 6 1 13 11 3 14 12 7 10 8 15 9 0" "$goal4" 44 \
    XDG_CACHE_HOME="$work/plain-file/below"
grep -q "using Manhattan distance + linear conflicts" "$work/stderr" ||
    fail "fifteen-fallback: no notice of the fallback"

# Korf's goal (blank first) on request.
expect_solved blank-first "1 2 3 4 5 6 7 8 x ; goal=blank-first" "x 1 2 3 4 5 6 7 8" 22 \
    XDG_CACHE_HOME="$cache"

# Unsolvable: two tiles swapped.
out=$("$sokoban" --tiles "2 1 3 4 5 6 7 8 x")
status=$?
[ "$out" = unsolvable ] || fail "unsolvable: printed '$out'"
[ $status -eq 1 ] || fail "unsolvable: exit status $status, want 1"

# Bad input: a clear message and exit status 2.
expect_bad() {
    out=$("$sokoban" --tiles "$1" 2>&1)
    status=$?
    [ $status -eq 2 ] || fail "bad '$1': exit status $status, want 2"
    echo "$out" | grep -q "$2" || fail "bad '$1': message '$out' lacks '$2'"
}
expect_bad "1 2 3 4 5 6 7 8" "8 tiles given"
expect_bad "1 2 3 4 5 6 7 7 x" "tile 7 appears twice and tile 8 is missing"
expect_bad "1 2 3 4 5 6 7 8 a" "'a' is not a tile"
expect_bad "1 2 3 4 5 6 7 9 x" "tile 9 is out of range"
expect_bad "1 2 3 4 5 6 7 8 x ; goal=middle" "unknown 'goal=middle'"
# a control character is named, not written: a terminal would act on it (ESC clears the
# screen here, U+009B is a terminal's CSI)
expect_bad "$(printf '1 2 3 4 \033[2J 5 6 7 8')" "a control character (U+001B) is not a tile"
expect_bad "$(printf '1 2 3 4 5 6 7 8 x ; \302\2332J')" "a control character (U+009B) is not a tile"
if "$sokoban" --tiles "$(printf '1 2 \033[2J 4 5 6 7 8 x')" 2>&1 | LC_ALL=C grep -q "$(printf '\033')"; then
    fail "a tile's word with ESC is written on the terminal"
fi

# --tiles-file: one line per instance, comments and blank lines skipped, a total.
cat >"$work/instances" <<'EOF'
# a comment, then a blank line

2 3 4 1 5 x 7 6 8
2 1 3 4 5 6 7 8 x
14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 ; goal=blank-first
EOF
XDG_CACHE_HOME="$cache" "$sokoban" --tiles-file "$work/instances" >"$work/out" 2>"$work/stderr"
status=$?
[ $status -eq 0 ] || fail "tiles-file: exit status $status ($(cat "$work/stderr"))"
grep -q '^line=3 status=solved length=19 nodes=[0-9]* seconds=[0-9.]* solution=[udlr]*$' \
    "$work/out" || fail "tiles-file: line 3 wrong: $(cat "$work/out")"
grep -q '^line=4 status=unsolvable length=- nodes=0 ' "$work/out" ||
    fail "tiles-file: line 4 wrong: $(cat "$work/out")"
grep -q '^line=5 status=solved length=57 ' "$work/out" ||
    fail "tiles-file: Korf's instance 1 is not 57 moves: $(cat "$work/out")"
grep -q '^total instances=3 solved=2 unsolvable=1 nodes=[0-9]* ' "$work/out" ||
    fail "tiles-file: total wrong: $(cat "$work/out")"

printf '2 3 4 1 5 x 7 6 8\n1 2 3\n' >"$work/bad"
"$sokoban" --tiles-file "$work/bad" >"$work/out" 2>"$work/stderr"
status=$?
[ $status -eq 2 ] || fail "tiles-file bad line: exit status $status, want 2"
grep -q "bad:2: 3 tiles given" "$work/stderr" ||
    fail "tiles-file bad line: message '$(cat "$work/stderr")'"
grep -q '^line=1 status=solved length=19 ' "$work/out" ||
    fail "tiles-file bad line: the good line was not solved"

{ awk 'BEGIN { for (i = 0; i < 600; i++) printf "1 "; print "" }'; echo "2 3 4 1 5 x 7 6 8"; } \
    >"$work/long"
"$sokoban" --tiles-file "$work/long" >"$work/out" 2>"$work/stderr"
[ $? -eq 2 ] || fail "tiles-file long line: exit status not 2"
grep -q "long:1: line too long" "$work/stderr" || fail "tiles-file long line: no message"
grep -q '^line=2 status=solved length=19 ' "$work/out" ||
    fail "tiles-file long line: the next line was not read as line 2"

# A NUL byte in a line: that line is refused by name, the next is still read, and the
# lines keep their numbers.
printf '1 2 3 \000 4 5\n2 3 4 1 5 x 7 6 8\n# comment\n2 3 4 1 5 x 7 6 8' >"$work/nul"
"$sokoban" --tiles-file "$work/nul" >"$work/out" 2>"$work/stderr"
[ $? -eq 2 ] || fail "tiles-file NUL byte: exit status not 2"
grep -q "nul:1: a NUL byte at column 7" "$work/stderr" ||
    fail "tiles-file NUL byte: message '$(cat "$work/stderr")'"
grep -q '^line=2 status=solved length=19 ' "$work/out" ||
    fail "tiles-file NUL byte: the next line was not read as line 2: $(cat "$work/out")"
grep -q '^line=4 status=solved length=19 ' "$work/out" ||
    fail "tiles-file NUL byte: the last line (no newline) is not line 4: $(cat "$work/out")"
grep -q '^total instances=2 solved=2 ' "$work/out" ||
    fail "tiles-file NUL byte: total wrong: $(cat "$work/out")"

# Not a regular file: refused at once (a FIFO with no writer must not hang).
mkfifo "$work/fifo"
timeout 10 "$sokoban" --tiles-file "$work/fifo" >/dev/null 2>"$work/stderr"
[ $? -eq 2 ] || fail "tiles-file FIFO: exit status not 2"
grep -q "fifo: not a regular file" "$work/stderr" ||
    fail "tiles-file FIFO: message '$(cat "$work/stderr")'"

"$sokoban" --tiles-file "$work/missing" 2>"$work/stderr"
[ $? -eq 2 ] || fail "tiles-file missing: exit status not 2"

"$sokoban" --help | grep -q -- "--tiles-file" || fail "--help does not mention --tiles-file"

[ $failures -eq 0 ] && echo "all tiles CLI checks passed"
exit $((failures > 0))

#!/bin/sh
# cli_foundation.sh - sokoban --list, --verify, --help, --version and bad input, end to end.
# Usage: cli_foundation.sh PATH-TO-SOKOBAN
# The source tree is $SOKOBAN_SOURCE_DIR (set by tests/meson.build), else this script's
# parent folder.
set -u
sokoban=$1
source_dir=${SOKOBAN_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
levels=$source_dir/levels
bad=$source_dir/tests/bad
maps=/usr/share/games/cavepacker/maps
work=$(mktemp -d "${TMPDIR:-/tmp}/cli_foundation.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# run ARGS...: runs sokoban; leaves the exit status in $status, the output in
# $work/stdout and $work/stderr.
run() {
    "$sokoban" "$@" >"$work/stdout" 2>"$work/stderr"
    status=$?
}

# expect_status NAME STATUS: the last run exited with STATUS.
expect_status() {
    [ "$status" -eq "$2" ] || fail "$1: exit status $status, expected $2 ($(head -c 300 "$work/stderr"))"
}

# expect_stdout NAME TEXT: the last run's standard output is exactly TEXT.
expect_stdout() {
    [ "$(cat "$work/stdout")" = "$2" ] || fail "$1: printed '$(cat "$work/stdout")', expected '$2'"
}

# expect_one_error_line NAME FILE: the last run printed nothing on stdout and exactly one
# line on stderr, naming FILE.
expect_one_error_line() {
    lines=$(wc -l <"$work/stderr")
    [ "$lines" -eq 1 ] || fail "$1: $lines lines on stderr, expected one: $(cat "$work/stderr")"
    grep -qF "$2" "$work/stderr" || fail "$1: the error does not name $2: $(cat "$work/stderr")"
    [ ! -s "$work/stdout" ] || fail "$1: printed on stdout: $(head -c 300 "$work/stdout")"
}

# ---- --list
run --list "$levels/xsokoban.xsb"
expect_status "list xsokoban" 0
[ "$(wc -l <"$work/stdout")" -eq 90 ] || fail "list xsokoban: $(wc -l <"$work/stdout") lines, expected 90"
head -n 1 "$work/stdout" | grep -q '^ *1  1 .* 19x11 .* 6 boxes$' ||
    fail "list xsokoban: first line is '$(head -n 1 "$work/stdout")'"
tail -n 1 "$work/stdout" | grep -q '^ *90  90 ' || fail "list xsokoban: last line is '$(tail -n 1 "$work/stdout")'"

run --list "$levels/tutorial.xsb"
expect_status "list tutorial" 0
[ "$(wc -l <"$work/stdout")" -eq 8 ] || fail "list tutorial: $(wc -l <"$work/stdout") lines, expected 8"
head -n 1 "$work/stdout" | grep -q '^ *1  First push .* 8x3 .* 1 box$' ||
    fail "list tutorial: first line is '$(head -n 1 "$work/stdout")'"

# a box on a goal drawn outside the walls is decoration, not one of the level's boxes
printf '; Decorated\n#####  ###\n#@$.#  #*#\n#####  ###\n' >"$work/decorated.xsb"
run --list "$work/decorated.xsb"
expect_status "list a decorated level" 0
grep -q ' 1 box$' "$work/stdout" || fail "list a decorated level: printed '$(cat "$work/stdout")'"

run --list "$work/missing.xsb"
expect_status "list of a missing file" 2
expect_one_error_line "list of a missing file" "$work/missing.xsb"

run --list
expect_status "list without a file" 2

# ---- --verify
run --verify "$levels/tutorial.xsb" rRRR
expect_status "verify a solution" 0
expect_stdout "verify a solution" "level 1 (First push): solved in 4 moves, 3 pushes"

run --verify "$levels/tutorial.xsb" --level 2 "uRdr2U"
expect_status "verify with --level and a count" 0
expect_stdout "verify with --level and a count" "level 2 (Push from the other side): solved in 6 moves, 3 pushes"

run --verify "$levels/tutorial.xsb" rrrr
expect_status "verify a lowercase solution" 0

run --verify "$levels/tutorial.xsb" rR
expect_status "verify an unfinished solution" 1
expect_stdout "verify an unfinished solution" "level 1 (First push): not solved after 2 moves, 1 push"

# '-', the solution --solve and --hint print for a position already solved: no steps
printf '####\n#@*#\n####\n' > "$work/solved.xsb"
run --verify "$work/solved.xsb" -
expect_status "verify '-' on a level solved at its start" 0
expect_stdout "verify '-' on a level solved at its start" "level 1 (-): solved in 0 moves, 0 pushes"
run --verify "$levels/tutorial.xsb" -
expect_status "verify '-' on a level not solved" 1
expect_stdout "verify '-' on a level not solved" "level 1 (First push): not solved after 0 moves, 0 pushes"

run --verify "$levels/tutorial.xsb" rRu
expect_status "verify an illegal solution" 1
expect_stdout "verify an illegal solution" \
    "level 1 (First push): illegal step 3 (u): walks into a wall; 2 moves, 1 push made before it"

run --verify "$levels/tutorial.xsb" RR
expect_status "verify a push with no box" 1
grep -q "step 1 (R): is written as a push but there is no box to push" "$work/stdout" ||
    fail "verify a push with no box: printed '$(cat "$work/stdout")'"

run --verify "$levels/tutorial.xsb" rRxR
expect_status "verify bad letters" 2
grep -q "not a LURD letter: 'x' at character 3" "$work/stderr" ||
    fail "verify bad letters: said '$(cat "$work/stderr")'"

run --verify "$levels/tutorial.xsb" --level 99 rRRR
expect_status "verify a level that is not there" 2
expect_one_error_line "verify a level that is not there" "no level 99"

printf 'r\n 3R\n' >"$work/solution.txt"
run --verify "$levels/tutorial.xsb" "@$work/solution.txt"
expect_status "verify @file" 0
expect_stdout "verify @file" "level 1 (First push): solved in 4 moves, 3 pushes"

run --verify "$levels/tutorial.xsb" "@$work/missing.txt"
expect_status "verify @missing-file" 2
expect_one_error_line "verify @missing-file" "$work/missing.txt"

if [ -f "$maps/xsokoban0001.sol" ]; then
    run --verify "$levels/xsokoban.xsb" "@$maps/xsokoban0001.sol"
    expect_status "verify xsokoban 1 from the package" 0
    grep -q "^level 1 (1): solved in " "$work/stdout" ||
        fail "verify xsokoban 1: printed '$(cat "$work/stdout")'"
    run --verify "$levels/xsokoban.xsb" --level 90 "@$maps/xsokoban0090.sol"
    expect_status "verify xsokoban 90 from the package" 0
else
    fail "cavepacker-data is not installed ($maps is missing): apt-get install cavepacker-data"
fi

run --verify "$levels/tutorial.xsb"
expect_status "verify without a solution" 2

# ---- bad input: one line naming the file, exit status 2, on every file of tests/bad/
count=0
for file in "$bad"/*.xsb; do
    run --list "$file"
    expect_status "bad level file $file" 2
    expect_one_error_line "bad level file $file" "$file"
    count=$((count + 1))
done
[ "$count" -ge 10 ] || fail "only $count bad level files in $bad"
for file in "$bad"/*.sol; do
    run --verify "$levels/tutorial.xsb" "@$file"
    expect_status "bad solution file $file" 2
    expect_one_error_line "bad solution file $file" "$file"
    count=$((count + 1))
done

# the messages say what is wrong
run --list "$bad/two-players.xsb"
grep -qF "two-players.xsb: level 1 (Two players), line 4: two players (one only, '@' or '+')" "$work/stderr" ||
    fail "two players: said '$(cat "$work/stderr")'"
run --list "$bad/boxes-goals.xsb"
grep -q "3 boxes but 4 goals" "$work/stderr" || fail "boxes and goals: said '$(cat "$work/stderr")'"
run --list "$bad/open-wall.xsb"
grep -q "line 9: open wall at row 7" "$work/stderr" || fail "open wall: said '$(cat "$work/stderr")'"
run --list "$bad/unknown-character.xsb"
grep -q "unknown character 'x'" "$work/stderr" || fail "unknown character: said '$(cat "$work/stderr")'"
run --list "$bad/too-large.xsb"
grep -q "too large" "$work/stderr" || fail "too large: said '$(cat "$work/stderr")'"
run --list "$bad/empty.xsb"
grep -q "empty file" "$work/stderr" || fail "empty: said '$(cat "$work/stderr")'"
run --list "$bad/binary.xsb"
grep -q "not a text file" "$work/stderr" || fail "binary: said '$(cat "$work/stderr")'"
run --list "$bad/no-player.xsb"
grep -q "no player" "$work/stderr" || fail "no player: said '$(cat "$work/stderr")'"

# ---- --help, --version, usage errors
run --help
expect_status "--help" 0
grep -q "^Usage: sokoban" "$work/stdout" || fail "--help: no usage line"
grep -q -- "--verify" "$work/stdout" || fail "--help: no --verify"

run --version
expect_status "--version" 0
grep -q "^sokoban [0-9]" "$work/stdout" || fail "--version: printed '$(cat "$work/stdout")'"

run --frobnicate
expect_status "unknown option" 2
grep -q -- "--frobnicate" "$work/stderr" || fail "unknown option: not named: $(cat "$work/stderr")"

run -x
expect_status "unknown short option" 2

run --list "$levels/tutorial.xsb" --verify "$levels/tutorial.xsb" rRRR
expect_status "two modes" 2

run --list "$levels/tutorial.xsb" --level 0
expect_status "level zero" 2

run --list "$levels/tutorial.xsb" --level 5
expect_status "an option the mode does not take" 2
grep -q -- "--level does not apply to --list" "$work/stderr" ||
    fail "stray option: said '$(cat "$work/stderr")'"

# FILE:N names a level, as --level does: --list, which lists a whole file, says so (it
# listed every level, the :N passed over in silence)
run --list "$levels/tutorial.xsb:2"
expect_status "FILE:N given to --list" 2
expect_stdout "FILE:N given to --list" ""
grep -q -- "tutorial.xsb:2 names level 2: --list lists a whole file" "$work/stderr" ||
    fail "--list FILE:N: said '$(cat "$work/stderr")'"

# ---- what is not a regular file: one line, exit 2, and never a hang
mkdir "$work/empty-folder"
run --list "$work/empty-folder"
expect_status "a directory with no level files" 2
grep -q "no level files" "$work/stderr" || fail "empty folder: said '$(cat "$work/stderr")'"

run --verify "$levels/tutorial.xsb" "@$work"
expect_status "a directory as the solution file" 2

run --tiles-file "$work"
expect_status "a directory as the tiles file" 2

mkfifo "$work/fifo"
"$sokoban" --list "$work/fifo" >"$work/stdout" 2>"$work/stderr" &
pid=$!
waited=0
while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    fail "a FIFO as the level file: still waiting after 10 s"
else
    wait "$pid"
    status=$?
    expect_status "a FIFO as the level file" 2
    grep -q "not a regular file" "$work/stderr" || fail "FIFO: said '$(cat "$work/stderr")'"
fi

if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all cli_foundation checks passed ($count bad-input files)"

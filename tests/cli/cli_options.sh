#!/bin/sh
# cli_options.sh - the command line's own rules: -h, an option without its value, "--" ending
# the options, the named limit of --time and the bounds of a whole number, a repeated option,
# --verify's @-, standard input named twice, and the total line of --solve --all; --help and the man page within 80
# columns.
# Usage: cli_options.sh SOKOBAN LEVELS_DIR
set -u
sokoban=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # the tests below change directory
levels=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/cli_options.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# run ARGS... : runs sokoban with standard input from /dev/null; leaves $status and the
# output in $work/stdout and $work/stderr.
run() {
    "$sokoban" "$@" </dev/null >"$work/stdout" 2>"$work/stderr"
    status=$?
}

# said NAME TEXT: the last run's stderr holds TEXT.
said() {
    grep -qF -- "$2" "$work/stderr" || fail "$1: said '$(cat "$work/stderr")', expected '$2'"
}

expect_status() {
    [ "$status" -eq "$2" ] || fail "$1: exit status $status, expected $2 ($(head -c 300 "$work/stderr"))"
}

# -h is --help
run -h
expect_status "-h" 0
grep -q '^Usage: sokoban' "$work/stdout" || fail "-h: no usage line"

# --help fits an 80-column terminal: no line of it is wider
run --help
wide=$(awk 'length($0) > 80 { print NR ": " $0 }' "$work/stdout")
[ -z "$wide" ] || fail "--help: lines wider than 80 columns:
$wide"

# each option's text starts in its column, apart from the option: a label too long for its
# column stands on a line of its own
glued=$(awk '/^  -/ && substr($0, 23, 1) != " " && NF > 3 { print NR ": " $0 }' "$work/stdout")
[ -z "$glued" ] || fail "--help: an option's text runs into the option:
$glued"

# so does the man page, as man shows it in 80 columns (where man is installed)
if command -v man > /dev/null; then
    wide=$(LC_ALL=C MANWIDTH=80 man -l "$levels/../man/sokoban.6" 2> /dev/null |
        awk 'length($0) > 80 { print NR ": " $0 }')
    [ -z "$wide" ] || fail "man/sokoban.6 shown in 80 columns: lines wider than 80 (an .nf
example line is not wrapped; break it):
$wide"
fi

# an option without its value names the option and what it wants
run --level
expect_status "--level alone" 2
said "--level alone" "--level wants a value (a level number from 1)"
run --list "$levels/tutorial.xsb" --level
expect_status "--level last" 2
said "--level last" "--level wants a value"
run --solve "$levels/tutorial.xsb" --time
expect_status "--time alone" 2
said "--time alone" "--time wants a value (a number of seconds)"
run --collection
expect_status "--collection alone" 2
said "--collection alone" "--collection wants a value (a collection name)"
run --list
expect_status "--list alone" 2
said "--list alone" "--list wants a value (a file name)"

# "--" ends the options: a file whose name starts with '-' can be named
cp "$levels/tutorial.xsb" "$work/-x.xsb"
(cd "$work" && "$sokoban" --list -- -x.xsb >"$work/stdout" 2>"$work/stderr")
status=$?
expect_status "--list -- -x.xsb" 0
[ "$(wc -l <"$work/stdout")" -eq 8 ] || fail "--list -- -x.xsb: printed '$(cat "$work/stdout")'"
(cd "$work" && "$sokoban" --verify -- -x.xsb rRRR >"$work/stdout" 2>"$work/stderr")
status=$?
expect_status "--verify -- -x.xsb" 0
(cd "$work" && "$sokoban" --level 2 --verify -- -x.xsb uRdr2U >"$work/stdout" 2>"$work/stderr")
status=$?
expect_status "--level before --verify --" 0
run --list --
expect_status "--list -- with no file" 2
said "--list -- with no file" "a file name should follow --"

# an empty file name, or @ with no file after it, is said so, never "sokoban: : cannot open"
# empty NAME EXPECTED ARGS...: status 2, EXPECTED and the usage hint alone
empty() {
    name=$1 expected=$2
    shift 2
    run "$@"
    expect_status "$name" 2
    said "$name" "sokoban: $expected"
    [ "$(wc -l <"$work/stderr")" -eq 2 ] || fail "$name: said '$(cat "$work/stderr")'"
}
empty "--list ''" "an empty file name" --list ""
empty "--solve ''" "an empty file name" --solve "" --level 1
empty "--edit ''" "an empty file name" --edit ""
empty "--tiles-file ''" "an empty file name" --tiles-file ""
empty "the game on ''" "an empty file name" "$levels/tutorial.xsb" ""
empty "--collection ''" "--collection wants a collection name, not an empty one" --collection ""
empty "--verify FILE @" "@ wants a file name after it (@FILE)" --verify "$levels/tutorial.xsb" @
empty "--optimize FILE @" "@ wants a file name after it (@FILE)" --optimize "$levels/tutorial.xsb" @
empty "--hint --moves @" "@ wants a file name after it (@FILE)" --hint "$levels/tutorial.xsb" --moves @

# --time names its real limit
run --solve "$levels/tutorial.xsb" --time 1e8
expect_status "--time 1e8" 2
said "--time 1e8" "--time wants seconds, more than 0 and at most 10000000: 1e8"
run --solve "$levels/tutorial.xsb" --time 1e7 --level 1
expect_status "--time 1e7 is taken" 0
run --hint-time 0
expect_status "--hint-time 0" 2
said "--hint-time 0" "at most 10000000"

# a whole number names its bounds (a value above them was told "from 1" alone)
run --solve "$levels/tutorial.xsb" --memory 99999999999
expect_status "--memory 99999999999" 2
said "--memory 99999999999" "--memory wants a size in MiB from 1 to 1048576: 99999999999"
run --solve "$levels/tutorial.xsb" --level 1000001
expect_status "--level 1000001" 2
said "--level 1000001" "--level wants a level number from 1 to 1000000: 1000001"
run --solve "$levels/tutorial.xsb" --nodes 0
expect_status "--nodes 0" 2
said "--nodes 0" "--nodes wants a whole number of nodes from 1 to 4611686018427387904: 0"
run --solve "$levels/tutorial.xsb" --threads 65
expect_status "--threads 65" 2
said "--threads 65" "--threads wants a number from 1 to 64: 65"

# a repeated option is refused, naming it
run --solve "$levels/tutorial.xsb" --time 3 --time 4
expect_status "--time twice" 2
said "--time twice" "an option given twice: --time"
run --list "$levels/tutorial.xsb" --list "$levels/xsokoban.xsb"
expect_status "--list twice" 2
said "--list twice" "an option given twice: --list"
run --verify "$levels/tutorial.xsb" --level 1 --level 2 rRRR
expect_status "--level twice" 2
said "--level twice" "an option given twice: --level"

# --verify FILE @- reads the solution from standard input
out=$(printf 'r\n3R\n' | "$sokoban" --verify "$levels/tutorial.xsb" @- 2>"$work/stderr")
status=$?
expect_status "@- solution" 0
[ "$out" = "level 1 (First push): solved in 4 moves, 3 pushes" ] || fail "@- solution: printed '$out'"
out=$(printf 'rR' | "$sokoban" --verify "$levels/tutorial.xsb" @- 2>"$work/stderr")
status=$?
expect_status "@- unfinished" 1
out=$(printf 'rx' | "$sokoban" --verify "$levels/tutorial.xsb" @- 2>"$work/stderr")
status=$?
expect_status "@- bad letter" 2
said "@- bad letter" "standard input: bad solution: not a LURD letter: 'x'"

# standard input is read once: the level and the solution (or --moves) both from it is a
# usage error in one line, never a second read that finds nothing (--verify - @- replayed
# no steps: "not solved after 0 moves")
# from_stdin NAME EXPECTED ARGS...: runs sokoban on a level piped in, expects status 2 and
# the EXPECTED message alone, before the usage hint
from_stdin() {
    name=$1 expected=$2
    shift 2
    printf '#####\n#@$.#\n#####\n' | "$sokoban" "$@" >"$work/stdout" 2>"$work/stderr"
    status=$?
    expect_status "$name" 2
    said "$name" "sokoban: $expected"
    [ "$(wc -l <"$work/stderr")" -eq 2 ] && [ ! -s "$work/stdout" ] ||
        fail "$name: printed '$(cat "$work/stdout" "$work/stderr")'"
}
both="cannot both come from standard input; give one as a file"
from_stdin "--verify - @-" "the level (-) and the solution (@-) $both" --verify - @-
from_stdin "--verify -:1 @-" "the level (-) and the solution (@-) $both" --verify -:1 @-
from_stdin "--optimize - -" "the level (-) and the solution (-) $both" --optimize - -
from_stdin "--optimize - @-" "the level (-) and the solution (@-) $both" --optimize - @-
from_stdin "--hint - --moves @-" "the level (-) and the --moves (@-) $both" --hint - --moves @-
from_stdin "the game on - -" "standard input (-) is named 2 times; it can be read once" - -
# one of them from standard input is fine
out=$(printf '#####\n#@$.#\n#####\n' | "$sokoban" --verify - R 2>"$work/stderr")
[ "$out" = "level 1 (-): solved in 1 move, 1 push" ] || fail "--verify - R: printed '$out'"
# standard input that cannot be read says why, as a file does ("standard input: cannot
# read" said nothing more)
"$sokoban" --verify "$levels/tutorial.xsb" @- <"$work" >"$work/stdout" 2>"$work/stderr"
status=$?
expect_status "@- from a folder" 2
[ "$(cat "$work/stderr")" = "sokoban: standard input: cannot read: Is a directory" ] ||
    fail "@- from a folder: said '$(cat "$work/stderr")'"
"$sokoban" --optimize "$levels/tutorial.xsb" - <"$work" >"$work/stdout" 2>"$work/stderr"
status=$?
expect_status "--optimize - from a folder" 2
[ "$(cat "$work/stderr")" = "sokoban: standard input: cannot read: Is a directory" ] ||
    fail "--optimize - from a folder: said '$(cat "$work/stderr")'"
out=$(printf 'r\000R' | "$sokoban" --verify "$levels/tutorial.xsb" @- 2>"$work/stderr")
status=$?
expect_status "@- binary" 2
said "@- binary" "standard input: not a text file"

# --solve --all ends with a total line; its sums agree with the level lines
"$sokoban" --solve "$levels/tutorial.xsb" --all >"$work/all" 2>"$work/stderr" ||
    fail "tutorial --all: exit $?"
last=$(tail -n 1 "$work/all")
echo "$last" | grep -Eq '^total levels=8 solved=8 seconds=[0-9]+\.[0-9]{3} pushes=[0-9]+ moves=[0-9]+$' ||
    fail "total line: '$last'"
pushes=$(sed -n 's/^level=.* pushes=\([0-9]*\) .*/\1/p' "$work/all" | awk '{s += $1} END {print s}')
moves=$(sed -n 's/^level=.* moves=\([0-9]*\) .*/\1/p' "$work/all" | awk '{s += $1} END {print s}')
echo "$last" | grep -q " pushes=$pushes moves=$moves\$" ||
    fail "total line: '$last', the levels add up to pushes=$pushes moves=$moves"
# unsolved levels count as tried, not solved, and add no pushes
printf '; a\n#####\n#@$.#\n#####\n\n; b\n######\n#$  .#\n#  @ #\n######\n' >"$work/two.xsb"
"$sokoban" --solve "$work/two.xsb" --all >"$work/all" 2>"$work/stderr"
status=$?
expect_status "--all with an unsolvable level" 1
tail -n 1 "$work/all" | grep -Eq '^total levels=2 solved=1 seconds=[0-9.]+ pushes=1 moves=1$' ||
    fail "total line with an unsolvable level: '$(tail -n 1 "$work/all")'"
# one level: no total line
"$sokoban" --solve "$levels/tutorial.xsb" --level 1 >"$work/one" 2>&1
grep -q '^total' "$work/one" && fail "a single --level printed a total line"

[ "$failures" -eq 0 ] || exit 1
echo "cli_options: all passed"

#!/bin/sh
# cli_names.sh - a file's name or an argument may hold any byte (a line end, an escape that a
# terminal acts on): the message that names it is still one line, its control characters left
# out, whichever mode says it.
# Usage: cli_names.sh SOKOBAN
set -u
sokoban=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/cli_names.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

esc=$(printf '\033')
nl='
'
# a folder whose name holds a line end and an escape sequence (clear the screen)
odd="$work/new${nl}line${esc}[2Jset"
mkdir "$odd"
cat >"$odd/one.xsb" <<'LEVEL'
; First push
########
#@ $  .#
########
LEVEL
printf '1 2 3 4 5 6 7 8 x\n1 2 3 %s[2J 5 6 7 8 x\n' "$esc" >"$odd/tiles.txt"

# one_line NAME [Try]: the last run wrote one line on stderr (two with a usage error's
# "Try 'sokoban --help'."), starting "sokoban: ", with no escape in it
one_line() {
    expected=1
    [ "${2:-}" = Try ] && expected=2
    lines=$(wc -l <"$work/stderr")
    [ "$lines" -eq "$expected" ] || fail "$1: $lines lines on stderr: $(cat "$work/stderr")"
    head -n 1 "$work/stderr" | grep -q '^sokoban: ' || fail "$1: said '$(cat "$work/stderr")'"
    ! grep -q "$esc" "$work/stderr" || fail "$1: an escape on stderr"
    grep -q 'newline\[2Jset' "$work/stderr" || grep -q 'Try' "$work/stderr" ||
        fail "$1: the name is not shown: $(cat "$work/stderr")"
}

run() {
    "$sokoban" "$@" </dev/null >"$work/stdout" 2>"$work/stderr"
    status=$?
}

run --deadlocks "$odd/one.xsb:5"
[ "$status" -eq 2 ] || fail "no level 5: exit status $status"
one_line "no level 5"

run --verify "$odd/one.xsb" "@$odd/missing${nl}.sol"
one_line "a missing solution file"

run --hint "$odd/one.xsb" --moves "@$odd/missing${nl}.sol"
one_line "a missing --moves file"

run --optimize "$odd/one.xsb" "@$odd/missing${nl}.sol"
one_line "a missing --optimize file"

run --tiles-file "$odd/tiles.txt" --nodes 1000
one_line "a bad line of a --tiles-file"

run --tiles "1 2 3 ${esc}[2J 5 6 7 8 x"
[ "$status" -eq 2 ] || fail "--tiles with an escape: exit status $status"
lines=$(wc -l <"$work/stderr")
[ "$lines" -eq 1 ] && ! grep -q "$esc" "$work/stderr" ||
    fail "--tiles with an escape: said '$(cat "$work/stderr")'"

run --level "3${nl}${esc}[2J" --list "$odd/one.xsb"
[ "$status" -eq 2 ] || fail "--level with a line end: exit status $status"
one_line "--level with a line end" Try

[ "$failures" -eq 0 ] || exit 1
echo "cli_names: all passed"

#!/bin/sh
# cli_output.sh - a mode's output that cannot be written (a full disk, a closed standard
# output) is an error said in one line with a failing exit status, never a silent success:
# `sokoban --solve --all set.xsb > results` on a full disk must not look like it worked.
# Usage: cli_output.sh SOKOBAN LEVELS_DIR
set -u
sokoban=$1
levels=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/cli_output.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# The tutorial's first level, drawn here: one push row.
cat >"$work/one.xsb" <<'LEVEL'
; First push
########
#@ $  .#
########
LEVEL

# output_lost NAME ARGS...: sokoban ARGS with standard output on /dev/full (every write
# fails: no space left) exits 2 with one line on stderr that names standard output and the
# reason, also when the write that failed was a line flushed before the end (--solve,
# --hint, --optimize said 'cannot write' alone).
output_lost() {
    name=$1
    shift
    "$sokoban" "$@" </dev/null >/dev/full 2>"$work/stderr"
    status=$?
    [ "$status" -eq 2 ] || fail "$name to a full disk: exit status $status, expected 2"
    lines=$(wc -l <"$work/stderr")
    [ "$lines" -eq 1 ] || fail "$name to a full disk: $lines lines on stderr: $(cat "$work/stderr")"
    grep -Eq '^sokoban: standard output: cannot write: No space left on device$' "$work/stderr" ||
        fail "$name to a full disk: said '$(cat "$work/stderr")'"
}

if [ -w /dev/full ]; then
    output_lost "--list" --list "$work/one.xsb"
    output_lost "--verify" --verify "$work/one.xsb" rRRR
    output_lost "--deadlocks" --deadlocks "$work/one.xsb"
    output_lost "--solve" --solve "$work/one.xsb" --threads 1
    output_lost "--solve --all" --solve "$work/one.xsb" --all --threads 1
    output_lost "--hint" --hint "$work/one.xsb"
    output_lost "--optimize" --optimize "$work/one.xsb" rRRR
    output_lost "--tiles" --tiles "1 2 3 4 5 6 7 x 8"
    output_lost "--help" --help
    output_lost "--version" --version

    # --solve --all stops at the first line lost: the broken second level is never reached
    # (it would say "(skipped)"), nor would any later level be solved for nothing
    printf '\n; No player\n#####\n# $.#\n#####\n' >>"$work/two.xsb"
    cat "$work/one.xsb" "$work/two.xsb" >"$work/both.xsb"
    output_lost "--solve --all on two levels" --solve "$work/both.xsb" --all --threads 1
    ! grep -q skipped "$work/stderr" || fail "--solve --all went on after a line was lost"

    # a negative answer written to a full disk is still an error, not the answer
    output_lost "--verify of a wrong solution" --verify "$work/one.xsb" rR
else
    echo "SKIP: no writable /dev/full"
fi

# a standard output that is closed: the lines cannot go anywhere
"$sokoban" --list "$work/one.xsb" >&- 2>"$work/stderr"
status=$?
[ "$status" -eq 2 ] || fail "--list to a closed standard output: exit status $status, expected 2"
grep -q '^sokoban: standard output: cannot write: ' "$work/stderr" ||
    fail "--list to a closed standard output: said '$(cat "$work/stderr")'"

# a mode that writes nothing on standard output has nothing to lose when it is closed: the
# error it says is its own, with its own status
"$sokoban" --list "$work/missing.xsb" >&- 2>"$work/stderr"
status=$?
[ "$status" -eq 2 ] || fail "a missing file with stdout closed: exit status $status, expected 2"
[ "$(wc -l <"$work/stderr")" -eq 1 ] && grep -qF "missing.xsb" "$work/stderr" ||
    fail "a missing file with stdout closed: said '$(cat "$work/stderr")'"

# and output that was written stays a success
"$sokoban" --list "$work/one.xsb" >"$work/stdout" 2>"$work/stderr"
status=$?
[ "$status" -eq 0 ] && [ ! -s "$work/stderr" ] && grep -q 'First push' "$work/stdout" ||
    fail "--list to a file: status $status, stderr '$(cat "$work/stderr")'"

[ "$failures" -eq 0 ] || exit 1
echo "cli_output: all passed"

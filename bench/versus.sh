#!/bin/sh
# bench/versus.sh - our solver and Festival side by side on one collection: each level run by
# both at once, one core each, and a table of both (issue 43's measurement).
#
# Usage: bench/versus.sh COLLECTION [SECONDS] [FIRST [LAST]]
#   COLLECTION  a level file (Festival must read it too: XSB or SOK)
#   SECONDS     wall-clock limit per level for each side, set-up included (default 10)
#   FIRST LAST  the levels to run (default: all)
# Environment: SOKOBAN (default build/src/sokoban), THREADS (ours, --threads; default 1),
#   FESTIVAL (Festival's binary, default /tmp/festival-build/festival: Festival 3.1, Yaron
#   Shoham, github.com/joriswit/Festival, built outside this repository, which holds
#   nothing of it), FESTIVAL_TIME (the -time Festival is told; default SECONDS from 30 s
#   on, else 600: Festival splits its -time between its eight strategies in whole seconds,
#   so told less than 30 s it starves them all; with 600 its first strategy runs until the
#   kill at SECONDS).
# Prints one row per level (status, seconds, pushes of each side), then for each side the
# levels solved, within 1 s and within 10 s, the median seconds, the pushes over the levels
# both solve, and the levels only that side solves. Every solution of both sides is replayed
# with `sokoban --verify`; one that does not replay counts as unsolved. Asserts nothing.
set -eu

COLLECTION=${1:?usage: bench/versus.sh COLLECTION [SECONDS] [FIRST [LAST]]}
LIMIT=${2:-10}
SOKOBAN=${SOKOBAN:-build/src/sokoban}
FESTIVAL=${FESTIVAL:-/tmp/festival-build/festival}
THREADS=${THREADS:-1}
if [ "$LIMIT" -ge 30 ]; then told=$LIMIT; else told=600; fi
FESTIVAL_TIME=${FESTIVAL_TIME:-$told}

if [ ! -x "$FESTIVAL" ]; then
    echo "bench/versus.sh: no Festival binary at $FESTIVAL (set FESTIVAL)" >&2
    exit 2
fi
COLLECTION=$(readlink -f "$COLLECTION")
count=$("$SOKOBAN" --list "$COLLECTION" | wc -l)
FIRST=${3:-1}
LAST=${4:-$count}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }

# Festival on one level, killed at LIMIT seconds of wall time; prints "SECONDS LURD" (LURD
# "-" when unsolved).
festival_level() {
    out="$work/festival.$1"
    mkdir -p "$out"
    start=$(now)
    timeout -k 2 "$LIMIT" "$FESTIVAL" "$COLLECTION" -level "$1" -time "$FESTIVAL_TIME" \
        -cores 1 -out_dir "$out" </dev/null >/dev/null 2>&1 || true
    seconds=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
    solution=-
    if [ -f "$out/solutions.sok" ]; then
        solution=$(awk 'f { print; exit } /^Solution\r?$/ { f = 1 }' "$out/solutions.sok" |
            tr -d '\r\n')
    fi
    case $solution in *[!lurdLURD]* | "") solution=- ;; esac
    echo "$seconds $solution"
}

# "status seconds pushes" of one side's answer, its solution replayed by --verify.
checked() { # LEVEL STATUS SECONDS SOLUTION
    if [ "$2" = solved ] && "$SOKOBAN" --verify "$COLLECTION" --level "$1" "$4" >/dev/null 2>&1
    then
        pushes=$(printf '%s' "$4" | tr -cd 'LURD' | wc -c)
        echo "solved $3 $pushes"
    elif [ "$2" = solved ]; then
        echo "unreplayed $3 -"
    else
        echo "$2 $3 -"
    fi
}

field() { # NAME LINE
    printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

echo "== $SOKOBAN --threads $THREADS and $FESTIVAL -cores 1 -time $FESTIVAL_TIME," \
    "$LIMIT s of wall time a level each, side by side: $COLLECTION"
printf '%6s  %-10s %8s %7s   %-10s %8s %7s\n' level ours seconds pushes festival seconds pushes
level=$FIRST
while [ "$level" -le "$LAST" ]; do
    timeout -k 2 $((LIMIT + 5)) "$SOKOBAN" --solve "$COLLECTION" --level "$level" \
        --time "$LIMIT" --threads "$THREADS" >"$work/ours" 2>/dev/null &
    ours_pid=$!
    theirs=$(festival_level "$level")
    wait "$ours_pid" || true
    line=$(grep '^level=' "$work/ours" || echo "level=$level status=crashed seconds=$LIMIT")
    a=$(checked "$level" "$(field status "$line")" "$(field seconds "$line")" \
        "$(field solution "$line")")
    b_solution=${theirs#* }
    b_status=unsolved
    [ "$b_solution" != - ] && b_status=solved
    b=$(checked "$level" "$b_status" "${theirs%% *}" "$b_solution")
    # shellcheck disable=SC2086 # a and b are three words each
    printf '%6s  %-10s %8s %7s   %-10s %8s %7s\n' "$level" $a $b | tee -a "$work/rows"
    level=$((level + 1))
done

awk '
function median(list, n,    i, j, t) {
    for (i = 1; i <= n; i++)
        for (j = i + 1; j <= n; j++)
            if (list[j] < list[i]) { t = list[i]; list[i] = list[j]; list[j] = t }
    return n % 2 ? list[(n + 1) / 2] : (list[n / 2] + list[n / 2 + 1]) / 2
}
{
    n++
    for (s = 0; s < 2; s++) {
        status = $(2 + 3 * s); seconds = $(3 + 3 * s) + 0
        secs[s, n] = seconds
        if (status == "solved") {
            solved[s]++
            if (seconds <= 1) within1[s]++
            if (seconds <= 10) within10[s]++
        }
    }
    if ($2 == "solved" && $5 == "solved") { both++; push[0] += $4; push[1] += $7 }
    else if ($2 == "solved") only[0] = only[0] " " $1
    else if ($5 == "solved") only[1] = only[1] " " $1
}
END {
    for (s = 0; s < 2; s++) {
        for (i = 1; i <= n; i++) list[i] = secs[s, i]
        printf "%-9s solved %d/%d  within 1 s: %d  within 10 s: %d  median %.2f s  " \
            "pushes on the %d both solve: %d  only this side:%s\n",
            s ? "festival" : "ours", solved[s], n, within1[s], within10[s], median(list, n),
            both, push[s], only[s] == "" ? " none" : only[s]
    }
}' "$work/rows"

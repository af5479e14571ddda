#!/bin/sh
# bench/solve.sh - the Sokoban solver on a whole collection: a table per level and totals.
#
# Usage: bench/solve.sh COLLECTION [SECONDS] [MODE]
#   COLLECTION  a level file, or "microban" for Microban I (155 levels) built from the
#               cavepacker-data maps (/usr/share/games/cavepacker/maps) into a temporary file
#   SECONDS     time limit per level (default 30)
#   MODE        optimal or fast (default optimal)
# Environment: SOKOBAN (default build/src/sokoban), MEMORY (MiB per level, --memory; default: the solver's),
#   NODES (a node limit per level, --nodes, beside the time: counts that repeat on a busy machine),
#   JOBS (levels solved at once, one process each, default 1: on a 2-core machine JOBS=2
#   halves the wall time of a long run; each level still has one core),
#   THREADS (searches per level, --threads; default: 1 when JOBS > 1, so that each level has
#   one core, else the solver's default, one per core),
#   SOKOBAN_SOLVER_DISABLE (techniques to turn off for a measurement, see docs/SOLVER.md).
# Prints results only; asserts nothing. Runs `sokoban --solve COLLECTION --all`, then replays
# every solution found with `sokoban --verify`.
set -eu

COLLECTION=${1:?usage: bench/solve.sh COLLECTION [SECONDS] [MODE]}
SECONDS_PER_LEVEL=${2:-30}
MODE=${3:-optimal}
SOKOBAN=${SOKOBAN:-build/src/sokoban}
memory="${MEMORY:+--memory $MEMORY} ${NODES:+--nodes $NODES}"
MAPS=/usr/share/games/cavepacker/maps

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "$COLLECTION" = microban ]; then
    for map in "$MAPS"/microban01_0*.sok; do
        cat "$map"
        echo
    done >"$work/microban.xsb"
    COLLECTION=$work/microban.xsb
fi

JOBS=${JOBS:-1}
if [ "$JOBS" -gt 1 ]; then THREADS=${THREADS:-1}; fi
threads=${THREADS:+--threads $THREADS}
echo "== $SOKOBAN --solve $COLLECTION --all --time $SECONDS_PER_LEVEL --mode $MODE $memory $threads (JOBS=$JOBS)"
if [ "$JOBS" -le 1 ]; then
    status=0
    # shellcheck disable=SC2086 # $memory and $threads are empty or two words each
    "$SOKOBAN" --solve "$COLLECTION" --all --time "$SECONDS_PER_LEVEL" --mode "$MODE" \
        $memory $threads >"$work/lines" 2>"$work/errors" || status=$?
    # 0 and 1 are answers (every level solved or not); anything else is a crash or an error
    if [ "$status" -gt 1 ]; then
        last=$(grep '^level=' "$work/lines" | tail -n 1 | sed 's/^level=\([0-9]*\).*/\1/')
        echo "the solver stopped with exit status $status after level ${last:-none}:" \
            "$(head -n 1 "$work/errors")"
    fi
else
    # one process per level, JOBS at a time; the lines are put back in level order. A level
    # whose process prints no line (a crash) gets a line of its own, status "crashed".
    count=$("$SOKOBAN" --list "$COLLECTION" | wc -l)
    # shellcheck disable=SC2016 # the inner shell expands its own arguments
    seq 1 "$count" | xargs -P "$JOBS" -I LEVEL sh -c \
        '"$1" --solve "$2" --level LEVEL --time "$3" --mode "$4" $5 $7 \
            >"$6/level.LEVEL" 2>"$6/errors.LEVEL" || true
        grep -q "^level=" "$6/level.LEVEL" ||
            echo "level=LEVEL status=crashed pushes=- moves=- nodes=0 seconds=0 solution=-" \
                >"$6/level.LEVEL"' \
        sh "$SOKOBAN" "$COLLECTION" "$SECONDS_PER_LEVEL" "$MODE" "$memory" "$work" "$threads"
    for level in $(seq 1 "$count"); do
        cat "$work/level.$level"
        if grep -q status=crashed "$work/level.$level"; then
            echo "level $level crashed: $(head -n 1 "$work/errors.$level")" >&2
        fi
    done >"$work/lines"
fi

# One row per level, then the totals: solved, median and total seconds, total pushes of the
# solved levels, nodes per second over the whole run, and the levels solved within 1 and 10 s.
awk '
function field(name,    i, kv) {
    for (i = 1; i <= NF; i++) {
        split($i, kv, "=")
        if (kv[1] == name) return kv[2]
    }
    return "-"
}
BEGIN { printf "%6s  %-10s %7s %7s %12s %9s\n", "level", "status", "pushes", "moves", "nodes", "seconds" }
!/^level=/ { next } # the total line of the CLI
{
    status = field("status")
    printf "%6s  %-10s %7s %7s %12s %9s\n", field("level"), status, field("pushes"),
        field("moves"), field("nodes"), field("seconds")
    levels++
    seconds[levels] = field("seconds") + 0
    total_seconds += seconds[levels]
    total_nodes += field("nodes")
    if (status == "crashed") crashed = crashed " " field("level")
    if (status == "solved") {
        solved++
        pushes += field("pushes")
        if (seconds[levels] <= 1) within1++
        if (seconds[levels] <= 10) within10++
    }
}
END {
    # median of all levels (a level that hit its limit counts with its limit)
    for (i = 1; i <= levels; i++)
        for (j = i + 1; j <= levels; j++)
            if (seconds[j] < seconds[i]) { t = seconds[i]; seconds[i] = seconds[j]; seconds[j] = t }
    if (levels % 2) median = seconds[(levels + 1) / 2]
    else median = (seconds[levels / 2] + seconds[levels / 2 + 1]) / 2
    rate = 0
    if (total_seconds > 0) rate = total_nodes / total_seconds
    printf "\nsolved %d/%d  median %.3f s  total %.1f s  pushes %d  nodes %d  nodes/s %.0f\n",
        solved, levels, median, total_seconds, pushes, total_nodes, rate
    printf "solved within 1 s: %d  within 10 s: %d\n", within1, within10
    if (crashed != "") printf "crashed:%s\n", crashed
}' "$work/lines"

# Every solution replayed once more by `sokoban --verify`, apart from the solver's own check.
verified=0
failed=0
while IFS= read -r line; do
    case $line in level=*status=solved*) ;; *) continue ;; esac
    level=${line#level=}
    level=${level%% *}
    solution=${line##*solution=}
    if "$SOKOBAN" --verify "$COLLECTION" --level "$level" "$solution" >/dev/null 2>&1; then
        verified=$((verified + 1))
    else
        failed=$((failed + 1))
        echo "level $level: the solution does not replay"
    fi
done <"$work/lines"
echo "verified with --verify: $verified, failed: $failed"

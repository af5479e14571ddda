#!/bin/sh
# bench/optimize.sh - the optimizer on XSokoban: the fast mode's solutions, optimized by
# moves and by pushes, in totals beside the reference solutions cavepacker-data ships.
#
# Usage: bench/optimize.sh [SECONDS] [FIRST] [LAST]
#   SECONDS  the fast mode's time per level, and the optimizer's per level and metric
#            (default 10)
#   FIRST LAST  the levels of levels/xsokoban.xsb to run (default 1 90)
# Environment: SOKOBAN (default build/src/sokoban), THREADS (the solver's --threads,
#   default 1).
# Prints one row per level and a total row over the levels the fast mode solved and the
# reference solves (/usr/share/games/cavepacker/maps/xsokoban%04d.sol, replayed with
# --verify). Every optimized solution is replayed with --verify; a failure is printed.
# Asserts nothing else.
set -eu

SECONDS_PER_LEVEL=${1:-10}
FIRST=${2:-1}
LAST=${3:-90}
SOKOBAN=${SOKOBAN:-build/src/sokoban}
THREADS=${THREADS:-1}
LEVELS=levels/xsokoban.xsb
MAPS=/usr/share/games/cavepacker/maps

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

field() { # field NAME LINE
    echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

printf '%5s %13s %13s %13s %13s\n' level "fast" "by moves" "by pushes" "reference"
printf '%5s %13s %13s %13s %13s\n' "" "moves/pushes" "moves/pushes" "moves/pushes" "moves/pushes"
fm=0 fp=0 mm=0 mp=0 pm=0 pp=0 rm=0 rp=0 counted=0
level=$FIRST
while [ "$level" -le "$LAST" ]; do
    found=$("$SOKOBAN" --solve "$LEVELS" --level "$level" --mode fast --threads "$THREADS" \
        --time "$SECONDS_PER_LEVEL" || true)
    reference=$(printf '%s/xsokoban%04d.sol' "$MAPS" "$level")
    ref=-
    if [ -f "$reference" ]; then
        ref=$("$SOKOBAN" --verify "$LEVELS" --level "$level" @"$reference" |
            sed -n 's/.*solved in \([0-9]*\) moves\{0,1\}, \([0-9]*\) push.*/\1 \2/p')
    fi
    if [ "$(field status "$found")" != solved ] || [ -z "$ref" ] || [ "$ref" = - ]; then
        printf '%5d %13s %13s %13s %13s\n' "$level" "$(field status "$found")" - - "${ref:--}"
        level=$((level + 1))
        continue
    fi
    echo "$found" >"$work/found"
    row="$(field moves "$found")/$(field pushes "$found")"
    for by in moves pushes; do
        out=$("$SOKOBAN" --optimize "$LEVELS" --level "$level" --by "$by" \
            --time "$SECONDS_PER_LEVEL" @"$work/found")
        "$SOKOBAN" --verify "$LEVELS" --level "$level" "$(field solution "$out")" >/dev/null ||
            echo "level $level: the solution optimized by $by does not verify"
        eval "${by}_moves=$(field moves "$out") ${by}_pushes=$(field pushes "$out")"
        row="$row $(field moves "$out")/$(field pushes "$out")"
    done
    set -- $ref
    printf '%5d %13s %13s %13s %13s\n' "$level" $row "$1/$2"
    fm=$((fm + $(field moves "$found"))) fp=$((fp + $(field pushes "$found")))
    mm=$((mm + moves_moves)) mp=$((mp + moves_pushes))
    pm=$((pm + pushes_moves)) pp=$((pp + pushes_pushes))
    rm=$((rm + $1)) rp=$((rp + $2)) counted=$((counted + 1))
    level=$((level + 1))
done
printf '%5s %13s %13s %13s %13s\n' total "$fm/$fp" "$mm/$mp" "$pm/$pp" "$rm/$rp"
echo "levels counted: $counted (solved by the fast mode in $SECONDS_PER_LEVEL s, with a reference)"
awk -v fm="$fm" -v mm="$mm" -v pp="$pp" -v rm="$rm" -v rp="$rp" -v fp="$fp" 'BEGIN {
    if (rm > 0 && rp > 0)
        printf "moves: fast %.3f, by moves %.3f of the reference; pushes: fast %.3f, by pushes %.3f\n",
            fm / rm, mm / rm, fp / rp, pp / rp }'

#!/bin/sh
# bench/optimize.sh - the optimizer on a collection: the fast mode's solutions, optimized by
# moves and by pushes, in totals beside the reference solutions cavepacker-data ships and,
# when YASS is given, beside YASS's optimizer on the same solutions.
#
# Usage: bench/optimize.sh [SECONDS] [FIRST] [LAST]
#   SECONDS  the fast mode's time per level, and the optimizer's per level and metric
#            (default 10)
#   FIRST LAST  the levels of the collection to run (default 1 to the collection's last)
# Environment: SOKOBAN (default build/src/sokoban), THREADS (the solver's --threads,
#   default 1),
#   COLLECTION  xsokoban (levels/xsokoban.xsb, the default), microban (Microban I) or
#               sasquatch (Sasquatch I), the last two built from cavepacker-data's maps,
#   YASS        the path of a YASS 2.153 console build (see docs/BENCHMARKS.md): adds a
#               column, YASS's optimizer (`YASS FILE -search optimize -optimize moves
#               -maxtime SECONDS`) on the same fast solution, one level a file,
#   YASS_BY     the metrics YASS is run by when YASS is set (default "moves"; "moves pushes"
#               adds a second column).
# Prints one row per level and a total row over the levels the fast mode solved and the
# reference solves (MAPS/PREFIXnnnn.sol, replayed with --verify). Every optimized solution,
# ours and YASS's, is replayed with --verify and counted as it replays; a failure is printed.
# Asserts nothing else.
set -eu

SECONDS_PER_LEVEL=${1:-10}
FIRST=${2:-1}
SOKOBAN=${SOKOBAN:-build/src/sokoban}
THREADS=${THREADS:-1}
COLLECTION=${COLLECTION:-xsokoban}
YASS=${YASS:-}
YASS_BY=${YASS_BY:-moves}
MAPS=/usr/share/games/cavepacker/maps

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

case $COLLECTION in
xsokoban) prefix=xsokoban LEVELS=levels/xsokoban.xsb ;;
microban) prefix=microban01_ LEVELS=$work/levels.xsb ;;
sasquatch) prefix=sasquatch01_ LEVELS=$work/levels.xsb ;;
*)
    echo "bench/optimize.sh: COLLECTION is xsokoban, microban or sasquatch" >&2
    exit 2
    ;;
esac
if [ "$COLLECTION" != xsokoban ]; then
    for map in "$MAPS/$prefix"0*.sok; do
        cat "$map"
        echo
    done >"$LEVELS"
fi
LAST=${3:-$("$SOKOBAN" --list "$LEVELS" | wc -l)}
[ -n "$YASS" ] || YASS_BY=

field() { # field NAME LINE
    echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

counts() { # counts LEVEL SOLUTION: "moves pushes" of a solution that replays, else nothing
    "$SOKOBAN" --verify "$LEVELS" --level "$1" "$2" 2>/dev/null |
        sed -n 's/.*solved in \([0-9]*\) moves\{0,1\}, \([0-9]*\) push.*/\1 \2/p'
}

yass() { # yass LEVEL METRIC SOLUTION: "moves pushes" of YASS's best, the input's if none
    dir=$work/yass.$1.$2
    mkdir -p "$dir"
    { cat "$(printf '%s/%s%04d.sok' "$MAPS" "$prefix" "$1")"; echo; echo Solution; echo "$3"; } \
        >"$dir/level.sok"
    (cd "$dir" && "$YASS" level.sok -search optimize -optimize "$2" -maxtime \
        "$SECONDS_PER_LEVEL" -prompt no >log 2>&1) || true
    best=$(awk '/^Solution/ { s = ""; on = 1; next } on && /^[udlrUDLR]+$/ { s = s $0; next }
        { on = 0 } END { print s }' "$dir"/level,*Solutions.sok 2>/dev/null || true)
    got=
    [ -z "$best" ] || got=$(counts "$1" "$best")
    if [ -n "$best" ] && [ -z "$got" ]; then
        echo "level $1: YASS's solution by $2 does not verify" >&2
    fi
    [ -n "$got" ] || got=$(counts "$1" "$3")
    echo "$got"
}

header="$(printf '%5s %13s %13s %13s' level fast "by moves" "by pushes")"
units="$(printf '%5s %13s %13s %13s' "" moves/pushes moves/pushes moves/pushes)"
for by in $YASS_BY; do
    header="$header $(printf '%13s' "YASS $by")"
    units="$units $(printf '%13s' moves/pushes)"
done
printf '%s %13s\n%s %13s\n' "$header" reference "$units" moves/pushes
fm=0 fp=0 mm=0 mp=0 pm=0 pp=0 rm=0 rp=0 ym=0 yp=0 zm=0 zp=0 counted=0
level=$FIRST
while [ "$level" -le "$LAST" ]; do
    found=$("$SOKOBAN" --solve "$LEVELS" --level "$level" --mode fast --threads "$THREADS" \
        --time "$SECONDS_PER_LEVEL" || true)
    reference=$(printf '%s/%s%04d.sol' "$MAPS" "$prefix" "$level")
    ref=
    [ ! -f "$reference" ] || ref=$(counts "$level" @"$reference")
    if [ "$(field status "$found")" != solved ] || [ -z "$ref" ]; then
        printf '%5d %13s %13s\n' "$level" "$(field status "$found")" "reference: ${ref:--}"
        level=$((level + 1))
        continue
    fi
    solution=$(field solution "$found")
    echo "$solution" >"$work/found"
    row="$(field moves "$found")/$(field pushes "$found")"
    for by in moves pushes; do
        out=$("$SOKOBAN" --optimize "$LEVELS" --level "$level" --by "$by" \
            --time "$SECONDS_PER_LEVEL" @"$work/found" || true)
        if [ -z "$(counts "$level" "$(field solution "$out")")" ]; then
            # counted as the input, so that the totals stay over the same levels
            echo "level $level: the solution optimized by $by does not verify" >&2
            out="moves=$(field moves "$found") pushes=$(field pushes "$found")"
        fi
        eval "${by}_moves=$(field moves "$out") ${by}_pushes=$(field pushes "$out")"
        row="$row $(field moves "$out")/$(field pushes "$out")"
    done
    for by in $YASS_BY; do
        set -- $(yass "$level" "$by" "$solution")
        row="$row $1/$2"
        if [ "$by" = moves ]; then ym=$((ym + $1)) yp=$((yp + $2)); else zm=$((zm + $1)) zp=$((zp + $2)); fi
    done
    set -- $ref
    printf '%5d' "$level"
    printf ' %13s' $row "$1/$2"
    printf '\n'
    fm=$((fm + $(field moves "$found"))) fp=$((fp + $(field pushes "$found")))
    mm=$((mm + moves_moves)) mp=$((mp + moves_pushes))
    pm=$((pm + pushes_moves)) pp=$((pp + pushes_pushes))
    rm=$((rm + $1)) rp=$((rp + $2)) counted=$((counted + 1))
    level=$((level + 1))
done
row="$fm/$fp $mm/$mp $pm/$pp"
for by in $YASS_BY; do
    if [ "$by" = moves ]; then row="$row $ym/$yp"; else row="$row $zm/$zp"; fi
done
printf '%5s' total
printf ' %13s' $row "$rm/$rp"
printf '\n'
echo "levels counted: $counted of $COLLECTION $FIRST-$LAST (solved by the fast mode in" \
    "$SECONDS_PER_LEVEL s, with a reference)"
awk -v fm="$fm" -v mm="$mm" -v pp="$pp" -v rm="$rm" -v rp="$rp" -v fp="$fp" -v ym="$ym" \
    -v zp="$zp" -v yass="$YASS_BY" 'BEGIN {
    if (rm > 0 && rp > 0) {
        printf "moves: fast %.3f, by moves %.3f of the reference; pushes: fast %.3f, by pushes %.3f\n",
            fm / rm, mm / rm, fp / rp, pp / rp
        if (yass ~ /moves/) printf "YASS by moves: moves %.3f of the reference\n", ym / rm
        if (yass ~ /pushes/) printf "YASS by pushes: pushes %.3f of the reference\n", zp / rp
    } }'

#!/bin/sh
# bench/midgame.sh - the solver from the middle of real games: the position halfway through
# the reference solution of each level (bench/midgame.c), solved cold like a level.
#
# Usage: bench/midgame.sh [SECONDS] [MODE] [FRACTION]
#   SECONDS   time limit per position (default 10)
#   MODE      fast or optimal (default fast)
#   FRACTION  how far into each reference solution, in pushes (default 0.5: halfway)
# Environment: EVERY (the positions after every EVERY-th push instead of FRACTION's one:
#   EVERY=60 gives the 354 XSokoban positions where hint_bench --as-played presses H),
#   PREFIX (default xsokoban), LEVELS (default 90), FIRST (default 1),
#   MAPS (default /usr/share/games/cavepacker/maps), MIDGAME (default build/bench/midgame),
#   and everything bench/solve.sh reads (SOKOBAN, MEMORY, JOBS, SOKOBAN_SOLVER_DISABLE).
# Prints bench/solve.sh's table and totals, with the count solved within 1 s and 10 s.
set -eu

SECONDS_PER_POSITION=${1:-10}
MODE=${2:-fast}
FRACTION=${3:-0.5}
MIDGAME=${MIDGAME:-build/bench/midgame}
MAPS=${MAPS:-/usr/share/games/cavepacker/maps}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$MIDGAME" --dir "$MAPS" --prefix "${PREFIX:-xsokoban}" --levels "${LEVELS:-90}" \
    --first "${FIRST:-1}" --fraction "$FRACTION" ${EVERY:+--every "$EVERY"} >"$work/midgame.xsb"
where="$FRACTION of the pushes"
if [ -n "${EVERY:-}" ]; then where="every $EVERY pushes"; fi
echo "== positions after $where of each reference solution in $MAPS"
"$(dirname "$0")/solve.sh" "$work/midgame.xsb" "$SECONDS_PER_POSITION" "$MODE"

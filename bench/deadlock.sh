#!/bin/sh
# bench/deadlock.sh - what the deadlock checks cost the solver: ns per deadlock_check_push
# call on positions along the XSokoban reference solutions (the solution's own pushes, and
# every legal push from each position on the path, as a solver's inner loop sees them), and
# microseconds to build a level's dead-square table.
#
# Usage: bench/deadlock.sh [BUILD-DIR] [deadlock_bench options ...]
#   BUILD-DIR defaults to ./build (configure it with the default buildtype, debugoptimized,
#   or release); options: --repeat R (default 20), --levels FILE --dir DIR --prefix NAME
#   for another collection whose solutions are stored one a file as DIR/NAME%04d.sol.
# Needs the XSokoban solutions in /usr/share/games/cavepacker/maps. Prints results only.
set -eu

BUILD=${1:-build}
[ $# -gt 0 ] && shift
exec "$BUILD/bench/deadlock_bench" "$@"

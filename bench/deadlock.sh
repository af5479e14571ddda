#!/bin/sh
# bench/deadlock.sh - what the deadlock checks cost the solver: ns per deadlock_check_push
# call on positions along the XSokoban reference solutions (the solution's own pushes, and
# every legal push from each position on the path, as a solver's inner loop sees them), and
# microseconds to build a level's dead-square table. With --proofs N, instead: of the
# positions one push off the reference solutions (every legal push from every Nth position
# on the path), how many the solver proves lost at once, by each of its checks in turn (the
# game's "is this position already lost?").
#
# Usage: bench/deadlock.sh [BUILD-DIR] [deadlock_bench options ...]
#   BUILD-DIR defaults to ./build (configure it with the default buildtype, debugoptimized,
#   or release); options: --repeat R (default 20), --proofs N, --levels FILE --dir DIR
#   --prefix NAME for another collection whose solutions are stored one a file as
#   DIR/NAME%04d.sol (Microban II: the microban02_*.sok maps in one file, --prefix
#   microban02_).
# Needs the XSokoban solutions in /usr/share/games/cavepacker/maps. Prints results only.
set -eu

BUILD=${1:-build}
[ $# -gt 0 ] && shift
exec "$BUILD/bench/deadlock_bench" "$@"

#!/bin/sh
# bench/hint.sh - does the game stay quick while the solver works?
#
#   1. Hint latency: bench/hint_bench asks the solver thread for a hint at every position
#      along the reference solutions of the Microban levels and prints the median, 95th
#      percentile and maximum time from request to hint (target: max under 1 s).
#   2. Key-to-redraw time: the real game in a tmux terminal, SOKOBAN_TRACE set, solves a hard
#      level (solving ahead from the start, then S) while tmux sends keys, and a second
#      solver (sokoban --solve on the same level) keeps the other core busy; each key's time
#      from poll() waking to the redraw done is read from the trace (target: median under
#      1 ms, max under 16 ms, one frame).
#
# Usage: bench/hint.sh [BUILD-DIR] [--keys-only | --hints-only] [hint_bench options ...]
#   BUILD-DIR defaults to ./build; e.g. bench/hint.sh build --every 4 for a quicker part 1.
# Needs tmux for part 2. Prints results only; asserts nothing.
set -eu

. "$(dirname "$0")/game_keys.sh"
HINT_BENCH=$(cd "$BUILD" && pwd)/bench/hint_bench

# Part 1: the solver thread's hint latency.
if [ "$PARTS" != keys ]; then
    echo "== hint latency (bench/hint_bench $*)"
    "$HINT_BENCH" "$@"
fi
[ "$PARTS" = hints ] && exit 0

# Part 2: key-to-redraw in the game while the solver searches.
KEYS=${BENCH_KEYS:-300}
LEVEL=${BENCH_LEVEL:-50} # an XSokoban level the solver works on for longer than the test
keys_start hint
mkdir -p "$WORK/data"
keys_game "--level $LEVEL --time 600"
wait_screen "solver ahead" "the game did not start"
# The other core: a second solver on the same level, for the length of the test.
"$SOKOBAN" --solve "$SOURCE/levels/xsokoban.xsb" --level "$LEVEL" --time 120 >/dev/null 2>&1 &
OTHER=$!
tmux -L "$SOCKET" send-keys S
wait_screen "solver .* solving" "the solver did not start"
# D shows and hides the dead squares: a full redraw that leaves the position (and so the
# running solve) alone.
send_keys D "$KEYS"
busy=yes
screen | grep -q "solver .* solving" || busy=no
kill "$OTHER" 2>/dev/null || true
tmux -L "$SOCKET" send-keys Escape q
sleep 1

echo "== key-to-redraw while the solver works (XSokoban $LEVEL, $KEYS keys, solver still busy at the end: $busy)"
key_latencies 0
print_latencies

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

BUILD=${1:-build}
[ $# -gt 0 ] && shift
PARTS=both
case ${1:-} in
--keys-only) PARTS=keys; shift ;;
--hints-only) PARTS=hints; shift ;;
esac
SOURCE=$(cd "$(dirname "$0")/.." && pwd)
SOKOBAN=$(cd "$BUILD" && pwd)/src/sokoban
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
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sokoban-bench-hint.XXXXXX")
export TMUX_TMPDIR=$(mktemp -d /tmp/sokoban-tmux.XXXXXX) # tmux's socket, removed at the end
SOCKET="sokoban-bench-hint-$$"
cleanup() {
    tmux -L "$SOCKET" kill-server 2> /dev/null || true
    sleep 0.5
    rm -rf "$WORK" "$TMUX_TMPDIR"
}
trap cleanup EXIT INT TERM
export TERM=xterm-256color
unset TMUX
mkdir -p "$WORK/data"
tmux -L "$SOCKET" -f /dev/null new-session -d -x 100 -y 30 \
    "env TERM=xterm-256color LANG=C.UTF-8 XDG_DATA_HOME='$WORK/data' SOKOBAN_TRACE='$WORK/trace' \
     '$SOKOBAN' '$SOURCE/levels/xsokoban.xsb' --level $LEVEL --time 600; sleep 5"
screen() { tmux -L "$SOCKET" capture-pane -p; }
tries=100
until screen | grep -q "solver ahead"; do
    tries=$((tries - 1)); [ $tries -gt 0 ] || { echo "the game did not start" >&2; exit 1; }
    sleep 0.1
done
# The other core: a second solver on the same level, for the length of the test.
"$SOKOBAN" --solve "$SOURCE/levels/xsokoban.xsb" --level "$LEVEL" --time 120 >/dev/null 2>&1 &
OTHER=$!
tmux -L "$SOCKET" send-keys S
tries=100
until screen | grep -q "solver .* solving"; do
    tries=$((tries - 1)); [ $tries -gt 0 ] || { echo "the solver did not start" >&2; exit 1; }
    sleep 0.1
done
# D shows and hides the dead squares: a full redraw that leaves the position (and so the
# running solve) alone.
i=0
while [ $i -lt "$KEYS" ]; do
    tmux -L "$SOCKET" send-keys D
    sleep 0.03
    i=$((i + 1))
done
busy=yes
screen | grep -q "solver .* solving" || busy=no
kill "$OTHER" 2>/dev/null || true
tmux -L "$SOCKET" send-keys Escape q
sleep 1

echo "== key-to-redraw while the solver works (XSokoban $LEVEL, $KEYS keys, solver still busy at the end: $busy)"
# Pairs each key with the redraw that follows it; prints milliseconds, sorted.
awk '$1 == "key" { if (!pending) { start = $2; pending = 1 } }
     $1 == "redraw" && pending { printf "%.3f\n", ($2 - start) / 1000; pending = 0 }' \
    "$WORK/trace" | sort -n > "$WORK/latencies"
count=$(wc -l < "$WORK/latencies")
if [ "$count" -eq 0 ]; then
    echo "no keys traced" >&2
    exit 1
fi
median=$(sed -n "$(((count + 1) / 2))p" "$WORK/latencies")
p95=$(sed -n "$(((count * 95 + 99) / 100))p" "$WORK/latencies")
max=$(tail -n 1 "$WORK/latencies")
echo "  keys $count, median $median ms, 95th percentile $p95 ms, max $max ms (target: under 16 ms)"

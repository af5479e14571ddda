#!/bin/sh
# bench/improve.sh - the optimizer in the game (issue 47): how soon the hint on show becomes
# the improved line, and whether the game stays quick while the optimizer runs.
#
#   1. bench/improve_bench on XSokoban 1-20: per level, a fresh solver thread as the game
#      makes it, H at once; the seconds from the hint's arrival to the first improved line's
#      (target: median under 2 s).
#   2. Key-to-redraw: the real game in a tmux terminal (SOKOBAN_TRACE set) on an XSokoban
#      level whose answer the optimizer works on for its whole 10 s; H, then Esc hides the
#      hint so the status line shows "solver improving"; tmux sends D (a full redraw that
#      leaves the position, and so the optimizer, alone) while it runs; each key's time from
#      poll() waking to the redraw done is read from the trace (target: under 16 ms). Then
#      the same keys to the game alone (--no-solve-ahead, no H: no solver, no optimizer), the
#      baseline that tells the optimizer's cost from the machine's load.
#
# Usage: bench/improve.sh [BUILD-DIR] [--keys-only | --hints-only] [improve_bench options]
# Needs tmux for part 2. Prints results only; asserts nothing. The machine's load changes
# the times: print `uptime` beside them.
set -eu

. "$(dirname "$0")/game_keys.sh"
IMPROVE_BENCH=$(cd "$BUILD" && pwd)/bench/improve_bench

echo "== $(uptime)"
if [ "$PARTS" != keys ]; then
    echo "== hint shown -> improved line (bench/improve_bench $*)"
    "$IMPROVE_BENCH" --file "$SOURCE/levels/xsokoban.xsb" "$@"
fi
[ "$PARTS" = hints ] && exit 0

KEYS=${BENCH_KEYS:-100}
LEVEL=${BENCH_LEVEL:-3} # the optimizer runs its whole 10 s on the fast answer here
keys_start improve

# run_keys with|without: the game on XSokoban $LEVEL, $KEYS D keys 30 ms apart, with the
# optimizer running (H, then Esc) or the game alone; prints the key-to-redraw times.
run_keys() {
    rm -rf "$WORK/data" "$WORK/trace"
    mkdir -p "$WORK/data"
    extra=
    [ "$1" = without ] && extra=--no-solve-ahead
    keys_game "--level $LEVEL $extra"
    wait_screen "moves 0"
    if [ "$1" = with ]; then
        tmux -L "$SOCKET" send-keys H
        wait_screen "Hint"
        tmux -L "$SOCKET" send-keys Escape
        wait_screen "solver improving"
    fi
    # the trace is written through stdio's buffer: the keys before these (H, Esc) are
    # counted out below, not by the lines the file has now
    skip=0
    [ "$1" = with ] && skip=2
    send_keys D "$KEYS"
    busy=yes
    screen | grep -q "solver improving" || busy=no
    tmux -L "$SOCKET" send-keys q
    sleep 1
    tmux -L "$SOCKET" kill-server 2> /dev/null || true
    if [ "$1" = with ]; then
        echo "== key-to-redraw while the optimizer runs (XSokoban $LEVEL, $KEYS keys, still improving at the end: $busy)"
    else
        echo "== key-to-redraw, the game alone (--no-solve-ahead, XSokoban $LEVEL, $KEYS keys)"
    fi
    key_latencies "$skip"
    [ -n "${BENCH_ORDER:-}" ] && tr "\n" " " < "$WORK/order" && echo
    print_latencies
}

run_keys with
run_keys without
echo "== $(uptime)"

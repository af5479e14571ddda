# bench/game_keys.sh - sourced by bench/hint.sh and bench/improve.sh: their command line, the
# game in a tmux terminal with SOKOBAN_TRACE set, keys sent to it, and the key-to-redraw
# times read from its trace.
#
# Sourced with the script's own arguments (`. "$(dirname "$0")/game_keys.sh"`): takes
# [BUILD-DIR] [--keys-only | --hints-only] off the front of them and sets BUILD, PARTS (both,
# keys or hints), SOURCE (the source tree), SOKOBAN (the game); the arguments left are the
# bench program's options.

BUILD=${1:-build}
[ $# -gt 0 ] && shift
PARTS=both
case ${1:-} in
--keys-only) PARTS=keys; shift ;;
--hints-only) PARTS=hints; shift ;;
esac
SOURCE=$(cd "$(dirname "$0")/.." && pwd)
SOKOBAN=$(cd "$BUILD" && pwd)/src/sokoban

# keys_start NAME: a work folder ($WORK) and a tmux server of its own ($SOCKET, its socket
# in a folder of its own), both removed however the script ends.
keys_start() {
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/sokoban-bench-$1.XXXXXX")
    TMUX_TMPDIR=$(mktemp -d /tmp/sokoban-tmux.XXXXXX)
    export TMUX_TMPDIR
    SOCKET="sokoban-bench-$1-$$"
    trap keys_cleanup EXIT INT TERM
    export TERM=xterm-256color
    unset TMUX
}

keys_cleanup() {
    tmux -L "$SOCKET" kill-server 2> /dev/null || true
    sleep 0.5
    rm -rf "$WORK" "$TMUX_TMPDIR"
}

# keys_game OPTIONS: the game on the bundled XSokoban with OPTIONS, in a 100x30 terminal
# (UTF-8, its data in $WORK/data, its trace in $WORK/trace).
keys_game() {
    tmux -L "$SOCKET" -f /dev/null new-session -d -x 100 -y 30 \
        "env TERM=xterm-256color LANG=C.UTF-8 XDG_DATA_HOME='$WORK/data' SOKOBAN_TRACE='$WORK/trace' \
         '$SOKOBAN' '$SOURCE/levels/xsokoban.xsb' $1; sleep 5"
}

screen() { tmux -L "$SOCKET" capture-pane -p; }

# wait_screen PATTERN [WHY]: waits (10 s at most) until the screen shows PATTERN (grep);
# else prints WHY (by default "never saw 'PATTERN'") and ends the script.
wait_screen() {
    tries=200
    until screen | grep -q "$1"; do
        tries=$((tries - 1))
        [ $tries -gt 0 ] || { echo "${2:-never saw '$1'}" >&2; exit 1; }
        sleep 0.05
    done
}

# send_keys KEY COUNT: the key COUNT times, 30 ms apart.
send_keys() {
    i=0
    while [ $i -lt "$2" ]; do
        tmux -L "$SOCKET" send-keys "$1"
        sleep 0.03
        i=$((i + 1))
    done
}

# key_latencies SKIP: each key of the trace paired with the redraw that follows it, the
# first SKIP left out; milliseconds in the keys' order in $WORK/order, sorted in
# $WORK/latencies.
key_latencies() {
    awk '$1 == "key" { if (!pending) { start = $2; pending = 1 } }
         $1 == "redraw" && pending { printf "%.3f\n", ($2 - start) / 1000; pending = 0 }' \
        "$WORK/trace" | tail -n +"$(($1 + 1))" |
        tee "$WORK/order" | sort -n > "$WORK/latencies"
}

# print_latencies: the count, median, 95th percentile and maximum of $WORK/latencies; ends
# the script when no key was traced.
print_latencies() {
    count=$(wc -l < "$WORK/latencies")
    if [ "$count" -eq 0 ]; then
        echo "no keys traced" >&2
        exit 1
    fi
    median=$(sed -n "$(((count + 1) / 2))p" "$WORK/latencies")
    p95=$(sed -n "$(((count * 95 + 99) / 100))p" "$WORK/latencies")
    max=$(tail -n 1 "$WORK/latencies")
    echo "  keys $count, median $median ms, 95th percentile $p95 ms, max $max ms (target: under 16 ms)"
}

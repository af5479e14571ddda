/* solver_packing.c - the packing order: a retrograde analysis from the packed position. */
#include "solver_packing.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Work space of the packing order's pulling searches. */
typedef struct pull_search {
    const board *board;
    const uint8_t *box; /* the boxes still on goals */
    uint32_t *visit;    /* per (square, side) state */
    int *queue;
    uint8_t *reach;
    int *reach_queue;
    uint32_t stamp;
    const solver_stop *stop; /* may be NULL */
} pull_search;

/* The squares the player can walk to from `from` with the boxes in place and one more box on
 * `extra` (-1: none), the box on `gone` taken away (-1: none), into p->reach. */
static void pull_reach(pull_search *p, int from, int extra, int gone)
{
    const board *b = p->board;
    memset(p->reach, 0, (size_t)b->size);
    int head = 0, tail = 0;
    p->reach[from] = 1;
    p->reach_queue[tail++] = from;
    while (head < tail) {
        int square = p->reach_queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (p->reach[next] || next == extra || (p->box[next] && next != gone) ||
                !board_is_inside(b, next))
                continue;
            p->reach[next] = 1;
            p->reach_queue[tail++] = next;
        }
    }
}

/* True when `square` is a parking square already (one square is never two targets). */
static bool is_parking(const solver_parking *parking, int square)
{
    for (int k = 0; parking && k < parking->count; k++)
        if (parking->square[k] == square) return true;
    return false;
}

/* A breadth-first search over the pulls of the box on `square`, the other boxes standing
 * still and the player starting from `player`. With `home`: the square of `home` (where the
 * boxes now stand) the box gets back to first, the reverse of bringing it in from there.
 * Without: its parking square, the square off the goals, off `sources` and off the parking
 * squares already taken, that its pulls reach last (the farthest by pulls). -1 when none. */
static int pull_away(pull_search *p, int square, int player, const uint8_t *home,
                     const uint8_t *sources, const solver_parking *parking)
{
    const board *b = p->board;
    if (++p->stamp == 0) {
        memset(p->visit, 0, (size_t)b->size * 4 * sizeof *p->visit);
        p->stamp = 1;
    }
    int head = 0, tail = 0, best = -1;
    pull_reach(p, player, -1, -1);
    if (p->reach[square]) return -1; /* cannot happen: the box stands there */
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        if (!p->reach[square + b->delta[d]]) continue;
        p->visit[square * 4 + d] = p->stamp;
        p->queue[tail++] = square * 4 + d;
    }
    while (head < tail) {
        /* each state floods the floor: on a large level the search takes seconds */
        if (head % 64 == 0 && solver_stop_now(p->stop)) return -1;
        int state = p->queue[head++], box = state / 4;
        if (!home && box != square && box != player && !board_is_goal(b, box) && !sources[box] &&
            !is_parking(parking, box))
            best = box;
        pull_reach(p, box + b->delta[state % 4], box, square);
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int to = box + b->delta[d], back = to + b->delta[d];
            if (!p->reach[to] || !p->reach[back]) continue;
            if (home && home[to]) return to;
            int next = to * 4 + d;
            if (p->visit[next] == p->stamp) continue;
            p->visit[next] = p->stamp;
            p->queue[tail++] = next;
        }
    }
    return best;
}

/* Where the player stands in the packed position, for the retrograde analysis. With a box on
 * every goal the free floor falls into parts; the player ends in one of them. A level's start
 * usually has him among the boxes, but in the middle of a game he may stand on a goal or in a
 * pocket of the goal area, from where no box could be pulled home. So: the part holding the
 * most of `sources` (where boxes stand now off the goals; may be NULL), his own part when it
 * holds as many; when he stands on a goal and no part holds a source, the off-goal square
 * nearest to him. `mark` and `queue` are work space of the board's size. */
static int packed_player(const board *b, int player, const uint8_t *sources, uint8_t *mark,
                         int *queue)
{
    memset(mark, 0, (size_t)b->size);
    int best = board_is_goal(b, player) ? -1 : player, best_count = -1;
    for (int start = 0; start < b->size; start++) {
        if (mark[start] || !board_is_inside(b, start) || board_is_goal(b, start)) continue;
        int head = 0, tail = 0, count = 0;
        bool has_player = false;
        mark[start] = 1;
        queue[tail++] = start;
        while (head < tail) {
            int square = queue[head++];
            count += sources && sources[square] == 1;
            has_player |= square == player;
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int next = square + b->delta[d];
                if (mark[next] || !board_is_inside(b, next) || board_is_goal(b, next)) continue;
                mark[next] = 1;
                queue[tail++] = next;
            }
        }
        if (count > best_count || (count == best_count && has_player)) {
            best_count = count;
            best = has_player ? player : start;
        }
    }
    if (best_count > 0 || !board_is_goal(b, player)) return best;
    /* On a goal with no source anywhere: the nearest square off the goals. */
    memset(mark, 0, (size_t)b->size);
    int head = 0, tail = 0;
    mark[player] = 1;
    queue[tail++] = player;
    while (head < tail) {
        int square = queue[head++];
        if (!board_is_goal(b, square)) return square;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (mark[next] || !board_is_inside(b, next)) continue;
            mark[next] = 1;
            queue[tail++] = next;
        }
    }
    return player;
}

/* A parking step: the first goal box among the `count` removable ones (goal indices first)
 * that has a parking square is pulled there; its goal gets layer `layers`. False when none
 * has, or when the goals parked already are half the goals (YASS caps its parking too). */
static bool park(pull_search *p, const board *b, uint8_t *box, const int *removable, int count,
                 int *layer, int layers, int player, const uint8_t *sources,
                 solver_parking *parking)
{
    if (2 * parking->count >= b->goal_count) return false;
    for (int i = 0; i < count; i++) {
        int g = removable[i];
        if (g >= b->goal_count) continue; /* a box parked already waits where it is */
        int square = pull_away(p, b->goals[g], player, NULL, sources, parking);
        if (square < 0) continue;
        int k = parking->count++;
        parking->square[k] = square;
        parking->goal[k] = g;
        parking->layer[k] = -1;
        layer[g] = layers;
        box[b->goals[g]] = 0;
        box[square] = 1;
        return true;
    }
    return false;
}

int solver_packing_layers(const board *b, int player, const uint8_t *sources, int *layer)
{
    return solver_packing_layers_until(b, player, sources, layer, NULL, NULL);
}

int solver_packing_layers_until(const board *b, int player, const uint8_t *sources, int *layer,
                                solver_parking *parking, const solver_stop *stop)
{
    if (!sources) parking = NULL;
    if (parking) parking->count = 0;
    size_t size = (size_t)b->size;
    uint8_t *box = calloc(size, 1);
    uint8_t *reach = malloc(size);
    int *queue = malloc(size * sizeof *queue);
    /* goal indices, and parking entries as goal_count + k */
    int *removable =
        malloc((size_t)(b->goal_count > 0 ? 2 * b->goal_count : 1) * sizeof *removable);
    pull_search pull = {.board = b, .box = box, .stop = stop};
    if (sources) {
        pull.visit = calloc(size * 4, sizeof *pull.visit);
        pull.queue = malloc(size * 4 * sizeof *pull.queue);
        pull.reach = malloc(size);
        pull.reach_queue = malloc(size * sizeof *pull.reach_queue);
    }
    int layers = -1, left_sources = 0;
    uint8_t *unused = NULL;
    if (!box || !reach || !queue || !removable ||
        (sources && (!pull.visit || !pull.queue || !pull.reach || !pull.reach_queue)))
        goto done;
    player = packed_player(b, player, sources, reach, queue);
    /* the squares boxes may still go back to: with parking each is taken once */
    if (sources) {
        unused = malloc(size);
        if (!unused) {
            layers = -1;
            goto done;
        }
        memcpy(unused, sources, size);
        for (size_t q = 0; q < size; q++) left_sources += unused[q] != 0;
    }
    for (int g = 0; g < b->goal_count; g++) {
        box[b->goals[g]] = 1;
        layer[g] = -1;
    }
    int remaining = b->goal_count;
    layers = 0;
    while (remaining > 0 && !box[player]) {
        if (solver_stop_now(stop)) {
            layers = -1;
            goto done;
        }
        /* The player's reach among the boxes still in place. */
        for (int s = 0; s < b->size; s++) reach[s] = 0;
        int head = 0, tail = 0;
        reach[player] = 1;
        queue[tail++] = player;
        while (head < tail) {
            int square = queue[head++];
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int next = square + b->delta[d];
                if (reach[next] || box[next] || !board_is_inside(b, next)) continue;
                reach[next] = 1;
                queue[tail++] = next;
            }
        }
        /* The boxes he can pull one step towards him; with `sources`, of those the ones
         * he can pull all the way back to where a box stands now, when there are any. */
        int count = 0;
        int parked = parking ? parking->count : 0;
        for (int t = 0; t < b->goal_count + parked; t++) {
            bool goal = t < b->goal_count;
            int square = goal ? b->goals[t] : parking->square[t - b->goal_count];
            if ((goal ? layer[t] : parking->layer[t - b->goal_count]) >= 0 || !box[square])
                continue;
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int stand = square + b->delta[d], back = stand + b->delta[d];
                if (reach[stand] && reach[back]) {
                    removable[count++] = t;
                    break;
                }
            }
        }
        if (count == 0) break;
        if (sources) {
            int home = 0;
            for (int i = 0; i < count; i++) {
                if (solver_stop_now(stop)) {
                    layers = -1;
                    goto done;
                }
                int t = removable[i];
                int square = t < b->goal_count ? b->goals[t] : parking->square[t - b->goal_count];
                int to = pull_away(&pull, square, player, unused, sources, parking);
                if (to < 0) continue;
                removable[home++] = t;
                /* with parking, as YASS plans, each box goes home to a square of its own */
                if (parking) {
                    unused[to] = 0;
                    left_sources--;
                }
            }
            if (solver_stop_now(stop)) {
                layers = -1;
                goto done;
            }
            if (home > 0) {
                count = home;
            } else if (parking && left_sources > 0 &&
                       park(&pull, b, box, removable, count, layer, layers, player, sources,
                            parking)) {
                layers++;
                remaining--;
                continue;
            }
        }
        for (int i = 0; i < count; i++) {
            int t = removable[i];
            if (t < b->goal_count) {
                layer[t] = layers;
                box[b->goals[t]] = 0;
                remaining--;
            } else {
                parking->layer[t - b->goal_count] = layers;
                box[parking->square[t - b->goal_count]] = 0;
            }
        }
        layers++;
    }
    bool left = remaining > 0;
    for (int g = 0; g < b->goal_count; g++)
        if (layer[g] < 0) layer[g] = layers;
    for (int k = 0; parking && k < parking->count; k++) {
        if (parking->layer[k] < 0) {
            parking->layer[k] = layers;
            left = true;
        }
    }
    if (left) layers++;
done:
    free(unused);
    free(box);
    free(reach);
    free(queue);
    free(removable);
    free(pull.visit);
    free(pull.queue);
    free(pull.reach);
    free(pull.reach_queue);
    return layers;
}

/* solver_packing.c - the packing order: a retrograde analysis from the packed position. */
#include "solver_packing.h"

#include <assert.h>
#include <limits.h>
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
    uint32_t *seen;          /* per square: == stamp once a state of it is queued */
    int *firsts;             /* the states that reach a square first, in order */
    const uint8_t *rest;     /* where a box may be parked (solver_parking's); NULL: anywhere */
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

/* How a parking square is chosen (see pull_away()). */
typedef enum park_rule {
    PARK_LAST,      /* the square the pulls reach last, not the player's own */
    PARK_WALK_BACK, /* the farthest by pulls that the player can walk back to the goal from */
} park_rule;

/* True when a box may be parked on `square`: off the goals, off `sources` and off the
 * parking squares already taken, where a box can be left (`rest`, may be NULL). */
static bool can_park(const board *b, int square, const uint8_t *sources, const uint8_t *rest,
                     const solver_parking *parking)
{
    return !board_is_goal(b, square) && !sources[square] && (!rest || rest[square]) &&
           !is_parking(parking, square);
}

/* A breadth-first search over the pulls of the box on `square`, the other boxes standing
 * still and the player starting from `player`. With `home`: the square of `home` (where the
 * boxes now stand) the box gets back to first, the reverse of bringing it in from there.
 * Without: its parking square (can_park()), by `rule`: PARK_LAST, the one its pulls reach
 * last, other than `player`; PARK_WALK_BACK (as YASS parks), of those that the fewest pulls
 * reach, the one reached last from which the player can walk back to the goal, so that
 * parking there does not shut him off; `after` (may be NULL) then gets where he stands
 * after the last pull. -1 when none. */
static int pull_away(pull_search *p, int square, int player, const uint8_t *home,
                     const uint8_t *sources, const solver_parking *parking, park_rule rule,
                     int *after)
{
    const board *b = p->board;
    if (++p->stamp == 0) {
        memset(p->visit, 0, (size_t)b->size * 4 * sizeof *p->visit);
        memset(p->seen, 0, (size_t)b->size * sizeof *p->seen);
        p->stamp = 1;
    }
    int head = 0, tail = 0, last = -1, firsts = 0;
    bool walk_back = !home && rule == PARK_WALK_BACK;
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
        if (walk_back && p->seen[box] != p->stamp) {
            p->seen[box] = p->stamp;
            p->firsts[firsts++] = state;
        }
        if (!home && box != square && box != player && can_park(b, box, sources, p->rest, parking))
            last = box;
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
    if (!walk_back) return last;
    for (int i = firsts - 1; i >= 0; i--) {
        int state = p->firsts[i], box = state / 4;
        if (box == square || !can_park(b, box, sources, p->rest, parking)) continue;
        int stand = box + b->delta[state % 4];
        pull_reach(p, stand, box, square);
        if (!p->reach[square]) continue;
        if (after) *after = stand;
        return box;
    }
    return -1;
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

/* The packing order's analysis in progress: the boxes still on the board, the homes left. */
typedef struct order_state {
    uint8_t *box;    /* per square */
    uint8_t *unused; /* per square: the homes not yet taken (with sources) */
    int *layer;      /* per goal */
    int *park_square, *park_goal, *park_layer; /* per parking entry */
    int park_count, left_sources, remaining, layers;
    int player; /* where the player stands */
} order_state;

typedef struct order_search {
    const board *b;
    const uint8_t *sources;
    bool parking;
    bool strict;  /* a step must take every box home or park one; else give up */
    int attempts; /* parking steps left to try */
    pull_search pull;
    uint8_t *reach;
    int *queue;
    const solver_stop *stop;
    order_state *furthest; /* of the strict analyses that failed, one that left fewest boxes */
    int furthest_left;     /* the boxes it left (goals and parking squares) */
} order_search;

enum { ORDER_ABORT = -1, ORDER_FAIL = 0, ORDER_DONE = 1 };

enum {
    ORDER_PARKING_ATTEMPTS = 64, /* parking steps a search tries in all */
    ORDER_PARTS = 8,             /* parts of the floor it starts from, at most */
};

static bool order_state_init(order_state *s, const board *b)
{
    size_t size = (size_t)b->size, goals = (size_t)(b->goal_count > 0 ? b->goal_count : 1);
    *s = (order_state){0};
    s->box = calloc(size, 1);
    s->unused = calloc(size, 1);
    s->layer = malloc(goals * sizeof *s->layer);
    s->park_square = malloc(goals * sizeof *s->park_square);
    s->park_goal = malloc(goals * sizeof *s->park_goal);
    s->park_layer = malloc(goals * sizeof *s->park_layer);
    return s->box && s->unused && s->layer && s->park_square && s->park_goal && s->park_layer;
}

static void order_state_free(order_state *s)
{
    free(s->box);
    free(s->unused);
    free(s->layer);
    free(s->park_square);
    free(s->park_goal);
    free(s->park_layer);
}

static void order_state_copy(order_state *to, const order_state *from, const board *b)
{
    size_t size = (size_t)b->size, goals = (size_t)b->goal_count;
    memcpy(to->box, from->box, size);
    memcpy(to->unused, from->unused, size);
    memcpy(to->layer, from->layer, goals * sizeof *to->layer);
    memcpy(to->park_square, from->park_square, goals * sizeof *to->park_square);
    memcpy(to->park_goal, from->park_goal, goals * sizeof *to->park_goal);
    memcpy(to->park_layer, from->park_layer, goals * sizeof *to->park_layer);
    to->park_count = from->park_count;
    to->left_sources = from->left_sources;
    to->remaining = from->remaining;
    to->layers = from->layers;
    to->player = from->player;
}

static solver_parking order_parking(order_state *s)
{
    return (solver_parking){.count = s->park_count,
                            .square = s->park_square,
                            .goal = s->park_goal,
                            .layer = s->park_layer};
}

static int order_run(order_search *o, order_state *s);

/* True when every box left in the analysis stands on a goal that holds a box now (sources
 * 2): those may stay where they are (YASS removes a box on its own start square last). */
static bool order_all_held(const order_search *o, const order_state *s)
{
    const board *b = o->b;
    for (int k = 0; k < s->park_count; k++)
        if (s->park_layer[k] < 0) return false;
    for (int g = 0; g < b->goal_count; g++)
        if (s->layer[g] < 0 && s->box[b->goals[g]] && o->sources[b->goals[g]] != 2) return false;
    return true;
}

/* Parks the box of goal `g` on `square` in `s`: its goal gets the step's layer. */
static void order_park(const board *b, order_state *s, int g, int square)
{
    int k = s->park_count++;
    s->park_square[k] = square;
    s->park_goal[k] = g;
    s->park_layer[k] = -1;
    s->layer[g] = s->layers;
    s->box[b->goals[g]] = 0;
    s->box[square] = 1;
    s->layers++;
    s->remaining--;
}

/* A parking step of the analysis, when no box can go home: a goal box among the `count`
 * removable ones (goal indices first) is pulled to its parking square. Greedy: the first
 * one that has one. Strict: each in turn, the analysis going on after it, until one of them
 * leads to a whole order (YASS backtracks over its parking choices too). */
static int order_branch(order_search *o, order_state *s, const int *removable, int count)
{
    const board *b = o->b;
    /* The greedy analysis parks at most half the goals' boxes; the search parks any number
     * (YASS caps only its attempts), as it backs up when parking leads nowhere. */
    if (!o->strict && 2 * s->park_count >= b->goal_count) return ORDER_FAIL;
    order_state child = {0};
    int result = ORDER_FAIL;
    if (o->strict && !order_state_init(&child, b)) {
        order_state_free(&child);
        return ORDER_ABORT;
    }
    for (int i = 0; i < count && result == ORDER_FAIL; i++) {
        int g = removable[i];
        if (g >= b->goal_count) continue; /* a box parked already waits where it is */
        o->pull.box = s->box;
        solver_parking parking = order_parking(s);
        int after = s->player;
        int square = pull_away(&o->pull, b->goals[g], s->player, NULL, o->sources, &parking,
                               o->strict ? PARK_WALK_BACK : PARK_LAST, &after);
        if (solver_stop_now(o->stop)) result = ORDER_ABORT;
        if (square < 0 || result == ORDER_ABORT) continue;
        if (!o->strict) {
            order_park(b, s, g, square);
            return ORDER_DONE;
        }
        if (o->attempts <= 0) break;
        o->attempts--;
        order_state_copy(&child, s, b);
        order_park(b, &child, g, square);
        child.player = after;
        result = order_run(o, &child);
        if (result == ORDER_DONE) order_state_copy(s, &child, b);
    }
    order_state_free(&child);
    return result;
}

/* Runs the analysis on from `s` until every box has left the board (done), or no box can
 * leave (the greedy analysis stops there; a strict one fails). */
static int order_run(order_search *o, order_state *s)
{
    const board *b = o->b;
    uint8_t *reach = o->reach;
    int *queue = o->queue;
    int *removable =
        malloc((size_t)(b->goal_count > 0 ? 2 * b->goal_count : 1) * sizeof *removable);
    if (!removable) return ORDER_ABORT;
    int result = ORDER_DONE;
    for (;;) {
        bool parked_left = false;
        for (int k = 0; k < s->park_count; k++) parked_left |= s->park_layer[k] < 0;
        if (s->remaining == 0 && (!o->strict || !parked_left)) break;
        if (s->box[s->player]) {
            result = o->strict ? ORDER_FAIL : ORDER_DONE;
            break;
        }
        if (solver_stop_now(o->stop)) {
            result = ORDER_ABORT;
            break;
        }
        /* The player's reach among the boxes still in place. */
        memset(reach, 0, (size_t)b->size);
        int head = 0, tail = 0;
        reach[s->player] = 1;
        queue[tail++] = s->player;
        while (head < tail) {
            int square = queue[head++];
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int next = square + b->delta[d];
                if (reach[next] || s->box[next] || !board_is_inside(b, next)) continue;
                reach[next] = 1;
                queue[tail++] = next;
            }
        }
        /* The boxes he can pull one step towards him; with `sources`, of those the ones
         * he can pull all the way back to where a box stands now, when there are any. */
        int count = 0;
        for (int t = 0; t < b->goal_count + s->park_count; t++) {
            bool goal = t < b->goal_count;
            int square = goal ? b->goals[t] : s->park_square[t - b->goal_count];
            if ((goal ? s->layer[t] : s->park_layer[t - b->goal_count]) >= 0 || !s->box[square])
                continue;
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int stand = square + b->delta[d], back = stand + b->delta[d];
                if (reach[stand] && reach[back]) {
                    removable[count++] = t;
                    break;
                }
            }
        }
        if (count == 0) {
            result = o->strict && !order_all_held(o, s) ? ORDER_FAIL : ORDER_DONE;
            break;
        }
        if (o->sources) {
            int home = 0;
            o->pull.box = s->box;
            solver_parking parking = order_parking(s);
            for (int i = 0; i < count && result != ORDER_ABORT; i++) {
                int t = removable[i];
                int square = t < b->goal_count ? b->goals[t] : s->park_square[t - b->goal_count];
                if (o->strict && t < b->goal_count && o->sources[square] == 2) {
                    /* a box on a goal now stays there: its own home */
                    removable[home++] = t;
                    continue;
                }
                int to = pull_away(&o->pull, square, s->player, s->unused, o->sources,
                                   o->parking ? &parking : NULL, PARK_LAST, NULL);
                if (solver_stop_now(o->stop)) result = ORDER_ABORT;
                if (to < 0) continue;
                removable[home++] = t;
                /* with parking, as YASS plans, each box goes home to a square of its own */
                if (o->parking) {
                    s->unused[to] = 0;
                    s->left_sources--;
                }
            }
            if (result == ORDER_ABORT) break;
            if (home > 0) {
                count = home;
            } else if (o->parking && s->left_sources > 0) {
                int branch = order_branch(o, s, removable, count);
                if (branch == ORDER_DONE && !o->strict) continue; /* parked: go on */
                if (branch != ORDER_FAIL) {
                    /* aborted, or (strict) the order finished after the parking */
                    result = branch;
                    break;
                }
                /* No box to park: the greedy analysis takes the one-step pulls, and so does
                 * a strict one when the boxes left all stand where boxes stand now. */
                if (o->strict && !order_all_held(o, s)) {
                    result = ORDER_FAIL;
                    break;
                }
            } else if (o->strict && !order_all_held(o, s)) {
                result = ORDER_FAIL;
                break;
            }
        }
        for (int i = 0; i < count; i++) {
            int t = removable[i];
            if (t < b->goal_count) {
                s->layer[t] = s->layers;
                s->box[b->goals[t]] = 0;
                s->remaining--;
            } else {
                s->park_layer[t - b->goal_count] = s->layers;
                s->box[s->park_square[t - b->goal_count]] = 0;
            }
        }
        s->layers++;
    }
    free(removable);
    if (result == ORDER_FAIL && o->strict) {
        int left = s->remaining;
        for (int k = 0; k < s->park_count; k++) left += s->park_layer[k] < 0;
        if (left < o->furthest_left) {
            o->furthest_left = left;
            order_state_copy(o->furthest, s, b);
        }
    }
    return result;
}

/* Floods the part of the free floor (with a box on every goal) that holds `start` into
 * `mark`; returns the number of `sources` (may be NULL) in it. */
static int flood_part(const board *b, int start, const uint8_t *sources, uint8_t *mark, int *queue)
{
    int head = 0, tail = 0, count = 0;
    mark[start] = 1;
    queue[tail++] = start;
    while (head < tail) {
        int square = queue[head++];
        count += sources && sources[square] == 1;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (mark[next] || !board_is_inside(b, next) || board_is_goal(b, next)) continue;
            mark[next] = 1;
            queue[tail++] = next;
        }
    }
    return count;
}

/* The parts of the free floor with a box on every goal, one square of each into `parts`:
 * `first` (packed_player()'s choice), then the others by the sources they hold, at most
 * `room` of them; returns their number. `mark` and `queue` are work space. */
static int packed_parts(const board *b, int first, const uint8_t *sources, uint8_t *mark,
                        int *queue, int *parts, int room)
{
    int counts[ORDER_PARTS];
    assert(room <= ORDER_PARTS);
    memset(mark, 0, (size_t)b->size);
    flood_part(b, first, sources, mark, queue);
    int n = 0;
    parts[n++] = first;
    for (int start = 0; start < b->size; start++) {
        if (mark[start] || !board_is_inside(b, start) || board_is_goal(b, start)) continue;
        int count = flood_part(b, start, sources, mark, queue);
        if (n == room && count <= counts[n - 1]) continue;
        int i = n < room ? n++ : n - 1;
        while (i > 1 && counts[i - 1] < count) {
            parts[i] = parts[i - 1];
            counts[i] = counts[i - 1];
            i--;
        }
        parts[i] = start;
        counts[i] = count;
    }
    return n;
}

int solver_packing_layers(const board *b, int player, const uint8_t *sources, int *layer)
{
    return solver_packing_layers_until(b, player, sources, layer, NULL, false, NULL);
}

int solver_packing_layers_until(const board *b, int player, const uint8_t *sources, int *layer,
                                solver_parking *parking, bool search, const solver_stop *stop)
{
    if (!sources) parking = NULL;
    if (parking) parking->count = 0;
    size_t size = (size_t)b->size;
    order_search o = {.b = b,
                      .sources = sources,
                      .parking = parking != NULL,
                      .stop = stop,
                      .attempts = ORDER_PARKING_ATTEMPTS};
    o.reach = malloc(size);
    o.queue = malloc(size * sizeof *o.queue);
    bool searching = parking && search;
    order_state start = {0}, s = {0}, furthest = {0};
    bool ok = o.reach && o.queue && order_state_init(&start, b) && order_state_init(&s, b) &&
              (!searching || order_state_init(&furthest, b));
    o.furthest = &furthest;
    o.furthest_left = INT_MAX;
    if (ok && sources) {
        o.pull = (pull_search){.board = b, .stop = stop, .rest = parking ? parking->rest : NULL};
        o.pull.visit = calloc(size * 4, sizeof *o.pull.visit);
        o.pull.queue = malloc(size * 4 * sizeof *o.pull.queue);
        o.pull.reach = malloc(size);
        o.pull.reach_queue = malloc(size * sizeof *o.pull.reach_queue);
        o.pull.seen = calloc(size, sizeof *o.pull.seen);
        o.pull.firsts = malloc(size * sizeof *o.pull.firsts);
        ok = o.pull.visit && o.pull.queue && o.pull.reach && o.pull.reach_queue && o.pull.seen &&
             o.pull.firsts;
    }
    int layers = -1;
    if (!ok) goto done;
    /* the squares boxes may still go back to: with parking each is taken once */
    for (size_t q = 0; sources && q < size; q++) {
        start.unused[q] = sources[q] == 1;
        start.left_sources += sources[q] == 1;
    }
    for (int g = 0; g < b->goal_count; g++) {
        start.box[b->goals[g]] = 1;
        start.layer[g] = -1;
    }
    start.remaining = b->goal_count;
    int first = packed_player(b, player, sources, o.reach, o.queue);
    int result = ORDER_FAIL;
    /* With parking, a search over the parking choices from each part of the floor in turn
     * (YASS's order); when none leads to a whole order, the greedy analysis goes on from the
     * search that got furthest. */
    if (searching) {
        int parts[ORDER_PARTS];
        int n = packed_parts(b, first, sources, o.reach, o.queue, parts, ORDER_PARTS);
        o.strict = true;
        for (int i = 0; i < n && result == ORDER_FAIL; i++) {
            order_state_copy(&s, &start, b);
            s.player = parts[i];
            result = order_run(&o, &s);
        }
    }
    if (result == ORDER_FAIL) {
        o.strict = false;
        if (o.furthest_left < INT_MAX) {
            order_state_copy(&s, &furthest, b);
        } else {
            order_state_copy(&s, &start, b);
            s.player = first;
        }
        result = order_run(&o, &s);
    }
    if (result == ORDER_ABORT) goto done;
    layers = s.layers;
    bool left = s.remaining > 0;
    for (int g = 0; g < b->goal_count; g++) {
        layer[g] = s.layer[g] < 0 ? layers : s.layer[g];
    }
    for (int k = 0; k < s.park_count; k++) {
        if (s.park_layer[k] < 0) {
            s.park_layer[k] = layers;
            left = true;
        }
    }
    if (left) layers++;
    if (parking) {
        parking->count = s.park_count;
        for (int k = 0; k < s.park_count; k++) {
            parking->square[k] = s.park_square[k];
            parking->goal[k] = s.park_goal[k];
            parking->layer[k] = s.park_layer[k];
        }
    }
done:
    order_state_free(&start);
    order_state_free(&furthest);
    order_state_free(&s);
    free(o.reach);
    free(o.queue);
    free(o.pull.visit);
    free(o.pull.queue);
    free(o.pull.reach);
    free(o.pull.reach_queue);
    free(o.pull.seen);
    free(o.pull.firsts);
    return layers;
}

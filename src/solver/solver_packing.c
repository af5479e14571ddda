/* solver_packing.c - the packing order: a retrograde analysis from the packed position. */
#include "solver_packing.h"

#include <assert.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The search for an order by YASS's rules tries no more parking steps once its pulling
 * searches have flooded this many squares (about a second on XSokoban 90; YASS takes 0.5 s
 * there, 16 s on 69). Work, not seconds: the order, and so the search that follows it, is
 * the same on a busy machine as on an idle one. */
#define ORDER_EARLY_WORK (UINT64_C(1) << 26)

/* Squares apart along the rows and the columns. */
static int manhattan(const board *b, int a, int c)
{
    return abs(board_x(b, a) - board_x(b, c)) + abs(board_y(b, a) - board_y(b, c));
}

/* The packing order's analysis in progress: the boxes still on the board, the homes left. */
typedef struct order_state {
    uint8_t *box;    /* per square */
    uint8_t *unused; /* per square: the homes not yet taken (with sources) */
    int *layer;      /* per goal */
    int *park_square, *park_goal, *park_layer; /* per parking entry */
    int park_count, left_sources, remaining, layers;
    int player; /* where the player stands */
    /* YASS's rules (order_search.early): per square, 1 where a box stands now (`sources`)
     * that the player has walked to in the analysis so far; seen_count of them, those on
     * goals counted from the start */
    uint8_t *seen;
    int seen_count;
} order_state;

typedef struct order_search {
    const board *b;
    const uint8_t *sources;
    bool parking;
    bool strict;  /* a step must take every box home or park one; else give up */
    int attempts; /* parking steps left to try */
    solver_pulls pull;
    uint8_t *reach;
    int *queue;
    const solver_stop *stop;
    order_state *furthest; /* of the strict analyses that failed, one that left fewest boxes */
    int furthest_left;     /* the boxes it left (goals and parking squares) */
    /* YASS's rules (solver_parking.early), and what they need: the push distances, the
     * boxes (sources) in all, the area below which a box is parked rather than sent home,
     * and the boxes left at which the end of the analysis begins */
    bool early;
    const solver_distances *distances;
    int source_total, small_area, end_left;
    uint8_t *gate;  /* per square: 1 on YASS's gate squares, where no box is parked */
    uint8_t
        *box_reach; /* per square: 1 where a box could be pushed (solver_pulls_box_reachable()) */
    uint64_t give_up;   /* the pulls' work after which the search by YASS's rules tries no more
                           parking (0: never) */
} order_search;

enum { ORDER_ABORT = -1, ORDER_FAIL = 0, ORDER_DONE = 1 };

enum {
    ORDER_PARKING_ATTEMPTS = 64, /* parking steps a search tries in all */
    ORDER_EARLY_ATTEMPTS = 4096, /* the same by YASS's rules (YASS: 512 K, and 90 s) */
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
    s->seen = calloc(size, 1);
    return s->box && s->unused && s->layer && s->park_square && s->park_goal && s->park_layer &&
           s->seen;
}

static void order_state_free(order_state *s)
{
    free(s->box);
    free(s->unused);
    free(s->layer);
    free(s->park_square);
    free(s->park_goal);
    free(s->park_layer);
    free(s->seen);
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
    memcpy(to->seen, from->seen, size);
    to->seen_count = from->seen_count;
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
        int square =
            solver_pulls_away(&o->pull, b->goals[g], s->player, NULL, o->sources, &parking,
                              o->strict ? SOLVER_PARK_WALK_BACK : SOLVER_PARK_LAST, &after);
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

/* Where YASS would park the box of one goal: up to two squares, the player's square after
 * the last pull to each, and how far (by pushes) the first is from the goal. */
typedef struct park_choice {
    int goal, count, distance;
    bool corner; /* the goal is in a corner (walls on both axes) */
    int square[2], after[2];
} park_choice;

/* True when a box may be parked on `square` for goal `g` by YASS's rules: off the parking
 * squares taken and the gate squares, where a box can be left, where a box could be pushed
 * from where the boxes stand now, and from where it can reach its goal (a square where a
 * box stands now will do, and so will a goal whose box has left: the pulls reach no
 * other). */
static bool can_park_early(const order_search *o, int square, int g, const solver_parking *parking)
{
    const solver_distances *d = o->distances;
    return (!o->pull.rest || o->pull.rest[square]) && !o->gate[square] && o->box_reach[square] &&
           !solver_parking_has(parking, square) &&
           d->to_goal[(size_t)square * (size_t)d->goal_count + (size_t)g] != SOLVER_NO_PATH;
}

/* YASS's parking squares for the box of goal `g` (FindGoalCandidateForParking): the square
 * farthest by pushes from the goal, then the one farthest in a straight line, each one the
 * player can walk back to the goal from. False when told to stop. */
static bool early_parking(order_search *o, const order_state *s, int g,
                          const solver_parking *parking, park_choice *choice, int *key)
{
    const board *b = o->b;
    solver_pulls *p = &o->pull;
    int goal = b->goals[g], area;
    *choice = (park_choice){.goal = g};
    bool across = !board_is_inside(b, goal - 1) || !board_is_inside(b, goal + 1);
    bool along = !board_is_inside(b, goal - b->width) || !board_is_inside(b, goal + b->width);
    choice->corner = across && along;
    int count = solver_pulls_all(p, goal, s->player, &area);
    if (count < 0) return false;
    const solver_distances *d = o->distances;
    for (int i = 0; i < count; i++) {
        int box = p->queue[i] / 4;
        p->firsts[i] = box != goal && can_park_early(o, box, g, parking);
        key[i] = p->firsts[i] ? d->to_goal[(size_t)box * (size_t)d->goal_count + (size_t)g] : 0;
    }
    int first = solver_pulls_best_walk_back(p, count, goal, key);
    if (first < 0) return true;
    int square = p->queue[first] / 4;
    choice->square[0] = square;
    choice->after[0] = square + b->delta[p->queue[first] % 4];
    choice->distance = key[first];
    choice->count = 1;
    /* the second: farthest from the goal in a straight line, then from the first square */
    for (int i = 0; i < count; i++) {
        int box = p->queue[i] / 4;
        p->firsts[i] = box != goal && box != square && can_park_early(o, box, g, parking);
        key[i] = manhattan(b, box, goal) * 1024 + manhattan(b, box, square);
    }
    int second = solver_pulls_best_walk_back(p, count, goal, key);
    if (second >= 0) {
        choice->square[1] = p->queue[second] / 4;
        choice->after[1] = choice->square[1] + b->delta[p->queue[second] % 4];
        choice->count = 2;
    }
    return true;
}

/* Farther parking first; then goals off the corners, then the later goal. */
static int compare_park_choices(const void *x, const void *y)
{
    const park_choice *a = x, *c = y;
    if (a->distance != c->distance) return c->distance - a->distance;
    if (a->corner != c->corner) return a->corner - c->corner;
    return c->goal - a->goal;
}

/* A parking step by YASS's rules: of the goal boxes among the `count` targets in `cands`,
 * the one that can be parked farthest from its goal first, on each of its two squares, the
 * analysis going on after it, until one leads to a whole order. */
static int order_branch_early(order_search *o, order_state *s, const int *cands, int count)
{
    const board *b = o->b;
    park_choice *choice = malloc((size_t)(count > 0 ? count : 1) * sizeof *choice);
    int *key = malloc((size_t)b->size * 4 * sizeof *key);
    order_state child = {0};
    int result = ORDER_FAIL, n = 0;
    if (!choice || !key || !order_state_init(&child, b)) result = ORDER_ABORT;
    o->pull.box = s->box;
    solver_parking parking = order_parking(s);
    for (int i = 0; i < count && result == ORDER_FAIL; i++) {
        if (cands[i] >= b->goal_count) continue; /* a box parked already waits where it is */
        if (!early_parking(o, s, cands[i], &parking, &choice[n], key))
            result = ORDER_ABORT;
        else if (choice[n].count > 0)
            n++;
    }
    if (result == ORDER_FAIL) qsort(choice, (size_t)n, sizeof *choice, compare_park_choices);
    for (int i = 0; i < n && result == ORDER_FAIL; i++) {
        for (int j = 0; j < choice[i].count && result == ORDER_FAIL; j++) {
            if (o->attempts <= 0 || (o->give_up > 0 && o->pull.work > o->give_up)) break;
            o->attempts--;
            order_state_copy(&child, s, b);
            int square = choice[i].square[j];
            order_park(b, &child, choice[i].goal, square);
            child.player = choice[i].after[j];
            if (o->sources[square] == 1 && !child.seen[square]) {
                child.seen[square] = 1; /* the player stood there before the box */
                child.seen_count++;
            }
            result = order_run(o, &child);
            if (result == ORDER_DONE) order_state_copy(s, &child, b);
        }
    }
    order_state_free(&child);
    free(choice);
    free(key);
    return result;
}

/* YASS's home for the box on `square` (all the goals' boxes still on the board in `s`),
 * among the `count` states of solver_pulls_all() in p->queue: a square of s->unused its pulls
 * reach, at least 3 squares from `square` unless at the `end` or its own, from where the player can
 * walk back to where he stands (but for the `last` box). Of those, the one whose most constrained
 * goal keeps the most homes: for each goal still to be emptied that a box could be pushed to from
 * the square, the homes left it could be pushed to from; the least of those counts, highest first.
 * -1 when none. `key` is work space (a key per state). */
static int early_home(order_search *o, const order_state *s, int count, int square, bool goal,
                      bool end, bool last, int *key)
{
    const board *b = o->b;
    const solver_distances *d = o->distances;
    solver_pulls *p = &o->pull;
    size_t goals = (size_t)d->goal_count;
    int *homes = key + count + 1; /* per goal */
    for (int g = 0; g < b->goal_count; g++) {
        homes[g] = 0;
        for (int q = 0; q < b->size && s->layer[g] < 0; q++)
            homes[g] += s->unused[q] && d->to_goal[(size_t)q * goals + (size_t)g] != SOLVER_NO_PATH;
    }
    /* its own square, when a box stands there now (a goal's, or any at the end), needs no
     * pull: key[count] */
    bool own = s->unused[square] && ((goal && o->sources[square] == 2) || end);
    for (int i = 0; i <= count; i++) {
        int box = i < count ? p->queue[i] / 4 : square;
        p->firsts[i] = 0;
        if (i < count ? box == square || !s->unused[box] || (!end && manhattan(b, box, square) < 3)
                      : !own)
            continue;
        int least = INT_MAX; /* a home no goal left needs is the best */
        for (int g = 0; g < b->goal_count; g++)
            if (s->layer[g] < 0 && d->to_goal[(size_t)box * goals + (size_t)g] != SOLVER_NO_PATH &&
                homes[g] < least)
                least = homes[g];
        p->firsts[i] = 1;
        key[i] = least;
    }
    for (;;) {
        int best = -1;
        for (int i = 0; i <= count; i++) {
            if (!p->firsts[i]) continue;
            int box = i < count ? p->queue[i] / 4 : square;
            int other = best < 0 ? 0 : best < count ? p->queue[best] / 4 : square;
            if (best < 0 || key[i] > key[best] || (key[i] == key[best] && box < other)) best = i;
        }
        if (best < 0) return -1;
        p->firsts[best] = 0;
        if (best == count) return square;
        int state = p->queue[best], box = state / 4;
        if (last) return box;
        solver_pulls_reach(p, box + b->delta[state % 4], box, square);
        if (p->reach[s->player]) return box;
    }
}

/* True when every box left in the analysis stands on a square of s->unused. */
static bool early_all_home(const order_search *o, const order_state *s)
{
    const board *b = o->b;
    for (int k = 0; k < s->park_count; k++)
        if (s->park_layer[k] < 0 && !s->unused[s->park_square[k]]) return false;
    for (int g = 0; g < b->goal_count; g++)
        if (s->layer[g] < 0 && s->box[b->goals[g]] && !s->unused[b->goals[g]]) return false;
    return true;
}

/* One step of the analysis by YASS's rules: of the `*count` targets in `removable` (whose
 * box the player can pull one step), which leave now. ORDER_DONE with them in removable[0
 * .. *count); or, when a parking step was taken and the order finished after it, with
 * *count -1; else ORDER_FAIL or ORDER_ABORT. */
static int early_step(order_search *o, order_state *s, int *removable, int *count)
{
    const board *b = o->b;
    int n = *count, leave = 0, small = 0, parked_left = 0;
    for (int k = 0; k < s->park_count; k++) parked_left += s->park_layer[k] < 0;
    int left = s->remaining + parked_left;
    bool end = left <= o->end_left;
    int *all = malloc((size_t)n * 3 * sizeof *all);
    int *key = malloc(((size_t)b->size * 4 + 1 + (size_t)b->goal_count) * sizeof *key);
    if (!all || !key) {
        free(all);
        free(key);
        return ORDER_ABORT;
    }
    int *smalls = all + n, *homes = all + 2 * n;
    memcpy(all, removable, (size_t)n * sizeof *all);
    o->pull.box = s->box;
    /* no box goes home before the player has seen where every box stands now; goal boxes
     * before parked ones */
    for (int pass = 0; pass < 2 && s->seen_count >= o->source_total && leave == 0; pass++) {
        for (int i = 0; i < n; i++) {
            int t = all[i];
            bool goal = t < b->goal_count;
            if (goal != (pass == 0)) continue;
            int square = goal ? b->goals[t] : s->park_square[t - b->goal_count];
            int area, states = solver_pulls_all(&o->pull, square, s->player, &area);
            if (states < 0) {
                free(all);
                free(key);
                return ORDER_ABORT;
            }
            int home = early_home(o, s, states, square, goal, end, left == 1, key);
            if (home < 0) continue;
            if (goal && area < o->small_area && !end) {
                smalls[small++] = t; /* from a small area: parked, not sent home */
                continue;
            }
            s->unused[home] = 0;
            s->left_sources--;
            homes[leave] = home;
            removable[leave++] = t;
        }
        /* parked boxes go home once every goal is empty, or when small-area boxes are to be
         * parked */
        if (pass == 1 && leave > 0 && s->remaining > 0 && small == 0) {
            for (int i = 0; i < leave; i++) {
                s->unused[homes[i]] = 1;
                s->left_sources++;
            }
            leave = 0;
        }
    }
    int result = ORDER_DONE;
    if (small > 0 || leave == 0) {
        /* parking first: the homes taken are free again while it is tried */
        for (int i = 0; i < leave; i++) s->unused[homes[i]] = 1;
        int branch =
            small > 0 ? order_branch_early(o, s, smalls, small) : order_branch_early(o, s, all, n);
        for (int i = 0; i < leave; i++) s->unused[homes[i]] = 0;
        if (branch == ORDER_DONE)
            leave = -1;
        else if (branch == ORDER_ABORT || leave == 0)
            result = branch;
    }
    free(all);
    free(key);
    *count = leave;
    return result;
}

/* The player's reach among the boxes still in place, into o->reach; with YASS's rules the
 * squares of boxes now he has walked to are marked seen. */
static void order_reach(order_search *o, order_state *s)
{
    const board *b = o->b;
    uint8_t *reach = o->reach;
    int *queue = o->queue;
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
    if (o->early) {
        for (int q = 0; q < b->size; q++) {
            if (!reach[q] || o->sources[q] != 1 || s->seen[q]) continue;
            s->seen[q] = 1;
            s->seen_count++;
        }
    }
}

/* The targets (goals, then parking squares) whose box the player, in o->reach, can pull one
 * step towards him, into `removable`; returns how many. */
static int order_pullable(const order_search *o, const order_state *s, int *removable)
{
    const board *b = o->b;
    const uint8_t *reach = o->reach;
    int count = 0;
    for (int t = 0; t < b->goal_count + s->park_count; t++) {
        bool goal = t < b->goal_count;
        int square = goal ? b->goals[t] : s->park_square[t - b->goal_count];
        if ((goal ? s->layer[t] : s->park_layer[t - b->goal_count]) >= 0 || !s->box[square])
            continue;
        bool pull = false;
        for (int d = 0; d < DIRECTION_COUNT && !pull; d++) {
            int stand = square + b->delta[d], back = stand + b->delta[d];
            pull = reach[stand] && reach[back];
        }
        /* YASS: a box that stands where a box stands now may stay, when all do */
        if (pull || (o->early && o->strict && s->unused[square] && early_all_home(o, s)))
            removable[count++] = t;
    }
    return count;
}

/* Runs the analysis on from `s` until every box has left the board (done), or no box can
 * leave (the greedy analysis stops there; a strict one fails). */
static int order_run(order_search *o, order_state *s)
{
    const board *b = o->b;
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
        order_reach(o, s);
        /* The boxes he can pull one step towards him; with `sources`, of those the ones
         * he can pull all the way back to where a box stands now, when there are any. */
        int count = order_pullable(o, s, removable);
        if (count == 0) {
            result = o->strict && !order_all_held(o, s) ? ORDER_FAIL : ORDER_DONE;
            break;
        }
        if (o->early && o->strict) {
            int step = early_step(o, s, removable, &count);
            if (step != ORDER_DONE || count < 0) {
                result = step;
                break;
            }
        } else if (o->sources) {
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
                int to = solver_pulls_away(&o->pull, square, s->player, s->unused, o->sources,
                                           o->parking ? &parking : NULL, SOLVER_PARK_LAST, NULL);
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
 * `first` (solver_pulls_packed_player()'s choice), then the others by the sources they hold, at
 * most `room` of them; returns their number. `mark` and `queue` are work space. */
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

/* Writes the order the analysis ended with (`s`): each goal's layer into `layer` (the boxes
 * that never left get the last), the parking squares into `parking` (may be NULL); returns
 * the number of layers. */
static int order_write(const order_search *o, order_state *s, int *layer, solver_parking *parking)
{
    const board *b = o->b;
    int layers = s->layers;
    bool left = s->remaining > 0;
    for (int g = 0; g < b->goal_count; g++) layer[g] = s->layer[g] < 0 ? layers : s->layer[g];
    for (int k = 0; k < s->park_count; k++) {
        if (s->park_layer[k] < 0) {
            s->park_layer[k] = layers;
            left = true;
        }
    }
    if (left) layers++;
    if (parking) {
        parking->early = o->early;
        parking->count = s->park_count;
        for (int k = 0; k < s->park_count; k++) {
            parking->square[k] = s->park_square[k];
            parking->goal[k] = s->park_goal[k];
            parking->layer[k] = s->park_layer[k];
        }
    }
    return layers;
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
    o.early = searching && parking->early && parking->distances;
    if (o.early) {
        /* YASS's thresholds: a quarter of the squares a box can be on (those from which a
         * goal can be reached), and the last 15 % of the boxes */
        o.distances = parking->distances;
        o.attempts = ORDER_EARLY_ATTEMPTS;
        o.give_up = ORDER_EARLY_WORK;
        o.end_left = (b->goal_count * 15 + 50) / 100;
    }
    order_state start = {0}, s = {0}, furthest = {0};
    bool ok = o.reach && o.queue && order_state_init(&start, b) && order_state_init(&s, b) &&
              (!searching || order_state_init(&furthest, b));
    o.furthest = &furthest;
    o.furthest_left = INT_MAX;
    if (ok && sources) {
        ok = solver_pulls_init(&o.pull, b, stop, parking ? parking->rest : NULL);
    }
    int layers = -1;
    if (!ok) goto done;
    if (o.early) {
        o.gate = malloc(size);
        o.box_reach = malloc(size);
        int reachable =
            o.box_reach ? solver_pulls_box_reachable(b, o.distances, sources, o.box_reach) : -1;
        if (reachable < 0 || !o.gate) goto done;
        solver_pulls_gate_squares(b, o.distances, o.gate);
        o.small_area = reachable / 4;
    }
    /* the squares boxes may still go back to: with parking each is taken once */
    for (size_t q = 0; sources && q < size; q++) {
        start.unused[q] = o.early ? sources[q] != 0 : sources[q] == 1; /* YASS: any box's square */
        start.left_sources += sources[q] == 1;
        o.source_total += sources[q] != 0;
        start.seen_count += sources[q] == 2; /* a box on a goal now is seen from the start */
    }
    for (int g = 0; g < b->goal_count; g++) {
        start.box[b->goals[g]] = 1;
        start.layer[g] = -1;
    }
    start.remaining = b->goal_count;
    int first = solver_pulls_packed_player(b, player, sources, o.reach, o.queue);
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
        if (result == ORDER_FAIL && o.early) {
            /* no whole order by YASS's rules: the search by the first rules, as without them */
            o.early = false;
            o.attempts = ORDER_PARKING_ATTEMPTS;
            o.furthest_left = INT_MAX;
            for (size_t q = 0; q < size; q++) start.unused[q] = sources[q] == 1;
            for (int i = 0; i < n && result == ORDER_FAIL; i++) {
                order_state_copy(&s, &start, b);
                s.player = parts[i];
                result = order_run(&o, &s);
            }
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
    layers = order_write(&o, &s, layer, parking);
done:
    order_state_free(&start);
    order_state_free(&furthest);
    order_state_free(&s);
    free(o.reach);
    free(o.queue);
    solver_pulls_free(&o.pull);
    free(o.gate);
    free(o.box_reach);
    return layers;
}

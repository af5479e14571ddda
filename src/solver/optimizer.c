/* optimizer.c - the vicinity search's rounds: the set of box configurations around the best
 * solution, the search in it (optimizer_search.c), the check of what it finds. */
#include "optimizer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ida.h"
#include "optimizer_check.h"
#include "optimizer_optimal.h"
#include "optimizer_pull.h"
#include "optimizer_search.h"
#include "optimizer_trips.h"
#include "rules/deadlock.h"
#include "solver.h"
#include "solver_bound.h"

/* The vicinities, narrowest first: how many boxes move at once, and to how many of the
 * squares nearest to each (the first box, the second, the third). A round that finds
 * nothing moves on to the next; one that finds a better solution is run again around it. */
enum { VICINITY_BOXES = 3 };
static const struct vicinity {
    int boxes, squares[VICINITY_BOXES];
} schedule[] = {
    {1, {4}},     {1, {8}},     {1, {16}},     {2, {6, 3}},    {1, {32}},
    {2, {10, 5}}, {2, {16, 8}}, {2, {24, 12}}, {3, {4, 3, 2}}, {3, {8, 4, 3}},
};
enum {
    SCHEDULE_LENGTH = sizeof schedule / sizeof schedule[0],
    NEAREST = 32, /* the most squares of a vicinity kept per square */
};
/* By pushes: the share of the time and nodes the vicinities have before the optimal mode's
 * turn, the share of what is left then that the optimal mode has, and its nodes when the
 * optimizer has neither a time nor a node limit. */
static const double VICINITY_FIRST = 0.35, OPTIMAL_SHARE = 0.3;
/* The optimal mode's share when the vicinities have converged: what it leaves would go
 * unused but for the rounds around a better solution it finds. */
static const double CONVERGED_SHARE = 0.8;
/* The optimal mode has no turn while the best has more pushes than this over the start's
 * bound (docs/SOLVER.md section 32: where it finds or proves, the gap is 12 at most). */
enum { OPTIMAL_GAP = 24 };
static const uint64_t OPTIMAL_NODES = 4000000;
/* By pushes: the share of the time and nodes of the search for a base by another route
 * (optimizer_pull.h) once the rounds of one box are done, its nodes without a limit, and the
 * share of those each run of the fast mode in it may take at most. */
static const double BASE_SHARE = 0.15, BASE_MEET_SHARE = 0.25;
static const uint64_t BASE_NODES = 1000000;
/* By pushes: a route the base's search finds with at most a tenth more pushes than the best
 * has rounds of its own, with this share of the time and nodes left. */
static const double OTHER_SHARE = 0.4;
enum { OTHER_MARGIN = 10 };
/* By pushes: when the base from the start is not kept as the best, a second base for the
 * rest of the best from its position after this share of its pushes (with a share of its
 * own: BASE_SHARE), where the start's packed boxes have spread out; taken only when it has
 * fewer pushes than the best. A third of the way in rather than 60 % (docs/SOLVER.md section
 * 32): more of the best left to other routes, XSokoban 60 pushes fewer at a million nodes. */
static const double BASE_LATER = 0.35;
/* By pushes, after the bases: the share of the time and nodes of the trips from the best's
 * later positions (optimizer_trips.h), the first and last of those positions (shares of the
 * best's pushes) and the step between them, the weight of the bound in their open list,
 * and what one of their nodes counts for against the node limit (the time a node takes
 * beside a round's). */
static const double TRIPS_SHARE = 0.1, TRIPS_FIRST = 0.3, TRIPS_LAST = 0.95, TRIPS_STEP = 0.05;
enum { TRIPS_WEIGHT = 3, TRIPS_NODE_COST = 30 };
static const size_t DEFAULT_MEMORY = (size_t)256 << 20;

const char *optimizer_status_name(optimizer_status status)
{
    switch (status) {
    case OPTIMIZER_CONVERGED:
        return "converged";
    case OPTIMIZER_LIMIT:
        return "limit";
    case OPTIMIZER_CANCELLED:
        return "cancelled";
    case OPTIMIZER_INVALID:
        return "invalid";
    case OPTIMIZER_ERROR:
        break;
    }
    return "error";
}

bool optimizer_shorter(optimizer_metric metric, int moves, int pushes, int than_moves,
                       int than_pushes)
{
    if (metric == OPTIMIZER_BY_PUSHES && pushes != than_pushes) return pushes < than_pushes;
    if (moves != than_moves) return moves < than_moves;
    return pushes < than_pushes;
}

void optimizer_result_free(optimizer_result *result)
{
    if (!result) return;
    free(result->steps);
    result->steps = NULL;
}

/* ---- the vicinities --------------------------------------------------------------------- */

typedef struct optimizer_run {
    const board *board;
    const position *start;
    const optimizer_options *options;
    uint8_t *dead; /* per square */
    /* the solver's push distances, for the search's matching bound; NULL without */
    const solver_distances *distances;
    int *nearest;    /* per square, NEAREST squares a box may stray to, nearest first; -1 after */
    double deadline; /* of this phase; 0: none */
    uint64_t max_nodes; /* over all rounds, in this phase; 0: no limit */
    size_t key_bytes;   /* what the set of configurations may take */
} optimizer_run;

/* The squares nearest to each floor square, by steps on the floor: live squares only. */
static bool nearest_init(optimizer_run *run)
{
    const board *b = run->board;
    if (b->size <= 0) return false;
    run->nearest = malloc((size_t)b->size * NEAREST * sizeof *run->nearest);
    int *queue = malloc((size_t)b->size * sizeof *queue);
    uint8_t *seen = malloc((size_t)b->size);
    bool ok = run->nearest && queue && seen;
    for (int q = 0; ok && q < b->size; q++) {
        int *near = run->nearest + (size_t)q * NEAREST, found = 0;
        for (int k = 0; k < NEAREST; k++) near[k] = -1;
        if (!board_is_inside(b, q) || board_is_wall(b, q) || run->dead[q]) continue;
        memset(seen, 0, (size_t)b->size);
        int head = 0, tail = 0;
        queue[tail++] = q;
        seen[q] = 1;
        while (head < tail && found < NEAREST) {
            int at = queue[head++];
            if (at != q && !run->dead[at]) near[found++] = at;
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int next = at + b->delta[d];
                if (seen[next] || board_is_wall(b, next) || !board_is_inside(b, next)) continue;
                seen[next] = 1;
                queue[tail++] = next;
            }
        }
    }
    free(queue);
    free(seen);
    return ok;
}

/* Adds the configurations around one of the solution's (its boxes `list`, `n` of them, its
 * key `key`) with `depth` boxes moved already (the boxes list[from[k]] to the squares to[k])
 * and one more moved into its vicinity, then, while the vicinity allows, more below them.
 * False when the set is full. */
static bool add_vicinity(const optimizer_run *run, optimizer_keys *keys, const uint8_t *boxes,
                         const int *list, int n, uint64_t key, const struct vicinity *v, int depth,
                         int *from, int *to)
{
    bool full = false;
    for (int i = 0; i < n && !full; i++) {
        bool moved = false;
        for (int k = 0; k < depth; k++) moved = moved || from[k] == i;
        if (moved) continue;
        const int *near = run->nearest + (size_t)list[i] * NEAREST;
        uint64_t without = key ^ optimizer_square_key(list[i]);
        for (int a = 0; a < v->squares[depth] && near[a] >= 0 && !full; a++) {
            bool taken = boxes[near[a]] != 0;
            for (int k = 0; k < depth; k++) taken = taken || to[k] == near[a];
            if (taken) continue;
            uint64_t with = without ^ optimizer_square_key(near[a]);
            optimizer_keys_add(keys, with, &full);
            if (full || depth + 1 == v->boxes) continue;
            from[depth] = i;
            to[depth] = near[a];
            full = !add_vicinity(run, keys, boxes, list, n, with, v, depth + 1, from, to);
        }
    }
    return !full;
}

/* The set of configurations for one round: every configuration of `steps` and its
 * vicinity. False when out of memory (a set too full for the whole vicinity is kept). */
static bool vicinity_set(const optimizer_run *run, const game_step *steps, int count,
                         const struct vicinity *v, optimizer_keys *keys)
{
    const board *b = run->board;
    if (!optimizer_keys_init(keys, run->key_bytes / sizeof(uint64_t) / 2)) return false;
    position p;
    int *list = malloc((size_t)(run->start->box_count + 1) * sizeof *list);
    if (!list || !position_copy(&p, run->start, b)) {
        free(list);
        optimizer_keys_free(keys);
        return false;
    }
    /* the solution's own configurations first, so that a set too small still has them */
    uint64_t key = optimizer_boxes_key(b, &p);
    bool full = false;
    optimizer_keys_add(keys, key, &full);
    for (int i = 0; i < count; i++) {
        int box = p.player + b->delta[steps[i].direction];
        if (board_step(b, &p, steps[i].direction) == STEP_PUSHED) {
            key ^= optimizer_square_key(box) ^
                   optimizer_square_key(box + b->delta[steps[i].direction]);
            optimizer_keys_add(keys, key, &full);
        }
    }
    /* then each one's vicinity, from the start again */
    position_free(&p);
    position_copy(&p, run->start, b);
    key = optimizer_boxes_key(b, &p);
    bool room = !full;
    for (int i = -1; room && i < count; i++) {
        if (i >= 0) {
            int box = p.player + b->delta[steps[i].direction];
            if (board_step(b, &p, steps[i].direction) != STEP_PUSHED) continue;
            key ^= optimizer_square_key(box) ^
                   optimizer_square_key(box + b->delta[steps[i].direction]);
        }
        int n = 0;
        for (int q = 0; q < b->size; q++)
            if (p.boxes[q]) list[n++] = q;
        int from[VICINITY_BOXES], to[VICINITY_BOXES];
        room = add_vicinity(run, keys, p.boxes, list, n, key, v, 0, from, to);
        if (((run->deadline > 0 && optimizer_clock() >= run->deadline) ||
             (run->options->cancel && atomic_load(run->options->cancel))))
            break;
    }
    position_free(&p);
    free(list);
    return true;
}

/* ---- the rounds ------------------------------------------------------------------------- */

/* The best's positions after each push (optimizer_search.h) and its pushes, for a search
 * stopped early to offer a shorter way to one of them. */
typedef struct best_path {
    optimizer_path path;
    uint64_t *keys;
    int *players, *moves;
    optimizer_push *pushes; /* the best's, count - 1 of them */
} best_path;

static void best_path_free(best_path *p)
{
    free(p->keys);
    free(p->players);
    free(p->moves);
    free(p->pushes);
}

/* The positions of `steps` (a solution from the start); false when out of memory. */
static bool best_path_init(const optimizer_run *run, const game_step *steps, int count,
                           best_path *out)
{
    const board *b = run->board;
    int n = 1;
    for (int i = 0; i < count; i++) n += steps[i].push;
    *out = (best_path){.keys = malloc((size_t)n * sizeof *out->keys),
                       .players = malloc((size_t)n * sizeof *out->players),
                       .moves = malloc((size_t)n * sizeof *out->moves),
                       .pushes = malloc((size_t)n * sizeof *out->pushes)};
    position p;
    if (!out->keys || !out->players || !out->moves || !out->pushes ||
        !position_copy(&p, run->start, b)) {
        best_path_free(out);
        return false;
    }
    int k = 0;
    out->keys[0] = optimizer_boxes_key(b, &p);
    out->players[0] = p.player;
    out->moves[0] = 0;
    for (int i = 0; i < count; i++) {
        int box = p.player + b->delta[steps[i].direction];
        if (board_step(b, &p, steps[i].direction) != STEP_PUSHED) continue;
        out->pushes[k] = (optimizer_push){box, steps[i].direction};
        k++;
        out->keys[k] = out->keys[k - 1] ^ optimizer_square_key(box) ^
                       optimizer_square_key(box + b->delta[steps[i].direction]);
        out->players[k] = p.player;
        out->moves[k] = i + 1;
    }
    position_free(&p);
    out->path = (optimizer_path){out->keys, out->players, out->moves, n};
    return true;
}

/* The pushes of a shortcut (`count` of them, to the best's position `reached`) followed by
 * the best's from there, into a new array of *length; NULL when out of memory. */
static optimizer_push *spliced(const best_path *best, const optimizer_push *pushes, int count,
                               int reached, int *length)
{
    int rest = best->path.count - 1 - reached;
    optimizer_push *all = malloc((size_t)(count + rest + 1) * sizeof *all);
    if (!all) return NULL;
    memcpy(all, pushes, (size_t)count * sizeof *all);
    memcpy(all + count, best->pushes + reached, (size_t)rest * sizeof *all);
    *length = count + rest;
    return all;
}

/* The solution of `pushes` taken into *result when it replays, solves and is shorter than
 * the best; true then. */
static bool take_better(const optimizer_run *run, const optimizer_push *pushes, int count,
                        optimizer_result *result)
{
    int length = 0, moves, pushed;
    game_step *steps = optimizer_steps_of(run->board, run->start, pushes, count, &length);
    /* checked before it is kept: it replays, solves, and is shorter */
    if (!steps ||
        !optimizer_replay_solves(run->board, run->start, steps, length, &moves, &pushed) ||
        !optimizer_shorter(run->options->metric, moves, pushed, result->moves, result->pushes)) {
        free(steps);
        return false;
    }
    free(result->steps);
    result->steps = steps;
    result->moves = moves;
    result->pushes = pushed;
    result->improvements++;
    return true;
}

/* One round around the best solution in *result; true when it found a better one (and put
 * it in *result). *status says why the rounds must stop, or stays CONVERGED. A search
 * stopped by its limits may still have reached a position of the best by a shorter way
 * than the best's (optimizer_search.h, a shortcut): with the rest of the best, it is a
 * shorter solution, checked as any other, so a round cut by the budget (at the optimal
 * mode's turn, at the end) keeps what it found on the way. */
static bool round_better(optimizer_run *run, const struct vicinity *v, optimizer_result *result,
                         optimizer_status *status)
{
    optimizer_keys keys;
    if (!vicinity_set(run, result->steps, result->moves, v, &keys)) {
        *status = OPTIMIZER_LIMIT; /* out of memory: what was found stands */
        return false;
    }
    const optimizer_options *o = run->options;
    best_path best;
    bool pathed = best_path_init(run, result->steps, result->moves, &best);
    int reached = 0;
    uint64_t left = 0;
    if (run->max_nodes) left = run->max_nodes > result->nodes ? run->max_nodes - result->nodes : 1;
    optimizer_search_request request = {
        .board = run->board,
        .start = run->start,
        .dead = run->dead,
        .allowed = &keys,
        .distances = run->distances,
        .by_pushes = o->metric == OPTIMIZER_BY_PUSHES,
        .limit_moves = result->moves,
        .limit_pushes = result->pushes,
        .deadline = run->deadline,
        .max_nodes = left,
        .max_bytes = (o->memory_bytes ? o->memory_bytes : DEFAULT_MEMORY) - run->key_bytes,
        .cancel = o->cancel,
        .path = pathed ? &best.path : NULL,
        .reached = &reached,
    };
    optimizer_push *pushes;
    int count;
    uint64_t nodes;
    optimizer_search_status found = optimizer_search(&request, &pushes, &count, &nodes);
    optimizer_keys_free(&keys);
    result->rounds++;
    result->nodes += nodes;
    bool better = false;
    if (found == OPTIMIZER_SEARCH_FOUND) {
        better = take_better(run, pushes, count, result);
    } else if (found == OPTIMIZER_SEARCH_SHORTCUT) {
        int length;
        optimizer_push *whole = spliced(&best, pushes, count, reached, &length);
        better = whole && take_better(run, whole, length, result);
        free(whole);
        *status = OPTIMIZER_LIMIT;
    } else if (found == OPTIMIZER_SEARCH_LIMIT || found == OPTIMIZER_SEARCH_ERROR) {
        *status = OPTIMIZER_LIMIT;
    } else if (found == OPTIMIZER_SEARCH_CANCELLED) {
        *status = OPTIMIZER_CANCELLED;
    }
    /* a round that ended past the limit is the last on it, as after the base: neither the
     * base nor another round runs on what is left (it would build its set for one node) */
    if (*status == OPTIMIZER_CONVERGED && run->max_nodes && result->nodes >= run->max_nodes)
        *status = OPTIMIZER_LIMIT;
    if (pathed) best_path_free(&best);
    free(pushes);
    return better;
}

/* The vicinity's name in *result, as "2 boxes, 10+5 squares". */
static void name_vicinity(optimizer_result *result, const struct vicinity *v)
{
    if (v->boxes == 1)
        snprintf(result->vicinity, sizeof result->vicinity, "1 box, %d squares", v->squares[0]);
    else if (v->boxes == 2)
        snprintf(result->vicinity, sizeof result->vicinity, "2 boxes, %d+%d squares", v->squares[0],
                 v->squares[1]);
    else
        snprintf(result->vicinity, sizeof result->vicinity, "3 boxes, %d+%d+%d squares",
                 v->squares[0], v->squares[1], v->squares[2]);
}

/* ---- the goal room filled in another order ---------------------------------------------- */

/* The position of the best (its path `best`) after its first `k` pushes into *p. */
static bool best_position(const optimizer_run *run, const best_path *best, int k, position *p)
{
    const board *b = run->board;
    if (!position_copy(p, run->start, b)) return false;
    for (int i = 0; i < k; i++) {
        int box = best->pushes[i].box;
        p->boxes[box] = 0;
        p->boxes[box + b->delta[best->pushes[i].direction]] = 1;
    }
    p->player = best->players[k];
    return true;
}

/* The best's parks after push k (its runs of pushes of one box that end off a goal) into
 * parks (2 squares each: the box's before, after) and after (the runs onto a goal before
 * each); their number. */
static int best_parks(const optimizer_run *run, const best_path *best, int k, int *parks,
                      int *after)
{
    const board *b = run->board;
    int total = best->path.count - 1, count = 0, filled = 0;
    for (int i = k; i < total;) {
        int box = best->pushes[i].box, at = box;
        while (i < total && best->pushes[i].box == at) at += b->delta[best->pushes[i++].direction];
        if (board_is_goal(b, at)) {
            filled++;
            continue;
        }
        parks[2 * count] = box;
        parks[2 * count + 1] = at;
        after[count++] = filled;
    }
    return count;
}

/* The best's goals filled in another order from its positions after TRIPS_FIRST to
 * TRIPS_LAST of its pushes: from each, the trips' search (optimizer_trips.h) with the best's
 * parks kept, its solution with the best's pushes before it the best when it has fewer
 * pushes. Within TRIPS_SHARE of the time and nodes from now. True when it found one. */
static bool trips_better(optimizer_run *run, double end, uint64_t most, optimizer_result *result)
{
    const optimizer_options *o = run->options;
    if (!run->distances) return false;
    double now = optimizer_clock(), stop = end > 0 ? now + (end - now) * TRIPS_SHARE : 0;
    /* a node limit, or none and no end either (OPTIMAL_NODES stands for one): the share of
     * its nodes left; a time limit alone bounds the trips by their time */
    bool counted = most || end <= 0;
    uint64_t left = most ? (most > result->nodes ? most - result->nodes : 0) : OPTIMAL_NODES;
    uint64_t nodes = counted ? (uint64_t)((double)left * TRIPS_SHARE) / TRIPS_NODE_COST : 0;
    if (counted && !nodes) return false;
    int tries = (int)((TRIPS_LAST - TRIPS_FIRST) / TRIPS_STEP + 1.5);
    bool better = false;
    for (int t = 0; t < tries; t++) {
        if (o->cancel && atomic_load(o->cancel)) break;
        double at = optimizer_clock();
        if (stop > 0 && at >= stop) break;
        best_path best;
        if (!best_path_init(run, result->steps, result->moves, &best)) break;
        int total = best.path.count - 1, k = (int)(total * (TRIPS_FIRST + t * TRIPS_STEP));
        position p;
        int *parks = malloc((size_t)(2 * total + 2) * sizeof *parks);
        int *after = malloc((size_t)(total + 1) * sizeof *after);
        if (!parks || !after || !best_position(run, &best, k, &p)) {
            free(parks);
            free(after);
            best_path_free(&best);
            break;
        }
        optimizer_trips_request request = {
            .board = run->board,
            .from = &p,
            .distances = run->distances,
            .limit_pushes = total - k,
            .deadline = stop > 0 ? at + (stop - at) / (tries - t) : 0,
            .max_nodes = counted ? nodes / (uint64_t)tries + 1 : 0,
            .max_bytes = (o->memory_bytes ? o->memory_bytes : DEFAULT_MEMORY) / 4,
            .cancel = o->cancel,
            .weight = TRIPS_WEIGHT,
            .parks = parks,
            .park_after = after,
            .park_count = best_parks(run, &best, k, parks, after),
        };
        optimizer_push *pushes;
        int count;
        uint64_t used;
        if (optimizer_trips(&request, &pushes, &count, &used) == OPTIMIZER_SEARCH_FOUND) {
            optimizer_push *whole = malloc((size_t)(k + count + 1) * sizeof *whole);
            if (whole) {
                memcpy(whole, best.pushes, (size_t)k * sizeof *whole);
                memcpy(whole + k, pushes, (size_t)count * sizeof *whole);
                if (take_better(run, whole, k + count, result)) {
                    better = true;
                    if (o->improved)
                        o->improved(o->improved_argument, result->steps, result->moves,
                                    result->pushes);
                }
            }
            free(whole);
        }
        free(pushes);
        result->rounds++;
        result->nodes += used * TRIPS_NODE_COST;
        free(parks);
        free(after);
        position_free(&p);
        best_path_free(&best);
    }
    return better;
}

/* ---- a base by another route ---------------------------------------------------------- */

typedef struct base_offer {
    optimizer_run *run;
    optimizer_result *result;
    /* the fewest pushes offered that were not fewer than the best's: NULL, or the start of
     * rounds of its own */
    optimizer_result other;
} base_offer;

/* A solution the pulls' search offers: kept when it replays and solves, as the best when it
 * is shorter, else as the other route when it has fewer pushes than the other kept. */
static bool offer_base(void *argument, const optimizer_push *pushes, int count)
{
    base_offer *o = argument;
    const optimizer_run *run = o->run;
    optimizer_result *result = o->result;
    int length = 0, moves, pushed;
    game_step *steps = optimizer_steps_of(run->board, run->start, pushes, count, &length);
    if (!steps ||
        !optimizer_replay_solves(run->board, run->start, steps, length, &moves, &pushed)) {
        free(steps);
        return false;
    }
    optimizer_result *into = result;
    if (!optimizer_shorter(run->options->metric, moves, pushed, result->moves, result->pushes))
        into = &o->other;
    if (into == &o->other && o->other.steps && pushed >= o->other.pushes) {
        free(steps);
        return false;
    }
    free(into->steps);
    into->steps = steps;
    into->moves = moves;
    into->pushes = pushed;
    if (into != result) return true;
    result->improvements++;
    if (run->options->improved)
        run->options->improved(run->options->improved_argument, steps, moves, pushed);
    return true;
}

/* The rounds run around the other route kept by the base's search (its own input, as a
 * second best), until they converge or have their share of the time and nodes left; the
 * best when they end shorter than it. True then. */
static bool other_rounds(optimizer_run *run, optimizer_result *other, double end, uint64_t most,
                         optimizer_result *result)
{
    const optimizer_options *o = run->options;
    double deadline = run->deadline;
    uint64_t max_nodes = run->max_nodes;
    double now = optimizer_clock();
    run->deadline = end > 0 ? now + (end - now) * OTHER_SHARE : 0;
    uint64_t left = most - (result->nodes < most ? result->nodes : most);
    run->max_nodes = most ? (uint64_t)((double)left * OTHER_SHARE) + 1 : 0;
    optimizer_status status = OPTIMIZER_CONVERGED;
    for (int round = 0; round < SCHEDULE_LENGTH && status == OPTIMIZER_CONVERGED;)
        if (!round_better(run, &schedule[round], other, &status)) round++;
    run->deadline = deadline;
    run->max_nodes = max_nodes;
    result->rounds += other->rounds;
    result->nodes += other->nodes;
    if (!optimizer_shorter(o->metric, other->moves, other->pushes, result->moves, result->pushes))
        return false;
    free(result->steps);
    result->steps = other->steps;
    other->steps = NULL;
    result->moves = other->moves;
    result->pushes = other->pushes;
    result->improvements++;
    if (o->improved)
        o->improved(o->improved_argument, result->steps, result->moves, result->pushes);
    return true;
}

/* By pushes, once the rounds come to the vicinities of two boxes: a solution by other
 * routes than the best's after its first `later` share of pushes (0: from the start), the
 * best when it has fewer pushes (optimizer_pull.h), with a share of the time and nodes;
 * else, from the start, when one came within a tenth of the best's pushes, rounds of its
 * own around the fewest of them (from a later position, their nodes lost more pushes on
 * XSokoban than they found). True when it is the best. */
static bool base_by_pulls(optimizer_run *run, double began, double later, optimizer_result *result)
{
    const optimizer_options *o = run->options;
    /* its share from now, within the optimizer's own end */
    double end = 0, whole = o->max_seconds > 0 ? began + o->max_seconds : 0;
    if (whole > 0) {
        end = optimizer_clock() + o->max_seconds * BASE_SHARE;
        if (end > whole) end = whole;
    }
    uint64_t nodes = o->max_nodes ? (uint64_t)((double)o->max_nodes * BASE_SHARE) : 0;
    if (!nodes && !end) nodes = BASE_NODES;
    if (o->max_nodes) { /* within what is left of the optimizer's nodes */
        uint64_t left = o->max_nodes > result->nodes ? o->max_nodes - result->nodes : 1;
        if (nodes > left) nodes = left;
    }
    size_t memory = o->memory_bytes ? o->memory_bytes : DEFAULT_MEMORY;
    base_offer offer = {.run = run, .result = result};
    best_path best = {0};
    if (later > 0 && !best_path_init(run, result->steps, result->moves, &best)) return false;
    optimizer_pull_request request = {
        .board = run->board,
        .start = run->start,
        .prefix = best.pushes,
        .prefix_count = later > 0 ? (int)((best.path.count - 1) * later) : 0,
        .limit_pushes = result->pushes + result->pushes / OTHER_MARGIN + 1,
        .deadline = end > 0 ? ida_clock() + (end - optimizer_clock()) : 0,
        .max_nodes = nodes,
        .meet_nodes = (uint64_t)((double)nodes * BASE_MEET_SHARE),
        .meet_seconds = end > 0 ? (end - optimizer_clock()) * BASE_MEET_SHARE : 0,
        .max_bytes = memory / 4,
        .cancel = o->cancel,
        .offer = offer_base,
        .offer_argument = &offer,
    };
    uint64_t used = 0;
    int improvements = result->improvements;
    optimizer_pull_base(&request, &used);
    if (later > 0) best_path_free(&best);
    result->rounds++;
    result->nodes += used;
    bool better = result->improvements > improvements;
    if (!better && later == 0 && offer.other.steps && !(o->cancel && atomic_load(o->cancel)))
        better = other_rounds(run, &offer.other, whole, o->max_nodes, result);
    optimizer_result_free(&offer.other);
    return better;
}

/* The base from the start and, when it is not taken, another route for the rest of the
 * best, from a later position, while time and nodes are left (the end and the node limit
 * of the whole optimizer, 0 none); then the best's goals filled in another order
 * (trips_better()). True when the best is one of theirs. */
static bool bases_by_pulls(optimizer_run *run, double began, double end, uint64_t most,
                           optimizer_result *result)
{
    const optimizer_options *o = run->options;
    bool better = !o->no_base && base_by_pulls(run, began, 0, result);
    /* with its share of the nodes left, and as much again for the rounds after it */
    bool left = !(most && result->nodes + (uint64_t)(2 * (double)most * BASE_SHARE) > most) &&
                !(end > 0 && optimizer_clock() >= end);
    if (!o->no_base && !better && left && !(o->cancel && atomic_load(o->cancel)))
        better = base_by_pulls(run, began, BASE_LATER, result);
    if (!o->no_trips && !(o->cancel && atomic_load(o->cancel)))
        better = trips_better(run, end, most, result) || better;
    return better;
}

/* Takes the input into *result, its walking made shortest: false when it does not solve. */
static bool take_input(const board *b, const position *start, const game_step *steps, int count,
                       optimizer_result *result)
{
    game_step *shortest;
    int length, moves, pushes;
    if (!game_shortest_walks(b, start, steps, count, &shortest, &length)) return false;
    if (!optimizer_replay_solves(b, start, shortest, length, &moves, &pushes)) {
        free(shortest);
        return false;
    }
    result->steps = shortest;
    result->moves = moves;
    result->pushes = pushes;
    result->moves_before = count;
    result->pushes_before = pushes;
    return true;
}

optimizer_status optimizer_optimize(const board *b, const position *start, const game_step *steps,
                                    int count, const optimizer_options *options,
                                    optimizer_result *result)
{
    double began = optimizer_clock();
    *result = (optimizer_result){.status = OPTIMIZER_INVALID};
    if (!take_input(b, start, steps, count, result)) {
        snprintf(result->vicinity, sizeof result->vicinity, "none");
        return result->status;
    }
    size_t memory = options->memory_bytes ? options->memory_bytes : DEFAULT_MEMORY;
    optimizer_run run = {.board = b,
                         .start = start,
                         .options = options,
                         .dead = calloc((size_t)b->size, 1),
                         .deadline = options->max_seconds > 0 ? began + options->max_seconds : 0,
                         .key_bytes = memory / 2};
    deadlock_table table = {0};
    bool ok = run.dead && deadlock_table_init(&table, b);
    for (int q = 0; ok && q < b->size; q++) run.dead[q] = deadlock_square_is_dead(&table, q);
    ok = ok && nearest_init(&run);
    deadlock_table_free(&table);
    /* the push distances: a tenth of a second on the largest levels; without them (stopped,
     * or out of memory) the search's own bound */
    solver_distances distances;
    solver_stop stop = {.deadline = run.deadline > 0 ? ida_clock() + (run.deadline - began) : 0,
                        .cancel = options->cancel};
    bool distanced = ok && solver_distances_init_until(&distances, b, &stop);
    run.distances = distanced ? &distances : NULL;
    optimizer_status status = ok ? OPTIMIZER_CONVERGED : OPTIMIZER_ERROR;
    snprintf(result->vicinity, sizeof result->vicinity, "none");
    /* By pushes, the optimal mode gets its turn when the vicinities have converged, or a
     * share of the time and nodes has gone (its own share of what is left); the vicinities
     * then go on (again from the narrowest when it found a better solution). */
    bool by_pushes = options->metric == OPTIMIZER_BY_PUSHES;
    bool optimal_turn = by_pushes, turned = false, based = options->no_base && options->no_trips;
    int bound = by_pushes
                    ? optimizer_start_bound(b, start, run.distances, run.deadline, options->cancel)
                    : -1;
    double end = run.deadline;
    uint64_t most = options->max_nodes;
    if (optimal_turn) {
        run.deadline = end > 0 ? began + (end - began) * VICINITY_FIRST : 0;
        run.max_nodes = (uint64_t)((double)most * VICINITY_FIRST);
    } else {
        run.max_nodes = most;
    }
    for (int round = 0; ok;) {
        if (round == SCHEDULE_LENGTH || status == OPTIMIZER_LIMIT) {
            /* converged with time and nodes left: the optimal mode again, with more of
             * them, unless it has proved the best or found nothing at this convergence */
            bool converged = status != OPTIMIZER_LIMIT;
            bool again = converged && by_pushes && !result->pushes_fewest && !turned;
            if (!optimal_turn && !again) break;
            optimal_turn = false;
            /* a best far above the start's bound: the optimal mode would spend its share
             * on iterations below the best's pushes, its time left to the vicinities */
            if (bound >= 0 && result->pushes - bound > OPTIMAL_GAP) {
                turned = converged;
                run.deadline = end;
                run.max_nodes = most;
                status = OPTIMIZER_CONVERGED;
                if (end > 0 && optimizer_clock() >= end) status = OPTIMIZER_LIMIT;
                if (most && result->nodes >= most) status = OPTIMIZER_LIMIT;
                continue;
            }
            double now = optimizer_clock();
            uint64_t left = most - (result->nodes < most ? result->nodes : most);
            double share = converged ? CONVERGED_SHARE : OPTIMAL_SHARE;
            uint64_t nodes =
                most ? (uint64_t)((double)left * share) : (end > 0 ? 0 : OPTIMAL_NODES);
            bool better = optimizer_optimal_better(b, start, options, memory,
                                                   end > 0 ? now + (end - now) * share : 0,
                                                   nodes > 0 || !most ? nodes : 1, result, &status);
            if (better && options->improved)
                options->improved(options->improved_argument, result->steps, result->moves,
                                  result->pushes);
            if (status == OPTIMIZER_CANCELLED) break;
            turned = converged && !better;
            run.deadline = end;
            run.max_nodes = most;
            if (better) round = 0;
            status = OPTIMIZER_CONVERGED;
            if (end > 0 && optimizer_clock() >= end) status = OPTIMIZER_LIMIT;
            if (most && result->nodes >= most) status = OPTIMIZER_LIMIT;
            continue;
        }
        if (status != OPTIMIZER_CONVERGED) break;
        const struct vicinity *v = &schedule[round];
        /* a base by other routes when the rounds come to the vicinities of two boxes and more
         * (those of one box improve at their own pace till then), or at the optimal mode's
         * turn if that comes first (rounds of one box that keep finding fewer moves would
         * leave it no time), taken only when shorter than the input made shorter (what the
         * rounds reach from the input can beat what they reach from it) */
        if (by_pushes && !based && (v->boxes >= 2 || !optimal_turn)) {
            based = true;
            bool better = bases_by_pulls(&run, began, end, most, result);
            if (options->cancel && atomic_load(options->cancel)) {
                status = OPTIMIZER_CANCELLED;
                break;
            }
            if (end > 0 && optimizer_clock() >= run.deadline) status = OPTIMIZER_LIMIT;
            if (most && result->nodes >= most) status = OPTIMIZER_LIMIT;
            if (better) round = 0;
            continue;
        }
        name_vicinity(result, v);
        if (!round_better(&run, v, result, &status))
            round++;
        else if (options->improved)
            options->improved(options->improved_argument, result->steps, result->moves,
                              result->pushes);
    }
    free(run.dead);
    free(run.nearest);
    if (distanced) solver_distances_free(&distances);
    result->status = status;
    result->seconds = optimizer_clock() - began;
    return status;
}

/* solver_features.c - the packing feature, the region count and the packing order. */
#include "solver_features.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "solver_macro.h"
#include "solver_packing_search.h"
#include "solver_reach.h"

/* Pushes from every square to each parking square, by a breadth-first search of pulls back
 * from it over the walls alone (one pull: the box and the player behind it each one step). */
static bool parking_distances(solver_features *f, const board *b)
{
    size_t size = (size_t)b->size;
    if (f->parking.count == 0) return true;
    f->parking_distance = malloc((size_t)f->parking.count * size * sizeof *f->parking_distance);
    if (!f->parking_distance) return false;
    for (int k = 0; k < f->parking.count; k++) {
        uint16_t *distance = f->parking_distance + (size_t)k * size;
        for (size_t q = 0; q < size; q++) distance[q] = SOLVER_NO_PATH;
        int head = 0, tail = 0;
        distance[f->parking.square[k]] = 0;
        f->queue[tail++] = f->parking.square[k];
        while (head < tail) {
            int square = f->queue[head++];
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int from = square + b->delta[d], player = from + b->delta[d];
                if (!board_is_inside(b, from) || !board_is_inside(b, player) ||
                    distance[from] != SOLVER_NO_PATH)
                    continue;
                distance[from] = (uint16_t)(distance[square] + 1);
                f->queue[tail++] = from;
            }
        }
    }
    return true;
}

/* The plan of the backward search (solver_packing_search.h) when it parks boxes, at least as
 * many as YASS's rules do; else YASS's order. The plan, whose homes are Festival's bases, solves
 * XSokoban 77, where YASS's order does not, and 32 and 46 sooner, each with boxes parked; where
 * YASS's rules park boxes and the plan none (XSokoban 14 and 90), the plan loses levels, and
 * where neither parks one, its layers of one goal each solve no level more and lost 52
 * (docs/SOLVER.md, section 21b). Its number of layers, 0 for none (the caller works YASS's
 * order out), -1 when out of memory or told to stop. */
static int picked_plan(solver_features *f, const solver_search *s, const uint8_t *sources,
                       const uint8_t *rest, const solver_stop *stop)
{
    const board *b = s->board;
    size_t goals = (size_t)(b->goal_count > 0 ? b->goal_count : 1);
    int *layer = malloc(2 * goals * sizeof *layer), *square = malloc(goals * sizeof *square),
        *goal = malloc(goals * sizeof *goal), *when = malloc(goals * sizeof *when);
    int layers = -1;
    if (layer && square && goal && when) {
        solver_parking plan = f->parking;
        plan.square = square;
        plan.goal = goal;
        plan.layer = when;
        plan.count = 0;
        layers = solver_packing_search(b, sources, rest, layer, &plan, stop);
        if (layers > 0) {
            int yass = solver_packing_layers_until(b, s->player, sources, f->layer, &f->parking,
                                                   true, stop);
            if (yass < 0) {
                layers = -1;
            } else if (plan.count > 0 && plan.count >= f->parking.count) {
                memcpy(f->layer, layer, (size_t)b->goal_count * sizeof *layer);
                f->parking.count = plan.count;
                memcpy(f->parking.square, square, (size_t)plan.count * sizeof *square);
                memcpy(f->parking.goal, goal, (size_t)plan.count * sizeof *goal);
                memcpy(f->parking.layer, when, (size_t)plan.count * sizeof *when);
            } else {
                layers = yass;
            }
        }
    }
    free(layer);
    free(square);
    free(goal);
    free(when);
    return layers;
}

bool solver_features_init(solver_features *f, const solver_search *s, const solver_stop *stop)
{
    const board *b = s->board;
    *f = (solver_features){0};
    size_t goals = (size_t)(b->goal_count > 0 ? b->goal_count : 1);
    f->floor = malloc((size_t)b->size * sizeof *f->floor);
    f->mark = calloc((size_t)b->size, sizeof *f->mark);
    f->queue = malloc((size_t)b->size * sizeof *f->queue);
    f->rows_left = malloc((size_t)b->height * sizeof *f->rows_left);
    f->rows_region = malloc((size_t)b->height * sizeof *f->rows_region);
    f->layer = malloc(2 * goals * sizeof *f->layer);
    f->on_target = calloc((size_t)b->size, 1);
    f->parking.square = malloc(goals * sizeof *f->parking.square);
    f->parking.goal = malloc(goals * sizeof *f->parking.goal);
    f->parking.layer = malloc(goals * sizeof *f->parking.layer);
    if (!f->floor || !f->mark || !f->queue || !f->rows_left || !f->rows_region || !f->layer ||
        !f->on_target || !f->parking.square || !f->parking.goal || !f->parking.layer)
        return false;
    /* The boxes come from where they stand now; they are parked only where a box can be
     * left (not inside a one-wide corridor: solver_macro_rest_squares()). */
    uint8_t *sources = calloc((size_t)b->size, 1), *rest = malloc((size_t)b->size);
    if (!sources || !rest) {
        free(sources);
        free(rest);
        return false;
    }
    solver_macro_rest_squares(b, s->distances, rest);
    f->parking.rest = rest;
    f->parking.early = s->park_early;
    f->parking.distances = s->distances;
    /* from the position the order is to be worked out from: the search's own, or an
     * earlier one of the same game (solver_options.plan_from) */
    const position *from = s->plan_from;
    for (int square = 0; from && square < b->size; square++)
        if (from->boxes[square]) sources[square] = board_is_goal(b, square) ? 2 : 1;
    for (int i = 0; !from && i < s->box_count; i++) {
        int square = s->box_square[i];
        sources[square] = board_is_goal(b, square) ? 2 : 1;
    }
    int layers = 0;
    if (s->searched_plan && s->parking && s->pull_home)
        layers = solver_packing_search(b, sources, rest, f->layer, &f->parking, stop);
    else if (s->plan_pick && !from && s->parking && s->pull_home && s->order_search &&
             s->park_early)
        layers = picked_plan(f, s, sources, rest, stop);
    if (layers == 0)
        layers = solver_packing_layers_until(
            b, from ? from->player : s->player, s->pull_home ? sources : NULL, f->layer,
            s->parking ? &f->parking : NULL, s->order_search, stop);
    free(sources);
    free(rest);
    f->parking.rest = NULL;
    if (layers < 0) return false;
    f->target_count = b->goal_count + f->parking.count;
    for (int k = 0; k < f->parking.count; k++) f->layer[b->goal_count + k] = f->parking.layer[k];
    for (int t = 0; t < f->target_count; t++) f->on_target[solver_features_square(f, b, t)] = 1;
    for (int square = 0; square < b->size; square++)
        if (board_is_inside(b, square)) f->floor[f->floor_count++] = square;
    return parking_distances(f, b);
}

void solver_features_free(solver_features *f)
{
    free(f->floor);
    free(f->mark);
    free(f->queue);
    free(f->rows_left);
    free(f->rows_region);
    free(f->layer);
    free(f->parking.square);
    free(f->parking.goal);
    free(f->parking.layer);
    free(f->parking_distance);
    free(f->on_target);
    *f = (solver_features){0};
}

int solver_features_current(const solver_features *f, const board *b, const uint8_t *boxes)
{
    /* Whether a parked box may be in transit depends on the layer being filled, which depends
     * on the parking squares: from "every box in transit" (-1) up to the fixed point; the
     * layer only rises, so this ends within as many rounds as there are layers. */
    int current = -1;
    for (;;) {
        int top = -1;
        for (int t = 0; t < f->target_count; t++)
            if (f->layer[t] > top && solver_features_needed(f, b, boxes, t, current))
                top = f->layer[t];
        if (top <= current) return current;
        current = top;
    }
}

int solver_features_aim(const solver_features *f, const solver_search *s, int square)
{
    return solver_features_aim_in(f, s, square, solver_features_current(f, s->board, s->boxes));
}

int solver_features_aim_in(const solver_features *f, const solver_search *s, int square,
                           int current)
{
    const board *b = s->board;
    const solver_distances *d = s->distances;
    if (current < 0) return 0;
    int nearest = SOLVER_NO_PATH;
    for (int t = 0; t < f->target_count; t++) {
        if (f->layer[t] != current || !solver_features_needed(f, b, s->boxes, t, current)) continue;
        int distance = t < b->goal_count
                           ? d->to_goal[(size_t)square * (size_t)d->goal_count + (size_t)t]
                           : f->parking_distance[(size_t)(t - b->goal_count) * (size_t)b->size +
                                                 (size_t)square];
        if (distance < nearest) nearest = distance;
    }
    return nearest;
}

/* The square the player pushed from when the box went from `from` to `to` along a line,
 * the player behind it now on `player`: a push or a tunnel's pushes (the squares between
 * free before and after); -1 when it went otherwise. */
static int pushed_along_a_line(const solver_rows *r, int from, int to, int player)
{
    int step = to - player;
    bool line = step == 1 || step == -1               ? r->row[from] == r->row[to]
                : step == r->width || step == -r->width ? r->column[from] == r->column[to]
                                                        : false;
    return line && (to - from) * step > 0 ? from - step : -1;
}

int solver_features_regions_after(solver_features *f, const solver_search *s, int before, int from)
{
    int to = s->box_square[s->last_box];
    if (before >= UINT8_MAX || !s->use_rows) return solver_features_regions(f, s);
    const solver_rows *r = &s->rows;
    /* the box's square before freed (the floor then had `to` free) joins one part, the
     * player's, and `to` taken out leaves the parts as they were: as many as before */
    bool joins_one = solver_rows_joined_round(r, r->open, from, to);
    int after = -1;
    if (joins_one && solver_rows_joined_round(r, r->open, to, -1)) after = before;
    /* after a push along a line the player's part takes in `from` and the parts next to it,
     * and loses the pieces `to` cuts off it; the other parts stay as they were */
    int stood = after < 0 && s->reach_valid ? pushed_along_a_line(r, from, to, s->player) : -1;
    const uint64_t *reach_before =
        stood >= 0 && !joins_one ? solver_reach_before_push(s, from, to, stood) : NULL;
    if (stood >= 0 && (joins_one || reach_before)) {
        uint64_t *free = f->rows_left;
        int joined = 0;
        if (!joins_one) {
            /* the parts off the player's before the push (`to` free, `from` the box's) */
            for (int y = 0; y < r->height; y++) free[y] = r->open[y] & ~reach_before[y];
            free[r->row[to]] |= ((uint64_t)1 << r->column[to]) & ~reach_before[r->row[to]];
            free[r->row[from]] &= ~((uint64_t)1 << r->column[from]);
            joined = solver_rows_regions_beside(r, free, from, f->rows_region);
        }
        for (int y = 0; y < r->height; y++) free[y] = r->open[y] & ~r->reach[y];
        after = before - joined + solver_rows_regions_beside(r, free, to, f->rows_region);
    }
    if (after < 0) return solver_features_regions(f, s);
#ifdef SOKOBAN_CHECKED
    assert(solver_features_regions(f, s) == after);
#endif
    return after;
}

/* Fewer regions is better: boxes that cut the level in parts must move again. */
int solver_features_regions(solver_features *f, const solver_search *s)
{
    const board *b = s->board;
    /* The player's region is flooded already (his reach names the state): it counts as one
     * and its squares are passed over. */
    bool player = s->reach_valid;
    if (s->use_rows)
        return (player ? 1 : 0) +
               solver_rows_regions(&s->rows, player, f->rows_left, f->rows_region);
    uint32_t stamp = solver_next_stamp(f->mark, &f->stamp, (size_t)b->size);
    int regions = player ? 1 : 0;
    for (int i = 0; i < f->floor_count; i++) {
        int start = f->floor[i];
        if (f->mark[start] == stamp || s->blocked[start] ||
            (player && solver_search_reaches(s, start)))
            continue;
        regions++;
        int head = 0, tail = 0;
        f->mark[start] = stamp;
        f->queue[tail++] = start;
        while (head < tail) {
            int square = f->queue[head++];
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int next = square + b->delta[d];
                if (f->mark[next] == stamp || s->blocked[next]) continue;
                f->mark[next] = stamp;
                f->queue[tail++] = next;
            }
        }
    }
    return regions;
}

/* Counting in packing order means a box put on a goal before its turn does not count as
 * progress. */
int solver_features_packed(const solver_features *f, const solver_search *s)
{
    return solver_features_packed_in(f, s, solver_features_current(f, s->board, s->boxes));
}

int solver_features_packed_in(const solver_features *f, const solver_search *s, int current)
{
    const board *b = s->board;
    int packed = 0;
    for (int t = 0; t < f->target_count; t++)
        if (f->layer[t] >= current) packed += s->boxes[solver_features_square(f, b, t)];
    /* a parking square on a goal counts its box twice, at the very end */
    return packed < s->box_count ? packed : s->box_count;
}

/* solver_advisors.c - FESS's packing, packer, joiner and opener advisors. */
#include "solver_advisors.h"

#include <assert.h>
#include <stdlib.h>

enum {
    /* The packing advisor's full searches per state (after the cheap test): bounds the work
     * of one expansion on big levels. */
    PACKING_SEARCHES = 8,
};

/* The targets of each packing layer as rows of bits, for might_pack() over rows (the board
 * fits). False when out of memory. */
static bool target_rows_init(solver_advisors *a, const board *b)
{
    const int *layers = a->features->layer;
    int count = 0;
    for (int square = 0; square < b->size; square++) {
        int t = a->box.goal_of[square];
        if (t >= 0 && layers[t] >= count) count = layers[t] + 1;
    }
    size_t height = (size_t)b->height;
    a->target_layers = count;
    a->target_rows = calloc((count > 0 ? (size_t)count : 1) * height, sizeof *a->target_rows);
    a->live_rows = malloc(height * sizeof *a->live_rows);
    a->reach_rows = calloc(height, sizeof *a->reach_rows);
    if (!a->target_rows || !a->live_rows || !a->reach_rows) return false;
    for (int square = 0; square < b->size; square++) {
        int t = a->box.goal_of[square];
        if (t >= 0 && layers[t] >= 0)
            a->target_rows[(size_t)layers[t] * height + (size_t)board_y(b, square)] |=
                (uint64_t)1 << board_x(b, square);
    }
    return true;
}

bool solver_advisors_init(solver_advisors *a, const board *b, int box_count,
                          const solver_features *features)
{
    *a = (solver_advisors){.features = features, .opener = -1};
    size_t boxes = (size_t)(box_count > 0 ? box_count : 1);
    a->path_capacity = 4 * b->size;
    a->path = malloc((size_t)a->path_capacity * sizeof *a->path);
    a->candidates = malloc(boxes * sizeof *a->candidates);
    a->mark = calloc((size_t)b->size, sizeof *a->mark);
    a->queue = malloc((size_t)b->size * sizeof *a->queue);
    a->arrival = calloc((size_t)b->size, sizeof *a->arrival);
    a->wanted = malloc(2 * (size_t)(b->goal_count > 0 ? b->goal_count : 1) * sizeof *a->wanted);
    if (!a->arrival || !a->wanted || !a->path || !a->candidates || !a->mark || !a->queue ||
        !solver_box_search_init(&a->box, b))
        return false;
    /* the parking squares are targets too, numbered after the goals */
    for (int k = 0; k < features->parking.count; k++)
        a->box.goal_of[features->parking.square[k]] = b->goal_count + k;
    return solver_rows_fit(b) ? target_rows_init(a, b) : true;
}

void solver_advisors_free(solver_advisors *a)
{
    solver_box_search_free(&a->box);
    free(a->path);
    free(a->candidates);
    free(a->mark);
    free(a->queue);
    free(a->arrival);
    free(a->wanted);
    free(a->target_rows);
    free(a->live_rows);
    free(a->reach_rows);
    *a = (solver_advisors){0};
}

/* might_pack square by square: a breadth-first flood over the squares the box could be
 * pushed to if the player could stand anywhere free. Much cheaper than the full search (no
 * player's reach per state), it weeds out most of the boxes that cannot get there. */
static bool might_pack_squares(solver_advisors *a, const solver_search *s, int origin, int layer)
{
    const board *b = s->board;
    const int *layers = a->features->layer;
    uint32_t stamp = solver_next_stamp(a->mark, &a->stamp, (size_t)b->size);
    int head = 0, tail = 0;
    a->mark[origin] = stamp;
    a->queue[tail++] = origin;
    while (head < tail) {
        int box = a->queue[head++];
        int g = a->box.goal_of[box];
        if (g >= 0 && layers[g] == layer && box != origin) return true;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int to = box + b->delta[d], stand = box - b->delta[d];
            if (a->mark[to] == stamp || (s->blocked[to] && to != origin) ||
                (s->blocked[stand] && stand != origin) || solver_square_is_dead(s->distances, to))
                continue;
            a->mark[to] = stamp;
            a->queue[tail++] = to;
        }
    }
    return false;
}

/* The same over rows of bits (solver_rows_box_reaches()): the flood takes a whole row of
 * squares a push at once, and stops at the first target of the layer as the flood by
 * squares does, with the same answer. */
static bool might_pack_rows(solver_advisors *a, const solver_search *s, int origin, int layer)
{
    const board *b = s->board;
    if (layer < 0 || layer >= a->target_layers) return false; /* no target of the layer */
    if (a->live_of != s->distances) {
        for (int y = 0; y < b->height; y++) a->live_rows[y] = 0;
        for (int square = 0; square < b->size; square++) {
            if (board_is_inside(b, square) && !solver_square_is_dead(s->distances, square))
                a->live_rows[board_y(b, square)] |= (uint64_t)1 << board_x(b, square);
        }
        a->live_of = s->distances;
    }
    return solver_rows_box_reaches(&s->rows, a->live_rows,
                                   a->target_rows + (size_t)layer * (size_t)b->height, origin,
                                   a->reach_rows);
}

bool solver_advisors_might_pack(solver_advisors *a, const solver_search *s, int origin, int layer)
{
    if (s->use_rows && a->target_rows) return might_pack_rows(a, s, origin, layer);
    return might_pack_squares(a, s, origin, layer);
}

/* The first other box in the way of the box on `from` going to goal `g` along the shortest
 * path for a lone box (walls only), standing on the path or where the player must stand;
 * -1 when there is none. */
static int first_in_the_way(const solver_search *s, int from, int g)
{
    const board *b = s->board;
    const uint16_t *to_goal = s->distances->to_goal;
    size_t goals = (size_t)b->goal_count;
    int square = from;
    while (square != b->goals[g]) {
        int distance = to_goal[(size_t)square * goals + (size_t)g], next = -1, stand = -1;
        for (int d = 0; d < DIRECTION_COUNT && next < 0; d++) {
            int to = square + b->delta[d], behind = square - b->delta[d];
            if (board_is_inside(b, to) && board_is_inside(b, behind) &&
                to_goal[(size_t)to * goals + (size_t)g] == distance - 1) {
                next = to;
                stand = behind;
            }
        }
        if (next < 0) return -1;
        if (stand != from && s->boxes[stand]) return stand;
        if (s->boxes[next]) return next;
        square = next;
    }
    return -1;
}

/* Pushes from `square` to target `t`: the lone-box distance to a goal, the walk's length
 * (a guess, for ordering only) to a parking square. */
static int target_distance(const solver_features *f, const solver_search *s, int square, int t)
{
    const board *b = s->board;
    if (t < b->goal_count)
        return s->distances->to_goal[(size_t)square * (size_t)b->goal_count + (size_t)t];
    int at = f->parking.square[t - b->goal_count];
    return abs(board_x(b, at) - board_x(b, square)) + abs(board_y(b, at) - board_y(b, square));
}

void solver_advisors_mark_arrivals(solver_advisors *a, const solver_search *s, int layer)
{
    const board *b = s->board;
    const int *layers = a->features->layer;
    /* pulled back from the layer's empty targets over the squares a box may stand on (free,
     * not dead); the player's square behind each only has to be floor */
    uint32_t stamp = solver_next_stamp(a->arrival, &a->arrival_stamp, (size_t)b->size);
    int head = 0, tail = 0;
    for (int t = 0; t < a->features->target_count; t++) {
        int square = solver_features_square(a->features, b, t);
        if (layers[t] != layer || s->blocked[square] || a->arrival[square] == stamp) continue;
        a->arrival[square] = stamp;
        a->queue[tail++] = square;
    }
    while (head < tail) {
        int box = a->queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int before = box - b->delta[d], stand = before - b->delta[d];
            if (a->arrival[before] == stamp || s->blocked[before] || !board_is_inside(b, stand) ||
                solver_square_is_dead(s->distances, before))
                continue;
            a->arrival[before] = stamp;
            a->queue[tail++] = before;
        }
    }
}

bool solver_advisors_may_arrive(const solver_advisors *a, const solver_search *s, int origin)
{
    const board *b = s->board;
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        int to = origin + b->delta[d], stand = origin - b->delta[d];
        if (a->arrival[to] == a->arrival_stamp && !s->blocked[stand]) return true;
    }
    return false;
}

int solver_advisors_packing_next(solver_advisors *a, const solver_search *s, int *from, int *goal)
{
    const int *layer = a->features->layer;
    while (a->next_candidate < a->candidate_count && a->searches < PACKING_SEARCHES) {
        int square = a->candidates[a->next_candidate++].square;
        if (!solver_advisors_may_arrive(a, s, square) ||
            !solver_advisors_might_pack(a, s, square, a->top))
            continue;
        a->searches++;
        int pushes =
            solver_box_search_to_layer(&a->box, s->distances, s->boxes, square, s->player, NULL,
                                       layer, a->top, a->path, a->path_capacity, goal);
        if (pushes > 0) {
            assert(pushes <= a->path_capacity && layer[a->box.goal_of[*goal]] == a->top);
            *from = square;
            return pushes;
        }
    }
    return 0;
}

int solver_advisors_packing(solver_advisors *a, const solver_search *s, int *from, int *goal)
{
    const board *b = s->board;
    const solver_features *f = a->features;
    const int *layer = f->layer;
    a->opener = -1;
    a->candidate_count = a->next_candidate = a->searches = 0;
    int top = solver_features_current(f, b, s->boxes);
    if (top < 0) return 0;
    /* The candidates, by distance (insertion sort: a few dozen boxes at most). */
    int count = 0, wanted = 0;
    for (int t = 0; t < f->target_count; t++)
        if (layer[t] == top && solver_features_needed(f, b, s->boxes, t, top))
            a->wanted[wanted++] = t;
    for (int i = 0; i < s->box_count; i++) {
        int square = s->box_square[i], distance = SOLVER_NO_PATH, nearest = -1;
        if (board_is_goal(b, square)) continue;
        /* a box waiting on a parking square stays there until its goal's turn */
        int parked = a->box.goal_of[square] - b->goal_count;
        if (parked >= 0 && layer[f->parking.goal[parked]] < top) continue;
        for (int k = 0; k < wanted; k++) {
            int t = a->wanted[k];
            int d = target_distance(f, s, square, t);
            if (d < distance) {
                distance = d;
                nearest = t;
            }
        }
        if (nearest < 0) continue;
        solver_candidate c = {.square = square, .goal = nearest, .distance = distance};
        int k = count++;
        while (k > 0 && a->candidates[k - 1].distance > distance) {
            a->candidates[k] = a->candidates[k - 1];
            k--;
        }
        a->candidates[k] = c;
    }
    a->candidate_count = count;
    a->top = top;
    if (count > 0) solver_advisors_mark_arrivals(a, s, top);
    int pushes = solver_advisors_packing_next(a, s, from, goal);
    if (pushes == 0 && count > 0 && a->candidates[0].goal < b->goal_count)
        a->opener = first_in_the_way(s, a->candidates[0].square, a->candidates[0].goal);
    return pushes;
}

/* The square the push into node `n` left its box on; -1 for the root and for a packing
 * macro. (A push a tunnel macro lengthened left its box further on: the next push of that
 * box is weighed as a move of its own.) */
static int box_left_on(const board *b, const solver_node *n)
{
    if (n->parent < 0 || n->macro) return -1;
    return solver_move_square(n->move) + b->delta[solver_move_direction(n->move)];
}

/* True when the push into node `n` belongs to a box move that was weighed: it cost 1 (no
 * advisor asked for it), or it pushed on the box its parent's push moved, in a move so
 * weighed. */
static bool in_weighed_move(const board *b, const solver_store *store, const solver_node *n)
{
    if (n->parent < 0 || n->macro) return false;
    const solver_node *up = &store->nodes[n->parent];
    return n->weight > up->weight || solver_move_square(n->move) == box_left_on(b, up);
}

void solver_advisors_weigh(const solver_advisors *a, solver_store *store, int parent, int bound,
                           const solver_child *children, int count)
{
    const board *b = a->box.board;
    const solver_node *p = &store->nodes[parent];
    /* the box the parent's weighed move left, which its pushes may carry on */
    int carried = in_weighed_move(b, store, p) ? box_left_on(b, p) : -1;
    int packer = -1, joiner = -1, opener = -1;
    for (int c = 0; c < count; c++) {
        const solver_node *n = &store->nodes[children[c].node];
        if (a->opener >= 0 && solver_move_square(n->move) == a->opener && !n->macro &&
            (opener < 0 || children[c].h < children[opener].h))
            opener = c;
        if (n->packed > p->packed && (packer < 0 || children[c].h < children[packer].h)) packer = c;
        if (n->regions < p->regions && (joiner < 0 || children[c].h < children[joiner].h))
            joiner = c;
    }
    for (int c = 0; c < count; c++) {
        const solver_node *n = &store->nodes[children[c].node];
        bool advised = c == packer || c == joiner || c == opener;
        /* Festival weighs a box's whole move as one; here a push of the box the parent
         * moved is free when it does not lower the bound: the box is taken out of the
         * way, not home, where pushes free of weight would have the bound's order run
         * boxes home greedily */
        bool carried_on =
            !n->macro && solver_move_square(n->move) == carried && children[c].h >= bound;
        int weight = p->weight + (advised || carried_on ? 0 : 1);
        if (weight > SOLVER_MAX_WEIGHT) weight = SOLVER_MAX_WEIGHT;
        store->nodes[children[c].node].weight = (uint16_t)weight;
    }
}

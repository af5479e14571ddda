/* solver_box_advisors.c - the joiner and the opener over whole box moves. */
#include "solver_box_advisors.h"

#include <stdlib.h>

/* A box the advisors may move: its index, the regions its free neighbours lie in, and the
 * walking distance from it to the targets to fill. */
typedef struct candidate {
    int box, round, walk;
    bool join, open, searched;
} candidate;

bool solver_box_advisors_init(solver_box_advisors *m, const board *b,
                              const solver_features *features)
{
    size_t size = (size_t)b->size, height = (size_t)b->height;
    *m = (solver_box_advisors){.features = features, .path_capacity = 4 * b->size};
    m->target_of = malloc(size * sizeof *m->target_of);
    m->taken = calloc(size, sizeof *m->taken);
    m->walk = malloc(size * sizeof *m->walk);
    m->queue = malloc(size * sizeof *m->queue);
    m->label = malloc(size * sizeof *m->label);
    m->mark = calloc(size, sizeof *m->mark);
    m->left = malloc(height * sizeof *m->left);
    m->region = malloc(height * sizeof *m->region);
    m->joiner.path = malloc((size_t)m->path_capacity * sizeof *m->joiner.path);
    m->opener.path = malloc((size_t)m->path_capacity * sizeof *m->opener.path);
    m->seed = malloc((size_t)(features->target_count + 1) * sizeof *m->seed);
    m->seed_count = -1;
    m->candidates = malloc((size_t)(b->size > 0 ? b->size : 1) * sizeof *m->candidates);
    if (!m->target_of || !m->taken || !m->walk || !m->queue || !m->label || !m->mark || !m->left ||
        !m->region || !m->joiner.path || !m->opener.path || !m->candidates || !m->seed ||
        !solver_box_search_init(&m->box, b))
        return false;
    for (int square = 0; square < b->size; square++) m->target_of[square] = -1;
    for (int t = 0; t < features->target_count; t++)
        m->target_of[solver_features_square(features, b, t)] = t;
    return true;
}

void solver_box_advisors_free(solver_box_advisors *m)
{
    solver_box_search_free(&m->box);
    void *arrays[] = {m->target_of,   m->taken,       m->walk,       m->queue,
                      m->label,       m->mark,        m->left,       m->region,
                      m->joiner.path, m->opener.path, m->candidates, m->seed};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) free(arrays[k]);
    *m = (solver_box_advisors){0};
}

/* The regions of the free floor by squares (a board too big for rows): s->blocked as it
 * stands. */
static int regions_by_squares(solver_box_advisors *m, const solver_search *s)
{
    const board *b = s->board;
    uint32_t stamp = solver_next_stamp(m->mark, &m->mark_stamp, (size_t)b->size);
    int regions = 0;
    for (int start = 0; start < b->size; start++) {
        if (!board_is_inside(b, start) || s->blocked[start] || m->mark[start] == stamp) continue;
        regions++;
        int head = 0, tail = 0;
        m->mark[start] = stamp;
        m->queue[tail++] = start;
        while (head < tail) {
            int square = m->queue[head++];
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int next = square + b->delta[d];
                if (m->mark[next] == stamp || s->blocked[next]) continue;
                m->mark[next] = stamp;
                m->queue[tail++] = next;
            }
        }
    }
    return regions;
}

int solver_box_advisors_regions_after(solver_box_advisors *m, solver_search *s, int from, int to)
{
    int regions;
    if (s->use_rows) {
        solver_rows_set_box(&s->rows, from, false);
        solver_rows_set_box(&s->rows, to, true);
        regions = solver_rows_regions(&s->rows, false, m->left, m->region);
        solver_rows_set_box(&s->rows, to, false);
        solver_rows_set_box(&s->rows, from, true);
        return regions;
    }
    s->blocked[from] = 0;
    s->blocked[to] = 1;
    regions = regions_by_squares(m, s);
    s->blocked[to] = 0;
    s->blocked[from] = 1;
    return regions;
}

/* m->walk: the walking distance (walls only) from the nearest target of layer `current`
 * that still needs a box; false when none does. */
static bool walk_from_targets(solver_box_advisors *m, const solver_search *s, int current)
{
    const board *b = s->board;
    const solver_features *f = m->features;
    /* the targets to fill, as squares: the distances of the last time stand when they are
     * the same (they change only when a target is filled or emptied) */
    int seeds = 0;
    bool same = true;
    for (int t = 0; t < f->target_count; t++) {
        if (f->layer[t] != current || !solver_features_needed(f, b, s->boxes, t, current)) continue;
        int square = solver_features_square(f, b, t);
        same = same && seeds < m->seed_count && m->seed[seeds] == square;
        m->seed[seeds++] = square;
    }
    if (same && seeds == m->seed_count) return seeds > 0;
    m->seed_count = seeds;
    int head = 0, tail = 0;
    for (int square = 0; square < b->size; square++) m->walk[square] = SOLVER_NO_PATH;
    for (int k = 0; k < seeds; k++) {
        int square = m->seed[k];
        if (m->walk[square] == 0) continue;
        m->walk[square] = 0;
        m->queue[tail++] = square;
    }
    while (head < tail) {
        int square = m->queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (!board_is_inside(b, next) || m->walk[next] != SOLVER_NO_PATH) continue;
            m->walk[next] = m->walk[square] + 1;
            m->queue[tail++] = next;
        }
    }
    return tail > 0;
}

/* m->label of the squares next to each box, over rows: the region of free floor each lies
 * in (the square it is flooded from), -1 on a square not free. */
static void label_box_sides(solver_box_advisors *m, const solver_search *s)
{
    const solver_rows *r = &s->rows;
    const board *b = s->board;
    for (int y = 0; y < r->height; y++) m->left[y] = r->open[y];
    for (int i = 0; i < s->box_count; i++)
        for (int d = 0; d < DIRECTION_COUNT; d++) m->label[s->box_square[i] + b->delta[d]] = -1;
    for (int y = 1; y < r->height - 1; y++) {
        while (m->left[y] != 0) {
            int start = y * r->width + __builtin_ctzll(m->left[y]);
            solver_rows_flood_into(r, start, m->region);
            for (int k = y; k < r->height; k++) m->left[k] &= ~m->region[k];
            for (int i = 0; i < s->box_count; i++)
                for (int d = 0; d < DIRECTION_COUNT; d++) {
                    int side = s->box_square[i] + b->delta[d];
                    if (m->label[side] < 0 && solver_rows_has(r, m->region, side))
                        m->label[side] = start;
                }
        }
    }
}

/* m->label: the region of free floor of each free square (its first square), -1 on the
 * others. */
static void label_regions(solver_box_advisors *m, const solver_search *s)
{
    const board *b = s->board;
    for (int square = 0; square < b->size; square++) m->label[square] = -1;
    for (int start = 0; start < b->size; start++) {
        if (!board_is_inside(b, start) || s->blocked[start] || m->label[start] >= 0) continue;
        int head = 0, tail = 0;
        m->label[start] = start;
        m->queue[tail++] = start;
        while (head < tail) {
            int square = m->queue[head++];
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int next = square + b->delta[d];
                if (m->label[next] >= 0 || s->blocked[next]) continue;
                m->label[next] = start;
                m->queue[tail++] = next;
            }
        }
    }
}

/* The number of regions of free floor the free squares next to `square` lie in (labels). */
static int regions_round(const solver_box_advisors *m, const solver_search *s, int square)
{
    int seen[DIRECTION_COUNT], count = 0;
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        int region = m->label[square + s->board->delta[d]];
        bool again = region < 0;
        for (int k = 0; k < count && !again; k++) again = seen[k] == region;
        if (!again) seen[count++] = region;
    }
    return count;
}

int solver_box_advisors_parts_round(const solver_floor_tree *tree, int cut)
{
    int seen[DIRECTION_COUNT], count = 0;
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        int part = solver_floor_tree_part(tree, cut, cut + tree->board->delta[d]);
        bool again = part == SOLVER_FLOOR_NONE;
        for (int k = 0; k < count && !again; k++) again = seen[k] == part;
        if (!again) seen[count++] = part;
    }
    return count;
}

/* False when the box on `square` has no push now (the player's reach is flooded): its search
 * would find no square to take it to. */
static bool pushable(const solver_search *s, int square)
{
    const board *b = s->board;
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        int to = square + b->delta[d];
        if (solver_search_reaches(s, square - b->delta[d]) && board_is_inside(b, to) &&
            !s->blocked[to] && !solver_square_is_dead(s->distances, to))
            return true;
    }
    return false;
}

/* Keeps the last search's state `state` as the advice `a` for the box on `from`. */
static void keep(solver_box_advisors *m, solver_box_advice *a, int from, int state)
{
    a->count = solver_box_search_path(&m->box, state, a->path, m->path_capacity);
    a->from = from;
    a->to = state / 4;
}

/* True when the box on `square` stands on a target the packing feature counts (layer
 * `current` or one filled before it): moving it would undo packing. */
static bool counted(const solver_box_advisors *m, int square, int current)
{
    int t = m->target_of[square];
    return t >= 0 && current >= 0 && m->features->layer[t] >= current;
}

/* The best move so far of each advisor: the joiner's leaves the fewest regions (ties to the
 * lower box index, then the fewest pushes); the opener's takes the box nearest the targets
 * (ties to the lower box index) farthest from them. `joiner_box` and `opener_box` are -1
 * while an advisor has none. */
typedef struct best {
    int fewest, joiner_box;
    int nearest, farthest, opener_box;
} best;

/* True when box `c` may still give the joiner a better move than `w`'s: a move leaves at
 * least one region where its neighbours' regions were. */
static bool may_join(const candidate *c, int regions, const best *w)
{
    int least = regions - c->round + 1;
    return c->join && (least < w->fewest ||
                       (least == w->fewest && w->joiner_box >= 0 && c->box < w->joiner_box));
}

static bool may_open(const candidate *c, const best *w)
{
    /* a box as near as the best so far may still take its box farther */
    return c->open && (w->opener_box < 0 || c->walk <= w->nearest);
}

/* Searches candidate `c`'s box and weighs every square it gets to for both advisors. The
 * regions after a move come from the box search's floor tree: the regions round the box's
 * square join when it leaves, and the one region they make falls into as many parts as the
 * box cuts its new square's neighbours into. */
static void search_box(solver_box_advisors *m, solver_search *s, int regions, candidate *c, best *w)
{
    const board *b = s->board;
    int from = s->box_square[c->box];
    c->searched = true;
    int states = solver_box_search_all(&m->box, s->distances, s->boxes, from, s->player);
    uint32_t stamp = solver_next_stamp(m->taken, &m->taken_stamp, (size_t)b->size);
    m->taken[from] = stamp;
    int others = regions - c->round;
    for (int k = 1; k < states; k++) {
        int state = m->box.queue[k], to = state / 4;
        if (m->taken[to] == stamp) continue; /* the fewest pushes there came first */
        m->taken[to] = stamp;
        int after = others + solver_box_advisors_parts_round(&m->box.tree, to);
        if (c->join && (after < w->fewest ||
                        (after == w->fewest && w->joiner_box >= 0 && c->box < w->joiner_box))) {
            w->fewest = after;
            w->joiner_box = c->box;
            keep(m, &m->joiner, from, state);
        }
        if (c->open && after <= regions && m->walk[to] >= m->walk[from] &&
            (w->opener_box < 0 || c->walk < w->nearest ||
             (c->walk == w->nearest && (m->walk[to] > w->farthest ||
                                        (m->walk[to] == w->farthest && c->box < w->opener_box))))) {
            w->nearest = c->walk;
            w->farthest = m->walk[to];
            w->opener_box = c->box;
            keep(m, &m->opener, from, state);
        }
    }
}

/* The candidate not searched yet that `may` lets through with the least (key, box), or
 * NULL. */
static candidate *next_candidate(candidate *list, int count, int regions, const best *w,
                                 bool joiner)
{
    candidate *next = NULL;
    for (int k = 0; k < count; k++) {
        candidate *c = &list[k];
        if (c->searched || !(joiner ? may_join(c, regions, w) : may_open(c, w))) continue;
        if (!next || (joiner ? c->round > next->round : c->walk < next->walk)) next = c;
    }
    return next;
}

void solver_box_advisors_advise(solver_box_advisors *m, solver_search *s, int regions, bool join,
                                bool open)
{
    const board *b = s->board;
    int current = solver_features_current(m->features, b, s->boxes);
    m->joiner.count = m->opener.count = 0;
    open = open && current >= 0 && walk_from_targets(m, s, current);
    join = join && regions > 1;
    if (!join && !open) return;
    if (s->use_rows)
        label_box_sides(m, s);
    else
        label_regions(m, s);
    solver_search_key(s); /* the player's reach, for pushable() */
    int count = 0;
    for (int i = 0; i < s->box_count; i++) {
        int from = s->box_square[i];
        if (counted(m, from, current) || !pushable(s, from)) continue;
        candidate c = {.box = i, .round = regions_round(m, s, from), .walk = SOLVER_NO_PATH};
        /* only a box whose free neighbours lie in two regions or more can join any */
        c.join = join && c.round >= 2;
        if (open) c.walk = m->walk[from];
        c.open = open && c.walk != SOLVER_NO_PATH;
        if (c.join || c.open) m->candidates[count++] = c;
    }
    /* the boxes that may do best first, each searched once for both advisors, until no
     * other may beat what is found */
    best w = {.fewest = regions, .joiner_box = -1, .nearest = SOLVER_NO_PATH, .opener_box = -1};
    candidate *c;
    while ((c = next_candidate(m->candidates, count, regions, &w, true)))
        search_box(m, s, regions, c, &w);
    while ((c = next_candidate(m->candidates, count, regions, &w, false)))
        search_box(m, s, regions, c, &w);
}

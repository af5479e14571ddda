/* solver_box_advisors.c - the joiner and the opener over whole box moves. */
#include "solver_box_advisors.h"

#include <stdlib.h>

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
    if (!m->target_of || !m->taken || !m->walk || !m->queue || !m->label || !m->mark || !m->left ||
        !m->region || !m->joiner.path || !m->opener.path || !solver_box_search_init(&m->box, b))
        return false;
    for (int square = 0; square < b->size; square++) m->target_of[square] = -1;
    for (int t = 0; t < features->target_count; t++)
        m->target_of[solver_features_square(features, b, t)] = t;
    return true;
}

void solver_box_advisors_free(solver_box_advisors *m)
{
    solver_box_search_free(&m->box);
    void *arrays[] = {m->target_of, m->taken, m->walk,   m->queue,       m->label,
                      m->mark,      m->left,  m->region, m->joiner.path, m->opener.path};
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
    int head = 0, tail = 0;
    for (int square = 0; square < b->size; square++) m->walk[square] = SOLVER_NO_PATH;
    for (int t = 0; t < f->target_count; t++) {
        int square = solver_features_square(f, b, t);
        if (f->layer[t] != current || !solver_features_needed(f, b, s->boxes, t, current) ||
            m->walk[square] == 0)
            continue;
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

/* True when the free squares next to `square` lie in two regions or more: only a box there
 * can join regions by moving (a box leaves its square to the regions round it, and the
 * square it goes to, free before, was in one of them or cuts one). */
static bool between_regions(const solver_box_advisors *m, const solver_search *s, int square)
{
    int seen = -1;
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        int region = m->label[square + s->board->delta[d]];
        if (region < 0 || region == seen) continue;
        if (seen >= 0) return true;
        seen = region;
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

/* The best so far of each advisor, as solver_box_advisors_advise() weighs them. */
typedef struct best {
    int fewest;            /* the joiner's regions, to beat */
    int nearest, farthest; /* the opener's box and where it goes, by walking */
} best;

/* Weighs the move to the last search's state `state` (the box on `from` taken to its square)
 * for the joiner (`join`) and the opener (`opener`). */
static void weigh(solver_box_advisors *m, solver_search *s, int from, int state, int regions,
                  bool join, bool opener, best *w)
{
    int to = state / 4;
    int after = solver_box_advisors_regions_after(m, s, from, to);
    if (join && after < w->fewest) {
        w->fewest = after;
        keep(m, &m->joiner, from, state);
    }
    if (opener && after <= regions && m->walk[to] >= m->walk[from] &&
        (m->walk[from] < w->nearest || m->walk[to] > w->farthest)) {
        w->nearest = m->walk[from];
        w->farthest = m->walk[to];
        keep(m, &m->opener, from, state);
    }
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
    if (join) label_regions(m, s);
    best w = {.fewest = regions, .nearest = SOLVER_NO_PATH};
    for (int i = 0; i < s->box_count; i++) {
        int from = s->box_square[i];
        if (counted(m, from, current)) continue;
        bool joins = join && w.fewest > 1 && between_regions(m, s, from);
        /* the opener looks only at the boxes as near the targets as the best so far */
        bool opener = open && m->walk[from] != SOLVER_NO_PATH && m->walk[from] <= w.nearest;
        if (!joins && !opener) continue;
        int states = solver_box_search_all(&m->box, s->distances, s->boxes, from, s->player);
        uint32_t stamp = solver_next_stamp(m->taken, &m->taken_stamp, (size_t)b->size);
        m->taken[from] = stamp;
        for (int k = 1; k < states; k++) {
            int state = m->box.queue[k], to = state / 4;
            if (m->taken[to] == stamp) continue; /* the fewest pushes there came first */
            m->taken[to] = stamp;
            weigh(m, s, from, state, regions, joins, opener, &w);
        }
    }
}

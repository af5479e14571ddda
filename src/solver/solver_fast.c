/* solver_fast.c - the fast mode's search loop: feature-space search (FESS) or weighted
 * best-first search over push states.
 *
 * Takes the next open state (solver_open.h), puts the search in it, makes each of its
 * pushes through the Sokoban domain (solver_domain.h) and keeps the new states
 * (solver_store.h) with their features (solver_features.h); with features, adds the
 * packing advisor's macro and weighs the children (solver_advisors.h), then opens them;
 * now and then restarts afresh from the state it is about to expand (search->restart). */
#include "solver_fast.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rules/deadlock.h"
#include "solver_advisors.h"
#include "solver_backward.h"
#include "solver_box_advisors.h"
#include "solver_corral_deadlock.h"
#include "solver_features.h"
#include "solver_frozen.h"
#include "solver_open.h"
#include "solver_store.h"
#include "solver_stuck.h"

enum {
    /* Weighted best-first (features off): f = g + FAST_WEIGHT * h. 5 was measured best among
     * 1, 2, 3, 5 and 1000 on XSokoban 1-30 and Microban (docs/SOLVER.md). */
    FAST_WEIGHT = 5,
    /* The packing-order list: a box on a target in packing order against pushes (YASS's
     * EMPTY_GOAL_PENALTY). */
    PACKED_BOX = 32,
    /* Expansions under a state after which its stuck boxes are searched (Festival's 64). */
    STUCK_SUBTREE = 64,
    /* add_node()'s parent_layer when the parent's is not at hand */
    LAYER_UNKNOWN = -2,
};
/* The most pushes the stuck boxes' small searches may take, for each push of the search:
 * beyond it a node's stuck boxes are not searched (on XSokoban 87 they took 1.5 times the
 * search's own pushes, on Microban I 153 they doubled its time, solving nothing sooner). */
#define STUCK_SHARE 0.5

typedef struct fast_search {
    solver_search *search;
    ida_domain domain;
    bool features;     /* FESS; false: weighted best-first on one open list */
    bool packing_list; /* with features: the second open list by packing order */
    bool frozen_check; /* deadlocks behind boxes frozen on goals, at each expansion */
    /* deadlock patterns of stuck boxes (solver_stuck.h), learned below the states the
     * search stays under for long: `below` counts, per node, the expansions under it (up to
     * STUCK_SUBTREE); `pattern` and `region` take a new pattern; `patterns` is the store
     * shared with the other searches of the board (solver_learned.h), or `own` */
    bool stuck;
    solver_stuck_patterns *patterns, own;
    uint8_t *below;
    int *pattern;
    uint64_t *region;
    solver_frozen frozen;
    solver_store store;
    solver_open open;
    solver_features space;            /* with features only */
    solver_advisors advisors;         /* with features only */
    solver_box_advisors box_advisors; /* with features and the joiner or the opener only */
    bool box_advice;
    solver_child *children;
    const ida_limits *limits;
    uint16_t *scratch;     /* box squares of the packing advice's state */
    bool backward;         /* a backward search meets this one (solver_backward.h) */
    double backward_share; /* its nodes for each node of the forward search */
    solver_backward back;
    uint64_t back_nodes, forward_nodes;
    /* the restarts' nodes (search->restart), and the node count at which the next is due */
    uint64_t restart_nodes, next_restart;
    int restarts; /* the restarts so far, of this search alone */
    int root;     /* the start's node */
    /* the start's floor falls into more regions than search->restart_start_regions: the
     * first restart with the box moves goes from the start (search->restart_from_start) */
    bool tangled;
} fast_search;

/* The domain's `seen` hook: the states in the store. */
static bool in_store(const void *context, uint64_t key)
{
    const fast_search *f = context;
    if (solver_store_contains(&f->store, key)) return true;
    /* a new state is looked up in the backward search's store next (meet_forward()), after
     * the checks and the bound: its slot is fetched from memory meanwhile */
    if (f->backward) solver_store_prefetch(&f->back.store, key);
    return false;
}

static bool allocate(fast_search *f, size_t memory_bytes, const solver_stop *stop)
{
    solver_search *s = f->search;
    int cells = f->features ? solver_features_cell_count(s->box_count) : 1;
    f->children = malloc((size_t)(f->domain.max_moves + 1) * sizeof *f->children);
    f->scratch = malloc((size_t)(s->box_count > 0 ? s->box_count : 1) * sizeof *f->scratch);
    /* the two searches share the memory as they share the nodes */
    size_t forward_bytes =
        f->backward ? (size_t)((double)memory_bytes / (1 + f->backward_share)) : memory_bytes;
    /* a node's bytes beside the store's own: its open list entries, its count `below` */
    size_t per_node = (f->packing_list ? 2 : 1) * SOLVER_OPEN_ENTRY_BYTES + (f->stuck ? 1 : 0);
    if (!f->children || !f->scratch ||
        !solver_store_init(&f->store, s->box_count, forward_bytes, per_node) ||
        !solver_open_init(&f->open, cells, f->packing_list))
        return false;
    if (f->frozen_check && !solver_frozen_init(&f->frozen, s->board, s->distances)) return false;
    if (f->features && (!solver_features_init(&f->space, s, stop) ||
                        !solver_advisors_init(&f->advisors, s->board, s->box_count, &f->space)))
        return false;
    if (f->box_advice && !solver_box_advisors_init(&f->box_advisors, s->board, &f->space))
        return false;
    /* the restarts follow the rules the order was found by (a search by YASS's rules that
     * found none takes up to ORDER_EARLY_WORK each time) */
    if (f->features) s->park_early = f->space.parking.early;
    if (f->backward && !solver_backward_init(&f->back, s->board, s->box_square, s->box_count,
                                             &s->zobrist, memory_bytes - forward_bytes, stop))
        return false;
    f->back.use_rows &= s->use_rows; /* rows where the search has them (SOLVER_NO_ROWS) */
    s->seen = in_store;
    s->seen_context = f;
    /* run() checks every corral of each state it expands: about one state in ten of those
     * made, so the check of each push's corrals in make() is left out */
    s->corrals_at_push = false;
    if (f->stuck) {
        f->below = calloc((size_t)f->store.max_nodes, 1);
        f->pattern = malloc((size_t)(s->box_count > 0 ? s->box_count : 1) * sizeof *f->pattern);
        f->region = malloc(((size_t)s->board->size + 63) / 64 * sizeof *f->region);
        if (!f->below || !f->pattern || !f->region) return false;
        f->patterns = s->stuck_patterns;
        if (!f->patterns) {
            if (!solver_stuck_patterns_init(&f->own, s->board)) return false;
            f->patterns = &f->own;
        }
    }
    return true;
}

static void release(fast_search *f)
{
    if (f->patterns == &f->own) solver_stuck_patterns_free(&f->own);
    free(f->below);
    free(f->pattern);
    free(f->region);
    f->search->seen = NULL;
    f->search->corrals_at_push = true;
    free(f->children);
    free(f->scratch);
    solver_store_free(&f->store);
    solver_open_free(&f->open);
    solver_features_free(&f->space);
    solver_advisors_free(&f->advisors);
    if (f->box_advice) solver_box_advisors_free(&f->box_advisors);
    if (f->frozen_check) solver_frozen_free(&f->frozen);
    if (f->backward) solver_backward_free(&f->back);
}

/* True when the node limit is reached: --nodes N looks at N nodes, never one more (the
 * clock and the cancel flag are read every IDA_CHECK_EVERY nodes; this is one comparison). */
static inline bool budget_spent(const ida_limits *l, uint64_t nodes)
{
    return l->max_nodes && nodes >= l->max_nodes;
}

/* The path of a meeting: from the start to forward node `node`, then from its state (the
 * backward search's node `back_node`) to the goals. */
static ida_status join(fast_search *f, int node, int back_node, ida_result *result)
{
    if (!solver_store_path(&f->store, node, result) ||
        !solver_backward_append_path(&f->back, back_node, result))
        return IDA_NO_MEMORY;
    return IDA_SOLVED;
}

/* The status after forward node `node` (key `key`) was added: solved when the backward
 * search has seen its state. */
static ida_status meet_forward(fast_search *f, int node, uint64_t key, ida_result *result)
{
    if (!f->backward) return IDA_UNSOLVABLE;
    int back_node = solver_backward_find(&f->back, key);
    return back_node == SOLVER_NO_NODE ? IDA_UNSOLVABLE : join(f, node, back_node, result);
}

/* Lets the backward search catch up with its share of the nodes; IDA_SOLVED when it meets
 * a forward state. */
static ida_status run_backward(fast_search *f, ida_result *result)
{
    if (!f->backward) return IDA_UNSOLVABLE;
    const ida_limits *limits = f->limits;
    while (!f->back.exhausted &&
           (double)f->back_nodes < f->backward_share * (double)f->forward_nodes) {
        if (budget_spent(limits, result->nodes + f->back.box_count * 4)) return IDA_UNSOLVABLE;
        uint64_t before = f->back_nodes;
        int met;
        if (!solver_backward_expand(&f->back, &f->store, &f->back_nodes, &met))
            return IDA_NO_MEMORY;
        result->nodes += f->back_nodes - before;
        if (f->back.matching.stopped) /* its bounds are void: the time is up or cancelled */
            return limits->cancel && atomic_load(limits->cancel) ? IDA_CANCELLED : IDA_LIMIT;
        if (met != SOLVER_NO_NODE) {
            int node = *solver_store_slot(&f->store, f->back.store.nodes[met].key) - 1;
            assert(node != SOLVER_NO_NODE);
            return join(f, node, met, result);
        }
    }
    return IDA_UNSOLVABLE;
}

/* Adds the search's current state as a node (not yet open) with its features; returns its
 * index, or SOLVER_NO_NODE when the store is full. `from`: the square the box pushed last
 * left, when the state is the parent's after that push, else -1; `parent_layer`: the layer
 * being filled in the parent's state, or LAYER_UNKNOWN. *layer gets the state's
 * (solver_features_current(), for its aim; -1 without features). */
static int add_node(fast_search *f, int parent, ida_move move, int g, uint64_t key, int from,
                    int parent_layer, int *layer)
{
    solver_search *s = f->search;
    *layer = -1;
    int i = solver_store_add(&f->store, parent, move, g, s->region, key, s->box_square);
    if (i == SOLVER_NO_NODE || !f->features) return i;
    solver_node *n = &f->store.nodes[i];
    /* a push from and to squares that are no target leaves the layer as it was */
    bool same = from >= 0 && parent_layer != LAYER_UNKNOWN && !f->space.on_target[from] &&
                !f->space.on_target[s->box_square[s->last_box]];
    *layer = same ? parent_layer : solver_features_current(&f->space, s->board, s->boxes);
#ifdef SOKOBAN_CHECKED
    assert(*layer == solver_features_current(&f->space, s->board, s->boxes));
#endif
    n->packed = (uint16_t)solver_features_packed_in(&f->space, s, *layer);
    int regions = from >= 0 ? solver_features_regions_after(&f->space, s,
                                                            f->store.nodes[parent].regions, from)
                            : solver_features_regions(&f->space, s);
    n->regions = (uint8_t)(regions > 255 ? 255 : regions);
    return i;
}

/* The priority of a state on the packing-order list, lower first: YASS's forward score.
 * Each box on a target in packing order (solver_features_packed()) is worth far more than
 * a push (so the search runs from one packed box to the next), then the pushes so far and
 * the bound, then twice the distance from the box pushed last to the nearest target it
 * should fill next (`aim`; a fixed penalty when it reaches none). */
static uint64_t packing_priority(const fast_search *f, const solver_node *n, int h, int aim)
{
    uint64_t boxes = (uint64_t)f->search->box_count;
    uint64_t distance = aim == SOLVER_NO_PATH ? PACKED_BOX / 4 : 2 * ((uint64_t)aim + 1);
    uint64_t priority = PACKED_BOX * (boxes - n->packed) + (uint64_t)n->g + (uint64_t)h + distance;
    return priority < UINT32_MAX ? priority : UINT32_MAX;
}

/* Puts node `i`, whose bound is `h`, on its open list: FESS orders a cell by weight, then
 * bound; without features, f = g + FAST_WEIGHT * h. With the packing-order list, on that
 * too (`aim`: see packing_priority()). */
static bool open_node(fast_search *f, int i, int h, int aim)
{
    assert(h >= 0 && h < IDA_INFINITY); /* dead states are never opened */
    const solver_node *n = &f->store.nodes[i];
    uint64_t priority;
    int cell = 0;
    if (f->features) {
        uint64_t weight = n->weight;
        uint64_t most = (1u << SOLVER_WEIGHT_SHIFT) - 1;
        uint64_t bound = (uint64_t)h < most ? (uint64_t)h : most;
        priority = weight << SOLVER_WEIGHT_SHIFT | bound;
        cell = solver_features_cell(n->packed, n->regions);
    } else {
        priority = (uint64_t)n->g + (uint64_t)FAST_WEIGHT * (uint64_t)h;
        if (priority > UINT32_MAX) priority = UINT32_MAX;
    }
    if (f->packing_list && !solver_open_push_second(&f->open, packing_priority(f, n, h, aim), i))
        return false;
    return solver_open_push(&f->open, cell, priority, i);
}

/* Adds the state after an advised move in node `i` (the search is in that node's state;
 * the advice: `count` pushes in `path` take the box on `from` to `goal`) as a child of
 * `i`. Returns the new node or SOLVER_NO_NODE (seen before, dead, or no room); *h
 * is its bound. Sets *status when the store is full or the child is a goal. */
static int add_macro_child(fast_search *f, int i, const ida_move *path, int count, int from,
                           int goal, int *h, int *aim, ida_status *status, ida_result *result)
{
    solver_search *s = f->search;
    if (budget_spent(f->limits, result->nodes)) {
        *status = IDA_LIMIT;
        return SOLVER_NO_NODE;
    }
    result->nodes++;
    for (int b = 0; b < s->box_count; b++) {
        int square = s->box_square[b];
        f->scratch[b] = (uint16_t)(square == from ? goal : square);
    }
    ida_move last = path[count - 1];
    solver_search_set(s, f->scratch, solver_move_square(last));
    if (s->deadlocks && deadlock_check_push(s->deadlocks, s->board, s->boxes, goal))
        return SOLVER_NO_NODE;
    if (solver_search_pair_lost(s, goal)) return SOLVER_NO_NODE;
    /* the store first: most advised states are there already (on XSokoban 88, five in six),
     * and the bound's repair costs more than the look-up */
    uint64_t key = solver_search_key(s);
    if (solver_store_contains(&f->store, key)) return SOLVER_NO_NODE;
    *h = solver_search_bound(s);
    if (*h >= IDA_INFINITY) return SOLVER_NO_NODE;
    if (s->corral_deadlocks && solver_corral_deadlock(s->corral_deadlocks, s, goal)) {
        s->counters.corral_deadlock++;
        return SOLVER_NO_NODE;
    }
    int room = solver_store_reserve_macro(&f->store, count);
    if (room == 0) return SOLVER_NO_NODE; /* no room: no advice */
    if (room < 0) {
        *status = IDA_NO_MEMORY;
        return SOLVER_NO_NODE;
    }
    int layer;
    int added = add_node(f, i, (ida_move)f->store.macro_count, f->store.nodes[i].g + count, key, -1,
                         LAYER_UNKNOWN, &layer);
    if (added == SOLVER_NO_NODE) {
        *status = IDA_LIMIT;
        return SOLVER_NO_NODE;
    }
    if (f->packing_list) *aim = solver_features_aim_in(&f->space, s, goal, layer);
    solver_store_keep_macro(&f->store, added, path, count);
    if (solver_search_reached(s, *h, key))
        *status = solver_store_path(&f->store, added, result) ? IDA_SOLVED : IDA_NO_MEMORY;
    else
        *status = meet_forward(f, added, key, result);
    return added;
}

/* YASS offers a path for every box that can fill the next target: after the packing
 * advisor's first advice in node `i`, the advice for each further box goes on the
 * packing-order list alone (FESS's cells keep one advised macro a state). Returns the
 * status: IDA_UNSOLVABLE to go on. */
static ida_status add_more_packing(fast_search *f, int i, ida_result *result)
{
    solver_search *s = f->search;
    ida_status status = IDA_UNSOLVABLE;
    for (;;) {
        const solver_node *node = &f->store.nodes[i];
        solver_search_set(s, solver_store_boxes(&f->store, i), node->player);
        int from, goal, h = 0, aim = 0;
        int count = solver_advisors_packing_next(&f->advisors, s, &from, &goal);
        if (count == 0) break;
        int added =
            add_macro_child(f, i, f->advisors.path, count, from, goal, &h, &aim, &status, result);
        if (status != IDA_UNSOLVABLE) break;
        if (added == SOLVER_NO_NODE) continue;
        solver_node *n = &f->store.nodes[added];
        n->weight =
            (uint16_t)(f->store.nodes[i].weight + (f->store.nodes[i].weight < SOLVER_MAX_WEIGHT));
        if (!solver_open_push_second(&f->open, packing_priority(f, n, h, aim), added))
            return IDA_NO_MEMORY;
    }
    return status;
}

/* Adds the advised move `a` in node `i` as a child of its weight (f->children, *children
 * of them); the search is put back in node i's state first. Returns the status:
 * IDA_UNSOLVABLE to go on. */
static ida_status add_advised(fast_search *f, int i, const solver_box_advice *a, int *children,
                              ida_result *result)
{
    if (a->count == 0) return IDA_UNSOLVABLE;
    const solver_node *node = &f->store.nodes[i];
    solver_search_set(f->search, solver_store_boxes(&f->store, i), node->player);
    ida_status status = IDA_UNSOLVABLE;
    int h = 0, aim = 0;
    int added = add_macro_child(f, i, a->path, a->count, a->from, a->to, &h, &aim, &status, result);
    if (added != SOLVER_NO_NODE) {
        f->store.nodes[added].weight = f->store.nodes[i].weight;
        f->children[(*children)++] = (solver_child){.node = added, .h = h, .aim = aim};
    }
    return status;
}

/* FESS's advice in node `i`, whose state the search is in with its single pushes made
 * (f->children, *children of them) and whose bound is `bound`: the packing advisor's
 * macro, the children's weights, the joiner's and the opener's box moves
 * (solver_box_advisors.h), and on the packing list the packing advice for more boxes.
 * Returns the status: IDA_UNSOLVABLE to go on. */
static ida_status advise(fast_search *f, int i, int bound, int *children, ida_result *result)
{
    solver_search *s = f->search;
    int weight = f->store.nodes[i].weight;
    int h = 0, aim = 0, from, goal;
    ida_status status = IDA_UNSOLVABLE;
    int count = solver_advisors_packing(&f->advisors, s, &from, &goal);
    /* the box moves are worked out before the packing child moves the search's state */
    if (f->box_advice)
        solver_box_advisors_advise(&f->box_advisors, s, f->store.nodes[i].regions, s->joiner_moves,
                                   s->opener_moves && count == 0);
    int packed = count > 0 ? add_macro_child(f, i, f->advisors.path, count, from, goal, &h, &aim,
                                             &status, result)
                           : SOLVER_NO_NODE;
    if (status != IDA_UNSOLVABLE) return status;
    solver_advisors_weigh(&f->advisors, &f->store, i, bound, f->children, *children);
    if (packed != SOLVER_NO_NODE) {
        f->store.nodes[packed].weight = (uint16_t)weight; /* advised */
        f->children[(*children)++] = (solver_child){.node = packed, .h = h, .aim = aim};
    }
    if (f->box_advice &&
        ((status = add_advised(f, i, &f->box_advisors.joiner, children, result)) !=
             IDA_UNSOLVABLE ||
         (status = add_advised(f, i, &f->box_advisors.opener, children, result)) != IDA_UNSOLVABLE))
        return status;
    if (count > 0 && f->packing_list) return add_more_packing(f, i, result);
    return IDA_UNSOLVABLE;
}

/* True when a limit says stop at time `now`; sets *status. */
static bool over_limits(const ida_limits *l, uint64_t nodes, double now, ida_status *status)
{
    if (l->cancel && atomic_load_explicit(l->cancel, memory_order_relaxed)) {
        *status = IDA_CANCELLED;
        return true;
    }
    if ((l->max_nodes && nodes >= l->max_nodes) || (l->deadline > 0 && now >= l->deadline)) {
        *status = IDA_LIMIT;
        return true;
    }
    return false;
}

/* Counts the expansion of node `i` under it and its ancestors. A node that has had
 * STUCK_SUBTREE expansions under it (Festival's trigger, 64: the search has stayed below it
 * for long, as on a plateau of lost states) has its stuck boxes searched alone, while their
 * searches are within STUCK_SHARE; a lost set becomes a pattern, which the states still
 * open below it, and any other state holding it, meet when they are taken. The count stops
 * at STUCK_SUBTREE, and so does the walk up: the ancestors of a node at the cap are at it
 * too. */
static void learn_from_subtrees(fast_search *f, int i)
{
    solver_search *s = f->search;
    for (int j = i; j != SOLVER_NO_NODE && f->below[j] < STUCK_SUBTREE;
         j = f->store.nodes[j].parent) {
        if (++f->below[j] < STUCK_SUBTREE) continue;
        /* the small searches' pushes stay within a share of the search's own */
        if ((double)s->corral_deadlocks->counters.stuck_nodes >
            STUCK_SHARE * (double)f->forward_nodes)
            continue;
        int count =
            solver_stuck_deadlock(s->corral_deadlocks, solver_store_boxes(&f->store, j),
                                  s->box_count, f->store.nodes[j].player, f->pattern, f->region);
        if (count > 0) solver_stuck_patterns_add(f->patterns, f->pattern, count, f->region);
    }
}

/* Appends the moves of `rest` to `result`'s path. False when out of memory. */
static bool append_rest(ida_result *result, const ida_result *rest)
{
    ida_move *path =
        realloc(result->path, (size_t)(result->length + rest->length + 1) * sizeof *path);
    if (!path) return false;
    result->path = path;
    memcpy(path + result->length, rest->path, (size_t)rest->length * sizeof *path);
    result->length += rest->length;
    result->cost += rest->cost;
    return true;
}

/* Puts the search in node `i`'s state. */
static void set_state(fast_search *f, int i)
{
    solver_search_set(f->search, solver_store_boxes(&f->store, i), f->store.nodes[i].player);
    solver_search_key(f->search); /* the player's reach */
}

/* The kind of the search's restart numbered `turn` (from 1): with the box moves or not,
 * from the search's start or from the state it is about to expand. The one place that
 * decides it: a second search on the same solver_search (solver.c's search without the
 * goal-room macros) numbers its restarts afresh and has them of the same kinds. */
typedef struct restart_kind {
    bool box_moves;
    bool from_start;
} restart_kind;

static restart_kind restart_kind_of(const fast_search *f, int turn)
{
    const solver_search *s = f->search;
    int every = s->restart_box_moves_every;
    restart_kind kind = {.box_moves = every > 0 && turn % every == 0};
    kind.from_start = kind.box_moves && turn == every && s->restart_from_start && f->tangled;
    return kind;
}

/* A restart from node `i`, whose state the search is in, when one is due: a search afresh
 * from this state (search->restart), with its own packing order and feature space; from the
 * search's start instead when restart_kind_of() says so, the search put back in `i`'s state
 * after it. The restarts take as many nodes as the search itself between them. Returns
 * IDA_SOLVED with the path to the state restarted from and the restart's rest,
 * IDA_UNSOLVABLE to go on; *lost when the restart proved `i` lost. */
static ida_status try_restart(fast_search *f, int i, ida_result *result, bool *lost)
{
    solver_search *s = f->search;
    const ida_limits *l = f->limits;
    *lost = false;
    if (!s->restart || result->nodes < f->next_restart ||
        (l->max_nodes && result->nodes >= l->max_nodes))
        return IDA_UNSOLVABLE;
    restart_kind kind = restart_kind_of(f, ++f->restarts);
    int from = kind.from_start ? f->root : i;
    uint64_t budget = kind.from_start ? s->restart_start_budget : s->restart_budget;
    if (l->max_nodes && l->max_nodes - result->nodes < budget)
        budget = l->max_nodes - result->nodes;
    if (from != i) set_state(f, from);
    ida_result rest = {0};
    solver_restart_answer answer =
        s->restart(s->restart_argument, s, budget, kind.box_moves, &rest);
    if (from != i) set_state(f, i);
    result->nodes += rest.nodes;
    f->restart_nodes += rest.nodes;
    f->next_restart = result->nodes + rest.nodes + 1;
    ida_status status = IDA_UNSOLVABLE;
    if (answer == SOLVER_RESTART_SOLVED)
        status = solver_store_path(&f->store, from, result) && append_rest(result, &rest)
                     ? IDA_SOLVED
                     : IDA_NO_MEMORY;
    /* the start proved lost is left to the search, which proves it too */
    *lost = answer == SOLVER_RESTART_LOST && from == i;
    ida_result_free(&rest);
    return status;
}

/* Expands open states until a goal is generated. */
static ida_status run(fast_search *f, const ida_limits *limits, double start, ida_result *result)
{
    solver_search *s = f->search;
    ida_move *moves =
        malloc((size_t)(f->domain.max_moves > 0 ? f->domain.max_moves : 1) * sizeof *moves);
    if (!moves) return IDA_NO_MEMORY;
    ida_status status = IDA_UNSOLVABLE;
    /* the clock is read every IDA_CHECK_EVERY nodes, fewer when nodes are slow (ida.h) */
    ida_clock_check check = ida_clock_check_start(start, IDA_CHECK_EVERY);
    double next_progress =
        start + (limits->progress_interval > 0 ? limits->progress_interval : 0.25);
    int i;
    while (status == IDA_UNSOLVABLE && (i = solver_open_pop(&f->open)) != SOLVER_NO_NODE) {
        if (f->store.nodes[i].expanded) continue; /* taken from the other list before */
        f->store.nodes[i].expanded = 1;
        const solver_node node = f->store.nodes[i];
        solver_search_set(s, solver_store_boxes(&f->store, i), node.player);
        solver_search_key(s); /* the player's reach, which the frozen check reads too */
        if (f->frozen_check && solver_frozen_lost(&f->frozen, s)) continue;
        /* every corral of the state, with the boxes that touch its barrier, then each of
         * them alone: the pushes check only the corrals next to the box they move, with the
         * barrier alone, and a box pushed against a barrier can wedge a corral it is not
         * next to; the start (no parent), which no push has checked, was checked whole by
         * the root bound (solver_search_start_lost()) before the search was set up */
        if (s->corral_deadlocks && node.parent != SOLVER_NO_NODE &&
            solver_corral_deadlock_each_touching(s->corral_deadlocks, s)) {
            s->counters.corral_deadlock++;
            continue;
        }
        /* the patterns learned so far, one perhaps from this state's own ancestors */
        if (f->stuck) {
            learn_from_subtrees(f, i);
            if (solver_stuck_patterns_match(f->patterns, s->boxes, s->box_square, s->box_count,
                                            s->player))
                continue;
        }
        bool lost;
        if ((status = try_restart(f, i, result, &lost)) != IDA_UNSOLVABLE) break;
        if (lost) continue;
        int bound = solver_search_bound(s);
        int count = f->domain.expand(s, moves), children = 0;
        int layer_here =
            f->features ? solver_features_current(&f->space, s->board, s->boxes) : LAYER_UNKNOWN;
        for (int m = 0; m < count; m++) {
            if (budget_spent(limits, result->nodes)) {
                status = IDA_LIMIT;
                break;
            }
            int cost = 1;
            int h = f->domain.make(s, moves[m], node.g, &cost);
            result->nodes++;
            if (h != IDA_PRUNE && h < IDA_INFINITY) {
                uint64_t key = solver_search_key(s);
                if (!solver_store_contains(&f->store, key)) {
                    int layer;
                    int added = add_node(f, i, moves[m], node.g + cost, key,
                                         solver_move_square(moves[m]), layer_here, &layer);
                    if (added == SOLVER_NO_NODE) {
                        status = IDA_LIMIT; /* the memory is full */
                    } else if (solver_search_reached(s, h, key)) {
                        status = solver_store_path(&f->store, added, result) ? IDA_SOLVED
                                                                             : IDA_NO_MEMORY;
                    } else if ((status = meet_forward(f, added, key, result)) != IDA_UNSOLVABLE) {
                        /* met the backward search */
                    } else {
                        int aim = f->packing_list
                                      ? solver_features_aim_in(&f->space, s,
                                                               s->box_square[s->last_box], layer)
                                      : 0;
                        f->children[children++] = (solver_child){.node = added, .h = h, .aim = aim};
                    }
                }
            }
            f->domain.unmake(s, moves[m]);
            if (status != IDA_UNSOLVABLE || s->no_memory || s->matching.stopped) break;
        }
        if (s->no_memory) status = IDA_NO_MEMORY;
        /* the matching gave up inside the node (solver_bound.h): the time is up or cancelled */
        if (s->matching.stopped && status == IDA_UNSOLVABLE)
            status = limits->cancel && atomic_load(limits->cancel) ? IDA_CANCELLED : IDA_LIMIT;
        if (status != IDA_UNSOLVABLE) break;
        if (f->features && (status = advise(f, i, bound, &children, result)) != IDA_UNSOLVABLE)
            break;
        for (int c = 0; c < children; c++)
            if (!open_node(f, f->children[c].node, f->children[c].h, f->children[c].aim))
                status = IDA_NO_MEMORY;
        if (status != IDA_UNSOLVABLE) break;
        f->forward_nodes = result->nodes - f->back_nodes - f->restart_nodes;
        if ((status = run_backward(f, result)) != IDA_UNSOLVABLE) break;
        if (ida_clock_check_due(&check, result->nodes)) {
            double now = ida_clock_check_look(&check, result->nodes, 0);
            if (over_limits(limits, result->nodes, now, &status)) break;
            if (limits->progress && now >= next_progress) {
                ida_progress p = {.threshold = (int)node.g,
                                  .nodes = result->nodes,
                                  .seconds = now - start,
                                  .nodes_per_second = (double)result->nodes / (now - start)};
                limits->progress(limits->progress_argument, &p);
                next_progress =
                    now + (limits->progress_interval > 0 ? limits->progress_interval : 0.25);
            }
        }
    }
    free(moves);
    return status;
}

ida_status solver_fast_search(solver_search *s, const ida_limits *limits, size_t memory_bytes,
                              bool features, double backward_share, ida_result *result)
{
    static const ida_limits no_limits;
    if (!limits) limits = &no_limits;
    double start = ida_clock();
    *result = (ida_result){0};
    fast_search f = {.search = s,
                     .features = features,
                     .packing_list = features && s->packing_list,
                     .box_advice = features && (s->joiner_moves || s->opener_moves),
                     .frozen_check = s->frozen,
                     .stuck = s->stuck && s->corral_deadlocks,
                     .backward = backward_share > 0,
                     .backward_share = backward_share,
                     .next_restart = s->restart_after,
                     .limits = limits};
    solver_search_domain(s, &f.domain);
    ida_status status;
    int h = f.domain.root_bound(s);
    solver_stop stop = solver_stop_from_limits(limits);
    if (h >= IDA_INFINITY) {
        status = IDA_UNSOLVABLE; /* before the set-up: a lost start needs none of it */
    } else if (!allocate(&f, memory_bytes, &stop)) {
        /* the packing order gives up when the time is up or the search is cancelled */
        status = solver_stop_now(&stop) ? solver_stop_status(&stop) : IDA_NO_MEMORY;
    } else if (solver_search_is_goal(s)) {
        status = IDA_SOLVED;
    } else {
        int layer;
        int root = f.root =
            add_node(&f, SOLVER_NO_NODE, 0, 0, solver_search_key(s), -1, LAYER_UNKNOWN, &layer);
        if (root != SOLVER_NO_NODE && f.features)
            f.tangled = f.store.nodes[root].regions > s->restart_start_regions;
        if (root == SOLVER_NO_NODE)
            status = IDA_LIMIT;
        else if (!open_node(&f, root, h, 0))
            status = IDA_NO_MEMORY;
        else
            status = run(&f, limits, start, result);
    }
    release(&f);
    result->status = status;
    result->iterations = 1;
    result->seconds = ida_clock() - start;
    return status;
}

/* solver_fast.c - weighted best-first search: a node pool, a hash set of seen states and a
 * binary heap of open ones. */
#include "solver_fast.h"

#include <stdatomic.h>
#include <stdlib.h>

enum {
    /* f = g + FAST_WEIGHT * h. Larger is greedier. 5 was measured best among 1, 2, 3, 5 and
     * 1000 on XSokoban 1-30 and Microban (docs/SOLVER.md). */
    FAST_WEIGHT = 5,
    CHECK_EVERY = 256,
    NO_NODE = -1,
};

typedef struct fast_node {
    int32_t parent;
    ida_move move; /* the push from the parent */
    int32_t g;
    int32_t player; /* the least square of the player's region */
    uint64_t key;
} fast_node;

typedef struct fast_search {
    solver_search *search;
    ida_domain domain;
    int box_count;
    fast_node *nodes;
    uint16_t *boxes; /* box_count squares per node */
    int count, capacity, max_nodes;
    int32_t *slots; /* hash set: node index + 1, 0 for empty; a power of two of them */
    size_t slot_mask;
    uint64_t *heap; /* priority << 32 | node */
    int heap_count;
} fast_search;

/* ---- the hash set of seen states ------------------------------------------------------- */

/* The slot of `key`: the one holding its node, or the empty one where it would go. */
static int32_t *find_slot(fast_search *f, uint64_t key)
{
    size_t i = (size_t)key & f->slot_mask;
    while (f->slots[i] != 0 && f->nodes[f->slots[i] - 1].key != key) i = (i + 1) & f->slot_mask;
    return &f->slots[i];
}

/* ---- the heap of open states ----------------------------------------------------------- */

static void heap_push(fast_search *f, uint64_t entry)
{
    int i = f->heap_count++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (f->heap[parent] <= entry) break;
        f->heap[i] = f->heap[parent];
        i = parent;
    }
    f->heap[i] = entry;
}

static uint64_t heap_pop(fast_search *f)
{
    uint64_t top = f->heap[0], last = f->heap[--f->heap_count];
    int i = 0, n = f->heap_count;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && f->heap[child + 1] < f->heap[child]) child++;
        if (last <= f->heap[child]) break;
        f->heap[i] = f->heap[child];
        i = child;
    }
    if (n > 0) f->heap[i] = last;
    return top;
}

/* ---- nodes ----------------------------------------------------------------------------- */

/* Adds the search's current state as a node; returns its index, or NO_NODE when the pool
 * is full. */
static int add_node(fast_search *f, int parent, ida_move move, int g, int h, uint64_t key)
{
    if (f->count == f->max_nodes) return NO_NODE;
    int i = f->count++;
    solver_search *s = f->search;
    f->nodes[i] =
        (fast_node){.parent = parent, .move = move, .g = g, .player = s->region, .key = key};
    uint16_t *boxes = f->boxes + (size_t)i * (size_t)f->box_count;
    for (int b = 0; b < f->box_count; b++) boxes[b] = (uint16_t)s->box_square[b];
    uint64_t priority = (uint64_t)g + (uint64_t)FAST_WEIGHT * (uint64_t)h;
    if (priority > UINT32_MAX) priority = UINT32_MAX;
    heap_push(f, priority << 32 | (uint64_t)i);
    *find_slot(f, key) = i + 1;
    return i;
}

static bool allocate(fast_search *f, size_t memory_bytes)
{
    size_t per_node = sizeof(fast_node) + (size_t)f->box_count * sizeof(uint16_t) +
                      sizeof(uint64_t) + 2 * sizeof(int32_t);
    size_t max_nodes = memory_bytes / per_node;
    if (max_nodes > (1u << 30)) max_nodes = 1u << 30;
    if (max_nodes < 16) max_nodes = 16;
    size_t slots = 1;
    while (slots < 2 * max_nodes) slots *= 2;
    f->max_nodes = (int)max_nodes;
    /* calloc and malloc of a large block only map pages as they are touched. */
    f->nodes = malloc(max_nodes * sizeof *f->nodes);
    f->boxes = malloc(max_nodes * (size_t)(f->box_count > 0 ? f->box_count : 1) * sizeof *f->boxes);
    f->heap = malloc(max_nodes * sizeof *f->heap);
    f->slots = calloc(slots, sizeof *f->slots); /* pages mapped as they are touched */
    if (!f->nodes || !f->boxes || !f->heap || !f->slots) return false;
    f->slot_mask = slots - 1;
    return true;
}

static void release(fast_search *f)
{
    free(f->nodes);
    free(f->boxes);
    free(f->heap);
    free(f->slots);
}

/* The pushes from the root to node `goal`, into result->path. */
static bool extract_path(const fast_search *f, int goal, ida_result *result)
{
    int length = 0;
    for (int i = goal; f->nodes[i].parent != NO_NODE; i = f->nodes[i].parent) length++;
    result->path = malloc((size_t)(length > 0 ? length : 1) * sizeof *result->path);
    if (!result->path) return false;
    result->length = length;
    result->cost = f->nodes[goal].g;
    for (int i = goal, k = length - 1; f->nodes[i].parent != NO_NODE; i = f->nodes[i].parent)
        result->path[k--] = f->nodes[i].move;
    return true;
}

/* True when a limit says stop; sets *status. */
static bool over_limits(const ida_limits *l, uint64_t nodes, double start, ida_status *status)
{
    if (l->cancel && atomic_load_explicit(l->cancel, memory_order_relaxed)) {
        *status = IDA_CANCELLED;
        return true;
    }
    if ((l->max_nodes && nodes >= l->max_nodes) ||
        (l->max_seconds > 0 && ida_clock() - start >= l->max_seconds)) {
        *status = IDA_LIMIT;
        return true;
    }
    return false;
}

/* Expands open states best first until a goal is generated. */
static ida_status run(fast_search *f, const ida_limits *limits, double start, ida_result *result)
{
    solver_search *s = f->search;
    ida_move *moves =
        malloc((size_t)(f->domain.max_moves > 0 ? f->domain.max_moves : 1) * sizeof *moves);
    if (!moves) return IDA_NO_MEMORY;
    ida_status status = IDA_UNSOLVABLE;
    uint64_t next_check = CHECK_EVERY;
    double next_progress =
        start + (limits->progress_interval > 0 ? limits->progress_interval : 0.25);
    while (f->heap_count > 0) {
        int i = (int)(heap_pop(f) & 0xffffffffu);
        const fast_node node = f->nodes[i];
        solver_search_set(s, f->boxes + (size_t)i * (size_t)f->box_count, node.player);
        solver_search_bound(s);
        int count = f->domain.expand(s, moves);
        for (int m = 0; m < count; m++) {
            int cost = 1;
            int h = f->domain.make(s, moves[m], node.g, &cost);
            result->nodes++;
            if (h != IDA_PRUNE && h < IDA_INFINITY) {
                uint64_t key = solver_search_key(s);
                if (*find_slot(f, key) == 0) {
                    int child = add_node(f, i, moves[m], node.g + cost, h, key);
                    if (child == NO_NODE) {
                        status = IDA_LIMIT; /* the memory is full */
                    } else if (h == 0 && solver_search_is_goal(s)) {
                        status = extract_path(f, child, result) ? IDA_SOLVED : IDA_NO_MEMORY;
                    }
                }
            }
            f->domain.unmake(s, moves[m]);
            if (status != IDA_UNSOLVABLE || s->no_memory) break;
        }
        if (s->no_memory) status = IDA_NO_MEMORY;
        if (status != IDA_UNSOLVABLE) break;
        if (result->nodes >= next_check) {
            next_check = result->nodes + CHECK_EVERY;
            if (over_limits(limits, result->nodes, start, &status)) break;
            double now = ida_clock();
            if (limits->progress && now >= next_progress) {
                ida_progress p = {.threshold = (int)(f->heap[0] >> 32),
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
                              ida_result *result)
{
    static const ida_limits no_limits;
    if (!limits) limits = &no_limits;
    double start = ida_clock();
    *result = (ida_result){0};
    fast_search f = {.search = s, .box_count = s->box_count};
    solver_search_domain(s, &f.domain);
    ida_status status;
    int h = f.domain.root_bound(s);
    if (!allocate(&f, memory_bytes)) {
        status = IDA_NO_MEMORY;
    } else if (h >= IDA_INFINITY) {
        status = IDA_UNSOLVABLE;
    } else if (solver_search_is_goal(s)) {
        status = IDA_SOLVED;
    } else {
        if (add_node(&f, NO_NODE, 0, 0, h, solver_search_key(s)) == NO_NODE)
            status = IDA_LIMIT;
        else
            status = run(&f, limits, start, result);
    }
    release(&f);
    result->status = status;
    result->iterations = 1;
    result->seconds = ida_clock() - start;
    return status;
}

/* solver_fast.c - the fast mode: feature-space search (FESS) or weighted best-first search
 * over push states, with a node pool, a hash set of seen states and heaps of open ones. */
#include "solver_fast.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "solver_macro.h"

enum {
    /* Weighted best-first (features off): f = g + FAST_WEIGHT * h. 5 was measured best among
     * 1, 2, 3, 5 and 1000 on XSokoban 1-30 and Microban (docs/SOLVER.md). */
    FAST_WEIGHT = 5,
    /* Feature space: player regions beyond this many share a cell. */
    REGION_CELLS = 8,
    /* A heap entry: priority in the high 32 bits, node in the low 32; the FESS priority is
     * the advisor weight above the matching bound's WEIGHT_SHIFT bits. */
    WEIGHT_SHIFT = 20,
    MAX_WEIGHT = (1 << (32 - WEIGHT_SHIFT)) - 1,
    /* The packing advisor's full searches per state (after the cheap test): bounds the work
     * of one expansion on big levels. */
    PACKING_SEARCHES = 8,
    CHECK_EVERY = 256,
    NO_NODE = -1,
};

typedef struct fast_node {
    uint64_t key;
    int32_t parent;
    ida_move move; /* the push from the parent; for a packing macro, where its pushes start */
    int32_t g;
    int32_t player;  /* the least square of the player's region */
    uint16_t macro;  /* 0, or the number of pushes of the packing macro from the parent */
    uint16_t weight; /* FESS: pushes on the way here that no advisor asked for */
    uint16_t packed; /* FESS features: boxes on goals in packing order, */
    uint8_t regions; /* and the number of regions of free floor (at most 255) */
} fast_node;

typedef struct open_heap {
    uint64_t *items; /* priority << 32 | node */
    int count, capacity;
} open_heap;

/* A box the packing advisor may take to goal `goal`, `distance` pushes away for a lone box. */
typedef struct candidate {
    int square, goal, distance;
} candidate;

/* A new state met while expanding one, before it is put on a heap. */
typedef struct child {
    int node;
    int h;
} child;

typedef struct fast_search {
    solver_search *search;
    ida_domain domain;
    bool features; /* FESS; false: weighted best-first on one heap */
    int box_count;
    fast_node *nodes;
    uint16_t *boxes; /* box_count squares per node */
    int count, max_nodes;
    int32_t *slots; /* hash set: node index + 1, 0 for empty; a power of two of them */
    size_t slot_mask;
    open_heap *cells; /* one heap per cell of the feature space (one without features) */
    int cell_count, cursor;
    size_t open; /* states on all heaps */
    child *children;
    /* The packing advisor: the packing layer of each goal (solver_macro.h), its one-box
     * searches (box.goal_of: the goal index per square) and the pushes of all macros kept. */
    int *layer;
    int *packing; /* the goal squares by packing layer, the layer to fill first first */
    solver_box_search box;
    ida_move *path;
    ida_move *macros;
    size_t macro_count, macro_capacity, max_macro; /* max_macro: its share of the memory */
    uint16_t *scratch;
    candidate *candidates; /* box_count of them */
    int opener;            /* the box the opener advisor would push first, or -1 */
    /* Counting regions of free floor, and the packing advisor's relaxed flood. */
    int *floor; /* the inside squares */
    int floor_count;
    uint32_t *mark;
    uint32_t stamp;
    int *queue;
} fast_search;

/* ---- the hash set of seen states ------------------------------------------------------- */

/* The slot of `key`: the one holding its node, or the empty one where it would go. */
static int32_t *find_slot(fast_search *f, uint64_t key)
{
    size_t i = (size_t)key & f->slot_mask;
    while (f->slots[i] != 0 && f->nodes[f->slots[i] - 1].key != key) i = (i + 1) & f->slot_mask;
    return &f->slots[i];
}

/* ---- the heaps of open states ---------------------------------------------------------- */

static bool heap_push(open_heap *h, uint64_t entry)
{
    if (h->count == h->capacity) {
        int capacity = h->capacity ? h->capacity * 2 : 64;
        uint64_t *items = realloc(h->items, (size_t)capacity * sizeof *items);
        if (!items) return false;
        h->items = items;
        h->capacity = capacity;
    }
    int i = h->count++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (h->items[parent] <= entry) break;
        h->items[i] = h->items[parent];
        i = parent;
    }
    h->items[i] = entry;
    return true;
}

static uint64_t heap_pop(open_heap *h)
{
    uint64_t top = h->items[0], last = h->items[--h->count];
    int i = 0, n = h->count;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && h->items[child + 1] < h->items[child]) child++;
        if (last <= h->items[child]) break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (n > 0) h->items[i] = last;
    return top;
}

/* A fresh stamp for `marks` (`count` of them): a square is marked when it holds the stamp,
 * so nothing needs clearing until the stamp wraps round. */
static uint32_t next_stamp(uint32_t *marks, uint32_t *stamp, size_t count)
{
    if (++*stamp == 0) {
        memset(marks, 0, count * sizeof *marks);
        *stamp = 1;
    }
    return *stamp;
}

/* ---- features -------------------------------------------------------------------------- */

/* The number of regions the free floor (no box) falls into: 1 when the player can walk
 * everywhere. Fewer is better: boxes that cut the level in parts must move again. */
static int count_regions(fast_search *f)
{
    const solver_search *s = f->search;
    const board *b = s->board;
    uint32_t stamp = next_stamp(f->mark, &f->stamp, (size_t)b->size);
    /* The player's region is flooded already (his reach names the state): it counts as one
     * and its squares are passed over. */
    bool player = s->reach_valid;
    int regions = player ? 1 : 0;
    for (int i = 0; i < f->floor_count; i++) {
        int start = f->floor[i];
        if (f->mark[start] == stamp || s->blocked[start] ||
            (player && s->reach[start] == s->stamp))
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

/* The packing feature: the boxes on goals, counted layer by layer in packing order and
 * stopping after the first layer not yet full, so that a box put on a goal before its turn
 * does not count as progress. */
static int packed_in_order(const fast_search *f)
{
    const solver_search *s = f->search;
    const board *b = s->board;
    int packed = 0;
    for (int k = 0; k < b->goal_count;) {
        int layer = f->layer[f->packing[k]], filled = 0, all = 0;
        for (; k < b->goal_count && f->layer[f->packing[k]] == layer; k++) {
            all++;
            filled += s->boxes[b->goals[f->packing[k]]];
        }
        packed += filled;
        if (filled < all) break;
    }
    return packed;
}

/* The feature-space cell of node `i`. */
static int cell_of(const fast_search *f, int i)
{
    if (!f->features) return 0;
    int regions = f->nodes[i].regions;
    if (regions > REGION_CELLS) regions = REGION_CELLS;
    return f->nodes[i].packed * REGION_CELLS + regions - 1;
}

/* ---- nodes ----------------------------------------------------------------------------- */

/* Adds the search's current state as a node (not yet open); returns its index, or NO_NODE
 * when the pool is full. */
static int add_node(fast_search *f, int parent, ida_move move, int g, uint64_t key)
{
    if (f->count == f->max_nodes) return NO_NODE;
    int i = f->count++;
    solver_search *s = f->search;
    f->nodes[i] =
        (fast_node){.parent = parent, .move = move, .g = g, .player = s->region, .key = key};
    if (f->features) {
        f->nodes[i].packed = (uint16_t)packed_in_order(f);
        int regions = count_regions(f);
        f->nodes[i].regions = (uint8_t)(regions > 255 ? 255 : regions);
    }
    uint16_t *boxes = f->boxes + (size_t)i * (size_t)f->box_count;
    for (int b = 0; b < f->box_count; b++) boxes[b] = (uint16_t)s->box_square[b];
    *find_slot(f, key) = i + 1;
    return i;
}

/* Puts node `i`, whose bound is `h`, on its heap. */
static bool open_node(fast_search *f, int i, int h)
{
    uint64_t priority;
    if (f->features) {
        uint64_t weight = f->nodes[i].weight;
        uint64_t most = (1u << WEIGHT_SHIFT) - 1;
        uint64_t bound = (uint64_t)h < most ? (uint64_t)h : most;
        priority = weight << WEIGHT_SHIFT | bound;
    } else {
        priority = (uint64_t)f->nodes[i].g + (uint64_t)FAST_WEIGHT * (uint64_t)h;
        if (priority > UINT32_MAX) priority = UINT32_MAX;
    }
    if (!heap_push(&f->cells[cell_of(f, i)], priority << 32 | (uint64_t)i)) return false;
    f->open++;
    return true;
}

/* The next open state: FESS visits the non-empty cells of the feature space in turn and takes
 * the best state of each; without features there is one heap. */
static int next_node(fast_search *f)
{
    for (int k = 0; k < f->cell_count; k++) {
        open_heap *h = &f->cells[f->cursor];
        f->cursor = (f->cursor + 1) % f->cell_count;
        if (h->count > 0) {
            f->open--;
            return (int)(heap_pop(h) & 0xffffffffu);
        }
    }
    return NO_NODE;
}

static bool allocate(fast_search *f, size_t memory_bytes)
{
    const board *b = f->search->board;
    size_t per_node = sizeof(fast_node) + (size_t)f->box_count * sizeof(uint16_t) +
                      2 * sizeof(uint64_t) + 2 * sizeof(int32_t);
    /* An eighth of the memory for the pushes of packing macros, the rest for states. */
    f->max_macro = memory_bytes / 8 / sizeof(ida_move);
    size_t max_nodes = memory_bytes / 8 * 7 / per_node;
    if (max_nodes > (1u << 30)) max_nodes = 1u << 30;
    if (max_nodes < 16) max_nodes = 16;
    size_t slots = 1;
    while (slots < 2 * max_nodes) slots *= 2;
    f->max_nodes = (int)max_nodes;
    f->cell_count = f->features ? (f->box_count + 1) * REGION_CELLS : 1;
    /* calloc and malloc of a large block only map pages as they are touched. */
    f->nodes = malloc(max_nodes * sizeof *f->nodes);
    f->boxes = malloc(max_nodes * (size_t)(f->box_count > 0 ? f->box_count : 1) * sizeof *f->boxes);
    f->slots = calloc(slots, sizeof *f->slots);
    f->cells = calloc((size_t)f->cell_count, sizeof *f->cells);
    /* the pushes of a state and the packing advice */
    f->children = malloc((size_t)(f->domain.max_moves + 1) * sizeof *f->children);
    f->floor = malloc((size_t)b->size * sizeof *f->floor);
    f->mark = calloc((size_t)b->size, sizeof *f->mark);
    f->queue = malloc((size_t)b->size * sizeof *f->queue);
    size_t goals = (size_t)(b->goal_count > 0 ? b->goal_count : 1), states = 4 * (size_t)b->size;
    f->layer = malloc(goals * sizeof *f->layer);
    f->packing = malloc(goals * sizeof *f->packing);
    f->path = malloc(states * sizeof *f->path);
    f->scratch = malloc((size_t)(f->box_count > 0 ? f->box_count : 1) * sizeof *f->scratch);
    f->candidates = malloc((size_t)(f->box_count > 0 ? f->box_count : 1) * sizeof *f->candidates);
    if (!f->nodes || !f->boxes || !f->slots || !f->cells || !f->children || !f->floor || !f->mark ||
        !f->queue || !f->layer || !f->packing || !f->path || !f->scratch || !f->candidates ||
        !solver_box_search_init(&f->box, b))
        return false;
    if (f->features) {
        /* The boxes come from where they stand now. */
        uint8_t *sources = calloc((size_t)b->size, 1);
        if (!sources) return false;
        for (int i = 0; i < f->box_count; i++) {
            int square = f->search->box_square[i];
            sources[square] = !board_is_goal(b, square);
        }
        int layers = solver_macro_packing_layers(b, f->search->player, sources, f->layer);
        free(sources);
        if (layers < 0) return false;
        /* The goals by layer, highest first (insertion sort, once per search). */
        for (int g = 0; g < b->goal_count; g++) {
            int k = g;
            while (k > 0 && f->layer[f->packing[k - 1]] < f->layer[g]) {
                f->packing[k] = f->packing[k - 1];
                k--;
            }
            f->packing[k] = g;
        }
    }
    f->slot_mask = slots - 1;
    for (int square = 0; square < b->size; square++)
        if (board_is_inside(b, square)) f->floor[f->floor_count++] = square;
    return true;
}

static void release(fast_search *f)
{
    free(f->nodes);
    free(f->boxes);
    free(f->slots);
    for (int i = 0; f->cells && i < f->cell_count; i++) free(f->cells[i].items);
    free(f->cells);
    free(f->children);
    free(f->floor);
    free(f->mark);
    free(f->queue);
    free(f->layer);
    free(f->packing);
    solver_box_search_free(&f->box);
    free(f->path);
    free(f->macros);
    free(f->scratch);
    free(f->candidates);
}

/* The pushes from the root to node `goal`, into result->path; a packing macro's pushes are
 * marked SOLVER_MOVE_SINGLE. */
static bool extract_path(const fast_search *f, int goal, ida_result *result)
{
    int length = 0;
    for (int i = goal; f->nodes[i].parent != NO_NODE; i = f->nodes[i].parent)
        length += f->nodes[i].macro ? f->nodes[i].macro : 1;
    result->path = malloc((size_t)(length > 0 ? length : 1) * sizeof *result->path);
    if (!result->path) return false;
    result->length = length;
    result->cost = f->nodes[goal].g;
    int k = length;
    for (int i = goal; f->nodes[i].parent != NO_NODE; i = f->nodes[i].parent) {
        const fast_node *n = &f->nodes[i];
        if (!n->macro) {
            result->path[--k] = n->move;
            continue;
        }
        for (int j = n->macro - 1; j >= 0; j--)
            result->path[--k] = f->macros[n->move + (size_t)j] | SOLVER_MOVE_SINGLE;
    }
    return true;
}

/* ---- the packing advisor --------------------------------------------------------------- */

/* True when the box on `origin` might get to an empty goal of packing layer `layer`: a flood
 * over the squares it could be pushed to if the player could stand anywhere free. Much
 * cheaper than the full search (no player's reach per state), it weeds out most of the boxes that
 * cannot get there. */
static bool might_pack(fast_search *f, int origin, int layer)
{
    const solver_search *s = f->search;
    const board *b = s->board;
    uint32_t stamp = next_stamp(f->mark, &f->stamp, (size_t)b->size);
    int head = 0, tail = 0;
    f->mark[origin] = stamp;
    f->queue[tail++] = origin;
    while (head < tail) {
        int box = f->queue[head++];
        int g = f->box.goal_of[box];
        if (g >= 0 && f->layer[g] == layer && box != origin) return true;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int to = box + b->delta[d], stand = box - b->delta[d];
            if (f->mark[to] == stamp || (s->blocked[to] && to != origin) ||
                (s->blocked[stand] && stand != origin) || solver_square_is_dead(s->distances, to))
                continue;
            f->mark[to] = stamp;
            f->queue[tail++] = to;
        }
    }
    return false;
}

/* The first other box in the way of the box on `from` going to goal `g` along the shortest
 * path for a lone box (walls only), standing on the path or where the player must stand;
 * -1 when there is none. */
static int first_in_the_way(const fast_search *f, int from, int g)
{
    const solver_search *s = f->search;
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

/* FESS's packing advisor: in the current state, a box taken by the fewest pushes to an empty
 * goal of the packing layer to fill next (the highest with an empty goal), the other boxes
 * standing still. Tries the boxes off goals from the nearest to such a goal (for a lone box)
 * outwards and takes the first that gets there. Returns the number of pushes (in f->path;
 * 0: no advice); *from and *goal are where the box starts and ends. When no box gets there,
 * f->opener is the first box in the way of the nearest one (the opener advisor's). */
static int packing_advice(fast_search *f, int *from, int *goal)
{
    const solver_search *s = f->search;
    const board *b = s->board;
    size_t goals = (size_t)b->goal_count;
    f->opener = -1;
    int top = -1;
    for (int g = 0; g < b->goal_count; g++)
        if (!s->boxes[b->goals[g]] && f->layer[g] > top) top = f->layer[g];
    if (top < 0) return 0;
    /* The candidates, by distance (insertion sort: a few dozen boxes at most). */
    int count = 0;
    for (int i = 0; i < s->box_count; i++) {
        int square = s->box_square[i], distance = SOLVER_NO_PATH, nearest = -1;
        if (board_is_goal(b, square)) continue;
        for (int g = 0; g < b->goal_count; g++) {
            int d = s->distances->to_goal[(size_t)square * goals + (size_t)g];
            if (f->layer[g] == top && !s->boxes[b->goals[g]] && d < distance) {
                distance = d;
                nearest = g;
            }
        }
        if (nearest < 0) continue;
        candidate c = {.square = square, .goal = nearest, .distance = distance};
        int k = count++;
        while (k > 0 && f->candidates[k - 1].distance > distance) {
            f->candidates[k] = f->candidates[k - 1];
            k--;
        }
        f->candidates[k] = c;
    }
    if (count > 0) f->opener = first_in_the_way(f, f->candidates[0].square, f->candidates[0].goal);
    for (int k = 0, searches = 0; k < count && searches < PACKING_SEARCHES; k++) {
        int square = f->candidates[k].square;
        if (!might_pack(f, square, top)) continue;
        searches++;
        int pushes = solver_box_search_to_layer(&f->box, s->distances, s->boxes, square, s->player,
                                                NULL, f->layer, top, f->path, 4 * b->size, goal);
        if (pushes > 0) {
            *from = square;
            f->opener = -1;
            return pushes;
        }
    }
    return 0;
}

/* Adds the state after the packing advice in node `i` (the search is in that node's state)
 * as a child of `i`. Returns the new node or NO_NODE (no advice, seen before, dead, or no
 * room); *h is its bound. Sets *status when the pool is full or the child is a goal. */
static int add_packing_child(fast_search *f, int i, int *h, ida_status *status, ida_result *result)
{
    solver_search *s = f->search;
    int from, goal;
    int count = packing_advice(f, &from, &goal);
    if (count == 0) return NO_NODE;
    result->nodes++;
    for (int b = 0; b < f->box_count; b++) {
        int square = s->box_square[b];
        f->scratch[b] = (uint16_t)(square == from ? goal : square);
    }
    ida_move last = f->path[count - 1];
    solver_search_set(s, f->scratch, solver_move_square(last));
    if (s->deadlocks && deadlock_check_push(s->deadlocks, s->board, s->boxes, goal)) return NO_NODE;
    *h = solver_search_bound(s);
    uint64_t key = solver_search_key(s);
    if (*h >= IDA_INFINITY || *find_slot(f, key) != 0) return NO_NODE;
    if (f->macro_count + (size_t)count > f->max_macro) return NO_NODE; /* no room: no advice */
    if (f->macro_count + (size_t)count > f->macro_capacity) {
        size_t capacity = f->macro_capacity ? f->macro_capacity * 2 : 4096;
        while (capacity < f->macro_count + (size_t)count) capacity *= 2;
        if (capacity > f->max_macro) capacity = f->max_macro;
        ida_move *macros = realloc(f->macros, capacity * sizeof *macros);
        if (!macros) {
            *status = IDA_NO_MEMORY;
            return NO_NODE;
        }
        f->macros = macros;
        f->macro_capacity = capacity;
    }
    int added = add_node(f, i, (ida_move)f->macro_count, f->nodes[i].g + count, key);
    if (added == NO_NODE) {
        *status = IDA_LIMIT;
        return NO_NODE;
    }
    memcpy(f->macros + f->macro_count, f->path, (size_t)count * sizeof *f->path);
    f->macro_count += (size_t)count;
    f->nodes[added].macro = (uint16_t)count;
    if (*h == 0 && solver_search_is_goal(s))
        *status = extract_path(f, added, result) ? IDA_SOLVED : IDA_NO_MEMORY;
    return added;
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

/* FESS's advisors among the single pushes: of the new children of node `parent`, the one
 * with the least bound that raises the packing feature, the one that joins regions of the
 * floor, and the opener's push of the box in the way (f->opener) cost nothing; every other
 * push costs 1 in the weight that orders each cell. (The packing macro is weighed apart.) */
static void weigh_children(fast_search *f, int parent, int count)
{
    const fast_node *p = &f->nodes[parent];
    int packer = -1, joiner = -1, opener = -1;
    for (int c = 0; c < count; c++) {
        const fast_node *n = &f->nodes[f->children[c].node];
        if (f->opener >= 0 && solver_move_square(n->move) == f->opener && !n->macro &&
            (opener < 0 || f->children[c].h < f->children[opener].h))
            opener = c;
        if (n->packed > p->packed && (packer < 0 || f->children[c].h < f->children[packer].h))
            packer = c;
        if (n->regions < p->regions && (joiner < 0 || f->children[c].h < f->children[joiner].h))
            joiner = c;
    }
    for (int c = 0; c < count; c++) {
        int weight = p->weight + (c == packer || c == joiner || c == opener ? 0 : 1);
        if (weight > MAX_WEIGHT) weight = MAX_WEIGHT;
        f->nodes[f->children[c].node].weight = (uint16_t)weight;
    }
}

/* Expands open states until a goal is generated. */
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
    int i;
    while (status == IDA_UNSOLVABLE && (i = next_node(f)) != NO_NODE) {
        const fast_node node = f->nodes[i];
        solver_search_set(s, f->boxes + (size_t)i * (size_t)f->box_count, node.player);
        solver_search_bound(s);
        int count = f->domain.expand(s, moves), children = 0;
        for (int m = 0; m < count; m++) {
            int cost = 1;
            int h = f->domain.make(s, moves[m], node.g, &cost);
            result->nodes++;
            if (h != IDA_PRUNE && h < IDA_INFINITY) {
                uint64_t key = solver_search_key(s);
                if (*find_slot(f, key) == 0) {
                    int added = add_node(f, i, moves[m], node.g + cost, key);
                    if (added == NO_NODE) {
                        status = IDA_LIMIT; /* the memory is full */
                    } else if (h == 0 && solver_search_is_goal(s)) {
                        status = extract_path(f, added, result) ? IDA_SOLVED : IDA_NO_MEMORY;
                    } else {
                        f->children[children++] = (child){.node = added, .h = h};
                    }
                }
            }
            f->domain.unmake(s, moves[m]);
            if (status != IDA_UNSOLVABLE || s->no_memory) break;
        }
        if (s->no_memory) status = IDA_NO_MEMORY;
        if (status != IDA_UNSOLVABLE) break;
        if (f->features) {
            int h = 0;
            f->opener = -1;
            int packed = add_packing_child(f, i, &h, &status, result);
            if (status != IDA_UNSOLVABLE) break;
            weigh_children(f, i, children);
            if (packed != NO_NODE) {
                f->nodes[packed].weight = node.weight; /* advised */
                f->children[children++] = (child){.node = packed, .h = h};
            }
        }
        for (int c = 0; c < children; c++)
            if (!open_node(f, f->children[c].node, f->children[c].h)) status = IDA_NO_MEMORY;
        if (status != IDA_UNSOLVABLE) break;
        if (result->nodes >= next_check) {
            next_check = result->nodes + CHECK_EVERY;
            if (over_limits(limits, result->nodes, start, &status)) break;
            double now = ida_clock();
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
                              bool features, ida_result *result)
{
    static const ida_limits no_limits;
    if (!limits) limits = &no_limits;
    double start = ida_clock();
    *result = (ida_result){0};
    fast_search f = {.search = s, .box_count = s->box_count, .features = features};
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
        int root = add_node(&f, NO_NODE, 0, 0, solver_search_key(s));
        if (root == NO_NODE)
            status = IDA_LIMIT;
        else if (!open_node(&f, root, h))
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

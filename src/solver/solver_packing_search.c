/* solver_packing_search.c - a packing plan by a best-first search over whole box pulls. */
#include "solver_packing_search.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "solver_floor_tree.h"
#include "solver_heap.h"

/* The positions' squares take at most this much memory. */
#define PLAN_CELL_BYTES ((size_t)24 << 20)
/* The search gives up once it has looked at this many squares (pull searches, floods),
 * about 0.3 s: on XSokoban and Microban I every plan found within SOLVER_PLAN_POSITIONS is
 * found within it. Work, not seconds: the plan is the same on a busy machine. */
#define PLAN_WORK (UINT64_C(1) << 25)
/* The stop is read each time this many more squares have been looked at (well under a
 * millisecond): an expansion on a board of a thousand boxes looks at millions. */
#define STOP_WORK (UINT64_C(1) << 16)
/* A position's key: 64-bit FNV-1a over its cells (the player's square mixed into the basis). */
#define FNV_OFFSET_BASIS UINT64_C(14695981039346656037)
#define FNV_PRIME UINT64_C(1099511628211)

/* What a square holds in a position of the search. */
enum {
    CELL_FREE = 0,
    CELL_BOX = 1,
    CELL_USED = 2,  /* a base whose box is gone: free floor */
    CELL_PARKED = 3 /* a box parked on a base that takes no box home yet: not home */
};

static bool holds_box(uint8_t cell)
{
    return cell == CELL_BOX || cell == CELL_PARKED;
}

enum {
    BASES_PER_BOX = 3, /* of the bases a box reaches, the nearest by pulls are tried */
    PARKS_PER_BOX = 2, /* parking squares tried for a box on a goal: the farthest, a middle one */
    NO_NODE = -1,
};

/* A position met: its squares are cells[index * size ...]. */
typedef struct plan_node {
    int parent;   /* NO_NODE for a root */
    int from, to; /* the pull that made it (a whole box move); -1 at a root */
    int player;   /* the least square of the player's region */
    int depth;    /* whole box moves from the solved position */
    int left;     /* boxes not yet home */
    uint64_t key;
} plan_node;

typedef struct plan_search {
    const board *b;
    const uint8_t *sources, *rest;
    size_t size;
    plan_node *nodes;
    uint8_t *cells;
    int count, capacity;
    int *table; /* open addressing over node indices, -1 empty */
    size_t table_mask;
    solver_heap open; /* entry_of(): each node once, room for all of them */
    solver_floor_tree tree;
    int *distance, *queue, *reached, *after; /* per square or (square, side) */
    int *label;
    /* Festival's bases: the free bases, which of them a lone box pushed from one reaches
     * (base_count squared), which take a box home in the position expanded (per square) */
    int *base, base_count;
    uint8_t *base_reach, *home_base;
    uint8_t *work;      /* a child's cells */
    uint8_t *boxes;     /* the expanded position's boxes, one byte a square (the floor tree's) */
    int *box_list;      /* the same, their squares */
    uint64_t work_done; /* squares looked at so far (PLAN_WORK) */
    const solver_stop *stop;
    uint64_t stop_read_at; /* work_done when the stop was last read */
    bool stopped;
} plan_search;

/* True once the search is told to stop (read every STOP_WORK squares). */
static bool told_to_stop(plan_search *p)
{
    return solver_stop_after_work(p->stop, p->work_done, STOP_WORK, &p->stop_read_at, &p->stopped);
}

static uint64_t cells_key(const uint8_t *cells, size_t size, int player)
{
    uint64_t h = FNV_OFFSET_BASIS ^ (uint64_t)player;
    for (size_t i = 0; i < size; i++) h = (h ^ cells[i]) * FNV_PRIME;
    return h ^ (h >> 29);
}

/* Labels the free floor of `cells` into regions (label[square], -1 off the floor); returns
 * their number, *player the least square of the region of `from`. */
static int floor_regions(plan_search *p, const uint8_t *cells, int from, int *player)
{
    const board *b = p->b;
    int regions = 0;
    for (int q = 0; q < b->size; q++) p->label[q] = -1;
    *player = from;
    for (int q = 0; q < b->size; q++) {
        if (!board_is_inside(b, q) || holds_box(cells[q]) || p->label[q] >= 0) continue;
        int head = 0, tail = 0, least = q;
        bool mine = false;
        p->label[q] = regions;
        p->queue[tail++] = q;
        while (head < tail) {
            int square = p->queue[head++];
            mine |= square == from;
            if (square < least) least = square;
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int next = square + b->delta[d];
                if (!board_is_inside(b, next) || holds_box(cells[next]) || p->label[next] >= 0)
                    continue;
                p->label[next] = regions;
                p->queue[tail++] = next;
            }
        }
        if (mine) *player = least;
        regions++;
    }
    return regions;
}

/* A node's entry on the open list, in the order in which positions are taken: fewer boxes
 * left, then fewer regions of floor, then fewer moves, then the node met first. Sixteen bits
 * each: a board has at most LEVEL_MAX_SIDE squares a side, and a node's depth and index are
 * below SOLVER_PLAN_POSITIONS. */
_Static_assert(SOLVER_PLAN_POSITIONS <= 1 << 16, "a node's depth and index take 16 bits");
_Static_assert((1 << 16) > LEVEL_MAX_SIDE * LEVEL_MAX_SIDE, "boxes and regions take 16 bits");
static uint64_t entry_of(const plan_node *n, int regions, int index)
{
    return (uint64_t)n->left << 48 | (uint64_t)regions << 32 | (uint64_t)n->depth << 16 |
           (uint64_t)index;
}

static int boxes_left(const plan_search *p, const uint8_t *cells)
{
    int left = 0;
    for (int q = 0; q < p->b->size; q++)
        left += (cells[q] == CELL_BOX && !p->sources[q]) || cells[q] == CELL_PARKED;
    return left;
}

/* True when every box of `cells` stands on a base (home, or parked there): the plan. */
static bool all_on_bases(const plan_search *p, const uint8_t *cells)
{
    for (int q = 0; q < p->b->size; q++)
        if (cells[q] == CELL_BOX && !p->sources[q]) return false;
    return true;
}

/* Adds the position in p->work with the player on `player` unless met already: its node, or
 * NO_NODE (met, or no room). */
static int add_node(plan_search *p, int parent, int from, int to, int player)
{
    if (p->count >= p->capacity) return NO_NODE;
    int least;
    int regions = floor_regions(p, p->work, player, &least);
    p->work_done += p->size;
    uint64_t key = cells_key(p->work, p->size, least);
    size_t slot = (size_t)key & p->table_mask;
    for (; p->table[slot] >= 0; slot = (slot + 1) & p->table_mask) {
        const plan_node *other = &p->nodes[p->table[slot]];
        if (other->key == key && other->player == least &&
            memcmp(p->cells + (size_t)p->table[slot] * p->size, p->work, p->size) == 0)
            return NO_NODE;
    }
    int index = p->count++;
    p->table[slot] = index;
    memcpy(p->cells + (size_t)index * p->size, p->work, p->size);
    plan_node *n = &p->nodes[index];
    *n = (plan_node){.parent = parent,
                     .from = from,
                     .to = to,
                     .player = least,
                     .depth = parent == NO_NODE ? 0 : p->nodes[parent].depth + 1,
                     .left = boxes_left(p, p->work),
                     .key = key};
    solver_heap_push(&p->open, entry_of(n, regions, index));
    return index;
}

/* The pulls of the box on `box` in `cells`, the player in the region of `player`: the squares
 * reached into p->reached (in the order reached, nearest first), the player's square after
 * the first pull reaching each into p->after[square]; returns their number. */
static int pull_box(plan_search *p, const uint8_t *cells, int box, int player)
{
    const board *b = p->b;
    solver_floor_tree_build(&p->tree, p->boxes, box, player);
    if (!solver_floor_tree_reached(&p->tree, box)) return 0;
    int from_part = solver_floor_tree_part(&p->tree, box, player);
    int head = 0, tail = 0, count = 0;
    for (int q = 0; q < b->size * 4; q++) p->distance[q] = -1;
    for (int s = 0; s < DIRECTION_COUNT; s++) {
        int side = box + b->delta[s];
        if (!board_is_inside(b, side) || holds_box(cells[side]) ||
            solver_floor_tree_part(&p->tree, box, side) != from_part)
            continue;
        p->distance[box * 4 + s] = 0;
        p->queue[tail++] = box * 4 + s;
    }
    uint8_t *seen = p->work; /* scratch: cleared below, refilled by the caller */
    memset(seen, 0, p->size);
    seen[box] = 1;
    p->work_done += 5 * p->size + (uint64_t)tail;
    while (head < tail) {
        int state = p->queue[head++], at = state / 4, side = at + b->delta[state % 4];
        int part = solver_floor_tree_part(&p->tree, at, side);
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int to = at + b->delta[d], back = to + b->delta[d];
            if (!board_is_inside(b, to) || !board_is_inside(b, back) ||
                (holds_box(cells[to]) && to != box) || (holds_box(cells[back]) && back != box) ||
                solver_floor_tree_part(&p->tree, at, to) != part)
                continue;
            int next = to * 4 + d;
            if (p->distance[next] >= 0) continue;
            p->distance[next] = p->distance[state] + 1;
            p->queue[tail++] = next;
            if (!seen[to]) {
                seen[to] = 1;
                p->reached[count++] = to;
                p->after[to] = back;
            }
        }
    }
    return count;
}

/* A child: the box on `from` taken to `to`, taken off the board there when `to` is a base
 * that takes it home, parked on it when `to` is another base, the player on `player`. */
static void add_move(plan_search *p, int node, int from, int to, int player)
{
    const uint8_t *cells = p->cells + (size_t)node * p->size;
    memcpy(p->work, cells, p->size);
    p->work[from] = CELL_FREE;
    p->work[to] = !p->sources[to] ? CELL_BOX : p->home_base[to] ? CELL_USED : CELL_PARKED;
    add_node(p, node, from, to, player);
}

/* Festival's bases (its mark_sink_squares_moves()): of the free bases of `cells`, only those
 * of the largest set that reach each other by a lone box's pushes (the boxes walls, the
 * player anywhere; several sets of that size all count) take a box home; a box may be parked
 * on the others. So the bases of the open room are used first, and a base a box can only be
 * pulled into (a pocket) last: forwards, its box leaves first. Into p->home_base. */
static void mark_home_bases(plan_search *p, const uint8_t *cells)
{
    const board *b = p->b;
    int n = 0;
    for (int q = 0; q < b->size; q++) {
        p->home_base[q] = 0;
        if (p->sources[q] && cells[q] == CELL_FREE) p->base[n++] = q;
    }
    p->base_count = n;
    uint8_t *seen = p->boxes; /* scratch: expand() fills it again after */
    for (int i = 0; i < n; i++) {
        memset(seen, 0, p->size);
        int head = 0, tail = 0;
        seen[p->base[i]] = 1;
        p->queue[tail++] = p->base[i];
        while (head < tail) {
            int at = p->queue[head++];
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int to = at + b->delta[d], behind = at - b->delta[d];
                if (!board_is_inside(b, to) || !board_is_inside(b, behind) || seen[to] ||
                    holds_box(cells[to]) || holds_box(cells[behind]))
                    continue;
                seen[to] = 1;
                p->queue[tail++] = to;
            }
        }
        p->work_done += p->size + (uint64_t)tail;
        for (int j = 0; j < n; j++)
            p->base_reach[(size_t)i * (size_t)n + (size_t)j] = seen[p->base[j]];
    }
    /* the sets: i and j in one when each reaches the other; label[] holds each base's set */
    int *set = p->label, largest = 0;
    for (int i = 0; i < n; i++) set[i] = -1;
    for (int i = 0; i < n; i++) {
        if (set[i] >= 0) continue;
        int members = 0;
        for (int j = i; j < n; j++)
            if (set[j] < 0 && p->base_reach[(size_t)i * (size_t)n + (size_t)j] &&
                p->base_reach[(size_t)j * (size_t)n + (size_t)i])
                set[j] = i, members++;
        p->distance[i] = members; /* scratch: the set's size, kept on its first base */
        if (members > largest) largest = members;
    }
    for (int i = 0; i < n; i++) p->home_base[p->base[i]] = p->distance[set[i]] == largest;
}

/* Every child of `node`: each box to its nearest free bases, and a box on a goal to parking
 * squares too. */
static void expand(plan_search *p, int node)
{
    const board *b = p->b;
    int player = p->nodes[node].player;
    int *boxes = p->box_list, box_count = 0;
    const uint8_t *cells = p->cells + (size_t)node * p->size;
    mark_home_bases(p, cells);
    for (int q = 0; q < b->size; q++) {
        p->boxes[q] = holds_box(cells[q]);
        if (p->boxes[q]) boxes[box_count++] = q;
    }
    for (int i = 0; i < box_count && !told_to_stop(p); i++) {
        int box = boxes[i];
        cells = p->cells + (size_t)node * p->size; /* p->cells does not move, p->work does */
        int count = pull_box(p, cells, box, player);
        int targets[BASES_PER_BOX + PARKS_PER_BOX], target_count = 0, bases = 0;
        int parks[2] = {-1, -1}, park_seen = 0;
        for (int k = 0; k < count; k++) {
            int to = p->reached[k];
            if (p->home_base[to]) {
                if (bases < BASES_PER_BOX) targets[target_count++] = to, bases++;
            } else if (board_is_goal(b, box) && !board_is_goal(b, to) && cells[to] == CELL_FREE &&
                       (!p->rest || p->rest[to])) {
                park_seen++;
                parks[1] = to; /* the farthest so far */
                if (park_seen == 1) parks[0] = to;
            }
        }
        /* a middle parking square: the first one off the bases reached at half the way of the
         * farthest */
        if (park_seen > 2) {
            int middle = 0, seen_parks = 0;
            for (int k = 0; k < count && !middle; k++) {
                int to = p->reached[k];
                if (board_is_goal(b, to) || p->sources[to] || cells[to] != CELL_FREE ||
                    (p->rest && !p->rest[to]))
                    continue;
                if (++seen_parks >= park_seen / 2) parks[0] = to, middle = 1;
            }
        }
        if (park_seen > 0) targets[target_count++] = parks[1];
        if (park_seen > 1 && parks[0] != parks[1]) targets[target_count++] = parks[0];
        int after[BASES_PER_BOX + PARKS_PER_BOX];
        for (int t = 0; t < target_count; t++) after[t] = p->after[targets[t]];
        for (int t = 0; t < target_count; t++) add_move(p, node, box, targets[t], after[t]);
    }
}

/* The plan along the path to `node`, played forwards (see solver_packing_search()). */
static int write_plan(plan_search *p, int node, int *layer, solver_parking *parking)
{
    const board *b = p->b;
    int moves = p->nodes[node].depth, *path = malloc((size_t)(moves + 1) * sizeof *path);
    int *origin = malloc(p->size * sizeof *origin), *parked = malloc(p->size * sizeof *parked);
    if (!path || !origin || !parked) {
        free(path);
        free(origin);
        free(parked);
        return -1;
    }
    for (int n = node, i = moves; n != NO_NODE && i > 0; n = p->nodes[n].parent) path[--i] = n;
    for (size_t q = 0; q < p->size; q++) origin[q] = parked[q] = -1;
    for (int g = 0; g < b->goal_count; g++) {
        origin[b->goals[g]] = g;
        layer[g] = moves; /* never emptied: filled first (it holds its box already) */
    }
    parking->count = 0;
    for (int i = 0; i < moves; i++) {
        const plan_node *n = &p->nodes[path[i]];
        int g = origin[n->from];
        if (board_is_goal(b, n->from) && g >= 0 && parked[n->from] < 0) layer[g] = i;
        if (parked[n->from] >= 0) parking->layer[parked[n->from]] = i;
        bool parks = !p->sources[n->to] ||
                     p->cells[(size_t)path[i] * p->size + (size_t)n->to] == CELL_PARKED;
        if (parks && board_is_goal(b, n->from) && parked[n->from] < 0) {
            int k = parking->count++;
            parking->square[k] = n->to;
            parking->goal[k] = g;
            parking->layer[k] = -1;
            parked[n->to] = k;
        } else {
            parked[n->to] = parked[n->from];
        }
        origin[n->to] = g;
        origin[n->from] = -1;
        parked[n->from] = -1;
    }
    /* a box parked on a base it never leaves is home there */
    int kept = 0;
    for (int k = 0; k < parking->count; k++) {
        if (parking->layer[k] < 0) continue;
        parking->square[kept] = parking->square[k];
        parking->goal[kept] = parking->goal[k];
        parking->layer[kept++] = parking->layer[k];
    }
    parking->count = kept;
    free(path);
    free(origin);
    free(parked);
    return moves + 1;
}

static bool plan_search_init(plan_search *p, const board *b, const uint8_t *sources,
                             const uint8_t *rest, const solver_stop *stop)
{
    *p = (plan_search){
        .b = b, .sources = sources, .rest = rest, .size = (size_t)b->size, .stop = stop};
    /* at most PLAN_CELL_BYTES of positions on a large board */
    p->capacity = SOLVER_PLAN_POSITIONS;
    if ((size_t)p->capacity * p->size > PLAN_CELL_BYTES)
        p->capacity = (int)(PLAN_CELL_BYTES / p->size) + 1;
    size_t table = 1;
    while (table < 2 * (size_t)p->capacity) table *= 2;
    p->table_mask = table - 1;
    p->nodes = malloc((size_t)p->capacity * sizeof *p->nodes);
    p->cells = malloc((size_t)p->capacity * p->size);
    p->table = malloc(table * sizeof *p->table);
    p->open.items = malloc((size_t)p->capacity * sizeof *p->open.items);
    p->open.capacity = p->capacity;
    p->distance = malloc(p->size * 4 * sizeof *p->distance);
    p->queue = malloc(p->size * 4 * sizeof *p->queue);
    p->reached = malloc(p->size * sizeof *p->reached);
    p->after = malloc(p->size * sizeof *p->after);
    p->label = malloc(p->size * sizeof *p->label);
    p->work = malloc(p->size);
    p->boxes = malloc(p->size);
    p->box_list = malloc(p->size * sizeof *p->box_list);
    size_t bases = 0;
    for (size_t q = 0; q < p->size; q++) bases += sources[q] != 0;
    p->base = malloc((bases > 0 ? bases : 1) * sizeof *p->base);
    p->base_reach = malloc(bases > 0 ? bases * bases : 1);
    p->home_base = malloc(p->size);
    bool ok = solver_floor_tree_init(&p->tree, b);
    if (!ok || !p->nodes || !p->cells || !p->table || !p->open.items || !p->distance || !p->queue ||
        !p->reached || !p->after || !p->label || !p->work || !p->boxes || !p->box_list ||
        !p->base || !p->base_reach || !p->home_base)
        return false;
    for (size_t i = 0; i < table; i++) p->table[i] = -1;
    return true;
}

static void plan_search_free(plan_search *p)
{
    solver_floor_tree_free(&p->tree);
    free(p->nodes);
    free(p->cells);
    free(p->table);
    free(p->open.items);
    free(p->distance);
    free(p->queue);
    free(p->reached);
    free(p->after);
    free(p->label);
    free(p->work);
    free(p->boxes);
    free(p->box_list);
    free(p->base);
    free(p->base_reach);
    free(p->home_base);
}

/* One search from the solved position, the player in each region of its floor (`root` < 0)
 * or in region `root` alone, giving up after `work` squares: as solver_packing_search(), and
 * *regions the number of regions of the solved position's floor. */
static int search_from(const board *b, const uint8_t *sources, const uint8_t *rest, int *layer,
                       solver_parking *parking, const solver_stop *stop, int root, uint64_t work,
                       int *regions)
{
    plan_search p;
    int result = 0;
    *regions = 0;
    if (!plan_search_init(&p, b, sources, rest, stop)) {
        plan_search_free(&p);
        return -1;
    }
    uint8_t *solved = malloc(p.size);
    if (!solved) {
        plan_search_free(&p);
        return -1;
    }
    for (int q = 0; q < b->size; q++) solved[q] = board_is_goal(b, q) ? CELL_BOX : CELL_FREE;
    int least;
    *regions = floor_regions(&p, solved, -1, &least);
    int *firsts = malloc((size_t)(*regions > 0 ? *regions : 1) * sizeof *firsts);
    for (int r = 0; firsts && r < *regions; r++) firsts[r] = -1;
    for (int q = 0; firsts && q < b->size; q++)
        if (p.label[q] >= 0 && firsts[p.label[q]] < 0) firsts[p.label[q]] = q;
    for (int r = 0; firsts && r < *regions; r++) {
        if (root >= 0 && r != root) continue;
        memcpy(p.work, solved, p.size);
        add_node(&p, NO_NODE, -1, -1, firsts[r]);
    }
    if (!firsts) result = -1;
    free(firsts);
    free(solved);
    while (result == 0 && p.open.count > 0) {
        if (told_to_stop(&p)) break;
        int node = (int)(solver_heap_pop(&p.open) & 0xffff);
        if (all_on_bases(&p, p.cells + (size_t)node * p.size)) {
            result = write_plan(&p, node, layer, parking);
            break;
        }
        if (p.count >= p.capacity || p.work_done > work) break;
        expand(&p, node);
    }
    if (p.stopped && result == 0) *regions = 0; /* told to stop: no search after this one */
    plan_search_free(&p);
    return result;
}

int solver_packing_search(const board *b, const uint8_t *sources, const uint8_t *rest, int *layer,
                          solver_parking *parking, const solver_stop *stop)
{
    int regions;
    int result = search_from(b, sources, rest, layer, parking, stop, -1, PLAN_WORK, &regions);
    /* None from all regions at once: the search took the positions with the fewest boxes left
     * first, and the regions whose first moves only park boxes were never searched on. Each
     * region alone then, with an equal share of the work (XSokoban 88: from the region of the
     * left corridor, 401 positions; from all, none in 60,000). */
    int all = regions;
    for (int r = 0; result == 0 && all > 1 && r < all; r++) {
        int again;
        result = search_from(b, sources, rest, layer, parking, stop, r, PLAN_WORK / (uint64_t)all,
                             &again);
        if (again == 0) break;
    }
    return result;
}

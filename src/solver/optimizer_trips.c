/* optimizer_trips.c - the goal room filled in another order: a search by pushes over box trips
 * (optimizer_trips.h). */
#include "optimizer_trips.h"

#include <stdlib.h>
#include <string.h>

#include "ida.h"
#include "solver/solver_heap.h"

/* Squares searched between two reads of the stop: one expansion searches every box over the
 * whole board, seconds on a board of hundreds of boxes. */
#define STOP_WORK (UINT64_C(1) << 16)

/* A position of the search: reached from its parent by one trip. Its boxes are those of the
 * request's `from` with every trip on the way back to it made. */
typedef struct trip_node {
    int parent;  /* -1: the start */
    int box, to; /* the trip: the box's square before, the goal after */
    int side;    /* the player's side of the box at the end (direction from the box) */
    int player;  /* his square after the trip (the start's for the start) */
    int g;       /* pushes from the start */
    int trips;   /* trips made */
    int parks;   /* the request's parks made or passed */
} trip_node;

/* Work space of one search. */
typedef struct trips {
    const optimizer_trips_request *request;
    const board *board;
    trip_node *nodes;
    int count, capacity;
    int *chain;          /* capacity entries: a node's way back to the start */
    uint8_t *node_reach; /* per square: the player's reach in the position expanded */
    uint8_t *boxes;      /* per square, of the position expanded */
    uint8_t *reach;      /* per square */
    /* one box's breadth-first search: per (square, side), its pushes (-1 unseen) and the
     * state it came from (for the trip's pushes) */
    int *dist, *came, *queue;
    uint8_t *grouped; /* per square: its side groups made in this box's search */
    uint8_t (*group)[4];
    uint32_t *seen, stamp;
    int *side_queue;
    /* the closed set: keys of positions expanded (the boxes and the player's region) */
    uint64_t *closed;
    size_t closed_mask, closed_count;
    int *list; /* the boxes' squares */
    const uint16_t **rows;
    solver_matching matching;
    int *saved;
    solver_stop stop; /* the request's cancel and deadline, read by the matching too */
    uint64_t work, stop_read_at;
    bool stopped;
} trips;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x ? x : 1;
}

/* Adds `key` to the closed set: false when it was there (or the set cannot grow). */
static bool closed_add(trips *t, uint64_t key)
{
    if ((t->closed_count + 1) * 2 > t->closed_mask + 1) {
        size_t capacity = (t->closed_mask + 1) * 2;
        uint64_t *slots = calloc(capacity, sizeof *slots);
        if (!slots) return false;
        for (size_t i = 0; i <= t->closed_mask; i++) {
            uint64_t k = t->closed[i];
            if (!k) continue;
            size_t at = (size_t)k & (capacity - 1);
            while (slots[at]) at = (at + 1) & (capacity - 1);
            slots[at] = k;
        }
        free(t->closed);
        t->closed = slots;
        t->closed_mask = capacity - 1;
    }
    size_t at = (size_t)key & t->closed_mask;
    while (t->closed[at]) {
        if (t->closed[at] == key) return false;
        at = (at + 1) & t->closed_mask;
    }
    t->closed[at] = key;
    t->closed_count++;
    return true;
}

/* The nodes from the start's child to `n` into t->chain, `n` first; their number. */
static int chain_of(trips *t, int n)
{
    int depth = 0;
    for (int at = n; at >= 0 && t->nodes[at].parent >= 0; at = t->nodes[at].parent)
        t->chain[depth++] = at;
    return depth;
}

/* The boxes of node `n` into t->boxes. */
static void boxes_of(trips *t, int n)
{
    const board *b = t->board;
    memcpy(t->boxes, t->request->from->boxes, (size_t)b->size);
    int depth = chain_of(t, n);
    while (depth > 0) {
        const trip_node *trip = &t->nodes[t->chain[--depth]];
        if (trip->box < 0) continue;
        t->boxes[trip->box] = 0;
        t->boxes[trip->to] = 1;
    }
}

/* One box's trips: every (square, side) the box on `box` reaches with the other boxes
 * standing still, the player starting from t->reach; t->dist holds the pushes. */
static void box_search(trips *t, int box)
{
    const board *b = t->board;
    int states = b->size * 4, head = 0, tail = 0;
    for (int i = 0; i < states; i++) t->dist[i] = -1;
    memset(t->grouped, 0, (size_t)b->size);
    t->boxes[box] = 0; /* the others are the walls */
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        int side = box + b->delta[d];
        if (!t->reach[side]) continue;
        t->dist[box * 4 + d] = 0;
        t->came[box * 4 + d] = -1;
        t->queue[tail++] = box * 4 + d;
    }
    const solver_distances *distances = t->request->distances;
    while (head < tail) {
        int state = t->queue[head++], s = state / 4, d = state % 4;
        direction push = direction_opposite((direction)d);
        int to = s + b->delta[push];
        if (!board_is_inside(b, to) || board_is_wall(b, to) || t->boxes[to] ||
            solver_square_is_dead(distances, to))
            continue;
        if (!t->grouped[to]) {
            solver_side_groups(b, t->boxes, to, t->group[to], t->seen, &t->stamp, t->side_queue);
            t->grouped[to] = 1;
        }
        /* the player stands on s, on side d of the box on `to` */
        uint8_t g = t->group[to][d];
        for (int e = 0; e < DIRECTION_COUNT; e++) {
            if (t->group[to][e] != g || t->dist[to * 4 + e] >= 0) continue;
            t->dist[to * 4 + e] = t->dist[state] + 1;
            t->came[to * 4 + e] = state;
            t->queue[tail++] = to * 4 + e;
        }
    }
    t->boxes[box] = 1;
}

/* The player's reach in t->reach from `player`, and its least square. */
static int reach_of(trips *t, int player)
{
    const board *b = t->board;
    memset(t->reach, 0, (size_t)b->size);
    int head = 0, tail = 0, least = player;
    t->reach[player] = 1;
    t->queue[tail++] = player;
    while (head < tail) {
        int at = t->queue[head++];
        if (at < least) least = at;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = at + b->delta[d];
            if (t->reach[next] || !board_is_inside(b, next) || board_is_wall(b, next) ||
                t->boxes[next])
                continue;
            t->reach[next] = 1;
            t->queue[tail++] = next;
        }
    }
    return least;
}

static uint64_t key_of(trips *t, int least)
{
    uint64_t key = mix((uint64_t)least + 0x9e3779b97f4a7c15ULL);
    for (int q = 0; q < t->board->size; q++)
        if (t->boxes[q]) key ^= optimizer_square_key(q);
    return key ? key : 1;
}

static bool node_add(trips *t, trip_node node)
{
    if (t->count == t->capacity) {
        int capacity = t->capacity ? t->capacity * 2 : 1024;
        trip_node *nodes = realloc(t->nodes, (size_t)capacity * sizeof *nodes);
        if (!nodes) return false;
        t->nodes = nodes;
        int *chain = realloc(t->chain, (size_t)capacity * sizeof *chain);
        if (!chain) return false;
        t->chain = chain;
        t->capacity = capacity;
    }
    t->nodes[t->count++] = node;
    return true;
}

/* The pushes of the path to node `n`, each trip's made again from its parent's position. */
static optimizer_push *pushes_of(trips *t, int n, int *count)
{
    optimizer_push *pushes = malloc((size_t)(t->nodes[n].g + 1) * sizeof *pushes);
    int *states = malloc((size_t)(t->nodes[n].g + 1) * sizeof *states);
    if (!pushes || !states) {
        free(pushes);
        free(states);
        return NULL;
    }
    int k = 0, depth = chain_of(t, n);
    int *chain = malloc((size_t)(depth + 1) * sizeof *chain);
    if (!chain) {
        free(pushes);
        free(states);
        return NULL;
    }
    memcpy(chain, t->chain, (size_t)depth * sizeof *chain);
    while (depth > 0) {
        const trip_node *trip = &t->nodes[chain[--depth]];
        if (trip->box < 0) continue;
        boxes_of(t, trip->parent);
        reach_of(t, t->nodes[trip->parent].player);
        box_search(t, trip->box);
        int length = 0;
        for (int s = trip->to * 4 + trip->side; s >= 0; s = t->came[s]) states[length++] = s;
        /* states[length - 1] is the start; each later one is one push away */
        for (int i = length - 1; i > 0; i--) {
            int from = states[i] / 4;
            direction d = direction_opposite((direction)(states[i] % 4));
            pushes[k++] = (optimizer_push){.box = from, .direction = d};
        }
    }
    *count = k;
    free(chain);
    free(states);
    return pushes;
}

/* The work space for `request`; false when out of memory, trips_free(t, false) then frees
 * what was taken. */
static bool trips_init(trips *t, const optimizer_trips_request *request)
{
    const board *b = request->board;
    *t = (trips){.request = request, .board = b};
    int n = request->from->box_count;
    t->boxes = malloc((size_t)b->size);
    t->reach = malloc((size_t)b->size);
    t->node_reach = malloc((size_t)b->size);
    t->dist = malloc((size_t)b->size * 4 * sizeof *t->dist);
    t->came = malloc((size_t)b->size * 4 * sizeof *t->came);
    t->queue = malloc((size_t)b->size * 4 * sizeof *t->queue);
    t->grouped = malloc((size_t)b->size);
    t->group = malloc((size_t)b->size * sizeof *t->group);
    t->seen = calloc((size_t)b->size, sizeof *t->seen);
    t->side_queue = malloc((size_t)b->size * sizeof *t->side_queue);
    t->closed_mask = 1023;
    t->closed = calloc(t->closed_mask + 1, sizeof *t->closed);
    t->list = malloc((size_t)n * sizeof *t->list);
    t->rows = malloc((size_t)n * sizeof *t->rows);
    bool ok = t->boxes && t->reach && t->node_reach && t->dist && t->came && t->queue &&
              t->grouped && t->group && t->seen && t->side_queue && t->closed && t->list && t->rows;
    for (int i = 0; ok && i < n; i++) t->rows[i] = request->distances->to_goal;
    ok = ok && solver_matching_init(&t->matching, n, t->rows);
    if (ok) {
        /* a solve from scratch is O(boxes^3): half a second at 700 boxes */
        t->stop = (solver_stop){.deadline = request->deadline, .cancel = request->cancel};
        t->matching.stop = &t->stop;
        t->saved = malloc((size_t)solver_matching_state_size(&t->matching) * sizeof *t->saved);
        ok = t->saved != NULL;
        if (!ok) solver_matching_free(&t->matching);
    }
    return ok;
}

static void trips_free(trips *t, bool matched)
{
    free(t->nodes);
    free(t->chain);
    free(t->boxes);
    free(t->reach);
    free(t->node_reach);
    free(t->dist);
    free(t->came);
    free(t->queue);
    free(t->grouped);
    free(t->group);
    free(t->seen);
    free(t->side_queue);
    free(t->closed);
    free(t->list);
    free(t->rows);
    free(t->saved);
    if (matched) solver_matching_free(&t->matching);
}

/* The matching of t->boxes (listed into t->list and t->rows); IDA_INFINITY when none. */
static int matching_of(trips *t)
{
    const board *b = t->board;
    int n = 0;
    for (int q = 0; q < b->size; q++)
        if (t->boxes[q]) {
            t->list[n] = q;
            t->rows[n] = solver_distance_row(t->request->distances, q, -1);
            n++;
        }
    return solver_matching_solve(&t->matching);
}

static uint64_t entry_of(int f, int g, int index)
{
    uint64_t priority = (uint64_t)(f > 0xffff ? 0xffff : f) << 16 | (uint64_t)(0xffff - g);
    return priority << 32 | (uint32_t)index;
}

/* True once the search must give up inside its work, `work` more squares done: cancelled or
 * past its deadline (read every STOP_WORK squares), or its matching given up (the bounds it
 * gave since are void). */
static bool halted(trips *t, uint64_t work)
{
    t->work += work;
    return solver_stop_after_work(&t->stop, t->work, STOP_WORK, &t->stop_read_at, &t->stopped) ||
           t->matching.stopped;
}

/* What giving up inside the work means. */
static optimizer_search_status halt_status(const trips *t)
{
    const atomic_bool *cancel = t->request->cancel;
    return cancel && atomic_load(cancel) ? OPTIMIZER_SEARCH_CANCELLED : OPTIMIZER_SEARCH_LIMIT;
}

/* The open list and what a child needs of its parent's expansion. */
typedef struct expansion {
    solver_heap open;
    int weight;
    int n;        /* the node expanded */
    trip_node at; /* a copy of it */
} expansion;

/* The child of the node expanded whose box list[i] (just searched by box_search()) is
 * taken to `to` by the fewest pushes, when it can be and stays under the limit; `trip` says
 * whether it is a trip (else the next park). False when out of memory. */
static bool child_add(trips *t, expansion *e, int i, int to, bool trip)
{
    const optimizer_trips_request *request = t->request;
    int box = t->list[i], best = -1, side = -1;
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        int pushes = t->dist[to * 4 + d];
        if (pushes >= 0 && (best < 0 || pushes < best)) {
            best = pushes;
            side = d;
        }
    }
    int g = e->at.g + best;
    if (best < 0 || g >= request->limit_pushes) return true;
    t->rows[i] = solver_distance_row(request->distances, to, -1);
    int rest = solver_matching_update(&t->matching, &i, 1);
    solver_matching_restore(&t->matching, t->saved);
    t->rows[i] = solver_distance_row(request->distances, box, -1);
    if (t->matching.stopped || rest >= IDA_INFINITY || g + rest >= request->limit_pushes)
        return true;
    trip_node child = {.parent = e->n,
                       .box = box,
                       .to = to,
                       .side = side,
                       .player = to + t->board->delta[side],
                       .g = g,
                       .trips = e->at.trips + trip,
                       .parks = e->at.parks + !trip};
    return node_add(t, child) &&
           solver_heap_push(&e->open, entry_of(g + e->weight * rest, g, t->count - 1));
}

/* The children of the node expanded, its boxes in t->boxes and matched (`bound`), the
 * player's reach in t->reach: the next park of the request when its turn has come (made, or
 * passed), else every box's trip to every empty goal. False when out of memory or halted()
 * (the stop read after each box). */
static bool expand(trips *t, expansion *e, int bound)
{
    const optimizer_trips_request *request = t->request;
    const board *b = t->board;
    int pk = e->at.parks;
    if (pk < request->park_count && request->park_after[pk] <= e->at.trips) {
        int from = request->parks[2 * pk], to = request->parks[2 * pk + 1];
        trip_node pass = e->at;
        pass.parent = e->n;
        pass.box = -1;
        pass.parks = pk + 1;
        if (!node_add(t, pass) ||
            !solver_heap_push(&e->open, entry_of(pass.g + e->weight * bound, pass.g, t->count - 1)))
            return false;
        if (!t->boxes[from] || t->boxes[to]) return true;
        int i = 0;
        while (t->list[i] != from) i++;
        box_search(t, from);
        return child_add(t, e, i, to, false);
    }
    memcpy(t->node_reach, t->reach, (size_t)b->size);
    for (int i = 0; i < request->from->box_count; i++) {
        memcpy(t->reach, t->node_reach, (size_t)b->size);
        box_search(t, t->list[i]);
        for (int k = 0; k < b->goal_count; k++) {
            int goal = b->goals[k];
            if (goal != t->list[i] && !t->boxes[goal] && !child_add(t, e, i, goal, true))
                return false;
        }
        if (halted(t, (uint64_t)b->size * 4 + (uint64_t)b->goal_count)) return false;
    }
    return true;
}

/* Why the search must stop before its next node, or FOUND when it need not. */
static optimizer_search_status stopped(const trips *t, const expansion *e, uint64_t nodes)
{
    const optimizer_trips_request *request = t->request;
    if (request->max_nodes && nodes >= request->max_nodes) return OPTIMIZER_SEARCH_LIMIT;
    if ((nodes & 15) != 0) return OPTIMIZER_SEARCH_FOUND;
    if (request->cancel && atomic_load(request->cancel)) return OPTIMIZER_SEARCH_CANCELLED;
    if (request->deadline > 0 && optimizer_clock() >= request->deadline)
        return OPTIMIZER_SEARCH_LIMIT;
    size_t used = (size_t)t->capacity * (sizeof *t->nodes + sizeof *t->chain) +
                  (size_t)e->open.capacity * 8 + (t->closed_mask + 1) * 8;
    if (request->max_bytes && used > request->max_bytes) return OPTIMIZER_SEARCH_LIMIT;
    return OPTIMIZER_SEARCH_FOUND;
}

optimizer_search_status optimizer_trips(const optimizer_trips_request *request,
                                        optimizer_push **pushes, int *count, uint64_t *nodes)
{
    *pushes = NULL;
    *count = 0;
    *nodes = 0;
    const board *b = request->board;
    if (!request->distances || request->distances->goal_count != request->from->box_count)
        return OPTIMIZER_SEARCH_NONE;
    trips t;
    if (!trips_init(&t, request)) {
        trips_free(&t, false); /* what it took before it failed (the matching it frees) */
        return OPTIMIZER_SEARCH_ERROR;
    }
    expansion e = {.weight = request->weight > 0 ? request->weight : 1};
    memcpy(t.boxes, request->from->boxes, (size_t)b->size);
    int h = matching_of(&t);
    optimizer_search_status status = OPTIMIZER_SEARCH_NONE;
    if (halted(&t, (uint64_t)b->size))
        status = halt_status(&t);
    else if (h < IDA_INFINITY && h < request->limit_pushes &&
             (!node_add(&t, (trip_node){.parent = -1, .player = request->from->player}) ||
              !solver_heap_push(&e.open, entry_of(h, 0, 0))))
        status = OPTIMIZER_SEARCH_ERROR;
    while (status == OPTIMIZER_SEARCH_NONE && e.open.count > 0) {
        optimizer_search_status stop = stopped(&t, &e, *nodes);
        if (stop != OPTIMIZER_SEARCH_FOUND) {
            status = stop;
            break;
        }
        e.n = (int)(uint32_t)solver_heap_pop(&e.open);
        e.at = t.nodes[e.n];
        boxes_of(&t, e.n);
        int least = reach_of(&t, e.at.player);
        /* a position is its boxes, the player's region and the parks behind it */
        if (!closed_add(&t, key_of(&t, least) ^ mix((uint64_t)e.at.parks * 7919 + 1))) continue;
        ++*nodes;
        bool solved = true;
        for (int q = 0; q < b->size && solved; q++) solved = !t.boxes[q] || board_is_goal(b, q);
        if (solved) {
            *pushes = pushes_of(&t, e.n, count);
            status = *pushes ? OPTIMIZER_SEARCH_FOUND : OPTIMIZER_SEARCH_ERROR;
            break;
        }
        int bound = matching_of(&t);
        if (halted(&t, (uint64_t)b->size * 3)) {
            status = halt_status(&t);
            break;
        }
        if (bound >= IDA_INFINITY) continue;
        solver_matching_save(&t.matching, t.saved);
        if (!expand(&t, &e, bound))
            status = t.stopped || t.matching.stopped ? halt_status(&t) : OPTIMIZER_SEARCH_LIMIT;
    }
    trips_free(&t, true);
    free(e.open.items);
    return status;
}

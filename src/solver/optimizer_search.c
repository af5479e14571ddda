/* optimizer_search.c - A* over the positions after a push, restricted to a set of box
 * configurations (optimizer_search.h).
 *
 * The configurations reached are kept once each as a bit set over the floor squares, found
 * by key; a search position is a configuration and the player's square, found by both. The
 * open list is the solver's heap (solver_heap.h), each entry a position's key (key_of(),
 * below the limit) above its index, with stale entries skipped when popped. With the
 * solver's push distances the bound of a child is the matching of its parent repaired for
 * the one box pushed (solver_matching_update(), as the backward search does), the parent's
 * own matching repaired from the configuration expanded before it. */
#include "optimizer_search.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ida.h"
#include "solver/solver_heap.h"

double optimizer_clock(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* ---- the key set ------------------------------------------------------------------------ */

bool optimizer_keys_init(optimizer_keys *keys, size_t capacity)
{
    size_t most = 4096;
    while (most < capacity) most *= 2;
    size_t size = most < 4096 ? most : 4096;
    *keys = (optimizer_keys){
        .slots = calloc(size, sizeof *keys->slots), .mask = size - 1, .most = most};
    return keys->slots != NULL;
}

void optimizer_keys_free(optimizer_keys *keys)
{
    free(keys->slots);
    *keys = (optimizer_keys){0};
}

static size_t key_slot(const optimizer_keys *keys, uint64_t key)
{
    size_t i = (size_t)(key ^ (key >> 31)) & keys->mask;
    while (keys->slots[i] != 0 && keys->slots[i] != key) i = (i + 1) & keys->mask;
    return i;
}

/* Doubles the table; false when it may not grow or out of memory. */
static bool keys_grow(optimizer_keys *keys)
{
    size_t size = 2 * (keys->mask + 1);
    if (size > keys->most) return false;
    uint64_t *slots = calloc(size, sizeof *slots);
    if (!slots) return false;
    optimizer_keys grown = {
        .slots = slots, .mask = size - 1, .count = keys->count, .most = keys->most};
    for (size_t i = 0; i <= keys->mask; i++)
        if (keys->slots[i]) slots[key_slot(&grown, keys->slots[i])] = keys->slots[i];
    free(keys->slots);
    *keys = grown;
    return true;
}

bool optimizer_keys_add(optimizer_keys *keys, uint64_t key, bool *full)
{
    if (key == 0) key = 1;
    *full = false;
    size_t i = key_slot(keys, key);
    if (keys->slots[i] == key) return false;
    if (2 * (keys->count + 1) > keys->mask + 1) {
        if (!keys_grow(keys)) {
            *full = true;
            return false;
        }
        i = key_slot(keys, key);
    }
    keys->slots[i] = key;
    keys->count++;
    return true;
}

bool optimizer_keys_has(const optimizer_keys *keys, uint64_t key)
{
    if (key == 0) key = 1;
    return keys->slots[key_slot(keys, key)] == key;
}

/* Asks the memory for the slot where `key` would be looked up first: a large set (millions
 * of keys) is far out of the caches, and a child's look-up waits on it. */
static void keys_prefetch(const optimizer_keys *keys, uint64_t key)
{
    if (key == 0) key = 1;
    __builtin_prefetch(&keys->slots[(size_t)(key ^ (key >> 31)) & keys->mask]);
}

/* splitmix64: a fixed, well mixed number for each square. */
uint64_t optimizer_square_key(int square)
{
    uint64_t z = (uint64_t)(square + 1) * 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    return z ? z : 1;
}

uint64_t optimizer_boxes_key(const board *b, const position *p)
{
    uint64_t key = 0;
    for (int s = 0; s < b->size; s++)
        if (p->boxes[s]) key ^= optimizer_square_key(s);
    return key;
}

/* ---- the search's memory ---------------------------------------------------------------- */

enum { NONE = -1 };
/* The stamp of a square off the floor: above every generation (walk_distances()). */
#define WALL_STAMP UINT32_MAX

typedef struct search_position {
    uint32_t config;
    int32_t player;
    int32_t parent; /* NONE at the start */
    int32_t box;    /* the push that led here: the box's square before it */
    int32_t moves, pushes;
    uint8_t direction;
    uint8_t closed;
} search_position;

/* A push from the position expanded that is under the limit, before its look-up in the set:
 * the box (its index), where it goes, the child's moves and bound, the direction, its key. */
typedef struct search_child {
    int i, to, moves, bound;
    uint8_t d;
    uint64_t key;
} search_child;

typedef struct search {
    const optimizer_search_request *request;
    const board *board;
    int boxes; /* how many */
    /* the floor squares, numbered for the bit sets */
    int *cell_of;            /* square -> cell, NONE off the floor */
    int *square_of;          /* cell -> square */
    int words;               /* 64-bit words a configuration */
    uint16_t *goal_distance; /* per square: steps to the nearest goal, ignoring boxes */
    /* the configurations reached */
    uint64_t *bits;
    uint64_t *config_key;
    int32_t *config_bound; /* with the matching: a configuration's, NONE until made */
    uint32_t config_count, config_capacity;
    uint32_t *config_slots; /* index + 1, 0 empty */
    size_t config_mask;
    /* the search positions */
    search_position *positions;
    uint32_t position_count, position_capacity;
    uint32_t *position_slots;
    size_t position_mask;
    solver_heap open;  /* f << position_bits | position */
    int position_bits; /* an entry's bits below its key: positions are numbered below 1 << it */
    size_t bytes;      /* of all the above that grows */
    /* the expansion's scratch */
    uint8_t *box_at;
    int *box_list;
    int loaded; /* boxes in box_list */
    int *distance;
    uint32_t *stamp;
    uint32_t generation;
    int *queue;
    search_child *children; /* DIRECTION_COUNT a box */
    /* the matching bound, with the request's distances */
    bool matching_on;
    bool matched; /* the matching holds the boxes of `rows` */
    solver_matching matching;
    const uint16_t **rows; /* per box of box_list: its distances to the goals */
    int *changed;
    int *saved;       /* the parent's matching, restored after each child */
    solver_stop stop; /* the request's deadline and cancel, read by the matching as it works */
    /* with the request's path: its positions by key (the last one of a key, + 1; 0 empty),
     * and the shortest way found to one of them against the path's (the most saved) */
    uint32_t *path_slots;
    size_t path_mask;
    int64_t shortcut; /* the search position, NONE before one */
    int shortcut_index;
    uint64_t shortcut_saved;
} search;

static uint64_t mix(uint64_t key, int player)
{
    uint64_t h = key ^ ((uint64_t)(player + 1) * 0x9E3779B97F4A7C15u);
    return h ^ (h >> 29);
}

/* Doubles an open-addressing table of indexes + 1 (`rehash` gives an entry's hash). */
static bool grow_slots(search *s, uint32_t **slots, size_t *mask, uint32_t count,
                       uint64_t (*hash)(const search *, uint32_t))
{
    size_t size = 2 * (*mask + 1);
    if (s->bytes + size * sizeof **slots > s->request->max_bytes) return false;
    uint32_t *grown = calloc(size, sizeof *grown);
    if (!grown) return false;
    for (uint32_t i = 0; i < count; i++) {
        size_t j = (size_t)hash(s, i) & (size - 1);
        while (grown[j]) j = (j + 1) & (size - 1);
        grown[j] = i + 1;
    }
    s->bytes += (size - (*mask + 1)) * sizeof **slots;
    free(*slots);
    *slots = grown;
    *mask = size - 1;
    return true;
}

static uint64_t config_hash(const search *s, uint32_t i)
{
    return s->config_key[i] ^ (s->config_key[i] >> 31);
}

static uint64_t position_hash(const search *s, uint32_t i)
{
    const search_position *p = &s->positions[i];
    return mix(s->config_key[p->config], p->player);
}

/* The configuration with this key, added from `bits` when new; -1 when out of memory. */
static int64_t config_find_or_add(search *s, uint64_t key, const uint64_t *bits)
{
    size_t i = (size_t)(key ^ (key >> 31)) & s->config_mask;
    for (; s->config_slots[i]; i = (i + 1) & s->config_mask)
        if (s->config_key[s->config_slots[i] - 1] == key) return s->config_slots[i] - 1;
    uint32_t index = s->config_count;
    size_t row = (size_t)s->words * sizeof *s->bits;
    if (index == s->config_capacity) {
        uint32_t grown = index ? 2 * index : 1024;
        size_t extra =
            (size_t)(grown - index) * (row + sizeof *s->config_key + sizeof *s->config_bound);
        if (s->bytes + extra > s->request->max_bytes) return -1;
        uint64_t *keys = realloc(s->config_key, (size_t)grown * sizeof *keys);
        if (keys) s->config_key = keys;
        int32_t *bounds = keys ? realloc(s->config_bound, (size_t)grown * sizeof *bounds) : NULL;
        if (bounds) s->config_bound = bounds;
        uint64_t *more = bounds ? realloc(s->bits, (size_t)grown * row) : NULL;
        if (!more) return -1;
        s->bits = more;
        s->config_capacity = grown;
        s->bytes += extra;
    }
    s->config_key[index] = key;
    s->config_bound[index] = NONE;
    memcpy(s->bits + (size_t)index * (size_t)s->words, bits, row);
    s->config_count++;
    if (2 * (size_t)s->config_count > s->config_mask + 1) {
        if (!grow_slots(s, &s->config_slots, &s->config_mask, s->config_count, config_hash))
            return -1;
    } else {
        s->config_slots[i] = index + 1;
    }
    return index;
}

/* Grows an array of `*capacity` elements of `size` bytes to hold one more. */
static bool reserve(search *s, void **array, uint32_t *capacity, uint32_t count, size_t size)
{
    if (count < *capacity) return true;
    uint32_t grown = *capacity ? 2 * *capacity : 1024;
    if (s->bytes + (size_t)(grown - *capacity) * size > s->request->max_bytes) return false;
    void *more = realloc(*array, (size_t)grown * size);
    if (!more) return false;
    s->bytes += (size_t)(grown - *capacity) * size;
    *array = more;
    *capacity = grown;
    return true;
}

/* The search position (config, player), added when new (with *added set); -1 when out of
 * memory. */
static int64_t position_find_or_add(search *s, uint32_t config, int player, bool *added)
{
    *added = false;
    uint64_t h = mix(s->config_key[config], player);
    size_t i = (size_t)h & s->position_mask;
    for (; s->position_slots[i]; i = (i + 1) & s->position_mask) {
        const search_position *p = &s->positions[s->position_slots[i] - 1];
        if (p->config == config && p->player == player) return s->position_slots[i] - 1;
    }
    uint32_t index = s->position_count;
    if ((uint64_t)index >> s->position_bits) return -1; /* no room on the open list */
    if (!reserve(s, (void **)&s->positions, &s->position_capacity, index, sizeof *s->positions))
        return -1;
    s->positions[index] = (search_position){.config = config, .player = player, .parent = NONE};
    s->position_count++;
    if (2 * (size_t)s->position_count > s->position_mask + 1) {
        if (!grow_slots(s, &s->position_slots, &s->position_mask, s->position_count, position_hash))
            return -1;
    } else {
        s->position_slots[i] = index + 1;
    }
    *added = true;
    return index;
}

/* ---- the open list ---------------------------------------------------------------------- */

/* Puts `position` on the open list at `f`; false when out of memory. The list is grown here,
 * doubling, so that it counts in the search's memory. */
static bool open_push(search *s, uint64_t f, uint32_t position)
{
    solver_heap *open = &s->open;
    if (open->count == open->capacity) {
        int grown = open->capacity ? 2 * open->capacity : 1024;
        size_t more = (size_t)(grown - open->capacity) * sizeof *open->items;
        if (s->bytes + more > s->request->max_bytes) return false;
        uint64_t *items = realloc(open->items, (size_t)grown * sizeof *items);
        if (!items) return false;
        open->items = items;
        open->capacity = grown;
        s->bytes += more;
    }
    return solver_heap_push(open, f << s->position_bits | position);
}

/* The position of the open list's best entry, taken off it. */
static uint32_t open_pop(search *s)
{
    return (uint32_t)(solver_heap_pop(&s->open) & ((UINT64_C(1) << s->position_bits) - 1));
}

/* ---- the level's tables ----------------------------------------------------------------- */

/* The pushes a lone box on each floor square needs to reach its nearest goal, the player
 * taken to be wherever he must (a push needs floor on both sides of the box: a box along a
 * wall is never pushed off it): never more than the pushes it needs among the other boxes,
 * and often more than its squares to the goal. Worked out backwards from the goals. */
static void goal_distances(search *s)
{
    const board *b = s->board;
    int head = 0, tail = 0;
    for (int q = 0; q < b->size; q++) s->goal_distance[q] = UINT16_MAX;
    for (int g = 0; g < b->goal_count; g++) {
        s->goal_distance[b->goals[g]] = 0;
        s->queue[tail++] = b->goals[g];
    }
    while (head < tail) {
        int to = s->queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int from = to - b->delta[d], stand = from - b->delta[d];
            if (s->cell_of[from] == NONE || s->cell_of[stand] == NONE ||
                s->goal_distance[from] != UINT16_MAX)
                continue;
            s->goal_distance[from] = (uint16_t)(s->goal_distance[to] + 1);
            s->queue[tail++] = from;
        }
    }
}

/* With the request's distances: the bound by each box's nearest goal read from them (they
 * see the player's side), and the matching set up when there are as many goals as boxes. */
static bool matching_init(search *s)
{
    const solver_distances *d = s->request->distances;
    const board *b = s->board;
    if (!d) return true;
    for (int q = 0; q < b->size; q++)
        if (s->cell_of[q] != NONE && d->nearest[q] > s->goal_distance[q] &&
            d->nearest[q] != SOLVER_NO_PATH)
            s->goal_distance[q] = d->nearest[q];
    if (s->boxes != b->goal_count || s->boxes == 0) return true;
    size_t n = (size_t)s->boxes;
    s->rows = calloc(n, sizeof *s->rows);
    s->changed = malloc(n * sizeof *s->changed);
    if (!s->rows || !s->changed ||
        !solver_matching_init(&s->matching, s->boxes, (const uint16_t *const *)s->rows))
        return false;
    s->matching_on = true;
    /* a solve from scratch is O(boxes^3): half a second at 700 boxes */
    s->stop = (solver_stop){.deadline = s->request->deadline, .cancel = s->request->cancel};
    s->matching.stop = &s->stop;
    s->saved = malloc((size_t)solver_matching_state_size(&s->matching) * sizeof *s->saved);
    return s->saved != NULL;
}

/* The path's positions by their key, the last one of each key kept (the most to save). */
static bool path_init(search *s)
{
    const optimizer_path *path = s->request->path;
    s->shortcut = NONE;
    if (!path || path->count <= 0) return true;
    size_t size = 1024;
    while (size < 2 * (size_t)path->count) size *= 2;
    s->path_slots = calloc(size, sizeof *s->path_slots);
    if (!s->path_slots) return false;
    s->path_mask = size - 1;
    for (int k = 0; k < path->count; k++) {
        uint64_t key = path->keys[k];
        size_t i = (size_t)(key ^ (key >> 31)) & s->path_mask;
        while (s->path_slots[i] && path->keys[s->path_slots[i] - 1] != key)
            i = (i + 1) & s->path_mask;
        s->path_slots[i] = (uint32_t)k + 1;
    }
    return true;
}

static bool search_init(search *s, const optimizer_search_request *request)
{
    const board *b = request->board;
    *s = (search){.request = request, .board = b, .boxes = request->start->box_count};
    size_t n = (size_t)b->size;
    s->cell_of = malloc(n * sizeof *s->cell_of);
    s->square_of = malloc(n * sizeof *s->square_of);
    s->goal_distance = malloc(n * sizeof *s->goal_distance);
    s->box_at = calloc(n, 1);
    s->box_list = malloc(n * sizeof *s->box_list);
    s->distance = malloc(n * sizeof *s->distance);
    s->stamp = calloc(n, sizeof *s->stamp);
    s->queue = malloc(n * sizeof *s->queue);
    s->children = malloc(((size_t)s->boxes * DIRECTION_COUNT + 1) * sizeof *s->children);
    s->config_mask = s->position_mask = 1023;
    s->config_slots = calloc(s->config_mask + 1, sizeof *s->config_slots);
    s->position_slots = calloc(s->position_mask + 1, sizeof *s->position_slots);
    if (!s->cell_of || !s->square_of || !s->goal_distance || !s->box_at || !s->box_list ||
        !s->distance || !s->stamp || !s->queue || !s->children || !s->config_slots ||
        !s->position_slots)
        return false;
    int cells = 0;
    for (int q = 0; q < b->size; q++) {
        bool floor = board_is_inside(b, q) && !board_is_wall(b, q);
        s->cell_of[q] = floor ? cells : NONE;
        if (!floor) s->stamp[q] = WALL_STAMP;
        if (floor) s->square_of[cells++] = q;
    }
    s->words = (cells + 63) / 64;
    goal_distances(s);
    return path_init(s) && matching_init(s);
}

static void search_free(search *s)
{
    free(s->cell_of);
    free(s->square_of);
    free(s->goal_distance);
    free(s->box_at);
    free(s->box_list);
    free(s->distance);
    free(s->stamp);
    free(s->queue);
    free(s->children);
    free(s->config_slots);
    free(s->position_slots);
    free(s->bits);
    free(s->config_key);
    free(s->config_bound);
    free(s->positions);
    free(s->open.items);
    if (s->matching_on) solver_matching_free(&s->matching);
    free(s->rows);
    free(s->changed);
    free(s->saved);
    free(s->path_slots);
}

/* ---- expanding a position --------------------------------------------------------------- */

/* Puts the boxes of `config` on the scratch board (box_at, box_list) and returns the bound:
 * the sum of their distances to the nearest goals. */
static int load_config(search *s, uint32_t config)
{
    for (int i = 0; i < s->loaded; i++) s->box_at[s->box_list[i]] = 0;
    const uint64_t *bits = s->bits + (size_t)config * (size_t)s->words;
    int count = 0, bound = 0;
    for (int w = 0; w < s->words; w++)
        for (uint64_t word = bits[w]; word; word &= word - 1) {
            int square = s->square_of[w * 64 + __builtin_ctzll(word)];
            s->box_at[square] = 1;
            s->box_list[count++] = square;
            bound += s->goal_distance[square];
        }
    s->loaded = count;
    return bound;
}

/* The player's walking distances from `from` over the scratch board: the squares he reaches
 * are stamped with the generation, and so are the boxes (box_at tells them apart). */
static void walk_distances(search *s, int from)
{
    const board *b = s->board;
    if (++s->generation == WALL_STAMP) { /* wrapped: the floor's stamps cleared */
        for (int q = 0; q < b->size; q++)
            if (s->stamp[q] != WALL_STAMP) s->stamp[q] = 0;
        s->generation = 1;
    }
    /* the boxes stamped as if reached, the walls always are: one test a neighbour */
    for (int i = 0; i < s->loaded; i++) s->stamp[s->box_list[i]] = s->generation;
    int head = 0, tail = 0;
    s->stamp[from] = s->generation;
    s->distance[from] = 0;
    s->queue[tail++] = from;
    while (head < tail) {
        int q = s->queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = q + b->delta[d];
            if (s->stamp[next] >= s->generation) continue;
            s->stamp[next] = s->generation;
            s->distance[next] = s->distance[q] + 1;
            s->queue[tail++] = next;
        }
    }
}

/* The A* key of a cost and bound, compared first by the metric asked for. */
static uint64_t key_of(const search *s, int moves, int pushes, int bound)
{
    if (bound >= 1 << 20) return UINT64_MAX; /* a box that can reach no goal */
    uint64_t primary = (uint64_t)(s->request->by_pushes ? pushes : moves) + (uint64_t)bound;
    uint64_t secondary = (uint64_t)(s->request->by_pushes ? moves : pushes) + (uint64_t)bound;
    return primary << 24 | secondary;
}

/* The matching of the boxes loaded (load_config()), repaired from the last one for the
 * boxes whose square changed, and saved for the children; false when it has none. */
static bool parent_matching(search *s)
{
    int changed = 0;
    for (int i = 0; i < s->boxes; i++) {
        const uint16_t *row = solver_distance_row(s->request->distances, s->box_list[i], -1);
        if (s->matched && s->rows[i] == row) continue;
        s->rows[i] = row;
        s->changed[changed++] = i;
    }
    int h = s->matched ? solver_matching_update(&s->matching, s->changed, changed)
                       : solver_matching_solve(&s->matching);
    s->matched = h < IDA_INFINITY; /* else solved afresh next time */
    solver_matching_save(&s->matching, s->saved);
    return h < IDA_INFINITY;
}

/* The matching with box `i` of the parent pushed to `to`; the parent's restored after. */
static int child_matching(search *s, int i, int to)
{
    const uint16_t *row = s->rows[i];
    s->rows[i] = solver_distance_row(s->request->distances, to, -1);
    int h = solver_matching_update(&s->matching, &i, 1);
    solver_matching_restore(&s->matching, s->saved);
    s->rows[i] = row;
    return h;
}

/* With the request's path: when position `at` (its boxes `key`, the player's walks made) is
 * one of the path's with the player's square there in reach, and got to for less than the
 * path takes, kept when it saves the most so far. */
static void note_shortcut(search *s, uint32_t at, uint64_t key)
{
    const optimizer_path *path = s->request->path;
    size_t i = (size_t)(key ^ (key >> 31)) & s->path_mask;
    while (s->path_slots[i] && path->keys[s->path_slots[i] - 1] != key) i = (i + 1) & s->path_mask;
    if (!s->path_slots[i]) return;
    int k = (int)s->path_slots[i] - 1, player = path->players[k];
    if (s->stamp[player] != s->generation || s->box_at[player]) return;
    const search_position *here = &s->positions[at];
    int moves = here->moves + s->distance[player];
    uint64_t ours = key_of(s, moves, here->pushes, 0), theirs = key_of(s, path->moves[k], k, 0);
    if (ours >= theirs || theirs - ours <= s->shortcut_saved) return;
    s->shortcut = at;
    s->shortcut_index = k;
    s->shortcut_saved = theirs - ours;
}

/* Tries every push from position `at`; false when out of memory. */
static bool expand(search *s, uint32_t at, uint64_t limit)
{
    const board *b = s->board;
    search_position here = s->positions[at];
    uint64_t key = s->config_key[here.config];
    int bound = load_config(s, here.config);
    bool parent_matched = false; /* the matching is made for the first child in the set */
    walk_distances(s, here.player);
    if (s->path_slots) note_shortcut(s, at, key);
    uint64_t *bits = s->bits + (size_t)here.config * (size_t)s->words;
    uint64_t child_bits[s->words];
    /* the pushes under the limit first, each child's slot in the set asked for at once, so
     * that the look-ups below wait on the memory together rather than one after another */
    search_child *children = s->children;
    int count = 0;
    for (int i = 0; i < s->boxes; i++) {
        int box = s->box_list[i];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int stand = box - b->delta[d], to = box + b->delta[d];
            if (s->stamp[stand] != s->generation || s->box_at[stand] || s->cell_of[to] == NONE ||
                s->box_at[to] || s->request->dead[to])
                continue;
            int moves = here.moves + s->distance[stand] + 1;
            int child_bound = bound - s->goal_distance[box] + s->goal_distance[to];
            if (key_of(s, moves, here.pushes + 1, child_bound) >= limit) continue;
            uint64_t child_key = key ^ optimizer_square_key(box) ^ optimizer_square_key(to);
            keys_prefetch(s->request->allowed, child_key);
            children[count++] = (search_child){i, to, moves, child_bound, (uint8_t)d, child_key};
        }
    }
    /* those in the set, their slots in the configurations' and positions' tables asked for */
    int in_set = 0;
    for (int k = 0; k < count; k++) {
        uint64_t child_key = children[k].key;
        if (!optimizer_keys_has(s->request->allowed, child_key)) continue;
        __builtin_prefetch(
            &s->config_slots[(size_t)(child_key ^ (child_key >> 31)) & s->config_mask]);
        __builtin_prefetch(&s->position_slots[(size_t)mix(child_key, s->box_list[children[k].i]) &
                                              s->position_mask]);
        children[in_set++] = children[k];
    }
    for (int k = 0; k < in_set; k++) {
        int i = children[k].i, to = children[k].to, box = s->box_list[i];
        int moves = children[k].moves, pushes = here.pushes + 1, child_bound = children[k].bound;
        uint64_t child_key = children[k].key, f = key_of(s, moves, pushes, child_bound);
        memcpy(child_bits, bits, sizeof child_bits);
        int from_cell = s->cell_of[box], to_cell = s->cell_of[to];
        child_bits[from_cell / 64] &= ~(1ull << (from_cell % 64));
        child_bits[to_cell / 64] |= 1ull << (to_cell % 64);
        int64_t config = config_find_or_add(s, child_key, child_bits);
        if (config < 0) return false;
        bits = s->bits + (size_t)here.config * (size_t)s->words; /* may have moved */
        if (s->matching_on) {
            /* made once a configuration, from the first parent that reaches it */
            if (s->config_bound[config] == NONE) {
                if (!parent_matched && !parent_matching(s)) return true; /* none for it */
                parent_matched = true;
                int matched = child_matching(s, i, to);
                s->config_bound[config] = matched < IDA_INFINITY ? matched : IDA_INFINITY;
            }
            if (s->config_bound[config] >= IDA_INFINITY) continue;
            if (s->config_bound[config] > child_bound) child_bound = s->config_bound[config];
            f = key_of(s, moves, pushes, child_bound);
            if (f >= limit) continue;
        }
        bool added;
        int64_t child = position_find_or_add(s, (uint32_t)config, box, &added);
        if (child < 0) return false;
        search_position *c = &s->positions[child];
        if (!added && key_of(s, c->moves, c->pushes, 0) <= key_of(s, moves, pushes, 0)) continue;
        c->moves = moves;
        c->pushes = pushes;
        c->parent = (int32_t)at;
        c->box = box;
        c->direction = children[k].d;
        c->closed = 0;
        if (!open_push(s, f, (uint32_t)child)) return false;
    }
    return true;
}

/* The pushes from the start to `at`, into a new array. */
static optimizer_push *pushes_to(const search *s, uint32_t at, int *count)
{
    int n = 0;
    for (int32_t i = (int32_t)at; s->positions[i].parent != NONE; i = s->positions[i].parent) n++;
    optimizer_push *pushes = malloc((size_t)(n > 0 ? n : 1) * sizeof *pushes);
    if (!pushes) return NULL;
    *count = n;
    for (int32_t i = (int32_t)at; s->positions[i].parent != NONE; i = s->positions[i].parent)
        pushes[--n] = (optimizer_push){s->positions[i].box, (direction)s->positions[i].direction};
    return pushes;
}

/* Adds the start: its configuration and the player where he stands. */
static bool add_start(search *s, uint64_t limit, int *bound)
{
    const position *start = s->request->start;
    uint64_t bits[s->words];
    memset(bits, 0, sizeof bits);
    for (int q = 0; q < s->board->size; q++)
        if (start->boxes[q]) bits[s->cell_of[q] / 64] |= 1ull << (s->cell_of[q] % 64);
    int64_t config = config_find_or_add(s, optimizer_boxes_key(s->board, start), bits);
    bool added;
    if (config < 0 || position_find_or_add(s, (uint32_t)config, start->player, &added) != 0)
        return false;
    *bound = load_config(s, 0);
    return key_of(s, 0, 0, *bound) >= limit || open_push(s, key_of(s, 0, 0, *bound), 0);
}

optimizer_search_status optimizer_search(const optimizer_search_request *request,
                                         optimizer_push **pushes, int *count, uint64_t *nodes)
{
    *pushes = NULL;
    *count = 0;
    *nodes = 0;
    search s;
    uint64_t limit = 0;
    int bound = 0;
    bool ok = search_init(&s, request);
    if (ok) {
        limit = key_of(&s, request->limit_moves, request->limit_pushes, 0);
        /* the keys on the open list are below the limit: the bits above them are theirs */
        s.position_bits = 32;
        while (s.position_bits > 0 && (limit - 1) >> (64 - s.position_bits)) s.position_bits--;
        ok = add_start(&s, limit, &bound);
    }
    if (!ok) {
        search_free(&s);
        return OPTIMIZER_SEARCH_ERROR;
    }
    optimizer_search_status status = OPTIMIZER_SEARCH_NONE;
    while (s.open.count > 0) {
        if ((*nodes & 255) == 0) {
            if (request->cancel && atomic_load(request->cancel)) {
                status = OPTIMIZER_SEARCH_CANCELLED;
                break;
            }
            if ((request->deadline > 0 && optimizer_clock() >= request->deadline) ||
                (request->max_nodes && *nodes >= request->max_nodes)) {
                status = OPTIMIZER_SEARCH_LIMIT;
                break;
            }
        }
        uint32_t top = open_pop(&s);
        search_position *p = &s.positions[top];
        if (p->closed) continue;
        p->closed = 1;
        bool solved = load_config(&s, p->config) == 0;
        if (solved && p->parent != NONE) {
            *pushes = pushes_to(&s, top, count);
            status = *pushes ? OPTIMIZER_SEARCH_FOUND : OPTIMIZER_SEARCH_ERROR;
            break;
        }
        (*nodes)++;
        if (!solved && !expand(&s, top, limit)) {
            status = OPTIMIZER_SEARCH_LIMIT;
            break;
        }
        if (s.matching_on && s.matching.stopped) { /* its bounds since are void */
            bool cancelled = request->cancel && atomic_load(request->cancel);
            status = cancelled ? OPTIMIZER_SEARCH_CANCELLED : OPTIMIZER_SEARCH_LIMIT;
            break;
        }
    }
    if (status == OPTIMIZER_SEARCH_LIMIT && s.shortcut != NONE) {
        *pushes = pushes_to(&s, (uint32_t)s.shortcut, count);
        if (*pushes) status = OPTIMIZER_SEARCH_SHORTCUT;
        if (*pushes && request->reached) *request->reached = s.shortcut_index;
    }
    search_free(&s);
    return status;
}

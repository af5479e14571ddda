/* deadlock_search.c - the exhaustive search oracle of the deadlock tests (see the header). */
#include "deadlock_search.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Positions are stored as keys of box_count + 1 squares: the boxes in square order, then
 * the player's room. A hash set of key indices (open addressing) finds repeats. */
typedef struct search_state {
    const board *board;
    int key_length;
    int32_t *keys; /* count keys of key_length squares, in breadth-first order */
    int count;
    int capacity; /* keys allocated; grows by doubling up to limit */
    int limit;    /* the most positions kept */
    int *slots;   /* hash set: key index + 1, 0 when free; at least twice capacity */
    int slot_mask;
    uint8_t *boxes; /* scratch: the boxes of the position being expanded */
    uint8_t *reach; /* scratch: where the player can walk in the position expanded */
    uint8_t *room;  /* scratch: where the player can walk after one push */
    int *queue;     /* scratch for the walk */
} search_state;

static uint32_t hash_key(const int32_t *key, int length)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < length; i++) h = (h ^ (uint32_t)key[i]) * 16777619u;
    return h;
}

/* Finds the slot that holds `key`, or the free slot where it belongs. */
static uint32_t find_slot(const search_state *s, const int32_t *key)
{
    uint32_t slot = hash_key(key, s->key_length) & (uint32_t)s->slot_mask;
    while (s->slots[slot]) {
        const int32_t *other = s->keys + (size_t)(s->slots[slot] - 1) * s->key_length;
        if (memcmp(other, key, (size_t)s->key_length * sizeof *key) == 0) break;
        slot = (slot + 1) & (uint32_t)s->slot_mask;
    }
    return slot;
}

/* Doubles the key store (up to the limit) and rebuilds the hash set. Most searches stay
 * tiny, so starting small keeps the many small ones cheap. */
static bool grow(search_state *s)
{
    int capacity = s->capacity ? 2 * s->capacity : 1024;
    if (capacity > s->limit) capacity = s->limit;
    int slot_count = 1;
    while (slot_count < 2 * capacity) slot_count *= 2;
    int32_t *keys = realloc(s->keys, (size_t)capacity * (size_t)s->key_length * sizeof *keys);
    if (!keys) return false;
    s->keys = keys;
    int *slots = calloc((size_t)slot_count, sizeof *slots);
    if (!slots) return false;
    free(s->slots);
    s->slots = slots;
    s->slot_mask = slot_count - 1;
    s->capacity = capacity;
    for (int i = 0; i < s->count; i++)
        s->slots[find_slot(s, s->keys + (size_t)i * s->key_length)] = i + 1;
    return true;
}

/* Adds the key unless present. Returns 1 when added, 0 when known, -1 when full. */
static int add_key(search_state *s, const int32_t *key)
{
    if (s->count == s->capacity && (s->capacity == s->limit || !grow(s))) {
        return s->slots && s->slots[find_slot(s, key)] ? 0 : -1;
    }
    uint32_t slot = find_slot(s, key);
    if (s->slots[slot]) return 0;
    memcpy(s->keys + (size_t)s->count * s->key_length, key, (size_t)s->key_length * sizeof *key);
    s->slots[slot] = ++s->count;
    return 1;
}

/* Marks in `reach` the squares the player walks to from `from` around s->boxes; returns
 * the smallest of them. */
static int walk(search_state *s, int from, uint8_t *reach)
{
    const board *b = s->board;
    memset(reach, 0, (size_t)b->size);
    int head = 0, tail = 0, smallest = from;
    s->queue[tail++] = from;
    reach[from] = 1;
    while (head < tail) {
        int square = s->queue[head++];
        if (square < smallest) smallest = square;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (reach[next] || board_is_wall(b, next) || s->boxes[next]) continue;
            reach[next] = 1;
            s->queue[tail++] = next;
        }
    }
    return smallest;
}

static void make_key(search_state *s, int player_room, int32_t *key)
{
    int n = 0;
    for (int square = 0; square < s->board->size; square++)
        if (s->boxes[square]) key[n++] = square;
    key[n] = player_room;
}

static bool boxes_solved(const search_state *s)
{
    for (int square = 0; square < s->board->size; square++)
        if (s->boxes[square] && !board_is_goal(s->board, square)) return false;
    return true;
}

deadlock_search_result deadlock_search_solve(const board *board, const position *start,
                                             int max_positions)
{
    search_state s = {.board = board, .key_length = start->box_count + 1, .limit = max_positions};
    s.boxes = malloc((size_t)board->size);
    s.reach = malloc((size_t)board->size);
    s.room = malloc((size_t)board->size);
    s.queue = malloc((size_t)board->size * sizeof *s.queue);
    int32_t *key = malloc((size_t)s.key_length * sizeof *key);
    int32_t *expanding = malloc((size_t)s.key_length * sizeof *expanding);
    deadlock_search_result result = DEADLOCK_SEARCH_GAVE_UP;
    if (!s.boxes || !s.reach || !s.room || !s.queue || !key || !expanding || !grow(&s)) goto done;

    memcpy(s.boxes, start->boxes, (size_t)board->size);
    if (boxes_solved(&s)) {
        result = DEADLOCK_SEARCH_SOLVABLE;
        goto done;
    }
    make_key(&s, walk(&s, start->player, s.reach), key);
    add_key(&s, key);
    result = DEADLOCK_SEARCH_UNSOLVABLE;
    for (int next = 0; next < s.count && result == DEADLOCK_SEARCH_UNSOLVABLE; next++) {
        /* A copy: adding keys may move the store. */
        memcpy(expanding, s.keys + (size_t)next * s.key_length,
               (size_t)s.key_length * sizeof *expanding);
        const int32_t *current = expanding;
        memset(s.boxes, 0, (size_t)board->size);
        for (int i = 0; i < start->box_count; i++) s.boxes[current[i]] = 1;
        walk(&s, current[start->box_count], s.reach);
        for (int i = 0; i < start->box_count && result == DEADLOCK_SEARCH_UNSOLVABLE; i++) {
            int box = current[i];
            for (int d = 0; d < DIRECTION_COUNT && result == DEADLOCK_SEARCH_UNSOLVABLE; d++) {
                int from = box - board->delta[d], to = box + board->delta[d];
                if (!s.reach[from] || board_is_wall(board, to) || s.boxes[to]) continue;
                s.boxes[box] = 0;
                s.boxes[to] = 1;
                if (boxes_solved(&s)) {
                    result = DEADLOCK_SEARCH_SOLVABLE;
                } else {
                    make_key(&s, walk(&s, box, s.room), key);
                    if (add_key(&s, key) < 0) result = DEADLOCK_SEARCH_GAVE_UP;
                }
                s.boxes[to] = 0;
                s.boxes[box] = 1;
            }
        }
    }
done:
    free(s.keys);
    free(s.slots);
    free(s.boxes);
    free(s.reach);
    free(s.room);
    free(s.queue);
    free(key);
    free(expanding);
    return result;
}

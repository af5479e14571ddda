/* solver_store.c - the node pool, the hash set of seen states and the packing macros'
 * pushes of the fast mode. */
#include "solver_store.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "solver_domain.h"
#include "solver_pages.h"

enum {
    /* The hash set's first size, in slots (one page); it doubles whenever half is used. */
    FIRST_SLOTS = 1024,
};

static size_t nodes_bytes(const solver_store *store)
{
    return (size_t)store->max_nodes * sizeof *store->nodes;
}

static size_t boxes_bytes(const solver_store *store)
{
    return (size_t)store->max_nodes * (size_t)(store->box_count > 0 ? store->box_count : 1) *
           sizeof *store->boxes;
}

static size_t slots_bytes(size_t slot_mask)
{
    return (slot_mask + 1) * sizeof(int32_t);
}

bool solver_store_init(solver_store *store, int box_count, size_t memory_bytes,
                       size_t open_entry_bytes)
{
    *store = (solver_store){.box_count = box_count};
    size_t per_node = sizeof(solver_node) + (size_t)box_count * sizeof(uint16_t) +
                      open_entry_bytes + 2 * sizeof(int32_t);
    /* An eighth of the memory for the pushes of packing macros, the rest for states. */
    store->max_macro = memory_bytes / 8 / sizeof(ida_move);
    size_t max_nodes = memory_bytes / 8 * 7 / per_node;
    if (max_nodes > (1u << 30)) max_nodes = 1u << 30;
    if (max_nodes < 16) max_nodes = 16;
    size_t slots = 1;
    while (slots < 2 * max_nodes) slots *= 2;
    store->max_nodes = (int)max_nodes;
    store->max_slot_mask = slots - 1;
    store->slot_mask = (slots < FIRST_SLOTS ? slots : FIRST_SLOTS) - 1;
    store->nodes = solver_pages_map(nodes_bytes(store));
    store->boxes = solver_pages_map(boxes_bytes(store));
    store->slots = solver_pages_map(slots_bytes(store->slot_mask));
    return store->nodes && store->boxes && store->slots;
}

/* Doubles the hash set and puts every node back in it. False when out of memory. */
static bool grow_slots(solver_store *store)
{
    size_t mask = store->slot_mask * 2 + 1;
    int32_t *slots = solver_pages_map(slots_bytes(mask));
    if (!slots) return false;
    solver_pages_unmap(store->slots, slots_bytes(store->slot_mask));
    store->slots = slots;
    store->slot_mask = mask;
    for (int i = 0; i < store->count; i++) {
        int32_t *slot = solver_store_slot(store, store->nodes[i].key);
        assert(*slot == 0);
        *slot = i + 1;
    }
    return true;
}

void solver_store_free(solver_store *store)
{
    solver_pages_unmap(store->nodes, nodes_bytes(store));
    solver_pages_unmap(store->boxes, boxes_bytes(store));
    solver_pages_unmap(store->slots, slots_bytes(store->slot_mask));
    free(store->macros);
    *store = (solver_store){0};
}

int solver_store_add(solver_store *store, int parent, ida_move move, int g, int player,
                     uint64_t key, const int *box_square)
{
    if (store->count == store->max_nodes) return SOLVER_NO_NODE;
    /* at most half the slots in use, as in the set's full size */
    if ((size_t)store->count + 1 > (store->slot_mask + 1) / 2 &&
        store->slot_mask < store->max_slot_mask && !grow_slots(store))
        return SOLVER_NO_NODE; /* no memory for a bigger set: as full */
    int i = store->count++;
    store->nodes[i] =
        (solver_node){.parent = parent, .move = move, .g = g, .player = player, .key = key};
    uint16_t *boxes = store->boxes + (size_t)i * (size_t)store->box_count;
    for (int b = 0; b < store->box_count; b++) boxes[b] = (uint16_t)box_square[b];
    int32_t *slot = solver_store_slot(store, key);
    assert(*slot == 0);
    *slot = i + 1;
    return i;
}

int solver_store_reserve_macro(solver_store *store, int count)
{
    size_t needed = store->macro_count + (size_t)count;
    if (needed > store->max_macro) return 0;
    if (needed > store->macro_capacity) {
        size_t capacity = store->macro_capacity ? store->macro_capacity * 2 : 4096;
        while (capacity < needed) capacity *= 2;
        if (capacity > store->max_macro) capacity = store->max_macro;
        ida_move *macros = realloc(store->macros, capacity * sizeof *macros);
        if (!macros) return -1;
        store->macros = macros;
        store->macro_capacity = capacity;
    }
    return 1;
}

void solver_store_keep_macro(solver_store *store, int i, const ida_move *pushes, int count)
{
    assert(store->nodes[i].move == (ida_move)store->macro_count);
    assert(store->macro_count + (size_t)count <= store->macro_capacity);
    memcpy(store->macros + store->macro_count, pushes, (size_t)count * sizeof *pushes);
    store->macro_count += (size_t)count;
    store->nodes[i].macro = (uint16_t)count;
}

bool solver_store_path(const solver_store *store, int goal, ida_result *result)
{
    const solver_node *nodes = store->nodes;
    int length = 0;
    for (int i = goal; nodes[i].parent != SOLVER_NO_NODE; i = nodes[i].parent)
        length += nodes[i].macro ? nodes[i].macro : 1;
    result->path = malloc((size_t)(length > 0 ? length : 1) * sizeof *result->path);
    if (!result->path) return false;
    result->length = length;
    result->cost = nodes[goal].g;
    int k = length;
    for (int i = goal; nodes[i].parent != SOLVER_NO_NODE; i = nodes[i].parent) {
        const solver_node *n = &nodes[i];
        if (!n->macro) {
            result->path[--k] = n->move;
            continue;
        }
        for (int j = n->macro - 1; j >= 0; j--)
            result->path[--k] = store->macros[n->move + (size_t)j] | SOLVER_MOVE_SINGLE;
    }
    assert(k == 0);
    return true;
}

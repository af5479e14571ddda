/* solver_open.c - binary heaps of open states, one per feature cell, visited in turn. */
#include "solver_open.h"

#include <assert.h>
#include <stdlib.h>

bool solver_open_init(solver_open *open, int cell_count, bool alternate)
{
    *open = (solver_open){.cell_count = cell_count, .alternate = alternate};
    open->cells = calloc((size_t)cell_count, sizeof *open->cells);
    return open->cells != NULL;
}

void solver_open_free(solver_open *open)
{
    for (int i = 0; open->cells && i < open->cell_count; i++) free(open->cells[i].items);
    free(open->cells);
    free(open->second.items);
    *open = (solver_open){0};
}

bool solver_open_push(solver_open *open, int cell, uint64_t priority, int node)
{
    assert(cell >= 0 && cell < open->cell_count);
    assert(priority <= UINT32_MAX && node >= 0);
    if (!solver_heap_push(&open->cells[cell], priority << 32 | (uint64_t)node)) return false;
    open->count++;
    return true;
}

bool solver_open_push_second(solver_open *open, uint64_t priority, int node)
{
    assert(open->alternate);
    assert(priority <= UINT32_MAX && node >= 0);
    if (!solver_heap_push(&open->second, priority << 32 | (uint64_t)node)) return false;
    open->count++;
    return true;
}

int solver_open_pop(solver_open *open)
{
    if (open->alternate) {
        bool turn = open->turn;
        open->turn = !turn;
        if (turn && open->second.count > 0) {
            open->count--;
            return (int)(solver_heap_pop(&open->second) & 0xffffffffu);
        }
    }
    for (int k = 0; k < open->cell_count; k++) {
        solver_heap *h = &open->cells[open->cursor];
        open->cursor = (open->cursor + 1) % open->cell_count;
        if (h->count > 0) {
            open->count--;
            return (int)(solver_heap_pop(h) & 0xffffffffu);
        }
    }
    if (open->alternate && open->second.count > 0) {
        open->count--;
        return (int)(solver_heap_pop(&open->second) & 0xffffffffu);
    }
    return -1;
}

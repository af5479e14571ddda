/* solver_backward.h - the backward half of the fast mode's bidirectional search: pulls
 * from the solved position towards the start.
 *
 * A push undone is a pull: the player steps back from a box and draws it after him. The
 * backward search starts from every solved position (a box on each goal, the player in any
 * region of the free floor) and pulls boxes towards the squares where the start has them,
 * best first by f = g + 5h, h a minimum matching of the boxes to the start's box squares
 * on pull distances. Every state it reaches can be solved: its pulls, taken back in the
 * other order, push every box home. Its states are keyed as the forward search keys its own
 * (the same Zobrist keys, the same least square of the player's region), so a state both
 * searches reach joins a path from the start to it with a path from it to the goals
 * (YASS and Festival search both ways; the Sokoban wiki's Solver page, "backward search").
 * Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_BACKWARD_H
#define SOKOBAN_SOLVER_BACKWARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/board.h"
#include "ida.h"
#include "solver_bound.h"
#include "solver_open.h"
#include "solver_rows.h"
#include "solver_store.h"
#include "solver_table.h"

typedef struct solver_backward {
    const board *board;
    const solver_zobrist *zobrist; /* the forward search's keys; not owned */
    int box_count;
    /* to_start[square * box_count + j]: the fewest pulls that take a lone box from square
     * to the j-th box square of the start, or SOLVER_NO_PATH. */
    uint16_t *to_start;
    uint8_t *pull_dead; /* square -> 1: no start square can be reached from it by pulls */
    uint8_t *fixed;     /* square -> 1: a start box frozen on its goal, never pulled */
    uint8_t *home;      /* square -> 1: a box stands there at the start */
    const uint16_t **rows;
    int *changed; /* the rows set_boxes() changed */
    solver_matching matching;
    int *saved; /* the matching of the state being expanded */
    solver_store store;
    solver_open open;
    /* The state being expanded. */
    int *box_square;
    int *box_at; /* square -> box, or -1 */
    uint8_t *blocked;
    uint64_t box_key;
    uint32_t *reach, *parent_reach; /* stamps: the child's reach, the expanded state's */
    uint32_t stamp, parent_stamp;
    /* the same over rows of bits, when the board fits (use_rows; solver_rows.h) */
    solver_rows floor;
    uint64_t *parent_rows; /* the expanded state's reach */
    bool use_rows;
    int *queue;
    bool exhausted; /* no open state left, or the store is full: nothing more to expand */
} solver_backward;

/* Sets up the search from the solved positions of `board`, towards the boxes of `start`
 * (box_count squares), in at most `memory_bytes` of states, keyed by `zobrist`. False when
 * out of memory. Its matching reads `stop` (may be NULL), from the set-up on: once it gives
 * up (back->matching.stopped), the search is void. */
bool solver_backward_init(solver_backward *back, const board *board, const int *start,
                          int box_count, const solver_zobrist *zobrist, size_t memory_bytes,
                          const solver_stop *stop);
void solver_backward_free(solver_backward *back);

/* Expands the best open state: adds each state one pull away that is new, and counts it in
 * *nodes. When one of them has a key `forward` holds, returns its node (a meeting);
 * otherwise SOLVER_NO_NODE. Sets back->exhausted when nothing is left to expand. False
 * when out of memory. */
bool solver_backward_expand(solver_backward *back, const solver_store *forward, uint64_t *nodes,
                            int *met);

/* The node with `key`, or SOLVER_NO_NODE. */
static inline int solver_backward_find(const solver_backward *back, uint64_t key)
{
    return *solver_store_slot(&back->store, key) - 1;
}

/* The pushes that take node `node`'s state to a solved one (its pulls taken back, the
 * last first), each marked SOLVER_MOVE_SINGLE, appended to `result`'s path; its length and
 * cost grow by their number. False when out of memory. */
bool solver_backward_append_path(const solver_backward *back, int node, ida_result *result);

#endif

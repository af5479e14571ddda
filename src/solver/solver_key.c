/* solver_key.c - the key the searches give a position (solver.h), for callers outside the
 * solver: the Zobrist keys of solver_table.h over the boxes and the player's region. */
#include <stdlib.h>

#include "solver.h"
#include "solver_table.h"

uint64_t solver_position_key(const board *b, const position *p)
{
    solver_zobrist zobrist;
    uint8_t *reach = malloc((size_t)b->size);
    uint64_t key = 0;
    if (reach && solver_zobrist_init(&zobrist, b->size)) {
        board_reachable(b, p, reach);
        int region = p->player;
        for (int square = 0; square < p->player; square++)
            if (reach[square]) {
                region = square;
                break;
            }
        key = zobrist.player[region];
        for (int square = 0; square < b->size; square++)
            if (p->boxes[square]) key ^= zobrist.box[square];
        solver_zobrist_free(&zobrist);
    }
    free(reach);
    return key;
}

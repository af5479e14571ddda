/* solver_pair_rows.c - the two-box deadlocks of one box as a row of bits (solver_pair_rows.h). */
#include "solver_pair_rows.h"

#include <stdlib.h>

bool solver_pair_rows_init(solver_pair_rows *rows, const solver_pairs *pairs, const board *board)
{
    *rows = (solver_pair_rows){.pairs = pairs};
    if (!pairs->alive || pairs->live_count == 0) return false;
    size_t live = (size_t)pairs->live_count, floor = (size_t)pairs->floor_count;
    size_t words = (live + 63) / 64;
    if (live * floor * (words * sizeof(uint64_t) + 1) > SOLVER_PAIR_ROWS_MOST_BYTES) return false;
    rows->words = (int)words;
    rows->rows = malloc(live * floor * words * sizeof *rows->rows);
    rows->made = calloc(live * floor, 1);
    rows->live_square = malloc(live * sizeof *rows->live_square);
    if (!rows->rows || !rows->made || !rows->live_square) {
        solver_pair_rows_free(rows);
        return false;
    }
    for (int square = 0; square < board->size; square++)
        if (pairs->live_index[square] >= 0) rows->live_square[pairs->live_index[square]] = square;
    return true;
}

void solver_pair_rows_free(solver_pair_rows *rows)
{
    free(rows->rows);
    free(rows->made);
    free(rows->live_square);
    *rows = (solver_pair_rows){0};
}

bool solver_pair_rows_lost(solver_pair_rows *rows, const uint8_t *boxes, int square, int player)
{
    const solver_pairs *pairs = rows->pairs;
    int live = pairs->live_index[square];
    if (live < 0) return false; /* a dead square is the dead-square checks' business */
    size_t at = (size_t)live * (size_t)pairs->floor_count + (size_t)pairs->floor_index[player];
    uint64_t *row = rows->rows + at * (size_t)rows->words;
    if (!rows->made[at]) {
        for (int w = 0; w < rows->words; w++) row[w] = 0;
        for (int other = 0; other < pairs->live_count; other++) {
            int partner = rows->live_square[other];
            if (partner != square && solver_pairs_lost(pairs, square, partner, player))
                row[other / 64] |= 1ULL << (other % 64);
        }
        rows->made[at] = 1;
        rows->made_count++;
    }
    for (int w = 0; w < rows->words; w++)
        for (uint64_t bits = row[w]; bits; bits &= bits - 1)
            if (boxes[rows->live_square[w * 64 + __builtin_ctzll(bits)]]) return true;
    return false;
}

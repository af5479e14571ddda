/* solver_pairs.h - the deadlocks of two and of three boxes of a board, computed before a
 * search.
 *
 * Two boxes and the player, alone on the board: can the two be pushed onto goals? A
 * retrograde search answers it for every pair of squares and every square of the player at
 * once: it pulls the boxes away from every pair of goals, the player starting anywhere, and
 * marks each position it reaches (a pair of box squares and the player's whole region among
 * the two boxes). A position it never reaches is lost. A full position that holds such a
 * pair, its player on such a square, is lost too: a position that can be solved stays
 * solvable when boxes are taken away (the player walks where a box was pushed from).
 *
 * The table sees what the per-push checks (dead squares, freeze, 2x2) and the matching
 * cannot: one box that blocks the only way of another, a box in a one-way tunnel whose way
 * out another box closes, a box the player can only push from a side the other box cuts
 * off. YASS precalculates deadlock sets of these kinds by pattern ("blocked gate",
 * "blocked tunnel"); the table holds every one that two boxes make.
 *
 * The same search over three boxes (from every three goals) finds every three-box
 * deadlock. Its table is a hundred times the pairs' and is not kept: only the triples lost
 * for a square of the player where none of their pairs is are, listed by square (hundreds
 * to a few thousand on an XSokoban board: three boxes jammed in a goal room's door, a box
 * that only two others can let by). Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_PAIRS_H
#define SOKOBAN_SOLVER_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/board.h"
#include "solver_bound.h"
#include "solver_options.h"

typedef struct solver_pairs {
    int live_count;   /* squares a box may stand on (not dead) */
    int floor_count;  /* squares the player may stand on */
    int *live_index;  /* square -> its number among the live squares, or -1 */
    int *floor_index; /* square -> its number among the floor squares, or -1 */
    uint64_t *alive;  /* a bit per (pair of live squares, floor square): can be solved */
} solver_pairs;

/* A triple kept, listed under each of its three squares. */
typedef struct solver_triple {
    int other[2]; /* the triple's two other squares */
    size_t bits;  /* where its bits start in `alive`: a bit a floor square, can be solved */
} solver_triple;

/* The triples lost for a square of the player where none of their pairs is. */
typedef struct solver_triples {
    int *first;            /* per square and one more: a square's from first[square] on */
    solver_triple *listed; /* up to first[square + 1] */
    uint64_t *alive;
    int count; /* the triples kept (each listed three times) */
} solver_triples;

/* Builds the table of `board`, whose dead squares `distances` knows. False when the board
 * is too big for the table (it and the work space of making it would take more than
 * `most_bytes`), has fewer than two goals, or memory runs out; the table is then empty and
 * solver_pairs_lost() says false. */
bool solver_pairs_init(solver_pairs *pairs, const board *board, const solver_distances *distances,
                       size_t most_bytes);
void solver_pairs_free(solver_pairs *pairs);

/* Makes the table of three boxes of the board of `pairs` (made by solver_pairs_init() for
 * `board`) in at most `most_bytes`, and keeps its triples lost where their pairs are not.
 * False, and none kept, when the table would need more, the board has fewer than three
 * goals, memory runs out, or `stop` (may be NULL) says stop before it is done. */
bool solver_triples_init(solver_triples *triples, const solver_pairs *pairs, const board *board,
                         size_t most_bytes, const solver_stop *stop);
void solver_triples_free(solver_triples *triples);

/* Pairs are numbered row by row of the upper triangle of live squares x live squares (`n`
 * of them): the number of the pair of live indexes i < j is solver_pairs_row(n, i) + j, the
 * row's start less i + 1 (modulo SIZE_MAX + 1, for the row of 0). */
static inline size_t solver_pairs_row(size_t n, size_t i)
{
    return i * (2 * n - i - 1) / 2 - i - 1;
}

/* The number of the pair of live squares `a` and `b` (either order). */
static inline size_t solver_pairs_number(const solver_pairs *pairs, int a, int b)
{
    int i = pairs->live_index[a], j = pairs->live_index[b];
    if (i > j) {
        int t = i;
        i = j;
        j = t;
    }
    return solver_pairs_row((size_t)pairs->live_count, (size_t)i) + (size_t)j;
}

/* True when the boxes on `a` and `b` (two squares), the player on `player`, cannot both
 * reach goals: a position holding them is lost. */
static inline bool solver_pairs_lost(const solver_pairs *pairs, int a, int b, int player)
{
    if (!pairs->alive) return false;
    /* a dead square is the dead-square checks' business */
    if (pairs->live_index[a] < 0 || pairs->live_index[b] < 0) return false;
    size_t bit = solver_pairs_number(pairs, a, b) * (size_t)pairs->floor_count +
                 (size_t)pairs->floor_index[player];
    return !(pairs->alive[bit >> 6] >> (bit & 63) & 1);
}

/* True when the box on `square` and one of the boxes on `squares` (`count` of them; `square`
 * may be among them, and is passed over) make a pair lost with the player on `player`: the
 * solver_pairs_lost() of each, with what belongs to `square` looked up once. */
static inline bool solver_pairs_lost_among(const solver_pairs *pairs, int square,
                                           const int *squares, int count, int player)
{
    if (!pairs->alive) return false;
    int i = pairs->live_index[square];
    if (i < 0) return false;
    size_t n = (size_t)pairs->live_count, floors = (size_t)pairs->floor_count;
    size_t f = (size_t)pairs->floor_index[player];
    size_t row = solver_pairs_row(n, (size_t)i);
    for (int k = 0; k < count; k++) {
        int other = squares[k];
        int j = pairs->live_index[other];
        if (j < 0 || other == square) continue;
        size_t number = j > i ? row + (size_t)j : solver_pairs_row(n, (size_t)j) + (size_t)i;
        size_t bit = number * floors + f;
        if (!(pairs->alive[bit >> 6] >> (bit & 63) & 1)) return true;
    }
    return false;
}

/* True when the box on `square` and two other boxes (`boxes`: a byte per square, 1 under a
 * box) make a triple kept that cannot reach goals with the player on `player` (`pairs` the
 * table the triples were made from). */
static inline bool solver_triples_lost(const solver_triples *triples, const solver_pairs *pairs,
                                       const uint8_t *boxes, int square, int player)
{
    if (!triples->first) return false;
    size_t f = (size_t)pairs->floor_index[player];
    for (int t = triples->first[square]; t < triples->first[square + 1]; t++) {
        const solver_triple *triple = &triples->listed[t];
        if (!boxes[triple->other[0]] || !boxes[triple->other[1]]) continue;
        size_t bit = triple->bits + f;
        if (!(triples->alive[bit >> 6] >> (bit & 63) & 1)) return true;
    }
    return false;
}

#endif

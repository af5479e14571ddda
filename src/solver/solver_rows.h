/* solver_rows.h - the player's floor as rows of bits, flooded a row at a time.
 *
 * A flood square by square costs a queue step and four neighbour tests for every square
 * the player reaches; on a board at most 64 squares wide a row of the floor is one machine
 * word, and a flood fills whole runs of a row at once (an addition's carry upwards, a
 * Kogge-Stone fill downwards) and spreads from row to row with an AND, looking again only
 * at the rows next to one that grew. Used for the player's reach and the floor's regions
 * in every state, the PI-corrals, by the backward search, and by the corral deadlocks (the
 * corrals and the small searches' floods), and, pushing a box instead of walking, by the
 * packing advisor's relaxed flood; a board that does not fit keeps the floods by squares.
 * Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_ROWS_H
#define SOKOBAN_SOLVER_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/board.h"

typedef struct solver_rows {
    int width, height;
    uint64_t *floor; /* per row: the squares inside the board */
    uint64_t *goals; /* per row: the goal squares */
    uint64_t *open;  /* per row: those no box stands on */
    uint64_t *reach; /* per row: the last flood's squares */
    uint8_t *row;    /* per square: its row and column (no division where it is asked) */
    uint8_t *column;
} solver_rows;

/* True when `board` is small enough (at most 64 squares a row and 64 rows) and has no floor
 * on its first and last rows (as every level closed by walls). */
bool solver_rows_fit(const board *board);

/* Sets up the rows of `board` (which must fit), no box on the floor. False when out of
 * memory. */
bool solver_rows_init(solver_rows *rows, const board *board);
void solver_rows_free(solver_rows *rows);

/* Puts a box on `square` (on) or takes it away. */
static inline void solver_rows_set_box(solver_rows *r, int square, bool on)
{
    uint64_t bit = (uint64_t)1 << r->column[square];
    uint64_t *row = &r->open[r->row[square]];
    *row = on ? *row & ~bit : *row | (r->floor[r->row[square]] & bit);
}

/* Floods the open floor from `from`; returns the least square reached (the region's
 * name, as a flood by squares gives it). */
int solver_rows_flood(solver_rows *rows, int from);
/* The same into `reach` (a word a row) instead of the rows' own. */
int solver_rows_flood_into(const solver_rows *rows, int from, uint64_t *reach);
/* The same over the squares of `open` (a word a row, none on the first or last row), which
 * must hold `from`. */
int solver_rows_flood_within(const solver_rows *rows, const uint64_t *open, int from,
                             uint64_t *reach);

/* The number of regions the open floor falls into; with `but_reach`, leaving out the last
 * flood's (solver_rows_flood()). `left` and `region` are work space of a word a row. */
int solver_rows_regions(const solver_rows *rows, bool but_reach, uint64_t *left, uint64_t *region);

/* A corral, as the PI-corrals and the corral deadlocks take it: `free` gets the free squares
 * the last flood did not reach and `done` is cleared, once a state (solver_rows_corrals());
 * then for each corral, from a square `start` of `free`, its squares go into `corral` and
 * are added to `done`, the boxes next to them into `barrier` (all a word a row). */
void solver_rows_corrals(const solver_rows *rows, uint64_t *free, uint64_t *done);
void solver_rows_corral(const solver_rows *rows, const uint64_t *free, int start, uint64_t *corral,
                        uint64_t *barrier, uint64_t *done);

/* True when the box on `origin`, pushed by a player who could stand on any open square (its
 * own counting as open), gets to a square of `targets` other than `origin`, never standing
 * off `live` (the squares a box may stand on): a flood of the squares it could be pushed
 * to, a whole row at a time, that stops at the first target. `reach` is work space, all
 * zero before and after. All a word a row. */
bool solver_rows_box_reaches(const solver_rows *rows, const uint64_t *live, const uint64_t *targets,
                             int origin, uint64_t *reach);

/* True when `reach` (a flood's rows) holds `square`. */
static inline bool solver_rows_has(const solver_rows *r, const uint64_t *reach, int square)
{
    return (reach[r->row[square]] >> r->column[square]) & 1;
}

/* True when the last flood reached `square`. */
static inline bool solver_rows_reached(const solver_rows *r, int square)
{
    return solver_rows_has(r, r->reach, square);
}

_Static_assert(DIR_LEFT == 0 && DIR_UP == 1 && DIR_RIGHT == 2 && DIR_DOWN == 3,
               "solver_rows_first_side() reads the sides in the directions' order");

/* The first direction (board.h's order) whose step from `square` (a square of a row with
 * rows above and below it) lands in `reach`, or -1: the four sides read at once. */
static inline int solver_rows_first_side(const solver_rows *r, const uint64_t *reach, int square)
{
    int y = r->row[square], x = r->column[square];
    if (x == 0 || x == r->width - 1) {
        /* a side past the row's end is the next row's square, as a step reads it */
        const int step[DIRECTION_COUNT] = {-1, -r->width, 1, r->width};
        for (int d = 0; d < DIRECTION_COUNT; d++)
            if (solver_rows_has(r, reach, square + step[d])) return d;
        return -1;
    }
    unsigned sides = (unsigned)(reach[y] >> (x - 1) & 1) |
                     (unsigned)(reach[y - 1] >> x & 1) << DIR_UP |
                     (unsigned)(reach[y] >> (x + 1) & 1) << DIR_RIGHT |
                     (unsigned)(reach[y + 1] >> x & 1) << DIR_DOWN;
    return sides ? __builtin_ctz(sides) : -1;
}

#endif

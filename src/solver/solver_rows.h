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
int solver_rows_flood_within(const solver_rows *rows, const uint64_t *restrict open, int from,
                             uint64_t *restrict reach);

/* The number of regions the open floor falls into; with `but_reach`, leaving out the last
 * flood's (solver_rows_flood()). `left` and `region` are work space of a word a row. */
int solver_rows_regions(const solver_rows *rows, bool but_reach, uint64_t *left, uint64_t *region);

/* The number of regions of `free` (a word a row, none on the first or last row) that hold
 * a side of `square`; those counted but the last are taken out of `free`. `region` is work
 * space of a word a row. */
int solver_rows_regions_beside(const solver_rows *rows, uint64_t *free, int square,
                               uint64_t *region);

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

/* Row `row` of `open` round column x, columns x - 2 to x + 2 on bits 0 to 4, with the square
 * `also_free` (-1: none) free: a row of solver_rows_joined_round()'s window. */
static inline uint64_t solver_rows_window_row(const solver_rows *r, const uint64_t *open, int row,
                                              int x, int also_free)
{
    if (row < 0 || row >= r->height) return 0;
    uint64_t bits = x >= 2 ? open[row] >> (x - 2) : open[row] << (2 - x);
    if (also_free >= 0 && r->row[also_free] == row) {
        int dx = r->column[also_free] - x + 2;
        if (dx >= 0 && dx < 5) bits |= (uint64_t)1 << dx;
    }
    return bits & 0x1f;
}

/* True when `square` (a floor square) has a free side and its free sides reach each other
 * within the five by five squares round it, `square` itself taken out: a path of the floor
 * through `square` can go round it, and the free floor falls into as many parts with
 * `square` free as without. Free: in `open` (a word a row), or `also_free` (-1: none). */
static inline bool solver_rows_joined_round(const solver_rows *r, const uint64_t *open,
                                            int square, int also_free)
{
    /* the window, a byte a row, `square` on bit 2 of the middle one (bit 18) */
    int y = r->row[square], x = r->column[square];
    uint64_t window = 0;
    for (int k = 1; k < 4; k++)
        window |= solver_rows_window_row(r, open, y - 2 + k, x, also_free) << (8 * k);
    window &= ~((uint64_t)1 << 18);
    /* its sides: above, left, right, below */
    uint64_t sides = window & ((uint64_t)1 << 10 | (uint64_t)1 << 17 | (uint64_t)1 << 19 |
                               (uint64_t)1 << 26);
    if (sides == 0) return false;
    /* most often the eight squares round it show it: each side joined to the next round by
     * the corner between (the up-right, right-down, down-left and left-up turns) */
    int count = (int)((window >> 10 & 1) + (window >> 17 & 1) + (window >> 19 & 1) +
                      (window >> 26 & 1));
    int turns = (int)((window >> 10 & window >> 11 & window >> 19 & 1) +
                      (window >> 19 & window >> 27 & window >> 26 & 1) +
                      (window >> 26 & window >> 25 & window >> 17 & 1) +
                      (window >> 17 & window >> 9 & window >> 10 & 1));
    if (count - turns <= 1) return true;
    /* else a flood of the whole window from the first side */
    window |= solver_rows_window_row(r, open, y - 2, x, also_free) |
              solver_rows_window_row(r, open, y + 2, x, also_free) << 32;
    uint64_t reach = sides & -sides;
    for (;;) {
        uint64_t next = (reach | reach << 1 | reach >> 1 | reach << 8 | reach >> 8) & window;
        if ((sides & ~next) == 0) return true;
        if (next == reach) return false;
        reach = next;
    }
}

/* The reach after a box went from `from` to its neighbour `to` (the rows' `open` says so
 * already), the player now on `from` (a push) or, `pulled`, on a square of the reach
 * `before` (least square `least`) but `to`, without a flood where the floor round the two
 * squares shows it: `to` off that reach, or joined round (solver_rows_joined_round()),
 * leaves the rest of it in one piece; `from` joins it (pulled: when a free square next to
 * it but `to` was in it); when each free square next to `from` but `to` was in it, `from`
 * joins nothing more. Returns the least square of the reach after (its region's name, as
 * a flood gives it) and, unless `reach` is NULL, puts the reach there (a word a row); -1,
 * nothing written, when the floor round them does not show it. */
static inline int solver_rows_reach_after_move(const solver_rows *r, const uint64_t *before,
                                               int least, int from, int to, bool pulled,
                                               uint64_t *reach)
{
    int y = r->row[from];
    uint64_t bit = (uint64_t)1 << r->column[from];
    uint64_t to_bit = (uint64_t)1 << r->column[to];
    /* the free squares next to `from` but `to` (`to` holds the box: not open) */
    uint64_t row = (bit << 1 | bit >> 1) & r->open[y];
    uint64_t above = bit & r->open[y - 1], below = bit & r->open[y + 1];
    if (pulled && (row | above | below) == 0) return -1; /* `from` walled in */
    if ((row & ~before[y]) | (above & ~before[y - 1]) | (below & ~before[y + 1])) return -1;
    bool cut = solver_rows_has(r, before, to);
    if (cut && !solver_rows_joined_round(r, r->open, to, -1)) return -1;
    int region = least;
    if (cut && least == to) { /* the least square left, `to` out of the reach */
        int at = r->row[to];
        uint64_t left = before[at] & ~to_bit;
        while (left == 0) left = before[++at];
        region = at * r->width + __builtin_ctzll(left);
    }
    if (from < region) region = from;
    if (reach) {
        for (int k = 0; k < r->height; k++) reach[k] = before[k];
        reach[y] |= bit;
        if (cut) reach[r->row[to]] &= ~to_bit;
    }
    return region;
}

#endif

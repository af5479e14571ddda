/* solver_rows.c - floods over rows of bits. */
#include "solver_rows.h"

#include <stdlib.h>
#include <string.h>

bool solver_rows_fit(const board *board)
{
    if (board->width > 64 || board->height > 64 || board->height < 3) return false;
    /* the flood never looks past the first and last rows: they must hold no floor */
    for (int x = 0; x < board->width; x++) {
        if (board_is_inside(board, x) || board_is_inside(board, board->size - 1 - x)) return false;
    }
    return true;
}

bool solver_rows_init(solver_rows *r, const board *b)
{
    size_t height = (size_t)b->height;
    *r = (solver_rows){.width = b->width,
                       .height = b->height,
                       .floor = calloc(height, sizeof *r->floor),
                       .goals = calloc(height, sizeof *r->goals),
                       .open = calloc(height, sizeof *r->open),
                       .reach = calloc(height, sizeof *r->reach),
                       .row = malloc((size_t)b->size),
                       .column = malloc((size_t)b->size)};
    if (!r->floor || !r->goals || !r->open || !r->reach || !r->row || !r->column) {
        solver_rows_free(r);
        return false;
    }
    for (int square = 0; square < b->size; square++) {
        r->row[square] = (uint8_t)(square / r->width);
        r->column[square] = (uint8_t)(square % r->width);
        if (board_is_inside(b, square))
            r->floor[square / r->width] |= (uint64_t)1 << (square % r->width);
        if (board_is_goal(b, square))
            r->goals[square / r->width] |= (uint64_t)1 << (square % r->width);
    }
    memcpy(r->open, r->floor, height * sizeof *r->open);
    return true;
}

void solver_rows_free(solver_rows *r)
{
    free(r->floor);
    free(r->goals);
    free(r->open);
    free(r->reach);
    free(r->row);
    free(r->column);
    *r = (solver_rows){0};
}

/* The squares of `open` from each of `seeds` (which lie in it) upwards to the end of its run:
 * the carry of an addition. */
static inline uint64_t run_up(uint64_t seeds, uint64_t open)
{
    return (((open + seeds) ^ open) & open) | seeds;
}

/* The same downwards: shifts doubling in length (Kogge-Stone), which stop once no run of
 * `open` is as long as the next shift (most are short), or once a shift takes in nothing
 * (then no longer one can: the squares below the seeds' runs are not open). */
static inline uint64_t run_down(uint64_t seeds, uint64_t open)
{
    uint64_t down = seeds, run = open; /* run: squares with the next `by` below them open */
    for (int by = 1; by < 64; by *= 2) {
        uint64_t more = run & (down >> by) & ~down;
        if (more == 0) break;
        down |= more;
        run &= run >> by;
        if (run == 0) break;
    }
    return down;
}

/* The runs of `open` that hold a square of `seeds` (which lie in it), whole. */
static inline uint64_t fill_runs(uint64_t seeds, uint64_t open)
{
    return run_up(seeds, open) | run_down(seeds, open);
}

int solver_rows_flood_into(const solver_rows *r, int from, uint64_t *reach)
{
    return solver_rows_flood_within(r, r->open, from, reach);
}

int solver_rows_flood_within(const solver_rows *r, const uint64_t *restrict open, int from,
                             uint64_t *restrict reach)
{
    /* the rows kept have a row of wall above and below: no floor lies on the board's edge */
    memset(reach, 0, (size_t)r->height * sizeof *reach);
    int y = r->row[from], lowest = y;
    uint64_t grown = fill_runs((uint64_t)1 << r->column[from], open[y]);
    reach[y] = grown;
    /* the rows to look at again: next to one that grew where it grew beside their open
     * floor not reached yet (so each look takes in something). The row above is taken at
     * once when it takes in something, else the dirty rows, lowest first: the reach is the
     * same in any order. */
    uint64_t dirty = 0;
    for (;;) {
        if (grown & open[y + 1] & ~reach[y + 1]) dirty |= (uint64_t)1 << (y + 1);
        if (grown & open[y - 1] & ~reach[y - 1]) {
            y--;
            dirty &= ~((uint64_t)1 << y);
        } else {
            if (dirty == 0) break;
            y = __builtin_ctzll(dirty);
            dirty &= dirty - 1;
        }
        if (y < lowest) lowest = y;
        /* reach[y] holds whole runs of open[y]: only the new ones need filling */
        uint64_t left = open[y] & ~reach[y];
        grown = fill_runs((reach[y - 1] | reach[y + 1]) & left, left);
        reach[y] |= grown;
    }
    return lowest * r->width + __builtin_ctzll(reach[lowest]);
}

int solver_rows_flood(solver_rows *r, int from)
{
    return solver_rows_flood_into(r, from, r->reach);
}

void solver_rows_corrals(const solver_rows *r, uint64_t *free, uint64_t *done)
{
    for (int y = 0; y < r->height; y++) {
        free[y] = r->open[y] & ~r->reach[y];
        done[y] = 0;
    }
}

void solver_rows_corral(const solver_rows *r, const uint64_t *free, int start, uint64_t *corral,
                        uint64_t *barrier, uint64_t *done)
{
    solver_rows_flood_within(r, free, start, corral);
    barrier[0] = barrier[r->height - 1] = 0;
    for (int y = 1; y < r->height - 1; y++) {
        done[y] |= corral[y];
        uint64_t next = corral[y] << 1 | corral[y] >> 1 | corral[y - 1] | corral[y + 1];
        barrier[y] = next & r->floor[y] & ~r->open[y];
    }
}

int solver_rows_regions(const solver_rows *r, bool but_reach, uint64_t *left, uint64_t *region)
{
    int regions = 0;
    for (int y = 0; y < r->height; y++) left[y] = r->open[y] & ~(but_reach ? r->reach[y] : 0);
    for (int y = 1; y < r->height - 1; y++) {
        while (left[y] != 0) {
            solver_rows_flood_into(r, y * r->width + __builtin_ctzll(left[y]), region);
            for (int k = y; k < r->height; k++) left[k] &= ~region[k];
            regions++;
        }
    }
    return regions;
}

int solver_rows_regions_beside(const solver_rows *r, uint64_t *free, int square, uint64_t *region)
{
    const int sides[DIRECTION_COUNT] = {-1, -r->width, 1, r->width};
    int side[DIRECTION_COUNT], count = 0;
    for (int d = 0; d < DIRECTION_COUNT; d++)
        if (solver_rows_has(r, free, square + sides[d])) side[count++] = square + sides[d];
    /* each side not in a region flooded before is one more; the last needs no flood */
    int regions = 0;
    for (int k = 0; k < count; k++) {
        if (!solver_rows_has(r, free, side[k])) continue;
        regions++;
        if (k == count - 1) break;
        solver_rows_flood_within(r, free, side[k], region);
        for (int y = 0; y < r->height; y++) free[y] &= ~region[y];
    }
    return regions;
}

/* A box's flood: row y of `reach` takes in what a box gets to from the squares `seeds` of
 * that row newly reached, along the row. A push right needs the square left of the box
 * free; after the first, each push right has the square the box came from behind it, so
 * the box goes on to the end of the run of `live` squares; the same to the left. */
static inline uint64_t box_along_row(uint64_t seeds, uint64_t free, uint64_t live)
{
    uint64_t right = ((seeds & (free << 1)) << 1) & live;
    uint64_t left = ((seeds & (free >> 1)) >> 1) & live;
    seeds |= run_up(right, live);
    /* most pushes to the left end at once: the shifts only where there is a square more */
    if (left & (live << 1)) return seeds | run_down(left, live);
    return seeds | left;
}

/* Row y of the open floor with the box on `origin` (row origin_y, bit origin_bit) gone. */
static inline uint64_t open_but_origin(const solver_rows *r, int y, int origin_y,
                                       uint64_t origin_bit)
{
    return r->open[y] | (y == origin_y ? origin_bit : 0);
}

bool solver_rows_box_reaches(const solver_rows *r, const uint64_t *live, const uint64_t *targets,
                             int origin, uint64_t *reach)
{
    int height = r->height, origin_y = r->row[origin];
    uint64_t origin_bit = (uint64_t)1 << r->column[origin];
    reach[origin_y] = box_along_row(origin_bit, open_but_origin(r, origin_y, origin_y, origin_bit),
                                    r->open[origin_y] & live[origin_y]);
    bool found = reach[origin_y] & ~origin_bit & targets[origin_y];
    /* the rows that grew (to clear at the end), and those to look at again: next to one
     * that grew where a push from it might reach */
    uint64_t grew = (uint64_t)1 << origin_y, dirty = grew;
    int y = origin_y;
    uint64_t grown = reach[y];
    while (!found) {
        /* pushes up into row y - 1, the player on row y + 1; down into y + 1 (row y has
         * floor: rows y - 1 and y + 1 are on the board) */
        if (grown & open_but_origin(r, y + 1, origin_y, origin_bit) & r->open[y - 1] & live[y - 1] &
            ~reach[y - 1])
            dirty |= (uint64_t)1 << (y - 1);
        if (grown & open_but_origin(r, y - 1, origin_y, origin_bit) & r->open[y + 1] & live[y + 1] &
            ~reach[y + 1])
            dirty |= (uint64_t)1 << (y + 1);
        dirty &= ~((uint64_t)1 << y);
        if (dirty == 0) break;
        y = __builtin_ctzll(dirty);
        uint64_t seeds = 0;
        if (y + 2 < height) seeds |= reach[y + 1] & open_but_origin(r, y + 2, origin_y, origin_bit);
        if (y >= 2) seeds |= reach[y - 1] & open_but_origin(r, y - 2, origin_y, origin_bit);
        uint64_t to = r->open[y] & live[y];
        seeds &= to & ~reach[y];
        grown = box_along_row(seeds, open_but_origin(r, y, origin_y, origin_bit), to) & ~reach[y];
        found = grown & targets[y];
        reach[y] |= grown;
        grew |= (uint64_t)1 << y;
    }
    for (; grew != 0; grew &= grew - 1) reach[__builtin_ctzll(grew)] = 0;
    return found;
}

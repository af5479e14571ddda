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

/* The runs of `open` that hold a square of `seeds` (which lie in it), whole: upwards by the
 * carry of an addition, downwards by shifts doubling in length (Kogge-Stone), which stop
 * once no run of floor is as long as the next shift (most are short). */
static inline uint64_t fill_runs(uint64_t seeds, uint64_t open)
{
    uint64_t up = (((open + seeds) ^ open) & open) | seeds;
    uint64_t down = seeds, run = open; /* run: squares with the next `by` below them open */
    for (int by = 1; by < 64; by *= 2) {
        down |= run & (down >> by);
        run &= run >> by;
        if (run == 0) break;
    }
    return up | down;
}

/* Takes into row y of `reach` what the rows above and below reach into it; true when it
 * grew. */
static inline bool spread(const uint64_t *open, uint64_t *reach, int y)
{
    uint64_t seeds = (reach[y - 1] | reach[y + 1]) & open[y] & ~reach[y];
    if (seeds == 0) return false;
    reach[y] = fill_runs(reach[y] | seeds, open[y]);
    return true;
}

int solver_rows_flood_into(const solver_rows *r, int from, uint64_t *reach)
{
    return solver_rows_flood_within(r, r->open, from, reach);
}

int solver_rows_flood_within(const solver_rows *r, const uint64_t *open, int from, uint64_t *reach)
{
    /* the rows kept have a row of wall above and below: no floor lies on the board's edge */
    memset(reach, 0, (size_t)r->height * sizeof *reach);
    int y = r->row[from];
    reach[y] = fill_runs((uint64_t)1 << r->column[from], open[y]);
    /* the rows to look at again: next to one that grew; lowest first */
    uint64_t dirty = ((uint64_t)1 << (y - 1)) | ((uint64_t)1 << (y + 1));
    uint64_t edges = ((uint64_t)1 << 0) | ((uint64_t)1 << (r->height - 1));
    while ((dirty &= ~edges) != 0) {
        y = __builtin_ctzll(dirty);
        dirty &= dirty - 1;
        if (spread(open, reach, y)) dirty |= ((uint64_t)1 << (y - 1)) | ((uint64_t)1 << (y + 1));
    }
    y = 1;
    while (reach[y] == 0) y++; /* stops: the row of `from` has a square */
    return y * r->width + __builtin_ctzll(reach[y]);
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

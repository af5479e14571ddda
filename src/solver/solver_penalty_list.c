/* solver_penalty_list.c - a position's pairs and triples with a penalty, chosen so that no
 * box is in two, and kept along a search's path (solver_penalty.h). */
#include "solver_penalty.h"

#include <stdlib.h>
#include <string.h>

enum {
    /* the squares SOLVER_PENALTY_TRIPLE_REACH apart from one, or less, along the axes */
    TRIPLES_NEAR = 2 * SOLVER_PENALTY_TRIPLE_REACH * (SOLVER_PENALTY_TRIPLE_REACH + 1),
};

/* ---- a position's pairs ---------------------------------------------------------------- */

/* the scan's places after a box (scan_place) fit under 64 */
_Static_assert(SOLVER_PENALTY_REACH + SOLVER_PENALTY_REACH * SOLVER_PENALTY_REACH <= 64,
               "the scan's places fit in an order's low bits");

/* The place of a square dx, dy from a box in the scan of the squares after it within the
 * reach (row by row, dy >= 0, and dx > 0 on the box's own row), from 0. */
static uint32_t scan_place(int dx, int dy)
{
    uint32_t place = 0;
    for (int row = 0; row < dy; row++)
        place += row ? 2 * (uint32_t)(SOLVER_PENALTY_REACH - row) + 1 : SOLVER_PENALTY_REACH;
    int reach = SOLVER_PENALTY_REACH - dy;
    return place + (uint32_t)(dy ? dx + reach : dx - 1);
}

/* True when pair x goes before y: the larger penalty first, then the scan's order (a
 * triple's is its pair's), then the third box (a pair's -1 first). */
static bool before(const solver_penalty_pair *x, const solver_penalty_pair *y)
{
    return x->penalty > y->penalty ||
           (x->penalty == y->penalty &&
            (x->order < y->order || (x->order == y->order && x->third < y->third)));
}

/* True when the entry holds box i. */
static inline bool holds(const solver_penalty_pair *x, int i)
{
    return x->first == i || x->second == i || x->third == i;
}

/* Puts `pair` into the list of `found` pairs kept in that order; the list has room. */
static void insert_pair(solver_penalty_pair *pairs, int found, solver_penalty_pair pair)
{
    int at = found;
    while (at > 0 && before(&pair, &pairs[at - 1])) {
        pairs[at] = pairs[at - 1];
        at--;
    }
    pairs[at] = pair;
}

/* The sum over the pairs in order, each taken unless it shares a box with one taken: the
 * largest first, ties in the scan's order, as a repeated choice of the largest would. */
static int take_pairs(solver_penalties *p, const solver_penalty_pair *pairs, int found)
{
    int total = 0;
    for (int k = 0; k < found; k++) {
        const solver_penalty_pair *pair = pairs + k;
        if (p->taken[pair->first] || p->taken[pair->second] ||
            (pair->third >= 0 && p->taken[pair->third]))
            continue;
        total += pair->penalty;
        p->taken[pair->first] = p->taken[pair->second] = 1;
        if (pair->third >= 0) p->taken[pair->third] = 1;
    }
    for (int k = 0; k < found; k++) {
        p->taken[pairs[k].first] = p->taken[pairs[k].second] = 0;
        if (pairs[k].third >= 0) p->taken[pairs[k].third] = 0;
    }
    return total;
}

/* Room in p->pairs for `found` + 1 pairs. */
static bool pairs_room(solver_penalties *p, int found)
{
    if (found < p->pairs_room) return true;
    int room = p->pairs_room ? 2 * p->pairs_room : 64;
    solver_penalty_pair *pairs = realloc(p->pairs, (size_t)room * sizeof *pairs);
    if (!pairs) return false;
    p->pairs = pairs;
    p->pairs_room = room;
    return true;
}

/* True when squares a and b are SOLVER_PENALTY_TRIPLE_REACH apart or less, along the axes. */
static bool near(const board *board, int a, int b)
{
    int dx = board_x(board, a) - board_x(board, b), dy = board_y(board, a) - board_y(board, b);
    return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy) <= SOLVER_PENALTY_TRIPLE_REACH;
}

/* The triple of `pair` (a pair with a penalty) and box k: its entry when its penalty is
 * larger than the pair's, else one with penalty 0. */
static solver_penalty_pair triple_of(solver_penalties *p, solver_penalty_pair pair, int k,
                                     const int *box_square, int player)
{
    int penalty = solver_penalties_triple(p, box_square[pair.first], box_square[pair.second],
                                          box_square[k], player);
    pair.third = k;
    pair.penalty = penalty > pair.penalty ? penalty : 0;
    if (pair.penalty > 0) p->triples_taken++;
    return pair;
}

/* Adds to `pairs` (`found` kept, room for `room`) the triples of `pair` with every other box
 * near either of its boxes, but `only` when it is not -1; the new count, -1 when they do not
 * fit. */
static int add_triples(solver_penalties *p, solver_penalty_pair *pairs, int found, int room,
                       solver_penalty_pair pair, int only, const int *box_square,
                       const int *box_at, int player)
{
    if (!p->triples) return found;
    const board *board = p->board;
    if (only >= 0) {
        solver_penalty_pair triple = triple_of(p, pair, only, box_square, player);
        if (triple.penalty <= 0) return found;
        if (found >= room) return -1;
        insert_pair(pairs, found++, triple);
        return found;
    }
    for (int side = 0; side < 2; side++) {
        int square = box_square[side ? pair.second : pair.first];
        int x = board_x(board, square), y = board_y(board, square);
        for (int dy = -SOLVER_PENALTY_TRIPLE_REACH; dy <= SOLVER_PENALTY_TRIPLE_REACH; dy++) {
            int reach = SOLVER_PENALTY_TRIPLE_REACH - (dy < 0 ? -dy : dy);
            for (int dx = -reach; dx <= reach; dx++) {
                int ox = x + dx, oy = y + dy;
                if (ox < 0 || ox >= board->width || oy < 0 || oy >= board->height) continue;
                int k = box_at[oy * board->width + ox];
                if (k < 0 || k == pair.first || k == pair.second) continue;
                /* met from the first box already */
                if (side && near(board, box_square[pair.first], box_square[k])) continue;
                solver_penalty_pair triple = triple_of(p, pair, k, box_square, player);
                if (triple.penalty <= 0) continue;
                if (found >= room) return -1;
                insert_pair(pairs, found++, triple);
            }
        }
    }
    return found;
}

/* Every pair of boxes near each other with a penalty, in order, into p->pairs; how many, or
 * -1 when out of memory. */
static int scan_pairs(solver_penalties *p, const int *box_square, const int *box_at, int count,
                      int player)
{
    const board *board = p->board;
    int found = 0;
    for (int i = 0; i < count; i++) {
        int square = box_square[i], x = board_x(board, square), y = board_y(board, square);
        /* the boxes after this one in square order, within the reach */
        for (int dy = 0; dy <= SOLVER_PENALTY_REACH; dy++) {
            int reach = SOLVER_PENALTY_REACH - dy;
            for (int dx = dy ? -reach : 1; dx <= reach; dx++) {
                int ox = x + dx, oy = y + dy;
                if (ox < 0 || ox >= board->width || oy >= board->height) continue;
                int j = box_at[oy * board->width + ox];
                if (j < 0) continue;
                int penalty = solver_penalties_pair(p, square, box_square[j], player);
                if (penalty <= 0) continue;
                if (!pairs_room(p, found)) return -1;
                solver_penalty_pair pair = {(uint32_t)i * 64 + scan_place(dx, dy), i, j, -1,
                                            penalty};
                insert_pair(p->pairs, found++, pair);
                /* room for a triple with every box near either of the two */
                while (p->pairs_room < found + 2 * TRIPLES_NEAR)
                    if (!pairs_room(p, p->pairs_room)) return -1;
                found = add_triples(p, p->pairs, found, p->pairs_room, pair, -1, box_square,
                                    box_at, player);
                if (found < 0) return -1;
            }
        }
    }
    return found;
}

int solver_penalties_near(solver_penalties *p, const int *box_square, const int *box_at, int count,
                          int player)
{
    int found = scan_pairs(p, box_square, box_at, count, player);
    return found < 0 ? 0 : take_pairs(p, p->pairs, found);
}

/* Room for the lists of `depth`; false when out of memory. */
static bool level_room(solver_penalties *p, int depth)
{
    if (depth < p->level_room) return true;
    int room = p->level_room ? 2 * p->level_room : 256;
    while (room <= depth) room *= 2;
    solver_penalty_level *levels = realloc(p->levels, (size_t)room * sizeof *levels);
    if (!levels) return false;
    p->levels = levels;
    for (int d = p->level_room; d < room; d++) p->levels[d] = (solver_penalty_level){.count = -1};
    solver_penalty_pair *pairs =
        realloc(p->level_pairs, (size_t)room * SOLVER_PENALTY_LEVEL_PAIRS * sizeof *pairs);
    if (!pairs) return false;
    p->level_pairs = pairs;
    p->level_room = room;
    return true;
}

/* The moved box's pairs with a penalty added to the `found` pairs in `pairs` (room for
 * SOLVER_PENALTY_LEVEL_PAIRS); the new count, or -1 when they do not fit. */
static int moved_pairs(solver_penalties *p, solver_penalty_pair *pairs, int found, int moved,
                       const int *box_square, const int *box_at, int player)
{
    const board *board = p->board;
    int square = box_square[moved], x = board_x(board, square), y = board_y(board, square);
    for (int dy = -SOLVER_PENALTY_REACH; dy <= SOLVER_PENALTY_REACH; dy++) {
        int reach = SOLVER_PENALTY_REACH - (dy < 0 ? -dy : dy);
        for (int dx = -reach; dx <= reach; dx++) {
            int ox = x + dx, oy = y + dy;
            if ((dx == 0 && dy == 0) || ox < 0 || ox >= board->width || oy < 0 ||
                oy >= board->height)
                continue;
            int j = box_at[oy * board->width + ox];
            if (j < 0) continue;
            int penalty = solver_penalties_pair(p, square, box_square[j], player);
            if (penalty <= 0) continue;
            if (found >= SOLVER_PENALTY_LEVEL_PAIRS) return -1;
            /* the scan meets the pair at the box on the lesser square */
            bool first = dy > 0 || (dy == 0 && dx > 0);
            solver_penalty_pair pair = {first ? (uint32_t)moved * 64 + scan_place(dx, dy)
                                              : (uint32_t)j * 64 + scan_place(-dx, -dy),
                                        first ? moved : j, first ? j : moved, -1, penalty};
            insert_pair(pairs, found++, pair);
            found = add_triples(p, pairs, found, SOLVER_PENALTY_LEVEL_PAIRS, pair, -1, box_square,
                                box_at, player);
            if (found < 0) return -1;
        }
    }
    return found;
}

int solver_penalties_at(solver_penalties *p, int depth, uint64_t key, uint64_t parent_key,
                        int moved, const int *box_square, const int *box_at, int count, int player)
{
    if (depth < 0 || !level_room(p, depth))
        return solver_penalties_near(p, box_square, box_at, count, player);
    solver_penalty_level *level = p->levels + depth;
    solver_penalty_pair *pairs = p->level_pairs + (size_t)depth * SOLVER_PENALTY_LEVEL_PAIRS;
    const solver_penalty_level *parent = depth > 0 ? level - 1 : NULL;
    int found = -1;
    if (moved >= 0 && parent && parent->count >= 0 && parent->key == parent_key) {
        const solver_penalty_pair *above = pairs - SOLVER_PENALTY_LEVEL_PAIRS;
        found = 0;
        for (int k = 0; k < parent->count; k++)
            if (!holds(&above[k], moved)) pairs[found++] = above[k];
        /* the moved box as the third of the pairs kept */
        for (int k = 0; k < parent->count && found >= 0; k++) {
            solver_penalty_pair pair = above[k];
            if (holds(&pair, moved) || pair.third >= 0) continue;
            if (!near(p->board, box_square[pair.first], box_square[moved]) &&
                !near(p->board, box_square[pair.second], box_square[moved]))
                continue;
            found = add_triples(p, pairs, found, SOLVER_PENALTY_LEVEL_PAIRS, pair, moved,
                                box_square, box_at, player);
        }
        if (found >= 0) found = moved_pairs(p, pairs, found, moved, box_square, box_at, player);
        if (found >= 0) p->repaired++;
    }
    if (found < 0) {
        found = scan_pairs(p, box_square, box_at, count, player);
        if (found < 0) {
            *level = (solver_penalty_level){.count = -1};
            return 0;
        }
        if (found <= SOLVER_PENALTY_LEVEL_PAIRS) {
            if (found > 0) /* p->pairs is null before the first pair is found */
                memcpy(pairs, p->pairs, (size_t)found * sizeof *pairs);
        } else {
            *level = (solver_penalty_level){.count = -1};
            return take_pairs(p, p->pairs, found);
        }
    }
    *level = (solver_penalty_level){.key = key, .player = player, .count = found};
    return take_pairs(p, pairs, found);
}

int solver_penalties_kept(solver_penalties *p, int depth, uint64_t parent_key, int moved,
                          int player)
{
    if (depth < 1 || depth > p->level_room || moved < 0) return 0;
    const solver_penalty_level *parent = p->levels + depth - 1;
    if (parent->count <= 0 || parent->key != parent_key || parent->player != player) return 0;
    const solver_penalty_pair *pairs =
        p->level_pairs + (size_t)(depth - 1) * SOLVER_PENALTY_LEVEL_PAIRS;
    int total = 0;
    for (int k = 0; k < parent->count; k++) {
        const solver_penalty_pair *pair = pairs + k;
        if (p->taken[pair->first] || p->taken[pair->second] ||
            (pair->third >= 0 && p->taken[pair->third]))
            continue;
        /* the parent's choice (take_pairs), less the moved box's pair */
        if (!holds(pair, moved)) total += pair->penalty;
        p->taken[pair->first] = p->taken[pair->second] = 1;
        if (pair->third >= 0) p->taken[pair->third] = 1;
    }
    for (int k = 0; k < parent->count; k++) {
        p->taken[pairs[k].first] = p->taken[pairs[k].second] = 0;
        if (pairs[k].third >= 0) p->taken[pairs[k].third] = 0;
    }
    return total;
}

/* solver_floor_tree.c - the player's floor as a depth-first tree with low points. */
#include "solver_floor_tree.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

bool solver_floor_tree_init(solver_floor_tree *tree, const board *board)
{
    size_t size = (size_t)board->size;
    *tree = (solver_floor_tree){
        .board = board,
        .order = calloc(size, sizeof *tree->order),
        .low = malloc(size * sizeof *tree->low),
        .last = malloc(size * sizeof *tree->last),
        .parent = malloc(size * sizeof *tree->parent),
        .next = malloc(size),
    };
    if (!tree->order || !tree->low || !tree->last || !tree->parent || !tree->next) {
        solver_floor_tree_free(tree);
        return false;
    }
    tree->first = 1; /* no square reached */
    return true;
}

void solver_floor_tree_free(solver_floor_tree *tree)
{
    free(tree->order);
    free(tree->low);
    free(tree->last);
    free(tree->parent);
    free(tree->next);
    *tree = (solver_floor_tree){0};
}

/* One depth-first walk without a stack: the tree's parent links lead back up, and `next`
 * keeps where each square's walk stopped. The directions are tried in their order, so the
 * tree is the one a recursive walk from `root` draws. A square is reached when its number
 * is this walk's (solver_floor_tree.h): one load tells both whether and where. The arrays
 * are read through locals: a byte store to `next` may alias anything, and would have
 * every field of `t` and `b` read again after it. */
void solver_floor_tree_build(solver_floor_tree *t, const uint8_t *boxes, int origin, int root)
{
    const board *b = t->board;
    int *order = t->order, *low = t->low, *last = t->last, *parent = t->parent;
    /* the last walk numbered up to at most first + size - 1 */
    if (t->first > INT_MAX - 2 * b->size) {
        memset(order, 0, (size_t)b->size * sizeof *order);
        t->first = 1;
    } else {
        t->first += b->size;
    }
    const int first = t->first;
    uint8_t *resume = t->next;
    const uint8_t *flags = b->flags;
    const int delta[DIRECTION_COUNT] = {b->delta[0], b->delta[1], b->delta[2], b->delta[3]};
    int count = first, square = root, d = 0;
    order[root] = low[root] = count;
    parent[root] = -1;
    for (;;) {
        if (d < DIRECTION_COUNT) {
            int next = square + delta[d++];
            int seen = order[next];
            if (seen >= first) {
                /* an edge off the tree climbs to `next` (the edge to the parent is the tree's) */
                if (seen < low[square] && next != parent[square]) low[square] = seen;
                continue;
            }
            if (!(flags[next] & BOARD_INSIDE) || (boxes[next] && next != origin)) continue;
            order[next] = low[next] = ++count;
            parent[next] = square;
            resume[square] = (uint8_t)d;
            square = next;
            d = 0;
            continue;
        }
        /* the subtree is done: its numbers run up to the last given */
        last[square] = count;
        int up = parent[square];
        if (up < 0) break;
        if (low[square] < low[up]) low[up] = low[square];
        square = up;
        d = resume[square];
    }
}

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
 * every field of `t` and `b` read again after it. The four directions are written out
 * (STEP), each with its step in a register, and a walk back up resumes at its square's next
 * direction by the switch; the square's low point and parent are kept in locals while it
 * is walked from, and stored when the walk leaves it. */
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
    const int d0 = b->delta[0], d1 = b->delta[1], d2 = b->delta[2], d3 = b->delta[3];
    int count = first, square = root, d = 0;
    int lo = count, up = -1; /* low[square] and parent[square] while the walk is at square */
    order[root] = count;
    parent[root] = -1;
    for (;;) {
        /* Tries direction K (step DK) from `square`: an edge off the tree climbs to `next`
         * (the edge to the parent is the tree's), or the walk goes down to `next`. */
#define STEP(K, DK)                                                                              \
    case K: {                                                                                    \
        int next = square + (DK);                                                                \
        int seen = order[next];                                                                  \
        if (seen >= first) {                                                                     \
            if (seen < lo && next != up) lo = seen;                                              \
        } else if ((flags[next] & BOARD_INSIDE) && (!boxes[next] || next == origin)) {           \
            low[square] = lo;                                                                    \
            resume[square] = (uint8_t)((K) + 1);                                                 \
            order[next] = lo = ++count;                                                          \
            parent[next] = up = square;                                                          \
            square = next;                                                                       \
            d = 0;                                                                               \
            continue;                                                                            \
        }                                                                                        \
    }                                                                                            \
        __attribute__((fallthrough));
        switch (d) {
            STEP(0, d0)
            STEP(1, d1)
            STEP(2, d2)
            STEP(3, d3)
        default:
            break;
        }
#undef STEP
        /* the subtree is done: its numbers run up to the last given */
        last[square] = count;
        low[square] = lo;
        if (up < 0) break;
        int above = low[up];
        lo = lo < above ? lo : above;
        square = up;
        up = parent[square];
        d = resume[square];
    }
}

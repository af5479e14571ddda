/* solver_floor_tree.c - the player's floor as a depth-first tree with low points. */
#include "solver_floor_tree.h"

#include <stdlib.h>
#include <string.h>

bool solver_floor_tree_init(solver_floor_tree *tree, const board *board)
{
    size_t size = (size_t)board->size;
    *tree = (solver_floor_tree){
        .board = board,
        .mark = calloc(size, sizeof *tree->mark),
        .order = malloc(size * sizeof *tree->order),
        .low = malloc(size * sizeof *tree->low),
        .last = malloc(size * sizeof *tree->last),
        .parent = malloc(size * sizeof *tree->parent),
        .next = malloc(size),
        .stack = malloc(size * sizeof *tree->stack),
    };
    if (!tree->mark || !tree->order || !tree->low || !tree->last || !tree->parent || !tree->next ||
        !tree->stack) {
        solver_floor_tree_free(tree);
        return false;
    }
    return true;
}

void solver_floor_tree_free(solver_floor_tree *tree)
{
    free(tree->mark);
    free(tree->order);
    free(tree->low);
    free(tree->last);
    free(tree->parent);
    free(tree->next);
    free(tree->stack);
    *tree = (solver_floor_tree){0};
}

static inline bool is_floor(const board *b, const uint8_t *boxes, int square, int origin)
{
    return board_is_inside(b, square) && (!boxes[square] || square == origin);
}

void solver_floor_tree_build(solver_floor_tree *t, const uint8_t *boxes, int origin, int root)
{
    const board *b = t->board;
    if (++t->stamp == 0) {
        memset(t->mark, 0, (size_t)b->size * sizeof *t->mark);
        t->stamp = 1;
    }
    int count = 0, top = 0;
    t->mark[root] = t->stamp;
    t->order[root] = t->low[root] = ++count;
    t->parent[root] = -1;
    t->next[root] = 0;
    t->stack[top++] = root;
    while (top > 0) {
        int square = t->stack[top - 1];
        if (t->next[square] == DIRECTION_COUNT) {
            /* the subtree is done: its numbers run up to the last given */
            top--;
            t->last[square] = count;
            int parent = t->parent[square];
            if (parent >= 0 && t->low[square] < t->low[parent]) t->low[parent] = t->low[square];
            continue;
        }
        int next = square + b->delta[t->next[square]++];
        if (!is_floor(b, boxes, next, origin)) continue;
        if (t->mark[next] != t->stamp) {
            t->mark[next] = t->stamp;
            t->order[next] = t->low[next] = ++count;
            t->parent[next] = square;
            t->next[next] = 0;
            t->stack[top++] = next;
        } else if (next != t->parent[square] && t->order[next] < t->low[square]) {
            t->low[square] = t->order[next];
        }
    }
}

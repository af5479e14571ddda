/* solver_floor_tree.h - where a box cuts the player's floor in two: a depth-first tree of
 * the floor with its low points (Hopcroft and Tarjan's articulation points).
 *
 * A box moving alone among boxes that stand still is searched over (box square, player
 * side) states; at each square the player may walk round it, or the box may cut his floor
 * in two. One depth-first walk of the floor, the moving box taken away, answers that for
 * every square at once: with the box on square x, the floor falls into the subtrees of x's
 * children whose low point does not climb above x, each a part of its own, and the rest.
 * A flood per square costs as many steps as the floor has squares; the answer here costs a
 * few comparisons. Part of the solver (solver.h); internal to it. */
#ifndef SOKOBAN_SOLVER_FLOOR_TREE_H
#define SOKOBAN_SOLVER_FLOOR_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/board.h"

/* A part of solver_floor_tree_part(): the square is no floor the player reaches. */
enum { SOLVER_FLOOR_NONE = -1, SOLVER_FLOOR_ROOT = -2 };

typedef struct solver_floor_tree {
    const board *board;
    /* Per square: its number in the walk. The numbers go on rising from walk to walk, so a
     * square the last walk reached is one numbered from `first` up: nothing is cleared
     * between walks (only when the numbers would overflow). */
    int *order;
    int *low;      /* the least number its subtree reaches by one edge off the tree */
    int *last;     /* the greatest number in its subtree */
    int *parent;   /* in the tree, -1 for the root */
    uint8_t *next; /* the next direction the walk tries from the square */
    int first;     /* the root's number in the last walk */
} solver_floor_tree;

bool solver_floor_tree_init(solver_floor_tree *tree, const board *board);
void solver_floor_tree_free(solver_floor_tree *tree);

/* Walks the floor from `root`: the squares inside the board and free of boxes (`boxes`, one
 * byte per square), the box on `origin` (-1: none) counting as gone. */
void solver_floor_tree_build(solver_floor_tree *tree, const uint8_t *boxes, int origin, int root);

/* True when the last walk reached `square`. */
static inline bool solver_floor_tree_reached(const solver_floor_tree *t, int square)
{
    return t->order[square] >= t->first;
}

/* The part of the floor that holds `square` when a box stands on `cut`, the squares of
 * other parts unreachable from it: SOLVER_FLOOR_NONE when `square` is not floor the walk
 * reached, else a number equal for two squares exactly when the player walks between them
 * round the box (a box off the floor walked cuts nothing of it). */
static inline int solver_floor_tree_part(const solver_floor_tree *t, int cut, int square)
{
    if (!solver_floor_tree_reached(t, square)) return SOLVER_FLOOR_NONE;
    /* a child of cut (the usual neighbour): its own subtree, found without the loop below */
    if (t->parent[square] == cut)
        return t->parent[cut] < 0 || t->low[square] >= t->order[cut] ? square : SOLVER_FLOOR_ROOT;
    if (!solver_floor_tree_reached(t, cut)) return SOLVER_FLOOR_ROOT;
    int at = t->order[square];
    if (at <= t->order[cut] || at > t->last[cut]) return SOLVER_FLOOR_ROOT; /* not below cut */
    const board *b = t->board;
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        int child = cut + b->delta[d];
        if (!solver_floor_tree_reached(t, child) || t->parent[child] != cut ||
            at < t->order[child] || at > t->last[child])
            continue;
        /* that child's subtree is cut off unless an edge climbs from it above the box */
        bool apart = t->parent[cut] < 0 || t->low[child] >= t->order[cut];
        return apart ? child : SOLVER_FLOOR_ROOT;
    }
    return SOLVER_FLOOR_ROOT; /* not reached: a square below cut is below one of its children */
}

#endif

/* solver_macro.h - macro moves of the solver: several pushes searched as one.
 *
 * Tunnel macros (Junghanns & Schaeffer 2001): a box pushed into a one-square-wide corridor,
 * with the player in the corridor behind it, can only go on or come back, and blocks the
 * corridor either way; so it is pushed on until it leaves the corridor, reaches a goal or
 * meets an obstacle, and the squares in between are never searched as states.
 *
 * Goal-room macros (the same paper's goal macros; fast mode only, as they may cost pushes):
 * when all goals lie in one room entered by one or two door squares, a box pushed onto a door
 * is taken straight on to the free goal that the packing order wants filled next, by the
 * fewest pushes, instead of being searched square by square. Part of the solver (solver.h);
 * internal to it. */
#ifndef SOKOBAN_SOLVER_MACRO_H
#define SOKOBAN_SOLVER_MACRO_H

#include <stdint.h>

#include "rules/board.h"
#include "solver_bound.h"
#include "solver_floor_tree.h"
#include "solver_options.h"

/* The number of pushes (1 or more) the push of the box on `square` in direction `d` makes
 * as a macro, given the boxes (one byte per square) before the push; the box stops on
 * a square marked in `stop` (a goal room's doors; may be NULL). */
int solver_macro_tunnel_length(const board *board, const uint8_t *boxes,
                               const solver_distances *distances, int square, direction d,
                               const uint8_t *stop);

/* Marks in `rest` (one byte per square) the squares a box can be left on, for parking (YASS's
 * rule for its parking squares): 0 on walls and dead squares, and on a square off the goals
 * that a box enters from a one-wide corridor (walls on both sides across the push) and can
 * then not be pushed across: it can only go on along the corridor, and left there it shuts
 * the way; 1 elsewhere. */
void solver_macro_rest_squares(const board *board, const solver_distances *distances,
                               uint8_t *rest);

/* Work space of one box's breadth-first search over (box square, player side) states, the
 * other boxes standing still (one per search: not shared between threads). */
typedef struct solver_box_search {
    const board *board;
    int *goal_of;           /* goal index per square, -1 elsewhere */
    uint32_t *visit;        /* per (square, side) state, == visit_stamp when visited */
    int *parent;            /* per state: the state it came from, -1 for the first */
    int *queue;             /* of states */
    solver_floor_tree tree; /* the player's floor with the box taken away */
    uint32_t visit_stamp;
} solver_box_search;

bool solver_box_search_init(solver_box_search *search, const board *board);
void solver_box_search_free(solver_box_search *search);

/* The fewest pushes that take the box on `origin` to an empty goal g with
 * layer[g] == `target`, the other boxes (`boxes`, one byte per square, the box on `origin`
 * among them) standing still and the player starting on `player`. The box never enters a
 * dead square nor, when `allowed` is not NULL, a square it does not mark. Writes the pushes
 * (box square * 4 + direction) to `pushes` and returns their number: 0 when there is no way
 * or more than `capacity` pushes. *goal is where the box ends. */
int solver_box_search_to_layer(solver_box_search *search, const solver_distances *distances,
                               const uint8_t *boxes, int origin, int player, const uint8_t *allowed,
                               const int *layer, int target, uint32_t *pushes, int capacity,
                               int *goal);

/* Every state the box on `origin` gets to, the other boxes standing still and the player
 * starting on `player`, never on a dead square: returns their number, in search->queue
 * (state: box square * 4 + the side the player stands on), the first the box where it
 * stands, the others in the order of their pushes (fewest first). Valid until the next
 * search. */
int solver_box_search_all(solver_box_search *search, const solver_distances *distances,
                          const uint8_t *boxes, int origin, int player);
/* The pushes (box square * 4 + direction) from the last search's start to its state
 * `state`, written to `pushes`; their number, 0 when more than `capacity`. */
int solver_box_search_path(const solver_box_search *search, int state, uint32_t *pushes,
                           int capacity);

/* A room holding every goal, entered through one or two door squares, and the work space
 * of its macro (so one per search: not shared between threads). */
typedef struct solver_goal_room {
    int doors;                /* 0: the level has no such room */
    uint8_t *is_door;         /* per square */
    uint8_t *in_room;         /* per square; the doors are not in the room */
    int *layer;               /* packing layer per goal index (solver_macro_packing_layers) */
    solver_box_search search; /* the macro's */
} solver_goal_room;

/* Looks for the goal room of `board` with the player on `player` and no box off its goal
 * in the room. False when out of memory or when `stop` (may be NULL) says to give up;
 * room->doors is 0 when there is none. */
bool solver_goal_room_init(solver_goal_room *room, const board *board, const position *start,
                           const solver_distances *distances, const solver_stop *stop);
void solver_goal_room_free(solver_goal_room *room);

/* A box stands on `door`, just pushed there from `from` in direction `d` by the player (on
 * the square behind it); `boxes` has one byte per square. When `door` is a door and the
 * push points into the room, writes the pushes (solver_move encoding: box square * 4 +
 * direction) that take the box inside the room to the goal to fill next (an empty goal of
 * the highest packing layer that has one) and returns their number; 0 when there is no
 * such way, or when that way takes the box back to `from` (a goal of the room it was
 * pushed off): no macro then. */
int solver_goal_room_macro(solver_goal_room *room, const board *board,
                           const solver_distances *distances, const uint8_t *boxes, int from,
                           int door, direction d, uint32_t *pushes, int capacity);

#endif

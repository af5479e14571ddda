/* deadlock.h - deadlock analysis: positions from which the level can no longer be solved.
 *
 * Serves two callers. The solver prunes with it in its inner loop (deadlock_check_push,
 * no allocation, reads only around the pushed box); the game tells the player why a
 * position is lost (deadlock_check_position, with the reason and the boxes involved).
 *
 * Two kinds of deadlock are found:
 *   - dead squares, computed once per level (deadlock_table): floor squares from which a
 *     box can never reach any goal, whatever the other boxes do. Each keeps the simplest
 *     rule that explains it: a corner, a dead wall, or just unreachable by pushes;
 *   - blocks, per position: a 2x2 square of walls and boxes with a box off its goal, and
 *     frozen boxes (boxes that can move on neither axis) with one of them off its goal.
 *
 * Sound by design: a position called dead is never solvable. Not complete: some dead
 * positions (corrals, closed diagonals) are not recognised yet; they would come in as new
 * reasons after DEADLOCK_FROZEN and new checks beside the freeze test in deadlock.c.
 *
 * The table is read-only once built, so one table may be shared by several threads. */
#ifndef SOKOBAN_DEADLOCK_H
#define SOKOBAN_DEADLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"

/* Why a square or a position is dead. The first four also name the rule of a dead
 * square, in the order of preference (a corner is also a dead wall is also unreachable). */
typedef enum deadlock_reason {
    DEADLOCK_NONE = 0,
    DEADLOCK_CORNER,      /* a non-goal square with walls on two adjacent sides */
    DEADLOCK_DEAD_WALL,   /* along a wall between two corners, no goal on the stretch */
    DEADLOCK_UNREACHABLE, /* any other square from which no goal can be reached */
    DEADLOCK_BLOCK_2X2,   /* a 2x2 square of walls and boxes, a box off its goal */
    DEADLOCK_FROZEN,      /* boxes that can never move, one of them off its goal */
} deadlock_reason;

enum { DEADLOCK_REASON_COUNT = DEADLOCK_FROZEN + 1 };

/* The dead squares of one level, built once. */
typedef struct deadlock_table {
    int size;      /* the board's size */
    uint8_t *rule; /* per square: the deadlock_reason of a dead square, else DEADLOCK_NONE;
                      walls and squares outside the level are never dead */
    int dead_count[DEADLOCK_REASON_COUNT]; /* squares per rule (index DEADLOCK_NONE unused) */
} deadlock_table;

/* Computes the dead squares of `board`. Returns false only when out of memory (the table
 * is then empty and may be freed). */
bool deadlock_table_init(deadlock_table *table, const board *board);
void deadlock_table_free(deadlock_table *table);

/* The same from the live squares a caller has found by its own search (live[square]
 * nonzero: a lone box there can reach a goal; the solver's push distances find exactly the
 * squares the pulling search finds), so that dead squares are computed once per level:
 * only the rule of each dead square is worked out here. False when out of memory. */
bool deadlock_table_init_from_live(deadlock_table *table, const board *board, const uint8_t *live);

/* True when a box on `square` can never reach a goal. */
static inline bool deadlock_square_is_dead(const deadlock_table *table, int square)
{
    return table->rule[square] != DEADLOCK_NONE;
}

/* The rule that makes `square` dead: DEADLOCK_CORNER, DEADLOCK_DEAD_WALL,
 * DEADLOCK_UNREACHABLE, or DEADLOCK_NONE when the square is live. */
deadlock_reason deadlock_square_reason(const deadlock_table *table, int square);

/* The solver's hot path. A box has just been pushed onto `box_square`; `boxes` has one byte
 * per square, nonzero where a box stands (the pushed box included). Returns true when the
 * position is dead because the box stands on a dead square, or because of a 2x2 block or
 * frozen boxes around it. Looks only around that box; allocates nothing; thread-safe. */
bool deadlock_check_push(const deadlock_table *table, const board *board, const uint8_t *boxes,
                         int box_square);

/* The game's question: the full verdict with its reason and the boxes involved. */
enum { DEADLOCK_REPORT_MAX_BOXES = 64 };
typedef struct deadlock_report {
    deadlock_reason reason; /* DEADLOCK_NONE when the position is not known to be dead */
    int box_count;          /* boxes listed below (at most DEADLOCK_REPORT_MAX_BOXES) */
    int boxes[DEADLOCK_REPORT_MAX_BOXES]; /* their squares, in square order */
} deadlock_report;

/* Checks the whole position: every box on a dead square, then blocks and frozen boxes
 * around `last_pushed_box` (the square the last push moved a box onto), or around every
 * box when it is -1. Fills `report` (may be NULL) and returns true when dead. */
bool deadlock_check_position(const deadlock_table *table, const board *board,
                             const position *position, int last_pushed_box,
                             deadlock_report *report);

/* "corner", "dead wall", "unreachable square", "2x2 block", "frozen boxes"; "none". */
const char *deadlock_reason_name(deadlock_reason reason);

#endif

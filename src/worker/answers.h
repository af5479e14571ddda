/* answers.h - the answer store: what the solver has found out about the positions of one
 * level, so that no question is searched twice.
 *
 * Every position along every solution stored is a known solvable position, kept with the
 * rest of that solution; a position proven lost is kept as lost. Positions are keyed as the
 * solver keys its states (solver_position_key(): the boxes and the player's region), so a
 * position where the player stands elsewhere in the same region is the same answer, the
 * walk to where the solution goes on added in front. Where two solutions pass one position
 * the better rest is kept: optimal before fast, then fewer pushes, then fewer moves.
 *
 * One store serves one level and is shared between threads (the game's and the solver
 * thread's): every function takes the store's lock for a short while and never calls out
 * while holding it. Knows nothing of the terminal. */
#ifndef SOKOBAN_ANSWERS_H
#define SOKOBAN_ANSWERS_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/board.h"
#include "rules/game.h"
#include "level/level.h"
#include "solver/solver.h"

typedef struct answers answers; /* opaque */

typedef enum answer_kind {
    ANSWER_UNKNOWN,  /* nothing known about the position */
    ANSWER_SOLVABLE, /* a solution from it is known */
    ANSWER_LOST,     /* proven to have no solution */
} answer_kind;

typedef struct answer {
    answer_kind kind;
    solver_mode mode;  /* SOLVABLE: optimal when the rest is push-optimal from here */
    game_step *steps;  /* SOLVABLE: the solution from the position asked about, the walk to
                        * where the stored one goes on included (malloc'd; NULL when 0 steps) */
    int moves, pushes; /* of those steps */
} answer;

/* An empty store for the level's board, with one reference. NULL when out of memory. */
answers *answers_create(const level *level);
/* Takes another reference (each thread that keeps the store holds one); returns `store`. */
answers *answers_retain(answers *store);
/* Drops a reference; the last frees the store. NULL is allowed. */
void answers_release(answers *store);

/* Stores the solution `steps` (count of them) from `from`: every position along it becomes
 * known solvable. `mode` is the solver's promise for the whole solution (optimal: every rest
 * is push-optimal). Returns false, storing nothing, when the steps do not replay to a solved
 * position or out of memory. */
bool answers_add_solution(answers *store, const position *from, const game_step *steps, int count,
                          solver_mode mode);

/* Stores `position` as proven lost (ignored when it is known solvable). False when out of
 * memory. */
bool answers_add_lost(answers *store, const position *position);

/* What is known about `position`; fills *out (free it with answer_free()). */
answer_kind answers_find(answers *store, const position *position, answer *out);

/* True when the position with this solver_position_key() is known solvable: the hook the
 * solver's search consults (solver_options.known, with the store as its argument). */
bool answers_known(void *store, uint64_t key);

/* How many positions the store knows as solvable and as lost. */
void answers_count(answers *store, int *solvable, int *lost);

void answer_free(answer *answer);

#endif

/* solver_learned.h - what the searches on one board learn of its deadlocks (the corrals
 * proven lost, the patterns of stuck boxes; docs/SOLVER.md), kept for the searches after
 * them and shared by those that run at once. The game keeps one for the level in play, so
 * that a search from the next position starts knowing what the searches from the earlier
 * ones proved (solver_options.learned, solver.h). It holds on the board whatever position a
 * search starts from, and searches in several threads may use one at once: the table of
 * learned corrals (solver_corral_deadlock.h) and the store of patterns (solver_stuck.h) both
 * take several threads. A race of searches given none makes its own (solver.c). Part of the
 * solver's public face (solver.h includes it). */
#ifndef SOKOBAN_SOLVER_LEARNED_H
#define SOKOBAN_SOLVER_LEARNED_H

#include <stdbool.h>

#include "rules/board.h"

typedef struct solver_learned solver_learned; /* opaque */

/* An empty one for `board` (a copy of its walls and goals is kept, not the pointer); NULL
 * when out of memory. */
solver_learned *solver_learned_new(const board *board);
void solver_learned_free(solver_learned *learned); /* NULL is allowed */

/* A table for one search of several at once on `board` (the one `shared` fits), so that it
 * runs as it would alone: it holds what `shared` holds now and is read by that search
 * alone, and what is learned in it is learned in `shared` too, for the others to read. The
 * pair and triple tables are `shared`'s (they depend on the board alone). Freed before
 * `shared`; NULL when out of memory. Internal to the solver (solver.c, the race). */
solver_learned *solver_learned_copy(solver_learned *shared, const board *board);

/* True when `learned` (may be NULL: false) was made for a board with the same squares,
 * walls and goals. */
bool solver_learned_fits(const solver_learned *learned, const board *board);

/* Its parts, for the solver's searches (internal to the solver). */
struct solver_corral_memory;
struct solver_stuck_patterns;
struct solver_corral_memory *solver_learned_corrals(solver_learned *learned);
struct solver_stuck_patterns *solver_learned_patterns(solver_learned *learned);
/* The board's two-box deadlocks (solver_pairs.h), made by the first search that asks, from
 * its `distances` (the dead squares) and within `most_bytes`; NULL when there is no table.
 * With `triples` (may be NULL), also the three-box deadlocks kept (*triples NULL when there
 * are none), made within `most_bytes` too, unless `triples_stop` says stop first (then the
 * next search that asks makes them). `board` is the one `learned` fits. Thread-safe. */
struct solver_pairs;
struct solver_triples;
struct solver_distances;
struct solver_stop;
const struct solver_pairs *solver_learned_pairs(solver_learned *learned, const board *board,
                                                const struct solver_distances *distances,
                                                size_t most_bytes,
                                                const struct solver_stop *triples_stop,
                                                const struct solver_triples **triples);

#endif

/* solver_stuck.h - deadlock patterns learned while searching (Festival's stuck patterns).
 *
 * A pattern is a set of box squares and a region of the floor: a position that holds a box
 * on each of those squares, its player anywhere in the region, is lost. The fast mode
 * learns them from the states its search stays below for long (solver_fast.c): their stuck
 * boxes, searched alone and cut down to the fewest that stay lost
 * (solver_corral_deadlock.h, solver_stuck_deadlock()). Sound: a position that can be solved
 * stays solvable when boxes are taken away, and the region was flooded among the pattern's
 * boxes alone, so the player of a position holding them stands in it wherever he can walk.
 * A pattern holds on its board whatever the position a search started from.
 *
 * Patterns are listed under one square of theirs (the anchor), so a position is matched by
 * looking, for each of its boxes, at the few patterns anchored there. One store may serve
 * several searches at once (the threads of a race, and the searches one after another of
 * a game's level, solver_learned.h): patterns are added under a lock and published to the
 * lists with release stores, and matching takes no lock. The room for every pattern is
 * taken at the start, so nothing a reader looks at moves. Part of the solver (solver.h);
 * internal to it. */
#ifndef SOKOBAN_SOLVER_STUCK_H
#define SOKOBAN_SOLVER_STUCK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/board.h"

/* The most patterns a store keeps (Festival keeps 500); later ones are dropped. */
enum { SOLVER_STUCK_PATTERNS = 4096 };

typedef struct solver_stuck_patterns {
    size_t words;       /* of a region: a bit per square of the board */
    int stride;         /* the most squares of a pattern: the board's boxes */
    _Atomic int *first; /* per square: the first pattern anchored there, or -1 */
    int *next;          /* per pattern: the next one anchored on the same square */
    int *size;          /* per pattern: how many squares, at `stride` * its index */
    int *squares;
    uint64_t *regions; /* per pattern: `words` words, a bit per square of its region */
    pthread_mutex_t lock; /* taken by the writers */
    bool lock_made;
    int count;                /* patterns added (guarded by `lock`) */
    atomic_int published;     /* the same, for a reader's quick look */
    _Atomic uint64_t matched; /* positions found lost, for measurements */
    /* what is added here is added to this one too, which is never matched through this one
     * (NULL: none): a race's first run keeps its own and writes the race's as well */
    struct solver_stuck_patterns *also;
} solver_stuck_patterns;

/* An empty store for positions on `board`. False when out of memory. */
bool solver_stuck_patterns_init(solver_stuck_patterns *patterns, const board *board);
/* A store for positions on `board` (the one `from` was made for) holding the patterns `from`
 * holds now (taken under its lock: it may be added to meanwhile), adding to `from` too (its
 * `also`). False when out of memory. */
bool solver_stuck_patterns_copy(solver_stuck_patterns *patterns, solver_stuck_patterns *from,
                                const board *board);
void solver_stuck_patterns_free(solver_stuck_patterns *patterns);

/* Learns a pattern: `count` box squares (at most the board's boxes), the last one its
 * anchor, and the player's region (a bit per square, `words` of them); then in
 * patterns->also. Nothing when the store is full: a pattern not learned is only a deadlock
 * seen later. Thread-safe. */
void solver_stuck_patterns_add(solver_stuck_patterns *patterns, const int *squares, int count,
                               const uint64_t *region);

/* True when a pattern holds the position: `boxes` (per square, nonzero under a box), its
 * `box_count` boxes on `box_square`, the player on `player`. Thread-safe, with no lock. */
bool solver_stuck_patterns_match(solver_stuck_patterns *patterns, const uint8_t *boxes,
                                 const int *box_square, int box_count, int player);

#endif

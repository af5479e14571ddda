/* optimizer.h - a solution made shorter: fewer moves then pushes, or fewer pushes then
 * moves, by a vicinity search around it.
 *
 * The idea is Sébastien Gouëzel's vicinity search, as YASS (Brian Damgaard) and JSoko
 * (Matthias Meger) run it and the Sokoban wiki's "Optimizer" pages describe it: cut the
 * solution into its box configurations (the start and the boxes after each push), add every
 * configuration with one box (or two) moved to one of the few squares nearest to it (its
 * vicinity), and search for the shortest solution that passes only through configurations
 * of that set. The input's own configurations are in the set, so the answer is never worse;
 * a better one found becomes the input of the next round, and when a round finds nothing
 * the next vicinity is wider. The search's bound is the matching of boxes to goals over
 * the solver's push distances (solver_bound.h). By pushes, when the rounds come to the
 * vicinities of two boxes (or at the optimal mode's turn, if it comes first) a share of the
 * budget goes to a base by other routes than the
 * input's (optimizer_pull.h: pulls from the goals, met by the fast mode), taken when it has
 * fewer pushes than the best, else, within a tenth of them, given rounds of its own (and
 * when it is not taken, a second base for the rest of the best from its position after 35 %
 * of its pushes, with a share of its own, taken when it has fewer pushes), then the goals
 * filled by the best's boxes in another order from its later positions (optimizer_trips.h:
 * a search over trips of one box to a goal, the best's parks kept); and
 * the optimal mode (solver.h) has a turn when the vicinities have converged or a third of the
 * budget has gone, and again at a later convergence, unless the best is far above the start's
 * bound: its IDA* is stopped as soon as its threshold reaches the best's pushes (which proves them
 * the fewest), and a solution it finds with fewer is the input of the rounds that follow. Anytime:
 * stopped by its time, node or memory budget, it keeps the best found so far.
 *
 * The walking between the pushes is the shortest from the start (game_shortest_walks()).
 * Every solution returned has been replayed on the level and checked to solve it, and is
 * never longer than the input by the metric asked for. Knows nothing of the terminal. */
#ifndef SOKOBAN_OPTIMIZER_H
#define SOKOBAN_OPTIMIZER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/board.h"
#include "rules/game.h"

typedef enum optimizer_metric {
    OPTIMIZER_BY_MOVES,  /* fewer moves first, then fewer pushes */
    OPTIMIZER_BY_PUSHES, /* fewer pushes first, then fewer moves */
} optimizer_metric;

typedef struct optimizer_options {
    optimizer_metric metric;
    double max_seconds;        /* 0: no limit (the widest vicinity ends it) */
    uint64_t max_nodes;        /* positions expanded over all rounds; 0: no limit */
    size_t memory_bytes;       /* 0: 256 MiB */
    const atomic_bool *cancel; /* NULL, or set from another thread to stop */
    /* NULL, or told of each better solution as soon as it is found (checked already; the
     * steps are the optimizer's, valid during the call), on the optimizer's thread: an
     * anytime caller shows it before the rounds end. */
    void (*improved)(void *argument, const game_step *steps, int moves, int pushes);
    void *improved_argument;
    /* By pushes: no search for a base by another route (optimizer_pull.h), to measure
     * what it buys (SOKOBAN_OPTIMIZER_DISABLE=base on the command line); the trips still
     * run, at its turn */
    bool no_base;
    /* By pushes: no trips of the best's boxes in another order (optimizer_trips.h), for the
     * same (SOKOBAN_OPTIMIZER_DISABLE=trips) */
    bool no_trips;
} optimizer_options;

typedef enum optimizer_status {
    OPTIMIZER_CONVERGED, /* the widest vicinity around the best found nothing better */
    OPTIMIZER_LIMIT,     /* time, nodes or memory ran out first: the best found so far */
    OPTIMIZER_CANCELLED, /* the best found so far */
    OPTIMIZER_INVALID,   /* the input does not solve the level from the start given */
    OPTIMIZER_ERROR,     /* out of memory before a search: the input, its walks shortest */
} optimizer_status;

typedef struct optimizer_result {
    optimizer_status status;
    game_step *steps;                /* the best solution (malloc'd; NULL only when INVALID) */
    int moves, pushes;               /* of it */
    int moves_before, pushes_before; /* of the input */
    int rounds;                      /* searches run */
    int improvements;                /* of them, those that found a better solution */
    bool pushes_fewest; /* by pushes: the optimal mode proved that none has fewer pushes */
    uint64_t nodes;
    double seconds;
    char vicinity[48]; /* the widest vicinity searched, as "2 boxes, 10+5 squares" */
} optimizer_result;

/* Optimizes the solution `steps` (count of them) from `start`. */
optimizer_status optimizer_optimize(const board *board, const position *start,
                                    const game_step *steps, int count,
                                    const optimizer_options *options, optimizer_result *result);
void optimizer_result_free(optimizer_result *result);

/* "converged", "limit", "cancelled", "invalid", "error". */
const char *optimizer_status_name(optimizer_status status);

/* True when (moves, pushes) is shorter than (than_moves, than_pushes) by `metric`. */
bool optimizer_shorter(optimizer_metric metric, int moves, int pushes, int than_moves,
                       int than_pushes);

#endif

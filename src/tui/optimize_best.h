/* optimize_best.h - O: a level's best saved solution made shorter by the optimizer
 * (solver/optimizer.h), on a thread of its own while the game goes on.
 *
 * O (on the play screen: the level in play; on the level list: the level selected) takes the
 * level's best by moves (or by pushes, with --by pushes) and gives it to the optimizer for
 * --optimize-time seconds (10 by default); Esc stops it early. A shorter solution it finds
 * is replayed and kept as a new best whose origin is the optimizer's (PROGRESS_OPTIMIZED:
 * assisted, as the solver's own solutions are); the message line says what happened
 * ("Optimized: 245 -> 231 moves", "No shorter solution found in 10 s"). One job at a time.
 * Sits above play.h; knows nothing of drawing or keys. */
#ifndef SOKOBAN_TUI_OPTIMIZE_BEST_H
#define SOKOBAN_TUI_OPTIMIZE_BEST_H

#include <stdbool.h>

#include "solver/optimizer.h"
#include "play.h"

typedef struct optimize_job optimize_job; /* opaque: the thread and what it works on */

typedef struct optimize_best {
    optimizer_metric metric; /* what O shortens first */
    double seconds;          /* how long O may take */
    optimize_job *job;       /* the job running or finished and not yet taken; NULL: none */
} optimize_best;

/* O: starts optimizing the best of level `index` of collection `collection`. Says on the
 * message line what it does, or why it cannot (no best saved, a job already running). */
void optimize_best_start(optimize_best *o, play *p, int collection, int index);

/* True while a job runs or waits to be taken. */
bool optimize_best_running(const optimize_best *o);

/* Takes the job's outcome once its thread is done: keeps a shorter best, says what
 * happened. Never waits. */
void optimize_best_poll(optimize_best *o, play *p);

/* Esc: stops the job; its outcome (what was found so far) is taken by the next poll. */
void optimize_best_stop(optimize_best *o);

/* Stops and joins the job, dropping its outcome. */
void optimize_best_close(optimize_best *o);

#endif

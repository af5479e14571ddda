/* assist.h - the solver's help in the game: hints and solve-and-replay. The one place where
 * the solver's answers reach the play state.
 *
 * Hints and solutions come from the worker thread (worker.h): a request carries a copy of
 * the position, the main loop never waits, and a request about a position the player has
 * left (play.changes moved on) is cancelled, its answer dropped. Sits above play.h; knows
 * nothing of drawing or keys. */
#ifndef SOKOBAN_TUI_ASSIST_H
#define SOKOBAN_TUI_ASSIST_H

#include <stdbool.h>
#include <stdint.h>

#include "../worker.h"
#include "play.h"

/* What the solver thread is working on for us. */
typedef enum assist_request {
    ASSIST_REQUEST_NONE,
    ASSIST_REQUEST_HINT,
    ASSIST_REQUEST_SOLVE,
} assist_request;

typedef struct assist {
    worker *worker;                /* NULL when no thread could start */
    assist_request request;        /* what the worker is working on for us */
    uint64_t request_id;           /* worker_submit()'s id of it */
    int request_moves;             /* game.moves when it was asked; the player moving drops it */
    unsigned long request_changes; /* play.changes when it was asked */
    double hint_seconds;           /* the budget of a hint */
    double solve_seconds;          /* the budget of a solve-and-replay */
} assist;

/* H: asks for a hint, or makes the push of the hint on show. */
void assist_hint(assist *a, play *p);

/* S: solves from the position in play, then replays the solution. */
void assist_solve(assist *a, play *p);

/* B: replays the player's best saved solution from the level's start. */
void assist_replay_best(assist *a, play *p);

/* Cancels the worker's request, if any; `why` (may be NULL) goes on the message line. */
void assist_cancel(assist *a, play *p, const char *why);

/* Cancels the request when the position it was asked about has changed. Call after
 * anything that may change the play state. */
void assist_follow(assist *a, play *p);

/* Takes the worker's answer when one is ready (its wake fd was readable). */
void assist_poll(assist *a, play *p);

#endif

/* worker.h - the solver thread: runs hint and solve requests off the game's main loop.
 *
 * One worker owns one thread. The game submits a request (a copy of the position in play is
 * taken at once, so the game may move on) and keeps answering keys; the worker's result is
 * picked up later with worker_poll(), which never blocks. worker_wake_fd() becomes readable
 * when a result is ready, so the game can wait for keys and results in one poll().
 *
 * Only the newest request matters: a new request cancels the one running, and worker_cancel()
 * (a level change, the player moving on) cancels it too. A cancelled or superseded request
 * never delivers a result; every result carries the id worker_submit() returned, so the game
 * can also check that it is the answer to the question it last asked.
 *
 * Each request is solved optimal first; when that runs out of its share of the budget (or
 * fails, say for want of memory) the fast mode gets what is left, and the result says which
 * mode answered. When the position is proven lost, the worker looks back along the pushes made
 * so far for the most recent position that can still be solved ("no solution from here: undo
 * N pushes").
 *
 * The worker keeps the last solution it found: a request from a position along it (the player
 * followed the hint, maybe walking elsewhere without pushing) is answered with the rest of
 * it: at once when it is optimal; when the fast mode found it, after the optimal mode has had
 * its share of the budget, in place of the fast search.
 *
 * Knows nothing of the terminal. */
#ifndef SOKOBAN_WORKER_H
#define SOKOBAN_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "solver.h"

typedef struct worker worker; /* opaque; owns one thread */

typedef enum worker_job {
    WORKER_HINT,  /* the solution from the position, of which the game shows the first push */
    WORKER_SOLVE, /* the solution from the position, which the game replays */
} worker_job;

typedef struct worker_request {
    worker_job job;
    /* The game in play. worker_submit() copies the board, the start, the steps in effect and
     * the current position, and keeps no pointer into it. */
    const game *game;
    /* The whole budget in seconds: the optimal mode gets half, the fast mode what is left,
     * and the look back for a solvable position what is left after that. 0 or less: 10. */
    double budget_seconds;
} worker_request;

typedef struct worker_result {
    uint64_t id; /* the request's, as worker_submit() returned it */
    worker_job job;
    solver_status status; /* SOLVED, UNSOLVABLE (proven lost), LIMIT (budget spent), ERROR */
    solver_mode mode;     /* the mode that gave the answer */
    /* The full solution from the requested position (malloc'd; NULL unless SOLVED). Read it
     * with lurd_parse(); for a hint, the steps up to and including the first push. */
    char *lurd;
    int pushes, moves; /* of the solution */
    /* When UNSOLVABLE: how many pushes to undo to reach a position that can be solved, or -1
     * when the look back ran out of budget first (or no push was made). `undo_exact` is false
     * when a nearer position could not be decided in time, so fewer undos might do. */
    int undo_pushes;
    bool undo_exact;
    uint64_t nodes; /* over every search the request made; 0 when answered from the last
                     * solution */
    double seconds; /* from the start of the request to its result */
} worker_result;

/* What the worker is doing, for the game's spinner. */
typedef struct worker_activity {
    bool busy;         /* a request is running or waiting to run */
    uint64_t id;       /* the running request's id, 0 when idle */
    solver_mode mode;  /* the mode being tried */
    bool looking_back; /* searching the earlier positions for a solvable one */
    uint64_t nodes;    /* so far, over every search of the request */
    double seconds;    /* since the request started */
} worker_activity;

/* Starts a worker and its thread. Returns NULL when out of memory or threads. */
worker *worker_create(void);

/* Test seam: the same with another solve function in place of solver_solve() (tests use it to
 * stand in a search that blocks until cancelled; NULL means solver_solve()), a transposition
 * table size for every search (0: the solver's default), and, for benchmarks that time the
 * search itself, no reuse of the last solution. */
typedef solver_status (*worker_solve_function)(const board *board, const position *start,
                                               const solver_options *options,
                                               solver_result *result);
typedef struct worker_options {
    worker_solve_function solve;
    int memory_mib;
    bool no_reuse;
} worker_options;
worker *worker_create_with(const worker_options *options);

/* Cancels the running request, if any, and queues this one. Returns its id (ids start at 1
 * and grow), or 0 when out of memory (nothing is queued then). */
uint64_t worker_submit(worker *worker, const worker_request *request);

/* Cancels the running or queued request, if any; its result is never delivered, and a result
 * that was ready but not yet polled is dropped as well. */
void worker_cancel(worker *worker);

/* Never blocks. When a result is ready, moves it into *out (free it with
 * worker_result_free()) and returns true; otherwise returns false. */
bool worker_poll(worker *worker, worker_result *out);

/* Fills *activity; never blocks for longer than a short lock. */
void worker_progress(worker *worker, worker_activity *activity);

/* A file descriptor that is readable while a result is ready (until worker_poll() takes it),
 * for poll() or select() in the game's loop. Owned by the worker. */
int worker_wake_fd(const worker *worker);

void worker_result_free(worker_result *result);

/* Cancels any request, joins the thread and frees everything. NULL is allowed. */
void worker_destroy(worker *worker);

#endif

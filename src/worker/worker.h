/* worker.h - the solver thread: solves ahead of the player, answers hint and solve requests
 * off the game's main loop, and fills the level's answer store (answers.h).
 *
 * One worker owns one thread. The game tells it the position in play (worker_play(): when a
 * level opens and after every change of the boxes; a copy is taken at once) and keeps
 * answering keys. Solving ahead, the thread works on that position before anyone asks: the
 * fast mode first, with the store as the search's known positions, so a search stops as soon
 * as it meets a position along an earlier solution; then, once a solution is known, the
 * optimal mode for a while, to upgrade it. It rests once the position in play has an
 * answer (a solution, a proof that it is lost, or its budget spent): an idle game does not
 * spin a core. Every solution found goes into the store, every position proven lost too.
 *
 * A request (worker_submit(), the keys H and S) from a position the store knows is answered
 * at once, from the caller's thread. Otherwise it joins the search already running from that
 * position (or starts one) and is answered by the first solution any search finds, or with
 * SOLVER_LIMIT when its deadline passes while the search may go on ahead. Results come back
 * through worker_poll(), which never blocks; worker_wake_fd() becomes readable when one is
 * ready, so the game can wait for keys and results in one poll().
 *
 * Once a request from the position in play has been answered, the optimizer
 * (solver/optimizer.h) works on that answer for a while, before the optimal upgrade, by
 * pushes then moves, as the store ranks solutions; each shorter line goes into the store
 * as soon as it is found, and the game hears of it. It runs on the thread, with a deadline
 * and the position's stop flag, as the searches do.
 *
 * Besides the answers to requests the worker sends notices nobody asked for (job
 * WORKER_AHEAD): the position in play is lost (with how many pushes to undo), or has a
 * solution now, or an optimal one, or a shorter one (`improved`). Each result names the
 * position it is about by its solver_position_key(); the game drops what is not about the
 * position in play.
 *
 * Knows nothing of the terminal. */
#ifndef SOKOBAN_WORKER_H
#define SOKOBAN_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include "answers.h"
#include "rules/game.h"
#include "solver/optimizer.h"
#include "solver/solver.h"

typedef struct worker worker; /* opaque; owns one thread */

typedef enum worker_job {
    WORKER_HINT,  /* the solution from the position, of which the game shows the first push */
    WORKER_SOLVE, /* the solution from the position, which the game replays */
    WORKER_AHEAD, /* a notice about the position in play that nobody asked for */
} worker_job;

typedef struct worker_request {
    worker_job job; /* WORKER_HINT or WORKER_SOLVE */
    /* The game in play. Copied (the position, the steps in effect); no pointer is kept. */
    const game *game;
    /* When the game stops waiting for an answer, on ida_clock() (ida.h): past it the request
     * is answered SOLVER_LIMIT while the search may go on ahead; 0: it waits for the
     * answer. */
    double deadline;
} worker_request;

typedef struct worker_result {
    uint64_t id; /* the request's, as worker_submit() returned it; 0 for a notice */
    worker_job job;
    uint64_t key;         /* solver_position_key() of the position it is about */
    solver_status status; /* SOLVED, UNSOLVABLE (proven lost), LIMIT (budget spent), ERROR */
    solver_mode mode;     /* the mode that gave the answer */
    /* When SOLVED (requests only; NULL for notices): the solution from the requested
     * position, step by step (malloc'd). */
    game_step *steps;
    int pushes, moves; /* of the solution */
    /* When UNSOLVABLE: how many pushes to undo to reach a position that can be solved, or -1
     * when the look back ran out of budget first (or no push was made). `undo_exact` is false
     * when a nearer position could not be decided in time, so fewer undos might do. */
    int undo_pushes;
    bool undo_exact;
    bool from_store; /* answered from the answer store, without a search */
    bool improved;   /* a notice: the optimizer has shortened the position's answer */
    uint64_t nodes;  /* searched for it */
    double seconds;  /* from the request (or the position's arrival) to the result */
} worker_result;

/* What the worker is doing, for the game's spinner. */
typedef struct worker_activity {
    bool busy;         /* a search is running */
    uint64_t id;       /* the request waiting for it, 0 when solving ahead only */
    solver_mode mode;  /* the mode being tried */
    bool looking_back; /* searching the earlier positions for a solvable one */
    bool improving;    /* the optimizer works on the answer given */
    bool setting_up;   /* busy, and no search has reported yet: it builds its tables before
                        * its first node (the optimal mode's pair tables can take seconds),
                        * or is about to start; no nodes to report */
    uint64_t nodes;    /* of the search in progress */
    double seconds;    /* since the search started */
} worker_activity;

/* Test seam: another solve function in place of solver_solve() (NULL: solver_solve()) and
 * another optimizer in place of optimizer_optimize(), a memory size for every search (0: the
 * solver's default), no reuse of earlier answers (the store is neither asked nor filled:
 * benchmarks of cold searches), no solving ahead (the thread works only for requests), no
 * improving of answers, and the seconds of solving ahead, of the optimal upgrade and of the
 * optimizer, from the moment each starts (0: the defaults, 60 s, 10 s and 10 s). */
typedef solver_status (*worker_solve_function)(const board *board, const position *start,
                                               const solver_options *options,
                                               solver_result *result);
typedef optimizer_status (*worker_optimize_function)(const board *board, const position *start,
                                                     const game_step *steps, int count,
                                                     const optimizer_options *options,
                                                     optimizer_result *result);
typedef struct worker_options {
    worker_solve_function solve;
    worker_optimize_function optimize;
    size_t memory_bytes;
    bool no_reuse;
    bool no_solve_ahead;
    bool no_improve;
    double ahead_seconds;
    double upgrade_seconds;
    double improve_seconds;
} worker_options;

/* Starts a worker and its thread. Returns NULL when out of memory or threads. */
worker *worker_create(void);
worker *worker_create_with(const worker_options *options);

/* The position in play is now the game's, in the level whose answers `store` keeps (one
 * store a level; the worker holds a reference, answers_retain()). A search from another
 * position stops; solving ahead starts from this one. Walking alone need not be told. */
void worker_play(worker *worker, const game *game, answers *store);

/* Asks about the game's position (worker_play() first when it is not the one in play).
 * Returns the request's id (ids start at 1 and grow), or 0 when out of memory. An earlier
 * request is forgotten. */
uint64_t worker_submit(worker *worker, const worker_request *request, answers *store);

/* Forgets the request and stops the search (Esc); no solving ahead until the next
 * worker_play(). A result ready but not yet polled is dropped as well. */
void worker_cancel(worker *worker);

/* Never blocks. When a result is ready, moves it into *out (free it with
 * worker_result_free()) and returns true; otherwise returns false. A request whose deadline
 * has passed is answered SOLVER_LIMIT here too, so that a search still building its tables
 * (no progress reported yet, seconds on a large level) is no later than the deadline: while
 * a request waits, poll at least as often as its answer should come (the game does at each
 * tick of its spinner). */
bool worker_poll(worker *worker, worker_result *out);

/* Fills *activity; never blocks for longer than a short lock. */
void worker_progress(worker *worker, worker_activity *activity);

/* A file descriptor that is readable while a result is ready (until worker_poll() takes the
 * last), and for a moment when the thread comes to rest (worker_poll() then returns false and
 * quiets it), for poll() or select() in the game's loop. Owned by the worker. */
int worker_wake_fd(const worker *worker);

void worker_result_free(worker_result *result);

/* Stops the search, joins the thread and frees everything. NULL is allowed. */
void worker_destroy(worker *worker);

#endif

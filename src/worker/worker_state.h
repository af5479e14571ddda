/* worker_state.h - the solver thread's state, shared by the files of the module
 * worker/worker (worker.c, worker_improve.c); not for other modules.
 *
 * The game's thread and the worker's share only the fields of `struct worker` under `lock`;
 * a task belongs to the thread once it is `current`. */
#ifndef SOKOBAN_WORKER_STATE_H
#define SOKOBAN_WORKER_STATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "worker.h"

enum {
    RESULT_QUEUE = 8, /* results not yet polled; the oldest goes when full */
};
/* One position in play, with its own copies. */
typedef struct worker_task {
    const level *level; /* identity only: never read by the thread */
    board board;
    position position;
    position start;   /* the level's: the race orders one part from it (solver_options.plan_from) */
    game_step *steps; /* the steps in effect that led there, for the look back */
    int step_count;
    uint64_t key;       /* solver_position_key() of the position */
    answers *store;     /* a reference; NULL when reuse is off */
    atomic_bool cancel; /* set by the game's thread; read by the solver */
    bool settled;       /* the thread is done with it (guarded by lock) */
    bool asked;         /* a request was made from it: its answer is shown (guarded by lock) */
    bool upgraded;      /* the optimal upgrade was tried (guarded by lock) */
    bool improved;      /* the optimizer was tried on its answer (guarded by lock) */
} worker_task;

/* The request waiting for an answer (at most one). */
typedef struct pending_request {
    bool waiting;
    uint64_t id;
    worker_job job;
    uint64_t key;   /* of the position asked about */
    int player;     /* where the player stood when asking */
    double asked;   /* ida_clock() */
    double deadline; /* when the game stops waiting; 0: it waits for the answer */
} pending_request;

struct worker {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake; /* signalled when there is work, or `quit` */
    /* Everything below is guarded by `lock`. */
    worker_task *next;    /* the newest position in play, waiting for the thread */
    worker_task *current; /* the thread's (freed only by it) */
    pending_request request;
    worker_result results[RESULT_QUEUE];
    int result_count;
    bool paused; /* worker_cancel(): no solving ahead until the next position */
    bool quit;
    uint64_t last_id;
    /* The search in progress, for worker_progress(). */
    bool busy;
    double started;
    solver_mode mode;
    bool looking_back;
    bool improving; /* the optimizer runs on the answer (worker_improve.c) */
    uint64_t nodes_current;
    bool searching; /* the search running has reported progress: its set-up is over */
    /* The thread's own (and worker_destroy()'s, after it ends): what the searches on the
     * level in play learned of its deadlocks, for the searches after them; NULL with
     * no_reuse (solver_learned.h). */
    solver_learned *learned;
    /* Set at creation, read-only afterwards. */
    int wake_pipe[2]; /* [0] readable while a result is ready */
    worker_solve_function solve;
    worker_optimize_function optimize;
    size_t memory_bytes;
    bool no_reuse, no_solve_ahead, no_improve;
    double ahead_seconds, upgrade_seconds, improve_seconds;
};

/* A notice about the task's position, nobody having asked for it (dropped when the position
 * is no longer in play). Call with the lock held. */
void worker_notice_locked(worker *worker, const worker_task *task, solver_status status,
                          solver_mode mode, int undo_pushes, bool undo_exact, bool improved);

/* Runs the optimizer on the answer known for the task's position, once per position asked
 * about, and tells the game of each shorter line as it is found (worker_improve.c). */
void worker_improve(worker *worker, worker_task *task);

#endif

/* worker_improve.c - the answer shown, made shorter in the background: the optimizer
 * (solver/optimizer.h) on the solution the store knows from the position asked about.
 *
 * Once per position a request was made from, after the answer went out and before the
 * optimal upgrade, the thread hands the store's solution from that position to the
 * optimizer, by pushes then moves: the order in which the store ranks solutions, so every
 * line it finds replaces the stored one along its whole length. Each shorter line is stored
 * and told to the game (a notice with `improved`) the moment the optimizer finds it, not at
 * the end of its rounds, so the hint on show can switch within a second. The optimizer
 * runs with a deadline and the task's stop flag: a new position in play, a cancel or the
 * worker's end stop it as they stop a search, and what it finds after that is dropped. */
#include <stdlib.h>

#include "ida.h"
#include "worker_state.h"

/* What the optimizer works for: the worker, the task and the promise of the stored rest. */
typedef struct improving {
    worker *worker;
    worker_task *task;
    solver_mode mode;
} improving;

/* The optimizer's news: a shorter solution from the task's position, checked. */
static void on_improved(void *argument, const game_step *steps, int moves, int pushes)
{
    (void)pushes;
    improving *job = argument;
    worker_task *task = job->task;
    if (atomic_load(&task->cancel)) return; /* the position is no longer in play */
    if (!answers_add_solution(task->store, &task->position, steps, moves, job->mode)) return;
    pthread_mutex_lock(&job->worker->lock);
    worker_notice_locked(job->worker, task, SOLVER_SOLVED, job->mode, -1, false, true);
    pthread_mutex_unlock(&job->worker->lock);
}

/* Marks the thread busy improving (or not), for worker_progress(). */
static void set_improving(worker *worker, bool on)
{
    pthread_mutex_lock(&worker->lock);
    worker->busy = on;
    worker->improving = on;
    if (on) {
        worker->started = ida_clock();
        worker->nodes_current = 0;
    }
    pthread_mutex_unlock(&worker->lock);
}

void worker_improve(worker *worker, worker_task *task)
{
    pthread_mutex_lock(&worker->lock);
    bool wanted = task->asked && !task->improved && !worker->no_improve &&
                  !worker->no_solve_ahead && task->store && !atomic_load(&task->cancel);
    if (wanted) task->improved = true;
    pthread_mutex_unlock(&worker->lock);
    if (!wanted) return;
    answer known;
    if (answers_find(task->store, &task->position, &known) != ANSWER_SOLVABLE ||
        known.pushes == 0) {
        answer_free(&known);
        return;
    }
    /* By pushes first, an optimal rest stays optimal: the optimizer never gives more. */
    improving job = {.worker = worker, .task = task, .mode = known.mode};
    optimizer_options options = {
        .metric = OPTIMIZER_BY_PUSHES,
        .max_seconds = worker->improve_seconds,
        .memory_bytes = worker->memory_bytes,
        .cancel = &task->cancel,
        .improved = on_improved,
        .improved_argument = &job,
    };
    set_improving(worker, true);
    optimizer_result result;
    worker->optimize(&task->board, &task->position, known.steps, known.moves, &options, &result);
    set_improving(worker, false);
    optimizer_result_free(&result);
    answer_free(&known);
}

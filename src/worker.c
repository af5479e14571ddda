/* worker.c - the solver thread: a one-slot queue, a cancel flag per request, a wake pipe.
 *
 * The thread sleeps on a condition variable until a task is queued. The game's thread and
 * the worker's share only the fields of `struct worker` under `lock`; a task (the copied
 * position) belongs to whoever holds it: the submitter until it is queued, the worker thread
 * once it runs. Cancelling a running task sets its atomic flag, which the solver checks every
 * few hundred nodes; the worker then drops the result instead of publishing it. */
#include "worker.h"

#include "lurd.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
    DEFAULT_BUDGET_SECONDS = 10,
};

/* The optimal mode's share of a request's budget; the fast mode gets what it leaves, so a
 * fallback answer stays within reach. bench/hint_bench --each shows how the hints split. */
static const double OPTIMAL_SHARE = 0.5;

/* The shortest budget worth giving one search of the look back, in seconds. */
static const double LOOK_BACK_MIN_SECONDS = 0.5;

/* One request, with its own copy of the position in play. */
typedef struct worker_task {
    uint64_t id;
    worker_job job;
    double budget_seconds;
    board board;
    position position; /* where the request was made */
    game_step *steps;  /* the steps in effect that led there, for the look back */
    int step_count;
    atomic_bool cancel; /* set by the game's thread; read by the solver */
} worker_task;

/* The last solution found, kept by the worker thread so that a request from a position
 * along it (the player followed the hint, or walked off without pushing) is answered at once
 * with the rest of it. */
typedef struct solution_cache {
    bool valid;
    board board;       /* the board it was found on (moved from its task) */
    position start;    /* the position it solves */
    game_step *steps;  /* the solution, step by step */
    int count, pushes; /* its steps and pushes */
    solver_mode mode;
} solution_cache;

struct worker {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t task_queued; /* signalled when `queued` is set or `quit` */
    /* Everything below is guarded by `lock`. */
    worker_task *queued;  /* waiting to run: at most one, the newest */
    worker_task *running; /* being solved by the thread (owned by it) */
    bool has_result;
    worker_result result; /* ready for worker_poll() */
    bool quit;
    uint64_t last_id;
    /* The running task's progress. */
    double started;
    solver_mode mode;
    bool looking_back;
    uint64_t nodes_done;    /* of the searches the running task has finished */
    uint64_t nodes_current; /* of the search in progress */
    /* Set at creation, read-only afterwards. */
    int wake_pipe[2]; /* [0] readable while a result is ready */
    worker_solve_function solve;
    int memory_mib;
    bool no_reuse;
    solution_cache cache; /* touched only by the worker thread (and by destroy after join) */
};

/* ---- helpers -------------------------------------------------------------------------- */

/* Seconds on a monotonic clock. */
static double clock_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static void task_free(worker_task *task)
{
    if (!task) return;
    position_free(&task->position);
    board_free(&task->board);
    free(task->steps);
    free(task);
}

/* Copies what the worker needs of the game: the board (rebuilt from the level, its only
 * constructor), the current position and the steps in effect. NULL when out of memory. */
static worker_task *task_from_request(const worker_request *request)
{
    const game *game = request->game;
    worker_task *task = calloc(1, sizeof *task);
    if (!task) return NULL;
    position start;
    if (!board_from_level(game->level, &task->board, &start)) {
        free(task);
        return NULL;
    }
    position_free(&start);
    /* position_copy() allocates the copy's boxes itself. */
    bool ok = position_copy(&task->position, &game->position, &task->board);
    task->step_count = game->moves;
    if (ok && task->step_count > 0) {
        task->steps = malloc((size_t)task->step_count * sizeof *task->steps);
        ok = task->steps != NULL;
        if (ok) memcpy(task->steps, game->history, (size_t)task->step_count * sizeof *task->steps);
    }
    if (!ok) {
        task_free(task);
        return NULL;
    }
    task->job = request->job;
    task->budget_seconds =
        request->budget_seconds > 0 ? request->budget_seconds : DEFAULT_BUDGET_SECONDS;
    atomic_init(&task->cancel, false);
    return task;
}

/* Empties the wake pipe. */
static void drain_wake_pipe(worker *worker)
{
    char buffer[64];
    ssize_t got;
    do got = read(worker->wake_pipe[0], buffer, sizeof buffer);
    while (got > 0);
}

/* Drops a result that is ready but not taken. Call with the lock held. */
static void drop_result(worker *worker)
{
    if (!worker->has_result) return;
    worker_result_free(&worker->result);
    worker->has_result = false;
    drain_wake_pipe(worker);
}

/* Cancels the running task and forgets the queued one and any untaken result. Call with
 * the lock held. */
static void cancel_locked(worker *worker)
{
    if (worker->running) atomic_store(&worker->running->cancel, true);
    task_free(worker->queued);
    worker->queued = NULL;
    drop_result(worker);
}

/* ---- the worker thread ---------------------------------------------------------------- */

/* The solver's progress callback: publishes the node count of the search in progress. */
static void on_progress(void *argument, const solver_progress *progress)
{
    worker *worker = argument;
    pthread_mutex_lock(&worker->lock);
    worker->nodes_current = progress->nodes;
    pthread_mutex_unlock(&worker->lock);
}

/* Runs one search from `position` for at most `seconds` and adds its nodes to the task's. */
static solver_status run_search(worker *worker, worker_task *task, const position *position,
                                solver_mode mode, bool looking_back, double seconds,
                                solver_result *result)
{
    pthread_mutex_lock(&worker->lock);
    worker->mode = mode;
    worker->looking_back = looking_back;
    worker->nodes_current = 0;
    pthread_mutex_unlock(&worker->lock);

    solver_options options = {
        .mode = mode,
        .max_seconds = seconds,
        .memory_mib = worker->memory_mib,
        .cancel = &task->cancel,
        .progress = on_progress,
        .progress_argument = worker,
    };
    memset(result, 0, sizeof *result);
    solver_status status = worker->solve(&task->board, position, &options, result);
    result->status = status;

    pthread_mutex_lock(&worker->lock);
    worker->nodes_done += result->nodes;
    worker->nodes_current = 0;
    pthread_mutex_unlock(&worker->lock);
    return status;
}

/* When the position is lost, looks back for the most recent one that can be solved. Walks
 * the steps backwards with board_unstep(); just before each push it asks the fast solver
 * (a best-first search that prunes only deadlocks and states already seen, so its
 * "unsolvable" is a proof) whether that position can be solved. Solvability only shrinks along a
 * line of play (a position that leads to a solvable one is solvable), so the first solvable one
 * found is the nearest. Each search gets half of what is left of the budget (at least
 * LOOK_BACK_MIN_SECONDS); a search that runs out leaves the answer inexact. */
static void look_back(worker *worker, worker_task *task, double deadline, worker_result *out)
{
    out->undo_pushes = -1;
    out->undo_exact = false;
    position here;
    if (!position_copy(&here, &task->position, &task->board)) return;
    bool exact = true;
    int pushes_undone = 0;
    for (int i = task->step_count - 1; i >= 0; i--) {
        const game_step *step = &task->steps[i];
        board_unstep(&task->board, &here, step->direction, step->push ? STEP_PUSHED : STEP_MOVED);
        if (!step->push) continue;
        pushes_undone++;
        double left = deadline - clock_seconds();
        if (left <= 0 || atomic_load(&task->cancel)) break;
        double seconds = left / 2 > LOOK_BACK_MIN_SECONDS ? left / 2 : LOOK_BACK_MIN_SECONDS;
        if (seconds > left) seconds = left;
        solver_result result;
        solver_status status = run_search(worker, task, &here, SOLVER_FAST, true, seconds, &result);
        solver_result_free(&result);
        if (status == SOLVER_SOLVED) {
            out->undo_pushes = pushes_undone;
            out->undo_exact = exact;
            break;
        }
        if (status == SOLVER_CANCELLED) break;
        if (status != SOLVER_UNSOLVABLE) exact = false;
    }
    position_free(&here);
}

/* ---- reusing the last solution -------------------------------------------------------- */

static void cache_clear(solution_cache *cache)
{
    if (cache->valid) {
        board_free(&cache->board);
        position_free(&cache->start);
        free(cache->steps);
    }
    *cache = (solution_cache){.valid = false};
}

/* Keeps `lurd`, a solution from the task's position, taking the task's board. Keeps nothing
 * when the text does not replay to a solved position (a stand-in solver's answer). */
static void cache_store(solution_cache *cache, worker_task *task, const char *lurd,
                        solver_mode mode)
{
    cache_clear(cache);
    lurd_steps steps;
    lurd_error error;
    if (!lurd_parse(lurd, &steps, &error)) return;
    position here;
    bool solves = position_copy(&here, &task->position, &task->board);
    int pushes = 0;
    for (int i = 0; solves && i < steps.count; i++) {
        step_result result = board_step(&task->board, &here, steps.steps[i].direction);
        if (result == STEP_BLOCKED || (result == STEP_PUSHED) != steps.steps[i].push)
            solves = false;
        pushes += result == STEP_PUSHED;
    }
    solves = solves && position_is_solved(&here, &task->board);
    position_free(&here);
    if (!solves || !position_copy(&cache->start, &task->position, &task->board)) {
        lurd_steps_free(&steps);
        return;
    }
    cache->board = task->board;
    task->board = (board){0};
    cache->steps = steps.steps;
    cache->count = steps.count;
    cache->pushes = pushes;
    cache->mode = mode;
    cache->valid = true;
}

static bool same_board(const board *a, const board *b)
{
    return a->width == b->width && a->height == b->height &&
           memcmp(a->flags, b->flags, (size_t)a->size) == 0;
}

/* When the task's boxes stand as at some point along the kept solution and the player can
 * walk to where the solution has him then, fills *out with that walk and the rest of the
 * solution and returns true. The rest of a push-optimal solution is push-optimal from where
 * it starts, and the walk adds no push. */
static bool cache_answer(const solution_cache *cache, const worker_task *task, worker_result *out)
{
    const board *board = &cache->board;
    if (!cache->valid || !same_board(board, &task->board)) return false;
    position here;
    if (!position_copy(&here, &cache->start, board)) return false;
    direction *walk = malloc((size_t)board->size * sizeof *walk);
    int found = -1, walk_length = -1, pushes_before = 0;
    for (int i = 0; walk && i < cache->count; i++) {
        if (memcmp(here.boxes, task->position.boxes, (size_t)board->size) == 0) {
            walk_length = board_path(board, &task->position, here.player, walk, board->size);
            if (walk_length >= 0) {
                found = i;
                break;
            }
        }
        pushes_before += board_step(board, &here, cache->steps[i].direction) == STEP_PUSHED;
    }
    position_free(&here);
    game_step *steps = NULL;
    if (found >= 0) {
        int count = walk_length + cache->count - found;
        steps = malloc((size_t)count * sizeof *steps);
        if (steps) {
            for (int i = 0; i < walk_length; i++) steps[i] = (game_step){walk[i], false};
            memcpy(steps + walk_length, cache->steps + found,
                   (size_t)(cache->count - found) * sizeof *steps);
            out->lurd = lurd_format(steps, count, false);
            out->moves = count;
        }
    }
    free(walk);
    free(steps);
    if (!out->lurd) return false;
    out->status = SOLVER_SOLVED;
    out->mode = cache->mode;
    out->pushes = cache->pushes - pushes_before;
    return true;
}

/* Moves a solution into the result. */
static void take_solution(worker_result *out, solver_mode mode, char *lurd, int moves, int pushes)
{
    out->status = SOLVER_SOLVED;
    out->mode = mode;
    out->lurd = lurd;
    out->moves = moves;
    out->pushes = pushes;
}

/* Solves the task: optimal with its share of the budget, then (when that runs out or fails)
 * fast with what is left, then, when the position is proven lost, the look back with what is
 * left after that. The rest of the last solution answers at once when it is optimal; when it
 * came from the fast mode the optimal mode still gets its chance, and the rest stands in for
 * the fast search. */
static void run_task(worker *worker, worker_task *task, worker_result *out)
{
    double started = clock_seconds();
    double deadline = started + task->budget_seconds;
    memset(out, 0, sizeof *out);
    out->id = task->id;
    out->job = task->job;
    out->status = SOLVER_ERROR;
    out->mode = SOLVER_OPTIMAL;
    out->undo_pushes = -1;

    worker_result kept = {0};
    bool have_kept = !worker->no_reuse && cache_answer(&worker->cache, task, &kept);
    if (have_kept && kept.mode == SOLVER_OPTIMAL) {
        take_solution(out, kept.mode, kept.lurd, kept.moves, kept.pushes);
        out->seconds = clock_seconds() - started;
        return;
    }

    solver_result result;
    solver_mode mode = SOLVER_OPTIMAL;
    solver_status status = run_search(worker, task, &task->position, mode, false,
                                      task->budget_seconds * OPTIMAL_SHARE, &result);
    double left = deadline - clock_seconds();
    /* The fast mode also gets its chance when the optimal one fails (say, its table could not
     * be allocated): it needs less memory and may still answer. */
    bool optimal_gave_up = status == SOLVER_LIMIT || status == SOLVER_ERROR;
    if (optimal_gave_up && !have_kept && left > 0 && !atomic_load(&task->cancel)) {
        solver_result_free(&result);
        mode = SOLVER_FAST;
        status = run_search(worker, task, &task->position, mode, false, left, &result);
    }
    out->status = status;
    out->mode = mode;
    if (status == SOLVER_SOLVED) {
        cache_store(&worker->cache, task, result.lurd, mode);
        take_solution(out, mode, result.lurd, result.moves, result.pushes);
        result.lurd = NULL; /* moved, not copied */
    } else if (have_kept) {
        take_solution(out, kept.mode, kept.lurd, kept.moves, kept.pushes);
        kept.lurd = NULL;
        status = SOLVER_SOLVED;
    }
    worker_result_free(&kept);
    solver_result_free(&result);
    if (status == SOLVER_UNSOLVABLE) look_back(worker, task, deadline, out);

    pthread_mutex_lock(&worker->lock);
    out->nodes = worker->nodes_done;
    pthread_mutex_unlock(&worker->lock);
    out->seconds = clock_seconds() - started;
}

/* The thread: waits for a task, runs it, publishes its result unless it was cancelled. */
static void *worker_main(void *argument)
{
    worker *worker = argument;
    pthread_mutex_lock(&worker->lock);
    for (;;) {
        while (!worker->quit && !worker->queued)
            pthread_cond_wait(&worker->task_queued, &worker->lock);
        if (worker->quit) break;
        worker_task *task = worker->queued;
        worker->queued = NULL;
        worker->running = task;
        worker->started = clock_seconds();
        worker->mode = SOLVER_OPTIMAL;
        worker->looking_back = false;
        worker->nodes_done = 0;
        worker->nodes_current = 0;
        pthread_mutex_unlock(&worker->lock);

        worker_result result;
        run_task(worker, task, &result);

        pthread_mutex_lock(&worker->lock);
        worker->running = NULL;
        if (atomic_load(&task->cancel) || worker->quit) {
            worker_result_free(&result);
        } else {
            drop_result(worker);
            worker->result = result;
            worker->has_result = true;
            /* The pipe is non-blocking and holds at most a byte or two. */
            ssize_t written = write(worker->wake_pipe[1], "!", 1);
            (void)written;
        }
        task_free(task);
    }
    pthread_mutex_unlock(&worker->lock);
    return NULL;
}

/* ---- the public face ------------------------------------------------------------------ */

static bool make_wake_pipe(int pipe_fds[2])
{
    if (pipe(pipe_fds) != 0) return false;
    for (int i = 0; i < 2; i++) {
        int flags = fcntl(pipe_fds[i], F_GETFL);
        if (flags < 0 || fcntl(pipe_fds[i], F_SETFL, flags | O_NONBLOCK) != 0 ||
            fcntl(pipe_fds[i], F_SETFD, FD_CLOEXEC) != 0) {
            close(pipe_fds[0]);
            close(pipe_fds[1]);
            return false;
        }
    }
    return true;
}

worker *worker_create_with(const worker_options *options)
{
    worker *worker = calloc(1, sizeof *worker);
    if (!worker) return NULL;
    worker->solve = options && options->solve ? options->solve : solver_solve;
    worker->memory_mib = options ? options->memory_mib : 0;
    worker->no_reuse = options && options->no_reuse;
    if (!make_wake_pipe(worker->wake_pipe)) {
        free(worker);
        return NULL;
    }
    pthread_mutex_init(&worker->lock, NULL);
    pthread_cond_init(&worker->task_queued, NULL);

    /* The thread blocks every signal, so that signals (a resize, ^C) reach the game's thread
     * and interrupt its poll(); all but those a fault raises in the thread itself, which the
     * kernel delivers to the faulting thread (blocked, they kill the process unhandled, and the
     * game's handler could not restore the terminal). */
    sigset_t all, previous;
    sigfillset(&all);
    static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++) sigdelset(&all, faults[i]);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    int error = pthread_create(&worker->thread, NULL, worker_main, worker);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (error != 0) {
        pthread_cond_destroy(&worker->task_queued);
        pthread_mutex_destroy(&worker->lock);
        close(worker->wake_pipe[0]);
        close(worker->wake_pipe[1]);
        free(worker);
        return NULL;
    }
    return worker;
}

worker *worker_create(void)
{
    return worker_create_with(NULL);
}

uint64_t worker_submit(worker *worker, const worker_request *request)
{
    worker_task *task = task_from_request(request);
    pthread_mutex_lock(&worker->lock);
    cancel_locked(worker);
    uint64_t id = 0;
    if (task) {
        id = task->id = ++worker->last_id;
        worker->queued = task;
        pthread_cond_signal(&worker->task_queued);
    }
    pthread_mutex_unlock(&worker->lock);
    return id;
}

void worker_cancel(worker *worker)
{
    pthread_mutex_lock(&worker->lock);
    cancel_locked(worker);
    pthread_mutex_unlock(&worker->lock);
}

bool worker_poll(worker *worker, worker_result *out)
{
    pthread_mutex_lock(&worker->lock);
    bool ready = worker->has_result;
    if (ready) {
        *out = worker->result;
        memset(&worker->result, 0, sizeof worker->result);
        worker->has_result = false;
        drain_wake_pipe(worker);
    }
    pthread_mutex_unlock(&worker->lock);
    return ready;
}

void worker_progress(worker *worker, worker_activity *activity)
{
    memset(activity, 0, sizeof *activity);
    pthread_mutex_lock(&worker->lock);
    if (worker->queued) {
        /* The newest request has not started yet: nothing to show but that it waits. */
        activity->busy = true;
        activity->id = worker->queued->id;
    } else if (worker->running && !atomic_load(&worker->running->cancel)) {
        activity->busy = true;
        activity->id = worker->running->id;
        activity->mode = worker->mode;
        activity->looking_back = worker->looking_back;
        activity->nodes = worker->nodes_done + worker->nodes_current;
        activity->seconds = clock_seconds() - worker->started;
    }
    pthread_mutex_unlock(&worker->lock);
}

int worker_wake_fd(const worker *worker)
{
    return worker->wake_pipe[0];
}

void worker_result_free(worker_result *result)
{
    if (!result) return;
    free(result->lurd);
    result->lurd = NULL;
}

void worker_destroy(worker *worker)
{
    if (!worker) return;
    pthread_mutex_lock(&worker->lock);
    cancel_locked(worker);
    worker->quit = true;
    pthread_cond_signal(&worker->task_queued);
    pthread_mutex_unlock(&worker->lock);
    pthread_join(worker->thread, NULL);
    cache_clear(&worker->cache);

    drop_result(worker);
    pthread_cond_destroy(&worker->task_queued);
    pthread_mutex_destroy(&worker->lock);
    close(worker->wake_pipe[0]);
    close(worker->wake_pipe[1]);
    free(worker);
}

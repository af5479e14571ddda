/* worker.c - the solver thread: the position in play, one request, a queue of results, a
 * wake pipe.
 *
 * The game's thread and the worker's share only the fields of `struct worker` under `lock`.
 * A task is a copy of one position in play (its board, the position, the steps that led
 * there, the level's answer store); worker_play() makes it, the thread takes it as
 * `current` and alone frees it. Cancelling a task sets its atomic flag, which the solver
 * checks every few hundred nodes. The store has a lock of its own, always taken after
 * (never around) the worker's.
 *
 * What the thread does for one position (work()): ask the store; when it knows nothing,
 * search in the fast mode (the store's positions count as solved), store what is found, and
 * answer the request waiting for it; once a solution is known and was asked for, shorten it
 * with the optimizer (worker_improve.c), then give the optimal mode a while to upgrade it;
 * when the position is proven lost, look back along the pushes made for the nearest one that
 * can be solved. Then rest until the position in play changes or a request wants more. */
#include "worker.h"

#include "ida.h"
#include "worker_state.h"

#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const double DEFAULT_AHEAD_SECONDS = 60;
static const double DEFAULT_UPGRADE_SECONDS = 10;
static const double DEFAULT_IMPROVE_SECONDS = 10;
/* The shortest time worth giving one search of the look back, in seconds. */
static const double LOOK_BACK_MIN_SECONDS = 0.5;

/* ---- helpers -------------------------------------------------------------------------- */

static void task_free(worker_task *task)
{
    if (!task) return;
    position_free(&task->position);
    position_free(&task->start);
    board_free(&task->board);
    free(task->steps);
    answers_release(task->store);
    free(task);
}

/* Copies what the worker needs of the game: the board (rebuilt from the level, its only
 * constructor) and the level's start, the current position and the steps in effect. NULL
 * when out of memory. */
static worker_task *task_from_game(const game *game, answers *store)
{
    worker_task *task = calloc(1, sizeof *task);
    if (!task) return NULL;
    if (!board_from_level(game->level, &task->board, &task->start)) {
        free(task);
        return NULL;
    }
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
    task->level = game->level;
    task->key = solver_position_key(&task->board, &task->position);
    task->store = store ? answers_retain(store) : NULL;
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

/* Queues a result for worker_poll(), taking its steps. Call with the lock held. */
static void publish_locked(worker *worker, worker_result *result)
{
    if (worker->result_count == RESULT_QUEUE) {
        worker_result_free(&worker->results[0]);
        memmove(worker->results, worker->results + 1,
                (RESULT_QUEUE - 1) * sizeof *worker->results);
        worker->result_count--;
    }
    worker->results[worker->result_count++] = *result;
    memset(result, 0, sizeof *result);
    /* The pipe is non-blocking and holds at most a byte or two. */
    ssize_t written = write(worker->wake_pipe[1], "!", 1);
    (void)written;
}

static void drop_results_locked(worker *worker)
{
    for (int i = 0; i < worker->result_count; i++) worker_result_free(&worker->results[i]);
    worker->result_count = 0;
    drain_wake_pipe(worker);
}

/* The walk from `player` to where `steps` begin (`from`'s player, in the same region),
 * then the steps: a new array of *count steps, or NULL. */
static game_step *walk_then(const board *b, const position *from, int player,
                            const game_step *steps, int moves, int *count)
{
    position here = *from;
    here.player = player;
    direction *walk = malloc((size_t)b->size * sizeof *walk);
    int length = walk ? board_path(b, &here, from->player, walk, b->size) : -1;
    game_step *out = NULL;
    if (length >= 0) out = malloc((size_t)(length + moves > 0 ? length + moves : 1) * sizeof *out);
    if (out) {
        for (int i = 0; i < length; i++) out[i] = (game_step){.direction = walk[i]};
        if (moves > 0) memcpy(out + length, steps, (size_t)moves * sizeof *out);
        *count = length + moves;
    }
    free(walk);
    /* the walk there and the solution's first walk made one shortest walk */
    game_step *shortest;
    int shortest_count;
    if (out && game_shortest_walks(b, &here, out, *count, &shortest, &shortest_count)) {
        free(out);
        out = shortest;
        *count = shortest_count;
    }
    return out;
}

/* Answers the waiting request when it is about `task`'s position. A solution comes from
 * `found` (the steps from the task's position) or, when NULL, from the store. Call with the
 * lock held. */
static void answer_locked(worker *worker, const worker_task *task, solver_status status,
                          solver_mode mode, const solver_result *found, int undo_pushes,
                          bool undo_exact)
{
    pending_request *request = &worker->request;
    if (!request->waiting || request->key != task->key) return;
    worker_result result = {.id = request->id,
                            .job = request->job,
                            .key = task->key,
                            .status = status,
                            .mode = mode,
                            .undo_pushes = undo_pushes,
                            .undo_exact = undo_exact,
                            .nodes = worker->nodes_current,
                            .seconds = ida_clock() - request->asked};
    if (status == SOLVER_SOLVED) {
        if (found) {
            result.steps = walk_then(&task->board, &task->position, request->player, found->steps,
                                     found->moves, &result.moves);
            result.pushes = found->pushes;
        } else if (task->store) {
            position asked = task->position;
            asked.player = request->player;
            answer a;
            if (answers_find(task->store, &asked, &a) == ANSWER_SOLVABLE) {
                result.steps = a.steps;
                result.moves = a.moves;
                result.pushes = a.pushes;
                result.mode = a.mode;
            }
        }
        if (!result.steps && !(result.moves == 0 && found)) result.status = SOLVER_ERROR;
    }
    request->waiting = false;
    publish_locked(worker, &result);
}

void worker_notice_locked(worker *worker, const worker_task *task, solver_status status,
                          solver_mode mode, int undo_pushes, bool undo_exact, bool improved)
{
    if (worker->next || atomic_load(&task->cancel)) return; /* no longer in play */
    worker_result result = {.job = WORKER_AHEAD,
                            .key = task->key,
                            .status = status,
                            .mode = mode,
                            .undo_pushes = undo_pushes,
                            .undo_exact = undo_exact,
                            .improved = improved};
    publish_locked(worker, &result);
}

/* ---- searching ------------------------------------------------------------------------ */

/* Tells the request waiting that its time is up (the search itself may go on ahead). Call
 * with the lock held. */
static void expire_request_locked(worker *worker)
{
    worker_task *task = worker->current;
    if (task && worker->request.waiting && worker->request.key == task->key &&
        worker->request.deadline > 0 && ida_clock() >= worker->request.deadline)
        answer_locked(worker, task, SOLVER_LIMIT, worker->mode, NULL, -1, false);
}

/* The solver's progress callback: publishes the node count, and answers the request whose
 * time is up (so does worker_poll(), while the search sets up and reports nothing). */
static void on_progress(void *argument, const solver_progress *progress)
{
    worker *worker = argument;
    pthread_mutex_lock(&worker->lock);
    worker->nodes_current = progress->nodes;
    worker->searching = true;
    expire_request_locked(worker);
    pthread_mutex_unlock(&worker->lock);
}

/* Runs one search from `from` until `deadline` (0: none). */
static solver_status search(worker *worker, worker_task *task, const position *from,
                            solver_mode mode, bool looking_back, double deadline,
                            solver_result *result)
{
    pthread_mutex_lock(&worker->lock);
    worker->busy = true;
    worker->started = ida_clock();
    worker->mode = mode;
    worker->looking_back = looking_back;
    worker->nodes_current = 0;
    worker->searching = false;
    pthread_mutex_unlock(&worker->lock);

    /* one level's deadlocks at a time: a new board starts afresh */
    if (!worker->no_reuse && !solver_learned_fits(worker->learned, &task->board)) {
        solver_learned_free(worker->learned);
        worker->learned = solver_learned_new(&task->board); /* NULL: the search learns alone */
    }
    solver_options options = {
        .mode = mode,
        .deadline = deadline,
        .memory_bytes = worker->memory_bytes,
        .cancel = &task->cancel,
        .progress = on_progress,
        .progress_argument = worker,
        .known = task->store ? answers_known : NULL,
        .known_argument = task->store,
        .learned = worker->learned,
        .plan_from = &task->start,
    };
    memset(result, 0, sizeof *result);
    solver_status status = worker->solve(&task->board, from, &options, result);
    result->status = status;

    pthread_mutex_lock(&worker->lock);
    worker->busy = false;
    worker->nodes_current = result->nodes;
    pthread_mutex_unlock(&worker->lock);
    return status;
}

/* A solution that ends at a known position (result->ends_known) gets the stored rest
 * appended, so that it solves. False when the rest is not known (nothing changes then). */
static bool join_known_rest(const worker_task *task, const position *from, solver_result *result)
{
    if (!result->ends_known) return true;
    if (!task->store) return false;
    position end;
    if (!position_copy(&end, from, &task->board)) return false;
    for (int i = 0; i < result->moves; i++) board_step(&task->board, &end, result->steps[i].direction);
    answer rest;
    bool ok = answers_find(task->store, &end, &rest) == ANSWER_SOLVABLE;
    position_free(&end);
    game_step *steps = ok ? realloc(result->steps, (size_t)(result->moves + rest.moves + 1) *
                                                       sizeof *steps)
                          : NULL;
    if (steps) {
        if (rest.moves > 0) memcpy(steps + result->moves, rest.steps, (size_t)rest.moves * sizeof *steps);
        result->steps = steps;
        result->moves += rest.moves;
        result->pushes += rest.pushes;
        result->ends_known = false;
    }
    answer_free(&rest);
    return steps != NULL;
}

/* Searches `from` in the fast mode and stores what it finds. */
static solver_status search_and_store(worker *worker, worker_task *task, const position *from,
                                      bool looking_back, double deadline, solver_result *result)
{
    solver_status status = search(worker, task, from, SOLVER_FAST, looking_back, deadline, result);
    if (status == SOLVER_SOLVED && !join_known_rest(task, from, result)) {
        status = result->status = SOLVER_ERROR;
    } else if (task->store && status == SOLVER_SOLVED) {
        answers_add_solution(task->store, from, result->steps, result->moves, SOLVER_FAST);
    } else if (task->store && status == SOLVER_UNSOLVABLE) {
        answers_add_lost(task->store, from);
    }
    return status;
}

/* When the position is lost, looks back for the most recent one that can be solved. Walks
 * the steps backwards with board_unstep(); just before each push it asks the store, then
 * the fast solver (whose "unsolvable" is a proof), whether that position can be solved.
 * Solvability only shrinks along a line of play, so the first solvable one found is the
 * nearest. Each search gets half of the time left before `deadline` (at least
 * LOOK_BACK_MIN_SECONDS; 0: no deadline, each search runs until it answers); a search that
 * runs out leaves the answer inexact. */
static void look_back(worker *worker, worker_task *task, double deadline, int *undo_pushes,
                      bool *undo_exact)
{
    *undo_pushes = -1;
    *undo_exact = false;
    position here;
    if (!position_copy(&here, &task->position, &task->board)) return;
    bool exact = true;
    int pushes_undone = 0;
    for (int i = task->step_count - 1; i >= 0; i--) {
        const game_step *step = &task->steps[i];
        board_unstep(&task->board, &here, step->direction, step->push ? STEP_PUSHED : STEP_MOVED);
        if (!step->push) continue;
        pushes_undone++;
        answer known = {.kind = ANSWER_UNKNOWN};
        if (task->store) answers_find(task->store, &here, &known);
        answer_free(&known);
        solver_status status = known.kind == ANSWER_SOLVABLE ? SOLVER_SOLVED
                               : known.kind == ANSWER_LOST   ? SOLVER_UNSOLVABLE
                                                             : SOLVER_LIMIT;
        if (known.kind == ANSWER_UNKNOWN) {
            double now = ida_clock(), left = deadline - now, until = 0;
            if ((deadline > 0 && left <= 0) || atomic_load(&task->cancel)) break;
            if (deadline > 0) {
                double seconds =
                    left / 2 > LOOK_BACK_MIN_SECONDS ? left / 2 : LOOK_BACK_MIN_SECONDS;
                until = now + (seconds < left ? seconds : left);
            }
            solver_result result;
            status = search_and_store(worker, task, &here, true, until, &result);
            solver_result_free(&result);
        }
        if (status == SOLVER_SOLVED) {
            *undo_pushes = pushes_undone;
            *undo_exact = exact;
            break;
        }
        if (status == SOLVER_CANCELLED) break;
        if (status != SOLVER_UNSOLVABLE) exact = false;
    }
    position_free(&here);
}

/* The position is lost: finds how far back to go, then tells the game and the request. */
static void report_lost(worker *worker, worker_task *task, double deadline)
{
    int undo = -1;
    bool exact = false;
    look_back(worker, task, deadline, &undo, &exact);
    pthread_mutex_lock(&worker->lock);
    answer_locked(worker, task, SOLVER_UNSOLVABLE, SOLVER_FAST, NULL, undo, exact);
    worker_notice_locked(worker, task, SOLVER_UNSOLVABLE, SOLVER_FAST, undo, exact, false);
    pthread_mutex_unlock(&worker->lock);
}

/* Gives the optimal mode its chance to better a fast answer already shown (a request was made
 * from the position), once per position, when solving ahead; what it finds goes into the
 * store, the game hears of it, and the optimizer shortens it in turn (by moves, its pushes
 * being the fewest already). */
static void upgrade(worker *worker, worker_task *task, solver_mode known_mode)
{
    pthread_mutex_lock(&worker->lock);
    bool wanted = known_mode != SOLVER_OPTIMAL && task->asked && !task->upgraded &&
                  !worker->no_solve_ahead && task->store;
    if (wanted) task->upgraded = true;
    pthread_mutex_unlock(&worker->lock);
    if (!wanted) return;
    solver_result result;
    if (search(worker, task, &task->position, SOLVER_OPTIMAL, false,
               ida_clock() + worker->upgrade_seconds, &result) == SOLVER_SOLVED &&
        answers_add_solution(task->store, &task->position, result.steps, result.moves,
                             SOLVER_OPTIMAL)) {
        pthread_mutex_lock(&worker->lock);
        worker_notice_locked(worker, task, SOLVER_SOLVED, SOLVER_OPTIMAL, -1, false, false);
        task->improved = false; /* the optimal line's walking may be shortened in turn */
        pthread_mutex_unlock(&worker->lock);
        solver_result_free(&result);
        worker_improve(worker, task);
        return;
    }
    solver_result_free(&result);
}

/* The deadline of a search from the task's position, in *deadline: the solve-ahead's, or
 * the request's waiting for it, whichever is later (0, none, for a request without one; one
 * already past answers LIMIT). False when there is nothing to do: not solving ahead, and
 * nobody asks. */
static bool search_deadline(worker *worker, const worker_task *task, double *deadline)
{
    double now = ida_clock();
    pthread_mutex_lock(&worker->lock);
    bool ahead = !worker->no_solve_ahead;
    *deadline = ahead ? now + worker->ahead_seconds : 0;
    const pending_request *request = &worker->request;
    bool asked = request->waiting && request->key == task->key;
    if (asked && (request->deadline <= 0 || !ahead || request->deadline > *deadline))
        *deadline = request->deadline;
    pthread_mutex_unlock(&worker->lock);
    return ahead || asked;
}

/* Everything the thread does for one position in play; returns how the search ended. */
static solver_status work(worker *worker, worker_task *task)
{
    double deadline;
    if (!search_deadline(worker, task, &deadline)) return SOLVER_LIMIT;
    answer known = {.kind = ANSWER_UNKNOWN};
    if (task->store) answers_find(task->store, &task->position, &known);
    solver_mode known_mode = known.mode;
    answer_free(&known);
    if (known.kind == ANSWER_SOLVABLE) {
        pthread_mutex_lock(&worker->lock);
        answer_locked(worker, task, SOLVER_SOLVED, known_mode, NULL, -1, false);
        pthread_mutex_unlock(&worker->lock);
        worker_improve(worker, task);
        upgrade(worker, task, known_mode);
        return SOLVER_SOLVED;
    }
    if (known.kind == ANSWER_LOST) {
        report_lost(worker, task, deadline);
        return SOLVER_UNSOLVABLE;
    }

    solver_result result;
    solver_status status =
        search_and_store(worker, task, &task->position, false, deadline, &result);
    if (status == SOLVER_SOLVED) {
        pthread_mutex_lock(&worker->lock);
        answer_locked(worker, task, SOLVER_SOLVED, SOLVER_FAST, &result, -1, false);
        worker_notice_locked(worker, task, SOLVER_SOLVED, SOLVER_FAST, -1, false, false);
        pthread_mutex_unlock(&worker->lock);
        solver_result_free(&result);
        worker_improve(worker, task);
        upgrade(worker, task, SOLVER_FAST);
    } else {
        solver_result_free(&result);
        if (status == SOLVER_UNSOLVABLE) {
            report_lost(worker, task, deadline);
        } else if (status != SOLVER_CANCELLED) {
            /* Out of time (or memory) with no answer: the thread rests; the game hears of it. */
            pthread_mutex_lock(&worker->lock);
            worker_notice_locked(worker, task, status, SOLVER_FAST, -1, false, false);
            pthread_mutex_unlock(&worker->lock);
        }
    }
    return status;
}

/* The thread: takes the newest position in play, works on it, and rests until there is
 * something new to do. */
/* The solver thread's niceness above the thread that made it (the game's loop): where the
 * solver's searches and the loop share a core, a key is drawn at once, and on an idle
 * core the searches run as fast as ever. The searches it races inherit it (and add their
 * own). */
enum { WORKER_NICE = 5 };

static void *worker_main(void *argument)
{
    worker *worker = argument;
    solver_lower_thread_priority(WORKER_NICE);
    pthread_mutex_lock(&worker->lock);
    for (;;) {
        while (!worker->quit && !worker->next &&
               !(worker->current && !worker->current->settled && !worker->paused))
            pthread_cond_wait(&worker->wake, &worker->lock);
        if (worker->quit) break;
        if (worker->next) {
            task_free(worker->current);
            worker->current = worker->next;
            worker->next = NULL;
        }
        worker_task *task = worker->current;
        uint64_t seen_request = worker->request.waiting ? worker->request.id : 0;
        pthread_mutex_unlock(&worker->lock);

        solver_status status = work(worker, task);

        pthread_mutex_lock(&worker->lock);
        task->settled = true;
        /* Wakes the game's loop, so that what it shows of the thread is fresh (worker_poll()
         * empties the pipe even when no result is ready). */
        ssize_t written = write(worker->wake_pipe[1], "!", 1);
        (void)written;
        pending_request *request = &worker->request;
        if (request->waiting && request->key == task->key && !atomic_load(&task->cancel)) {
            if (request->id != seen_request)
                task->settled = false; /* it came while the thread worked: once more for it */
            else
                answer_locked(worker, task, status == SOLVER_CANCELLED ? SOLVER_LIMIT : status,
                              worker->mode, NULL, -1, false);
        }
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
    static const worker_options defaults;
    if (!options) options = &defaults;
    worker *worker = calloc(1, sizeof *worker);
    if (!worker) return NULL;
    worker->solve = options->solve ? options->solve : solver_solve;
    worker->optimize = options->optimize ? options->optimize : optimizer_optimize;
    worker->memory_bytes = options->memory_bytes;
    worker->no_reuse = options->no_reuse;
    worker->no_solve_ahead = options->no_solve_ahead;
    worker->no_improve = options->no_improve;
    worker->ahead_seconds =
        options->ahead_seconds > 0 ? options->ahead_seconds : DEFAULT_AHEAD_SECONDS;
    worker->upgrade_seconds =
        options->upgrade_seconds > 0 ? options->upgrade_seconds : DEFAULT_UPGRADE_SECONDS;
    worker->improve_seconds =
        options->improve_seconds > 0 ? options->improve_seconds : DEFAULT_IMPROVE_SECONDS;
    if (!make_wake_pipe(worker->wake_pipe)) {
        free(worker);
        return NULL;
    }
    pthread_mutex_init(&worker->lock, NULL);
    pthread_cond_init(&worker->wake, NULL);

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
        pthread_cond_destroy(&worker->wake);
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

/* The task the thread will work on next: the newest. Call with the lock held. */
static worker_task *in_play_locked(worker *worker)
{
    return worker->next ? worker->next : worker->current;
}

/* Makes `task`'s position the one in play (taking the task). Call with the lock held. */
static void play_locked(worker *worker, worker_task *task)
{
    worker_task *base = in_play_locked(worker);
    if (base && base->level == task->level && base->store == task->store &&
        base->key == task->key && !atomic_load(&base->cancel)) {
        task_free(task); /* the same position: let the work on it go on */
    } else {
        if (worker->current) atomic_store(&worker->current->cancel, true);
        task_free(worker->next);
        worker->next = task;
        worker->request.waiting = false;
        pthread_cond_signal(&worker->wake);
    }
    worker->paused = false;
}

void worker_play(worker *worker, const game *game, answers *store)
{
    worker_task *task = task_from_game(game, worker->no_reuse ? NULL : store);
    if (!task) return;
    pthread_mutex_lock(&worker->lock);
    play_locked(worker, task);
    pthread_mutex_unlock(&worker->lock);
}

uint64_t worker_submit(worker *worker, const worker_request *request, answers *store)
{
    worker_task *task = task_from_game(request->game, worker->no_reuse ? NULL : store);
    if (!task) return 0;
    uint64_t key = task->key;
    double now = ida_clock();
    answer known = {.kind = ANSWER_UNKNOWN};
    if (task->store) answers_find(task->store, &request->game->position, &known);

    pthread_mutex_lock(&worker->lock);
    play_locked(worker, task); /* and the request with it, before the thread can look */
    uint64_t id = ++worker->last_id;
    worker->request = (pending_request){.waiting = true,
                                        .id = id,
                                        .job = request->job,
                                        .key = key,
                                        .player = request->game->position.player,
                                        .asked = now,
                                        .deadline = request->deadline};
    if (known.kind == ANSWER_SOLVABLE) {
        worker_result result = {.id = id,
                                .job = request->job,
                                .key = key,
                                .status = SOLVER_SOLVED,
                                .mode = known.mode,
                                .steps = known.steps,
                                .moves = known.moves,
                                .pushes = known.pushes,
                                .from_store = true,
                                .seconds = ida_clock() - now};
        known.steps = NULL;
        worker->request.waiting = false;
        publish_locked(worker, &result);
    }
    /* The thread takes it from here: the search for an answer, or the improving and the
     * optimal upgrade of the answer now shown. */
    worker_task *in_play = in_play_locked(worker);
    if (in_play) {
        in_play->asked = true;
        bool later = !worker->no_solve_ahead &&
                     ((known.mode == SOLVER_FAST && !in_play->upgraded) ||
                      (!worker->no_improve && !in_play->improved));
        bool more = known.kind != ANSWER_SOLVABLE || later;
        if (more && in_play->settled) in_play->settled = false;
        pthread_cond_signal(&worker->wake);
    }
    pthread_mutex_unlock(&worker->lock);
    answer_free(&known);
    return id;
}

void worker_cancel(worker *worker)
{
    pthread_mutex_lock(&worker->lock);
    worker->request.waiting = false;
    if (worker->current) atomic_store(&worker->current->cancel, true);
    if (worker->next) atomic_store(&worker->next->cancel, true);
    worker->paused = true;
    drop_results_locked(worker);
    pthread_mutex_unlock(&worker->lock);
}

bool worker_poll(worker *worker, worker_result *out)
{
    pthread_mutex_lock(&worker->lock);
    expire_request_locked(worker);
    bool ready = worker->result_count > 0;
    if (ready) {
        *out = worker->results[0];
        memmove(worker->results, worker->results + 1,
                (size_t)(RESULT_QUEUE - 1) * sizeof *worker->results);
        worker->result_count--;
    }
    if (worker->result_count == 0) drain_wake_pipe(worker);
    pthread_mutex_unlock(&worker->lock);
    return ready;
}

void worker_progress(worker *worker, worker_activity *activity)
{
    memset(activity, 0, sizeof *activity);
    pthread_mutex_lock(&worker->lock);
    activity->id = worker->request.waiting ? worker->request.id : 0;
    const worker_task *current = worker->current;
    /* Busy while a search runs or work waits for the thread: a new position to solve ahead
     * (unless solving ahead is off), one not finished with, a request. */
    activity->busy = worker->busy || worker->request.waiting ||
                     (!worker->paused && !worker->no_solve_ahead &&
                      (worker->next || (current && !current->settled)));
    if (worker->busy) {
        activity->mode = worker->mode;
        activity->looking_back = worker->looking_back;
        activity->improving = worker->improving;
        activity->nodes = worker->nodes_current;
        activity->seconds = ida_clock() - worker->started;
    }
    /* work waits, and no search has reported yet: its tables are being built (or the thread
     * is about to start it) */
    activity->setting_up =
        activity->busy && !(worker->busy && (worker->searching || worker->improving));
    pthread_mutex_unlock(&worker->lock);
}

int worker_wake_fd(const worker *worker)
{
    return worker->wake_pipe[0];
}

void worker_result_free(worker_result *result)
{
    if (!result) return;
    free(result->steps);
    result->steps = NULL;
}

void worker_destroy(worker *worker)
{
    if (!worker) return;
    pthread_mutex_lock(&worker->lock);
    if (worker->current) atomic_store(&worker->current->cancel, true);
    worker->quit = true;
    pthread_cond_signal(&worker->wake);
    pthread_mutex_unlock(&worker->lock);
    pthread_join(worker->thread, NULL);

    task_free(worker->current);
    task_free(worker->next);
    solver_learned_free(worker->learned);
    drop_results_locked(worker);
    pthread_cond_destroy(&worker->wake);
    pthread_mutex_destroy(&worker->lock);
    close(worker->wake_pipe[0]);
    close(worker->wake_pipe[1]);
    free(worker);
}

/* optimize_best.c - O: the optimizer on a level's best saved solution, on a thread of its
 * own; what it finds kept as a new best of the optimizer's.
 *
 * The job owns copies of all it reads (the board, the start, the steps), so the game may
 * open other levels, or other collections, while it runs. The thread only optimizes and sets
 * `done`; the game's loop takes the outcome (optimize_best_poll()), finds the level again by
 * its progress key and keeps the solution through progress_add_solution(), which replays it
 * once more before it is kept. */
#include "optimize_best.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rules/lurd.h"
#include "solver/solver.h"

struct optimize_job {
    pthread_t thread;
    atomic_bool cancel; /* Esc, or the game's end */
    atomic_bool done;   /* the thread has finished: `result` is ready */
    board board;
    position start;
    game_step *steps; /* the best as saved */
    int count;
    optimizer_metric metric;
    double seconds;
    /* The level, found again by its key when the outcome is taken. */
    progress_key key;
    int collection, index, number;
    optimizer_result result;
};

static const char *metric_name(optimizer_metric metric)
{
    return metric == OPTIMIZER_BY_PUSHES ? "pushes" : "moves";
}

static void job_free(optimize_job *job)
{
    if (!job) return;
    board_free(&job->board);
    position_free(&job->start);
    free(job->steps);
    optimizer_result_free(&job->result);
    free(job);
}

/* The job's niceness above the game's loop, as the solver thread's: a key is drawn at once. */
enum { JOB_NICE = 5 };

static void *job_main(void *argument)
{
    optimize_job *job = argument;
    solver_lower_thread_priority(JOB_NICE);
    optimizer_options options = {
        .metric = job->metric, .max_seconds = job->seconds, .cancel = &job->cancel};
    optimizer_optimize(&job->board, &job->start, job->steps, job->count, &options, &job->result);
    atomic_store(&job->done, true);
    return NULL;
}

/* A job for `lurd` on level `lv`; NULL (with *why) when it cannot be made. */
static optimize_job *job_new(const level *lv, const char *lurd, const char **why)
{
    optimize_job *job = calloc(1, sizeof *job);
    lurd_steps parsed = {0};
    lurd_error error;
    *why = "Out of memory: the best cannot be optimized";
    if (!job) return NULL;
    if (!board_from_level(lv, &job->board, &job->start)) {
        free(job);
        return NULL;
    }
    if (!lurd_parse(lurd, &parsed, &error)) {
        *why = "The saved best cannot be read: nothing to optimize";
        job_free(job);
        return NULL;
    }
    job->steps = parsed.steps;
    job->count = parsed.count;
    atomic_init(&job->cancel, false);
    atomic_init(&job->done, false);
    return job;
}

void optimize_best_start(optimize_best *o, play *p, int collection, int index)
{
    if (o->job) {
        play_message(p, PLAY_MESSAGE_INFO, "Still optimizing level %d's best; Esc stops",
                     o->job->number);
        return;
    }
    const level *lv = &p->collections[collection].levels[index];
    const progress_record *record = p->progress ? play_record(p, collection, index) : NULL;
    const progress_solution *best = NULL;
    if (record)
        best = o->metric == OPTIMIZER_BY_PUSHES ? &record->best_pushes : &record->best_moves;
    if (!best || !best->lurd) {
        play_message(p, PLAY_MESSAGE_INFO,
                     "No saved solution of level %d to optimize yet: solve it first", lv->number);
        return;
    }
    const char *why;
    optimize_job *job = job_new(lv, best->lurd, &why);
    if (!job) {
        play_message(p, PLAY_MESSAGE_ERROR, "%s", why);
        return;
    }
    job->metric = o->metric;
    job->seconds = o->seconds;
    job->key = progress_level_key(lv);
    job->collection = collection;
    job->index = index;
    job->number = lv->number;
    /* Signals (a resize, ^C) go to the game's thread, all but those a fault raises. */
    sigset_t all, previous;
    sigfillset(&all);
    static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++) sigdelset(&all, faults[i]);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    int error = pthread_create(&job->thread, NULL, job_main, job);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (error != 0) {
        job_free(job);
        play_message(p, PLAY_MESSAGE_ERROR, "The optimizer cannot start (no thread)");
        return;
    }
    o->job = job;
    play_message(p, PLAY_MESSAGE_INFO,
                 "Optimizing level %d's best (%d %s, %d %s) by %s, up to %g s; Esc stops",
                 lv->number, best->moves, play_plural(best->moves, "move", "moves"), best->pushes,
                 play_plural(best->pushes, "push", "pushes"), metric_name(o->metric), o->seconds);
}

bool optimize_best_running(const optimize_best *o)
{
    return o->job != NULL;
}

void optimize_best_stop(optimize_best *o)
{
    if (o->job) atomic_store(&o->job->cancel, true);
}

/* The level the job was about, if still loaded where it was (else anywhere), or NULL. */
static const level *job_level(const play *p, const optimize_job *job)
{
    if (job->collection < p->collection_count &&
        job->index < p->collections[job->collection].count) {
        const level *lv = &p->collections[job->collection].levels[job->index];
        if (progress_level_key(lv) == job->key) return lv;
    }
    for (int c = 0; c < p->collection_count; c++)
        for (int i = 0; i < p->collections[c].count; i++)
            if (!p->collections[c].levels[i].error &&
                progress_level_key(&p->collections[c].levels[i]) == job->key)
                return &p->collections[c].levels[i];
    return NULL;
}

/* Keeps the job's shorter solution as a best of the optimizer's, and says so. */
static void keep(play *p, const optimize_job *job)
{
    const optimizer_result *r = &job->result;
    const level *lv = job_level(p, job);
    char *lurd = lurd_format(r->steps, r->moves, false);
    int flags = 0;
    bool kept = lv && lurd && progress_add_solution(p->progress, lv, lurd, PROGRESS_OPTIMIZED,
                                                    &flags);
    free(lurd);
    if (!kept) {
        play_message(p, PLAY_MESSAGE_ERROR,
                     "Level %d: the optimizer's solution (%d %s, %d %s) could not be kept",
                     job->number, r->moves, play_plural(r->moves, "move", "moves"), r->pushes,
                     play_plural(r->pushes, "push", "pushes"));
        return;
    }
    if (job->metric == OPTIMIZER_BY_PUSHES)
        play_message(p, PLAY_MESSAGE_GOOD,
                     "Optimized level %d: %d -> %d pushes, %d -> %d moves; kept as the "
                     "optimizer's best",
                     job->number, r->pushes_before, r->pushes, r->moves_before, r->moves);
    else
        play_message(p, PLAY_MESSAGE_GOOD,
                     "Optimized level %d: %d -> %d moves, %d -> %d pushes; kept as the "
                     "optimizer's best",
                     job->number, r->moves_before, r->moves, r->pushes_before, r->pushes);
}

void optimize_best_poll(optimize_best *o, play *p)
{
    optimize_job *job = o->job;
    if (!job || !atomic_load(&job->done)) return;
    pthread_join(job->thread, NULL);
    o->job = NULL;
    const optimizer_result *r = &job->result;
    bool stopped = r->status == OPTIMIZER_CANCELLED;
    if (r->status == OPTIMIZER_INVALID)
        play_message(p, PLAY_MESSAGE_ERROR,
                     "Level %d's saved best does not solve it: nothing to optimize", job->number);
    else if (r->steps && optimizer_shorter(job->metric, r->moves, r->pushes, r->moves_before,
                                           r->pushes_before))
        keep(p, job);
    else if (stopped)
        play_message(p, PLAY_MESSAGE_INFO,
                     "Optimizing stopped after %.1f s: no shorter solution of level %d found",
                     r->seconds, job->number);
    else
        play_message(p, PLAY_MESSAGE_INFO,
                     "No shorter solution of level %d found in %.1f s (by %s; the best stays "
                     "%d %s, %d %s)",
                     job->number, r->seconds, metric_name(job->metric), r->moves_before,
                     play_plural(r->moves_before, "move", "moves"), r->pushes_before,
                     play_plural(r->pushes_before, "push", "pushes"));
    job_free(job);
}

void optimize_best_close(optimize_best *o)
{
    if (!o->job) return;
    atomic_store(&o->job->cancel, true);
    pthread_join(o->job->thread, NULL);
    job_free(o->job);
    o->job = NULL;
}

/* solver_threads.c - a race of searches on one level, in threads. */
#include "solver_threads.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum {
    /* How often the waiting caller looks at its own cancel flag, in milliseconds. */
    CANCEL_POLL_MS = 2,
};

typedef struct race {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int finished; /* runs that have returned */
    int winner;   /* the first run that answered, or -1 */
    atomic_bool stop;
    solver_thread_run *run;
    void *argument;
} race;

typedef struct runner {
    race *race;
    int index;
    pthread_t thread;
    solver_options options;
    solver_result result;
} runner;

int solver_threads_cores(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores >= 1 ? (int)cores : 1;
}

static bool is_answer(solver_status status)
{
    return status == SOLVER_SOLVED || status == SOLVER_UNSOLVABLE;
}

/* One run, then the news of its end (and of its answer) to the others. */
static void *run_one(void *argument)
{
    runner *r = argument;
    race *c = r->race;
    c->run(c->argument, r->index, &r->options, &r->result);
    pthread_mutex_lock(&c->lock);
    if (is_answer(r->result.status) && c->winner < 0) {
        c->winner = r->index;
        atomic_store(&c->stop, true);
    }
    c->finished++;
    pthread_cond_signal(&c->changed);
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* Waits until all `started` runs have returned, passing on the caller's cancel flag. */
static void wait_for_all(race *c, int started, const atomic_bool *cancel)
{
    pthread_mutex_lock(&c->lock);
    while (c->finished < started) {
        if (cancel && atomic_load(cancel)) atomic_store(&c->stop, true);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += CANCEL_POLL_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        int error = pthread_cond_timedwait(&c->changed, &c->lock, &until);
        (void)error; /* ETIMEDOUT or a wake-up: look again either way */
    }
    pthread_mutex_unlock(&c->lock);
}

/* The answer of the race: the winner's result, or the sum of what the runs say. */
static void pick_result(runner *runners, int count, const race *c, const atomic_bool *cancel,
                        solver_result *result)
{
    uint64_t nodes = 0;
    for (int i = 0; i < count; i++) nodes += runners[i].result.nodes;
    int pick = c->winner;
    if (pick < 0) {
        pick = 0;
        for (int i = 0; i < count; i++)
            if (runners[i].result.status == SOLVER_LIMIT) pick = i;
    }
    *result = runners[pick].result;
    runners[pick].result.lurd = NULL;
    result->nodes = nodes;
    if (c->winner < 0 && cancel && atomic_load(cancel)) result->status = SOLVER_CANCELLED;
    for (int i = 0; i < count; i++) solver_result_free(&runners[i].result);
}

solver_status solver_threads_race(int count, const solver_options *options,
                                  solver_thread_run *run, void *argument, solver_result *result)
{
    runner *runners = count > 1 ? calloc((size_t)count, sizeof *runners) : NULL;
    if (!runners) {
        /* One run, or no memory for more: in this thread, with the caller's own flag. */
        run(argument, 0, options, result);
        return result->status;
    }
    race c = {.winner = -1, .run = run, .argument = argument};
    atomic_init(&c.stop, options->cancel && atomic_load(options->cancel));
    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.changed, NULL);
    int started = 0;
    for (int i = 0; i < count; i++) {
        runner *r = &runners[started]; /* a run whose thread failed to start is left out */
        *r = (runner){.race = &c, .index = i, .options = *options};
        r->options.cancel = &c.stop;
        if (i > 0) r->options.progress = NULL;
        if (pthread_create(&r->thread, NULL, run_one, r) == 0) started++;
    }
    if (started > 0) {
        wait_for_all(&c, started, options->cancel);
        for (int i = 0; i < started; i++) pthread_join(runners[i].thread, NULL);
        pick_result(runners, started, &c, options->cancel, result);
    }
    pthread_cond_destroy(&c.changed);
    pthread_mutex_destroy(&c.lock);
    free(runners);
    if (started == 0) run(argument, 0, options, result);
    return result->status;
}

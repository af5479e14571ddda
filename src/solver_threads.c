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
} runner;

int solver_threads_cores(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores >= 1 ? (int)cores : 1;
}

/* One run, then the news of its end (and of its answer) to the others. */
static void *run_one(void *argument)
{
    runner *r = argument;
    race *c = r->race;
    bool answered = c->run(c->argument, r->index, &c->stop);
    pthread_mutex_lock(&c->lock);
    if (answered && c->winner < 0) {
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
        /* a time-out or a wake-up: look again either way */
        pthread_cond_timedwait(&c->changed, &c->lock, &until);
    }
    pthread_mutex_unlock(&c->lock);
}

int solver_threads_race(int count, const atomic_bool *cancel, solver_thread_run *run,
                        void *argument, int *winner)
{
    *winner = -1;
    runner *runners = count > 0 ? calloc((size_t)count, sizeof *runners) : NULL;
    if (!runners) return 0;
    race c = {.winner = -1, .run = run, .argument = argument};
    atomic_init(&c.stop, cancel && atomic_load(cancel));
    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.changed, NULL);
    int started = 0;
    while (started < count) {
        runners[started] = (runner){.race = &c, .index = started};
        if (pthread_create(&runners[started].thread, NULL, run_one, &runners[started]) != 0)
            break;
        started++;
    }
    wait_for_all(&c, started, cancel);
    for (int i = 0; i < started; i++) pthread_join(runners[i].thread, NULL);
    *winner = c.winner;
    pthread_cond_destroy(&c.changed);
    pthread_mutex_destroy(&c.lock);
    free(runners);
    return started;
}

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

/* The time `seconds` from now, for pthread_cond_timedwait(). */
static struct timespec time_after(double seconds)
{
    struct timespec at;
    clock_gettime(CLOCK_REALTIME, &at);
    long whole = (long)seconds;
    at.tv_sec += whole;
    at.tv_nsec += (long)((seconds - (double)whole) * 1e9);
    if (at.tv_nsec >= 1000000000L) {
        at.tv_sec++;
        at.tv_nsec -= 1000000000L;
    }
    return at;
}

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* Starts runs `from` .. count - 1; returns how many runs have started in all. */
static int start_runs(race *c, runner *runners, int from, int count)
{
    int started = from;
    while (started < count) {
        runners[started] = (runner){.race = c, .index = started};
        if (pthread_create(&runners[started].thread, NULL, run_one, &runners[started]) != 0) break;
        started++;
    }
    return started;
}

int solver_threads_race(int count, double stagger_seconds, const atomic_bool *cancel,
                        solver_thread_run *run, void *argument, int *winner)
{
    *winner = -1;
    runner *runners = count > 0 ? calloc((size_t)count, sizeof *runners) : NULL;
    if (!runners) return 0;
    race c = {.winner = -1, .run = run, .argument = argument};
    atomic_init(&c.stop, cancel && atomic_load(cancel));
    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.changed, NULL);
    double others_at = seconds_now() + stagger_seconds;
    int wanted = count; /* fewer when a thread could not be started */
    int started = start_runs(&c, runners, 0, stagger_seconds > 0 ? 1 : count);
    if (started < (stagger_seconds > 0 ? 1 : count)) wanted = started;
    /* Wait until every run started has returned, passing on the caller's cancel flag, and
     * start the others once the first has run its time (or returned) without an answer. */
    pthread_mutex_lock(&c.lock);
    for (;;) {
        if (cancel && atomic_load(cancel)) atomic_store(&c.stop, true);
        bool waiting = started < wanted && !atomic_load(&c.stop); /* runs still to start */
        if (waiting && (c.finished == started || seconds_now() >= others_at)) {
            pthread_mutex_unlock(&c.lock);
            int now = start_runs(&c, runners, started, wanted);
            if (now < wanted) wanted = now;
            started = now;
            pthread_mutex_lock(&c.lock);
            continue;
        }
        if (!waiting && c.finished == started) break;
        double wait = CANCEL_POLL_MS * 1e-3;
        if (waiting && others_at - seconds_now() < wait) wait = others_at - seconds_now();
        struct timespec until = time_after(wait > 0 ? wait : 0);
        /* a time-out or a wake-up: look again either way */
        pthread_cond_timedwait(&c.changed, &c.lock, &until);
    }
    pthread_mutex_unlock(&c.lock);
    for (int i = 0; i < started; i++) pthread_join(runners[i].thread, NULL);
    *winner = c.winner;
    pthread_cond_destroy(&c.changed);
    pthread_mutex_destroy(&c.lock);
    free(runners);
    return started;
}

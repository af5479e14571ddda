/* solver_threads.c - a race of searches on one level, in threads.
 *
 * With a stagger, the caller runs run 0 itself and a supervising thread waits beside it: it
 * passes the caller's cancel on, and starts the other runs when run 0 has taken its time.
 * The supervisor is detached, and the race's state is shared by reference count, so that
 * the caller never waits for it to wake up and leave: on a loaded machine each hand-over
 * between threads (a new thread's first turn, the wake-up of a thread that is waited for)
 * may wait for the next scheduler tick, 4 ms here, more than the search of most levels.
 * The later runs are helpers then, at a lower priority: on an idle core they run at full
 * speed; where the process has only one core's share of a busy machine (Linux gives each
 * session an equal share), they take a quarter of it instead of halving the first run's
 * speed (docs/SOLVER.md, "The fixed cost per level"). */
#define _GNU_SOURCE /* syscall() */
#include "solver_threads.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum {
    /* How often the supervisor looks at the caller's cancel flag, in milliseconds. */
    CANCEL_POLL_MS = 2,
    /* The niceness of a helper run, above its creator's: where the threads share one core,
     * weights 1024 and 335 in Linux's scheduler, a quarter of it for the helper (measured
     * against 0 and 19 in docs/SOLVER.md, "The fixed cost per level"). */
    HELPER_NICE = 5,
};

typedef struct runner runner;

typedef struct race {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int finished; /* runs that have returned */
    int winner;   /* the first run that answered, or -1 */
    atomic_bool stop;
    solver_thread_run *run;
    void *argument;
    const atomic_bool *cancel; /* the caller's; may be NULL */
    runner *runners;
    int started;      /* runs 0 .. started - 1 have started */
    int wanted;       /* the runs to start: all, fewer when a thread could not be started */
    double others_at; /* when runs 1 .. wanted - 1 start if no answer has come */
    bool starting;    /* a thread is starting runs (the lock is not held meanwhile) */
    bool closed;      /* the caller has left: the supervisor has nothing more to do */
    int references;   /* the caller, and the supervisor while it runs */
    bool helpers;     /* runs 1 .. count - 1 run at the lowest priority */
} race;

struct runner {
    race *race;
    int index;
    pthread_t thread;
};

int solver_threads_cores(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores >= 1 ? (int)cores : 1;
}

/* The news of run `index`'s end (and of its answer) to the others. */
static void finish(race *c, int index, bool answered)
{
    pthread_mutex_lock(&c->lock);
    if (answered && c->winner < 0) {
        c->winner = index;
        atomic_store(&c->stop, true);
    }
    c->finished++;
    pthread_cond_broadcast(&c->changed);
    pthread_mutex_unlock(&c->lock);
}

/* Gives up a reference to the race, with its lock held; the last frees it. */
static void release(race *c)
{
    bool last = --c->references == 0;
    pthread_mutex_unlock(&c->lock);
    if (!last) return;
    pthread_cond_destroy(&c->changed);
    pthread_mutex_destroy(&c->lock);
    free(c->runners);
    free(c);
}

void solver_threads_lower_priority(int by)
{
#ifdef __linux__
    id_t thread = (id_t)syscall(SYS_gettid);
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, thread);
    if (errno == 0) setpriority(PRIO_PROCESS, thread, nice + by);
#else
    (void)by;
#endif
}

/* One run in a thread of its own. */
static void *run_one(void *argument)
{
    runner *r = argument;
    race *c = r->race;
    if (c->helpers && r->index > 0) solver_threads_lower_priority(HELPER_NICE);
    finish(c, r->index, c->run(c->argument, r->index, &c->stop));
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

/* Starts runs `from` .. `to` - 1 in threads; returns the index after the last started. */
static int start_runs(race *c, int from, int to)
{
    int started = from;
    while (started < to) {
        c->runners[started] = (runner){.race = c, .index = started};
        if (pthread_create(&c->runners[started].thread, NULL, run_one, &c->runners[started]) != 0)
            break;
        started++;
    }
    return started;
}

/* Until every run started has returned: passes the caller's cancel flag on, and starts the
 * runs still to start once the first has run its time (or returned) without an answer. Two
 * threads may supervise at once (the supervisor and the caller once run 0 is done); one
 * starts runs at a time. Returns with the lock held. */
static void supervise(race *c)
{
    pthread_mutex_lock(&c->lock);
    while (!c->closed) {
        if (c->cancel && atomic_load(c->cancel)) atomic_store(&c->stop, true);
        bool waiting = c->started < c->wanted && !atomic_load(&c->stop); /* runs to start */
        if (waiting && !c->starting &&
            (c->finished == c->started || seconds_now() >= c->others_at)) {
            int from = c->started, to = c->wanted;
            c->starting = true;
            pthread_mutex_unlock(&c->lock);
            int now = start_runs(c, from, to);
            pthread_mutex_lock(&c->lock);
            c->started = now;
            if (now < c->wanted) c->wanted = now;
            c->starting = false;
            pthread_cond_broadcast(&c->changed);
            continue;
        }
        if (!waiting && !c->starting && c->finished == c->started) break;
        double wait = CANCEL_POLL_MS * 1e-3;
        if (waiting && c->others_at - seconds_now() < wait) wait = c->others_at - seconds_now();
        struct timespec until = time_after(wait > 0 ? wait : 0);
        /* a time-out or a wake-up: look again either way */
        pthread_cond_timedwait(&c->changed, &c->lock, &until);
    }
}

static void *supervise_thread(void *argument)
{
    race *c = argument;
    supervise(c);
    release(c);
    return NULL;
}

int solver_threads_race(int count, double stagger_seconds, const atomic_bool *cancel,
                        solver_thread_run *run, void *argument, int *winner)
{
    *winner = -1;
    race *c = count > 0 ? malloc(sizeof *c) : NULL;
    runner *runners = count > 0 ? calloc((size_t)count, sizeof *runners) : NULL;
    if (!c || !runners) {
        free(c);
        free(runners);
        return 0;
    }
    *c = (race){.winner = -1,
                .run = run,
                .argument = argument,
                .cancel = cancel,
                .runners = runners,
                .wanted = count,
                .others_at = seconds_now() + stagger_seconds,
                .references = 1,
                .helpers = stagger_seconds > 0};
    atomic_init(&c->stop, cancel && atomic_load(cancel));
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->changed, NULL);
    bool here = false; /* run 0 in this thread, the supervisor beside it */
    if (stagger_seconds > 0) {
        pthread_t supervisor;
        c->started = 1;
        c->references = 2;
        here = pthread_create(&supervisor, NULL, supervise_thread, c) == 0;
        if (here) {
            pthread_detach(supervisor);
        } else {
            c->started = 0; /* as without a stagger: run 0 in a thread, then the rest */
            c->references = 1;
        }
    }
    if (here) {
        finish(c, 0, run(argument, 0, &c->stop));
    } else {
        int first = stagger_seconds > 0 ? 1 : count;
        c->started = start_runs(c, 0, first);
        if (c->started < first) c->wanted = c->started;
    }
    supervise(c); /* returns with the lock held */
    int started = c->started;
    pthread_mutex_unlock(&c->lock);
    for (int i = here ? 1 : 0; i < started; i++) pthread_join(runners[i].thread, NULL);
    pthread_mutex_lock(&c->lock);
    *winner = c->winner;
    c->closed = true;
    pthread_cond_broadcast(&c->changed);
    release(c);
    return started;
}

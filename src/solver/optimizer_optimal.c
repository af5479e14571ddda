/* optimizer_optimal.c - the optimal mode's turn in the optimizer (optimizer_optimal.h): its
 * IDA* from the start, watched so that it stops as soon as it proves the best's pushes the
 * fewest. */
#include "optimizer_optimal.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "ida.h"
#include "optimizer_check.h"
#include "solver.h"

/* What the optimal mode's IDA* tells as it goes: it starts an iteration at threshold T only
 * when no solution of fewer than T pushes exists, so a threshold at the best solution's
 * pushes proves them the fewest, and the search is stopped there. */
typedef struct optimal_watch {
    int best;                  /* the pushes of the best solution */
    const atomic_bool *caller; /* the optimizer's cancel, or NULL */
    atomic_bool stop;
    bool proved;      /* no solution has fewer pushes than `best` */
    atomic_bool done; /* the solver has returned: the relay ends */
} optimal_watch;

/* The caller's cancel passed on to the solver's own flag within milliseconds, on a thread
 * of its own while the solver runs (its progress reports come a quarter second apart, and
 * none while it builds its tables). */
static void *relay_cancel(void *argument)
{
    optimal_watch *watch = argument;
    const struct timespec pause = {.tv_nsec = 2000000};
    while (!atomic_load(&watch->done)) {
        if (atomic_load(watch->caller)) {
            atomic_store(&watch->stop, true);
            break;
        }
        nanosleep(&pause, NULL);
    }
    return NULL;
}

static void watch_threshold(void *argument, const solver_progress *progress)
{
    optimal_watch *watch = argument;
    if (progress->threshold >= watch->best) watch->proved = true;
    if (watch->proved || (watch->caller && atomic_load(watch->caller)))
        atomic_store(&watch->stop, true);
}

int optimizer_start_bound(const board *b, const position *start, const solver_distances *distances,
                          double deadline, const atomic_bool *cancel)
{
    int n = start->box_count;
    if (!distances || n != b->goal_count || n == 0) return -1;
    const uint16_t **rows = calloc((size_t)n, sizeof *rows);
    solver_matching matching;
    int bound = -1;
    solver_stop stop = {.deadline = deadline, .cancel = cancel};
    if (rows && solver_matching_init(&matching, n, (const uint16_t *const *)rows)) {
        matching.stop = &stop; /* O(boxes^3): half a second at 700 boxes */
        int i = 0;
        for (int q = 0; q < b->size && i < n; q++)
            if (start->boxes[q]) rows[i++] = solver_distance_row(distances, q, -1);
        bound = solver_matching_solve(&matching);
        if (matching.stopped) bound = -1;
        solver_matching_free(&matching);
    }
    free(rows);
    return bound < IDA_INFINITY ? bound : -1;
}

bool optimizer_optimal_better(const board *b, const position *start, const optimizer_options *o,
                              size_t memory, double deadline, uint64_t nodes,
                              optimizer_result *result, optimizer_status *status)
{
    optimal_watch watch = {.best = result->pushes, .caller = o->cancel};
    atomic_init(&watch.stop, false);
    atomic_init(&watch.done, false);
    pthread_t relay;
    bool relaying = o->cancel && pthread_create(&relay, NULL, relay_cancel, &watch) == 0;
    solver_options options = {
        .mode = SOLVER_OPTIMAL,
        .deadline = deadline > 0 ? ida_clock() + (deadline - optimizer_clock()) : 0,
        .max_nodes = nodes,
        .memory_bytes = memory / 2,
        .cancel = &watch.stop,
        .progress = watch_threshold,
        .progress_argument = &watch,
        .threads = 1,
    };
    solver_result found;
    solver_solve(b, start, &options, &found);
    atomic_store(&watch.done, true);
    if (relaying) pthread_join(relay, NULL);
    result->rounds++;
    result->nodes += found.nodes;
    result->pushes_fewest = result->pushes_fewest || watch.proved;
    bool better = false;
    game_step *steps = NULL;
    int length = 0, moves, pushes;
    if (found.status == SOLVER_SOLVED && found.steps &&
        game_shortest_walks(b, start, found.steps, found.moves, &steps, &length) &&
        optimizer_replay_solves(b, start, steps, length, &moves, &pushes)) {
        result->pushes_fewest = true; /* the optimal mode's answer: no fewer pushes exist */
        better = optimizer_shorter(o->metric, moves, pushes, result->moves, result->pushes);
    }
    if (better) {
        free(result->steps);
        result->steps = steps;
        result->moves = moves;
        result->pushes = pushes;
        result->improvements++;
    } else {
        free(steps);
    }
    solver_result_free(&found);
    if (o->cancel && atomic_load(o->cancel)) *status = OPTIMIZER_CANCELLED;
    return better;
}

/* improve_bench.c - how soon the hint on show switches to the optimizer's shorter line.
 *
 * For each level of a collection (default levels/xsokoban.xsb, levels 1-20), a fresh solver
 * thread as the game makes it (solving ahead, the level's answer store, the optimizer on the
 * answer given): the level opens (worker_play()), H is pressed at once (worker_submit()), and
 * two times are taken from the wake descriptor as the game's loop sees them: when the hint
 * arrives (the hint first shown), and when the first notice that the answer was improved
 * arrives (the improved line on show). Prints a row per level (the hint's pushes and moves,
 * the improved line's, the seconds between) and the median of those seconds over the levels
 * whose answer was improved; a level whose answer was not improved before the thread came to
 * rest (the optimizer found nothing shorter in its time) is counted apart.
 *
 *   improve_bench [--file FILE] [--first L] [--levels N] [--budget SECONDS]
 *                 [--improve SECONDS]
 *
 * --budget is the hint's (default 60), --improve the optimizer's (default 10, the game's). */
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ida.h"
#include "level/level.h"
#include "rules/game.h"
#include "worker/answers.h"
#include "worker/worker.h"

static const char USAGE[] =
    "Usage: improve_bench [--file FILE] [--first L] [--levels N] [--budget SECONDS]\n"
    "                     [--improve SECONDS]\n"
    "Times, per level, the hint from the start and the first improved line after it.\n";

typedef struct row {
    int level;
    bool hinted, improved;
    int pushes, moves, improved_pushes, improved_moves;
    double hint_seconds, improve_seconds; /* from H to the hint; from the hint to the line */
} row;

/* Waits up to `seconds` for a result; false when none came. */
static bool next_result(worker *w, double seconds, worker_result *out)
{
    double until = ida_clock() + seconds;
    for (;;) {
        if (worker_poll(w, out)) return true;
        double left = until - ida_clock();
        if (left <= 0) return false;
        struct pollfd fd = {.fd = worker_wake_fd(w), .events = POLLIN};
        int ms = left > 0.1 ? 100 : (int)(left * 1000) + 1;
        poll(&fd, 1, ms);
        /* the thread at rest, with nothing queued: no improvement is coming */
        worker_activity activity;
        worker_progress(w, &activity);
        if (!activity.busy && !worker_poll(w, out)) return false;
        if (!activity.busy) return true;
    }
}

static void measure(const level *lv, double budget, double improve, row *r)
{
    game g;
    answers *store = answers_create(lv);
    worker_options options = {.improve_seconds = improve};
    worker *w = worker_create_with(&options);
    if (!store || !w || !game_init(&g, lv)) {
        fprintf(stderr, "improve_bench: out of memory\n");
        exit(1);
    }
    worker_play(w, &g, store);
    double asked = ida_clock();
    worker_request request = {.job = WORKER_HINT, .game = &g, .deadline = asked + budget};
    uint64_t id = worker_submit(w, &request, store);
    double shown = 0;
    worker_result result;
    while (next_result(w, budget + improve + 5, &result)) {
        double now = ida_clock();
        if (result.id == id) {
            r->hinted = result.status == SOLVER_SOLVED;
            r->pushes = result.pushes;
            r->moves = result.moves;
            r->hint_seconds = now - asked;
            shown = now;
            if (!r->hinted) {
                worker_result_free(&result);
                break;
            }
        } else if (result.job == WORKER_AHEAD && result.improved && shown > 0) {
            answer a;
            if (answers_find(store, &g.position, &a) == ANSWER_SOLVABLE) {
                r->improved = true;
                r->improved_pushes = a.pushes;
                r->improved_moves = a.moves;
                r->improve_seconds = now - shown;
            }
            answer_free(&a);
            worker_result_free(&result);
            break;
        }
        worker_result_free(&result);
    }
    worker_destroy(w);
    answers_release(store);
    game_free(&g);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *file = "levels/xsokoban.xsb";
    int first = 1, count = 20;
    double budget = 60, improve = 10;
    static const struct option long_options[] = {
        {"file", required_argument, NULL, 'f'},   {"first", required_argument, NULL, 'F'},
        {"levels", required_argument, NULL, 'n'}, {"budget", required_argument, NULL, 'b'},
        {"improve", required_argument, NULL, 'i'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
        switch (c) {
        case 'f': file = optarg; break;
        case 'F': first = atoi(optarg); break;
        case 'n': count = atoi(optarg); break;
        case 'b': budget = atof(optarg); break;
        case 'i': improve = atof(optarg); break;
        default: fputs(USAGE, c == 'h' ? stdout : stderr); return c == 'h' ? 0 : 2;
        }
    }
    collection levels;
    level_error error;
    if (!collection_load(file, &levels, &error)) {
        fprintf(stderr, "improve_bench: %s: %s\n", file, error.message);
        return 2;
    }
    if (first < 1 || count < 1 || first + count - 1 > levels.count) {
        fprintf(stderr, "improve_bench: levels %d-%d are not all in %s\n", first,
                first + count - 1, file);
        return 2;
    }
    printf("%5s %8s %13s %13s %9s\n", "level", "hint s", "hint", "improved", "hint->");
    printf("%5s %8s %13s %13s %9s\n", "", "", "pushes/moves", "pushes/moves", "improved s");
    double *gaps = malloc((size_t)count * sizeof *gaps);
    int improved = 0, hinted = 0;
    for (int i = 0; i < count; i++) {
        row r = {.level = first + i};
        measure(&levels.levels[first + i - 1], budget, improve, &r);
        hinted += r.hinted;
        if (!r.hinted) {
            printf("%5d %8s %13s\n", r.level, "-", "no hint");
            continue;
        }
        char hint[32], better[32] = "-", gap[16] = "-";
        snprintf(hint, sizeof hint, "%d/%d", r.pushes, r.moves);
        if (r.improved) {
            snprintf(better, sizeof better, "%d/%d", r.improved_pushes, r.improved_moves);
            snprintf(gap, sizeof gap, "%.3f", r.improve_seconds);
            gaps[improved++] = r.improve_seconds;
        }
        printf("%5d %8.3f %13s %13s %9s\n", r.level, r.hint_seconds, hint, better, gap);
        fflush(stdout);
    }
    qsort(gaps, (size_t)improved, sizeof *gaps, by_value);
    printf("levels %d, hinted %d, improved %d", count, hinted, improved);
    if (improved > 0)
        printf(", hint->improved median %.3f s, max %.3f s (target: median under 2 s)",
               improved % 2 ? gaps[improved / 2]
                            : (gaps[improved / 2 - 1] + gaps[improved / 2]) / 2,
               gaps[improved - 1]);
    printf("\n");
    free(gaps);
    collection_free(&levels);
    return 0;
}

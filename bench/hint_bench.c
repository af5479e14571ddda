/* hint_bench.c - how long the game waits for a hint, over positions of real play.
 *
 * Replays the reference solution (.sol beside each .sok) of levels of a collection stored one
 * level a file, such as Microban in /usr/share/games/cavepacker/maps, and asks the solver
 * thread for a hint from the start and after each push but the last (the positions a player
 * following the solution passes through). Times each hint from worker_submit() to its result
 * arriving through the wake descriptor, as the game does, and prints the median, the 95th
 * percentile, the maximum and how the answers were found (optimal, fast, budget spent).
 *
 *   hint_bench [--dir DIR] [--prefix NAME] [--levels N] [--first L] [--every K]
 *              [--budget SECONDS] [--memory MiB] [--verbose] [--supersede] [--no-reuse]
 *              [--each]
 *
 * With --supersede it measures instead how soon a new request is answered while an old one
 * still runs: a hint from each level's start, and 10 ms later one from the position before
 * the last push (which the solver answers in microseconds), timed from the second submit.
 * That time is mostly the cancelled search noticing its flag.
 *
 * With --as-played it measures the game as a player meets it: each level's reference
 * solution is played through the solver thread at --rate moves a second (default 4), the
 * thread solving ahead as in the game (told the position after each push, with the level's
 * answer store); at every --every-th push (default 60) the player stops, thinks --think
 * seconds (default 2) and presses H; the time from H to the hint is recorded. Then the same
 * positions cold: a worker with no store and no solving ahead, one request each. Prints both
 * tables: median, 95th percentile, and how many got no hint within the budget.
 */
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/game.h"
#include "level/level.h"
#include "rules/lurd.h"
#include "level/textfile.h"
#include "worker/answers.h"
#include "worker/worker.h"

typedef struct bench_options {
    const char *directory;
    const char *prefix;
    int first_level, level_count;
    int every;
    double budget;
    int memory_mib;
    bool verbose;
    bool supersede;
    bool no_reuse;
    bool each;
    bool as_played;
    double rate;  /* --as-played: moves a second */
    double think; /* --as-played: seconds between the stop and H */
} bench_options;

typedef struct bench_totals bench_totals;
struct bench_totals {
    double *latencies;
    int count, capacity;
    int optimal, fast, limit, unsolvable, other;
    int levels, skipped_levels;
    int not_busy; /* --supersede: the first request had finished before the second came */
    int no_hint;  /* no hint within the budget */
    uint64_t nodes;
    const char *last_answer; /* of the last hint: "optimal", "fast", "limit", ... */
    bench_totals *cold; /* --as-played: the same positions, cold */
};

static const char USAGE[] =
    "Usage: hint_bench [--dir DIR] [--prefix NAME] [--levels N] [--first L] [--every K]\n"
    "                  [--budget SECONDS] [--memory MiB] [--verbose] [--supersede]\n"
    "                  [--no-reuse] [--each]\n"
    "       hint_bench --as-played [--rate MOVES-PER-SECOND] [--think SECONDS] [--every K]\n"
    "                  [--dir DIR] [--prefix NAME] [--levels N] [--first L] [--budget S]\n"
    "Times hints (worker_submit to result) from the start and after each push of the\n"
    "reference solutions of DIR/NAME%04d.sok with NAME%04d.sol beside them.\n"
    "  --dir DIR         default /usr/share/games/cavepacker/maps\n"
    "  --prefix NAME     default microban01_\n"
    "  --first L         first level number (default 1)\n"
    "  --levels N        how many levels (default 155)\n"
    "  --every K         only every K-th position of each solution (default 1)\n"
    "  --budget SECONDS  the hint budget (default 10, as in the game)\n"
    "  --memory MiB      transposition table per search (default: the solver's)\n"
    "  --verbose         one line per level\n"
    "  --supersede       time a request that cancels a running one instead (see the source)\n"
    "  --no-reuse        search every position afresh (by default the worker answers a\n"
    "                    position along its last solution from that solution, as in the game)\n"
    "  --each            one line per hint: level, push, seconds, how it was answered\n"
    "  --as-played       play each reference solution through the solving-ahead worker at\n"
    "                    --rate moves/s (default 4), stop every --every pushes (default 60),\n"
    "                    think --think s (default 2), press H; then the same positions cold\n";

static double clock_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* Reads a whole small file (a .sol solution) with the library's reader; NULL when it
 * cannot. */
static char *read_file(const char *path)
{
    char *text = NULL, reason[256];
    size_t length;
    return textfile_read(path, 1 << 20, &text, &length, reason, sizeof reason) ? text : NULL;
}

static void add_latency(bench_totals *totals, double seconds)
{
    if (totals->count == totals->capacity) {
        totals->capacity = totals->capacity ? 2 * totals->capacity : 1024;
        double *grown = realloc(totals->latencies, (size_t)totals->capacity * sizeof *grown);
        if (!grown) {
            fputs("hint_bench: out of memory\n", stderr);
            exit(2);
        }
        totals->latencies = grown;
    }
    totals->latencies[totals->count++] = seconds;
}

/* Asks for a hint from where the game stands (without waiting for it: time_hint() waits as
 * the game would, in poll() on the wake descriptor). Returns the request's id. */
static uint64_t submit_hint(worker *w, const game *g, answers *store, double budget)
{
    worker_request request = {.job = WORKER_HINT, .game = g, .deadline = ida_clock() + budget};
    uint64_t id = worker_submit(w, &request, store);
    if (id == 0) {
        fputs("hint_bench: out of memory\n", stderr);
        exit(2);
    }
    return id;
}

static double time_hint(worker *w, const game *g, answers *store, double budget,
                        bench_totals *totals)
{
    double began = clock_seconds();
    uint64_t id = submit_hint(w, g, store, budget);
    worker_result result;
    for (;;) {
        struct pollfd wake = {.fd = worker_wake_fd(w), .events = POLLIN};
        poll(&wake, 1, -1);
        bool found = false;
        while (!found && worker_poll(w, &result)) {
            found = result.id == id;
            if (!found) worker_result_free(&result);
        }
        if (found) break;
    }
    double seconds = clock_seconds() - began;
    if (result.status == SOLVER_SOLVED) {
        bool optimal = result.mode == SOLVER_OPTIMAL;
        (*(optimal ? &totals->optimal : &totals->fast))++;
        totals->last_answer = optimal ? "optimal" : "fast";
    } else if (result.status == SOLVER_LIMIT) {
        totals->limit++;
        totals->last_answer = "limit";
    } else if (result.status == SOLVER_UNSOLVABLE) {
        totals->unsolvable++;
        totals->last_answer = "unsolvable";
    } else {
        totals->other++;
        totals->last_answer = "error";
    }
    if (result.status != SOLVER_SOLVED && result.status != SOLVER_UNSOLVABLE) totals->no_hint++;
    totals->nodes += result.nodes;
    worker_result_free(&result);
    return seconds;
}

/* --supersede on one level: `g` stands at the end of its solution. */
static void time_supersede(worker *w, const bench_options *options, game *g, answers *store,
                           bench_totals *totals)
{
    game_restart(g);
    submit_hint(w, g, store, options->budget);
    struct timespec pause = {0, 10 * 1000 * 1000};
    nanosleep(&pause, NULL);
    while (game_redo(g)) continue;
    game_undo_push(g);
    worker_activity activity;
    worker_progress(w, &activity);
    double seconds = time_hint(w, g, store, options->budget, totals);
    if (activity.busy)
        add_latency(totals, seconds);
    else
        totals->not_busy++;
}

static void sleep_seconds(double seconds)
{
    if (seconds <= 0) return;
    struct timespec pause = {(time_t)seconds, (long)((seconds - floor(seconds)) * 1e9)};
    nanosleep(&pause, NULL);
}

/* Takes every result that is ready, as the game's loop does between keys. */
static void drain_results(worker *w)
{
    worker_result result;
    while (worker_poll(w, &result)) worker_result_free(&result);
}

/* --as-played on one level: `g` stands at the end of its reference solution. Plays it again
 * from the start at options->rate moves a second through the solving-ahead worker `w`; at
 * every options->every-th push stops, thinks, and times H. Each such position is also timed
 * cold (totals->cold, a worker with neither store nor solving ahead) after the level. */
static void play_level(worker *w, const bench_options *options, int number, game *g,
                       answers *store, bench_totals *totals)
{
    int end = g->moves;
    game_restart(g);
    worker_play(w, g, store); /* the level opens */
    double step_seconds = 1.0 / options->rate;
    double next_step = clock_seconds() + step_seconds;
    int stops[64], stop_count = 0;
    while (g->moves < end) {
        sleep_seconds(next_step - clock_seconds());
        next_step += step_seconds;
        drain_results(w);
        int pushes = g->pushes;
        game_redo(g);
        if (g->pushes == pushes) continue;
        worker_play(w, g, store); /* after each push, as the game does */
        if (g->pushes % options->every != 0 || game_is_solved(g)) continue;
        sleep_seconds(options->think);
        drain_results(w);
        double seconds = time_hint(w, g, store, options->budget, totals);
        add_latency(totals, seconds);
        if (stop_count < 64) stops[stop_count++] = g->moves;
        if (options->each)
            printf("as played: level %d push %d: %.4f s %s\n", number, g->pushes, seconds,
                   totals->last_answer);
        next_step = clock_seconds() + step_seconds;
    }
    worker_cancel(w);
    /* The same positions, cold. */
    worker_options cold_settings = {.memory_bytes = (size_t)options->memory_mib << 20,
                                    .no_reuse = true,
                                    .no_solve_ahead = true};
    worker *cold = worker_create_with(&cold_settings);
    for (int i = 0; cold && i < stop_count; i++) {
        while (g->moves > stops[i]) game_undo(g);
        while (g->moves < stops[i]) game_redo(g);
        double seconds = time_hint(cold, g, NULL, options->budget, totals->cold);
        add_latency(totals->cold, seconds);
        if (options->each)
            printf("cold:      level %d push %d: %.4f s %s\n", number, g->pushes, seconds,
                   totals->cold->last_answer);
    }
    worker_destroy(cold);
    if (options->verbose) {
        printf("level %3d: %d stops\n", number, stop_count);
        fflush(stdout);
    }
}

/* Benchmarks one level; false when its files cannot be read or its solution does not
 * replay (it is then skipped). */
static bool bench_level(worker *w, const bench_options *options, int number, bench_totals *totals)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%04d.sok", options->directory, options->prefix, number);
    collection levels;
    level_error level_failure;
    if (!collection_load(path, &levels, &level_failure)) {
        fprintf(stderr, "hint_bench: %s\n", level_failure.message);
        return false;
    }
    snprintf(path, sizeof path, "%s/%s%04d.sol", options->directory, options->prefix, number);
    char *solution = read_file(path);
    lurd_steps steps = {0};
    lurd_error lurd_failure = {{0}};
    game g;
    bool ok = solution && levels.count >= 1 && lurd_parse(solution, &steps, &lurd_failure) &&
              game_init(&g, &levels.levels[0]);
    if (ok && !lurd_apply(&g, &steps, &lurd_failure)) {
        game_free(&g);
        ok = false;
    }
    answers *store = ok ? answers_create(&levels.levels[0]) : NULL;
    if (!ok) {
        fprintf(stderr, "hint_bench: %s: %s\n", path,
                solution ? lurd_failure.message : "cannot read");
    } else if (options->supersede) {
        time_supersede(w, options, &g, store, totals);
        game_free(&g);
    } else if (options->as_played) {
        play_level(w, options, number, &g, store, totals);
        game_free(&g);
    } else {
        /* Walk the solution again with redo, asking at the start and after each push. */
        int first = totals->count;
        game_restart(&g);
        for (int push = 0;; push++) {
            if (push % options->every == 0 && !game_is_solved(&g)) {
                double seconds = time_hint(w, &g, store, options->budget, totals);
                add_latency(totals, seconds);
                if (options->each)
                    printf("hint level %d push %d: %.4f s %s\n", number, push, seconds,
                           totals->last_answer);
            }
            int pushes = g.pushes;
            bool redone;
            do redone = game_redo(&g);
            while (redone && g.pushes == pushes);
            if (g.pushes == pushes) break;
        }
        if (options->verbose) {
            double worst = 0;
            for (int i = first; i < totals->count; i++)
                if (totals->latencies[i] > worst) worst = totals->latencies[i];
            printf("level %3d: %3d hints, slowest %.3f s\n", number, totals->count - first, worst);
            fflush(stdout);
        }
        game_free(&g);
    }
    answers_release(store);
    lurd_steps_free(&steps);
    free(solution);
    collection_free(&levels);
    return ok;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The p-th percentile by the nearest-rank method. */
static double percentile(const double *sorted, int count, double p)
{
    int rank = (int)ceil(p / 100.0 * count);
    if (rank < 1) rank = 1;
    return sorted[rank - 1];
}

/* One line of the --as-played table. */
static void print_table(const char *name, bench_totals *totals)
{
    if (totals->count == 0) {
        printf("  %-9s  no hints timed\n", name);
        return;
    }
    qsort(totals->latencies, (size_t)totals->count, sizeof *totals->latencies, compare_doubles);
    printf("  %-9s  hints %4d  median %8.4f s  p95 %8.4f s  max %8.4f s  no hint %3d  "
           "(optimal %d, fast %d, lost %d)\n",
           name, totals->count, percentile(totals->latencies, totals->count, 50),
           percentile(totals->latencies, totals->count, 95),
           totals->latencies[totals->count - 1], totals->no_hint, totals->optimal, totals->fast,
           totals->unsolvable);
}

static bool parse_positive(const char *text, double *out)
{
    char *end;
    double value = strtod(text, &end);
    if (end == text || *end || !(value > 0)) return false;
    *out = value;
    return true;
}

int main(int argc, char **argv)
{
    bench_options options = {
        .directory = "/usr/share/games/cavepacker/maps",
        .prefix = "microban01_",
        .first_level = 1,
        .level_count = 155,
        .every = 0,
        .budget = 10,
        .rate = 4,
        .think = 2,
    };
    static const struct option long_options[] = {
        {"dir", required_argument, NULL, 'd'},
        {"prefix", required_argument, NULL, 'p'},
        {"first", required_argument, NULL, 'f'},
        {"levels", required_argument, NULL, 'n'},
        {"every", required_argument, NULL, 'k'},
        {"budget", required_argument, NULL, 'b'},
        {"memory", required_argument, NULL, 'm'},
        {"verbose", no_argument, NULL, 'v'},
        {"supersede", no_argument, NULL, 's'},
        {"no-reuse", no_argument, NULL, 'r'},
        {"each", no_argument, NULL, 'e'},
        {"as-played", no_argument, NULL, 'a'},
        {"rate", required_argument, NULL, 'R'},
        {"think", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int option;
    double number;
    while ((option = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
        bool ok = true;
        switch (option) {
        case 'd':
            options.directory = optarg;
            break;
        case 'p':
            options.prefix = optarg;
            break;
        case 'b':
            ok = parse_positive(optarg, &options.budget);
            break;
        case 'v':
            options.verbose = true;
            break;
        case 's':
            options.supersede = true;
            break;
        case 'r':
            options.no_reuse = true;
            break;
        case 'e':
            options.each = true;
            break;
        case 'a':
            options.as_played = true;
            break;
        case 'R':
            ok = parse_positive(optarg, &options.rate);
            break;
        case 't':
            ok = parse_positive(optarg, &options.think) || strcmp(optarg, "0") == 0;
            if (!ok) break;
            if (strcmp(optarg, "0") == 0) options.think = 0;
            break;
        case 'h':
            fputs(USAGE, stdout);
            return 0;
        case 'f':
        case 'n':
        case 'k':
        case 'm':
            ok = parse_positive(optarg, &number) && number == floor(number) && number < 1e6;
            if (!ok) break;
            if (option == 'f') options.first_level = (int)number;
            if (option == 'n') options.level_count = (int)number;
            if (option == 'k') options.every = (int)number;
            if (option == 'm') options.memory_mib = (int)number;
            break;
        default:
            ok = false;
        }
        if (!ok) {
            fputs(USAGE, stderr);
            return 2;
        }
    }
    if (optind != argc) {
        fputs(USAGE, stderr);
        return 2;
    }
    if (options.every == 0) options.every = options.as_played ? 60 : 1;

    /* As played, the worker solves ahead as in the game; otherwise it answers requests only,
     * reusing the store unless --no-reuse. */
    worker_options worker_settings = {.memory_bytes = (size_t)options.memory_mib << 20,
                                      .no_reuse = options.no_reuse,
                                      .no_solve_ahead = !options.as_played};
    worker *w = worker_create_with(&worker_settings);
    if (!w) {
        fputs("hint_bench: cannot start the solver thread\n", stderr);
        return 2;
    }
    bench_totals cold = {0};
    bench_totals totals = {.cold = &cold};
    double began = clock_seconds();
    for (int i = 0; i < options.level_count; i++) {
        if (bench_level(w, &options, options.first_level + i, &totals))
            totals.levels++;
        else
            totals.skipped_levels++;
    }
    double elapsed = clock_seconds() - began;
    worker_destroy(w);

    if (options.as_played) {
        printf("hints as played, %s%04d..%04d, reference solutions at %g moves/s, H after %g s "
               "at every %d pushes, budget %g s; wall time %.1f s, levels %d (skipped %d)\n",
               options.prefix, options.first_level, options.first_level + options.level_count - 1,
               options.rate, options.think, options.every, options.budget, elapsed, totals.levels,
               totals.skipped_levels);
        print_table("as played", &totals);
        print_table("cold", &cold);
        free(totals.latencies);
        free(cold.latencies);
        return totals.count > 0 ? 0 : 1;
    }
    if (options.supersede)
        printf("a hint cancelling a running one, %s%04d..%04d: %d timed, %d skipped (the first "
               "had finished)\n",
               options.prefix, options.first_level, options.first_level + options.level_count - 1,
               totals.count, totals.not_busy);
    else
        printf("hint latency, %s%04d..%04d, every %d position(s), budget %g s:\n", options.prefix,
               options.first_level, options.first_level + options.level_count - 1, options.every,
               options.budget);
    printf("  levels %d (skipped %d), hints %d, wall time %.1f s, nodes %llu\n", totals.levels,
           totals.skipped_levels, totals.count, elapsed, (unsigned long long)totals.nodes);
    if (totals.count > 0) {
        qsort(totals.latencies, (size_t)totals.count, sizeof *totals.latencies, compare_doubles);
        printf("  median %.4f s, 95th percentile %.4f s, max %.4f s\n",
               percentile(totals.latencies, totals.count, 50),
               percentile(totals.latencies, totals.count, 95), totals.latencies[totals.count - 1]);
    }
    printf("  optimal %d, fast %d, limit %d, unsolvable %d, error %d\n", totals.optimal,
           totals.fast, totals.limit, totals.unsolvable, totals.other);
    free(totals.latencies);
    return totals.count > 0 ? 0 : 1;
}

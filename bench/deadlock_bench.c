/* deadlock_bench.c - what the deadlock checks cost: ns per deadlock_check_push call on the
 * positions of real play, and the time to build a level's dead-square table.
 *
 * Replays the reference solution of every level of a collection (solutions one a file,
 * PREFIX%04d.sol in DIR, as CavePacker ships them for XSokoban) and times
 *   - the solution's own pushes: deadlock_check_push on the box just pushed;
 *   - every legal push from each position on the path (what a solver's inner loop checks,
 *     dead ones included): make the push, check, take it back;
 *   - deadlock_table_init per level.
 * Each level's calls are timed as one batch repeated --repeat times; the per-level ns/call
 * are summarised as median and mean over the levels.
 *
 * With --proofs N, it counts instead what is proven lost at once of the positions one push
 * off the solution: from every Nth position on the path, every legal push (the solution's
 * own among them), each position checked as the game's solver checks a position it is
 * asked about (a start), part by part in the order they are asked (each part counts the
 * positions it proves and no part before it did): the deadlock module's check of the push
 * (dead squares, freezes: the game's own warnings), no matching of the boxes to the goals
 * (the bound), the boxes frozen on goals, and solver_search_start_lost() in its parts: every
 * box's two- and three-box deadlocks, every corral with the boxes touching its barrier (what
 * the fast mode checks on each state it expands), and each touching box alone. The learned
 * corrals are kept for the level.
 *
 *   deadlock_bench [--levels FILE] [--dir DIR] [--prefix NAME] [--repeat R] [--proofs N]
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/board.h"
#include "rules/deadlock.h"
#include "level/level.h"
#include "rules/lurd.h"
#include "solver/solver_bound.h"
#include "solver/solver_corral_deadlock.h"
#include "solver/solver_domain.h"
#include "solver/solver_frozen.h"
#include "solver/solver_pairs.h"

#ifndef SOKOBAN_SOURCE_LEVELS_DIR
#define SOKOBAN_SOURCE_LEVELS_DIR "levels"
#endif

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count)
{
    if (count == 0) return 0;
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

static double mean(const double *values, int count)
{
    double sum = 0;
    for (int i = 0; i < count; i++) sum += values[i];
    return count ? sum / count : 0;
}

static char *read_text(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = length >= 0 ? malloc((size_t)length + 1) : NULL;
    if (text) text[fread(text, 1, (size_t)length, file)] = '\0';
    fclose(file);
    return text;
}

/* One push to time: the position (an index into the level's saved box arrays), the box and
 * where it goes. */
typedef struct push_sample {
    int position, from, to;
} push_sample;

typedef struct level_samples {
    uint8_t **boxes; /* the box array of each position on the path, before its push */
    int position_count;
    push_sample *solution; /* the solution's pushes */
    int solution_count;
    push_sample *every; /* every legal push from each position on the path */
    int every_count;
} level_samples;

static void add_sample(push_sample **samples, int *count, push_sample sample)
{
    if ((*count & (*count - 1)) == 0) { /* at 0, 1, 2, 4, ...: double */
        push_sample *bigger =
            realloc(*samples, (size_t)(*count ? 2 * *count : 1) * sizeof **samples);
        if (!bigger) abort();
        *samples = bigger;
    }
    (*samples)[(*count)++] = sample;
}

/* Replays the solution and records the samples. False when it does not replay. */
static bool collect(const board *board, const position *start, const lurd_steps *steps,
                    level_samples *out)
{
    position p;
    if (!position_copy(&p, start, board)) return false;
    uint8_t *reach = malloc((size_t)board->size);
    out->boxes = malloc(((size_t)steps->count + 1) * sizeof *out->boxes);
    if (!reach || !out->boxes) abort();
    for (int i = 0; i < steps->count; i++) {
        direction d = steps->steps[i].direction;
        if (board_try_step(board, &p, d) == STEP_PUSHED) {
            int index = out->position_count++;
            out->boxes[index] = malloc((size_t)board->size);
            if (!out->boxes[index]) abort();
            memcpy(out->boxes[index], p.boxes, (size_t)board->size);
            int box = p.player + board->delta[d];
            add_sample(&out->solution, &out->solution_count,
                       (push_sample){index, box, box + board->delta[d]});
            board_reachable(board, &p, reach);
            for (int square = 0; square < board->size; square++) {
                if (!p.boxes[square]) continue;
                for (int e = 0; e < DIRECTION_COUNT; e++) {
                    int from = square - board->delta[e], to = square + board->delta[e];
                    if (reach[from] && !board_is_wall(board, to) && !p.boxes[to])
                        add_sample(&out->every, &out->every_count,
                                   (push_sample){index, square, to});
                }
            }
        }
        if (board_step(board, &p, d) == STEP_BLOCKED) {
            free(reach);
            position_free(&p);
            return false;
        }
    }
    free(reach);
    position_free(&p);
    return true;
}

/* Times the samples `repeat` times; returns ns per call and counts the dead answers. */
static double time_samples(const deadlock_table *table, const board *board, level_samples *level,
                           const push_sample *samples, int count, int repeat, long *dead)
{
    long found = 0;
    double started = now_ns();
    for (int r = 0; r < repeat; r++) {
        for (int i = 0; i < count; i++) {
            uint8_t *boxes = level->boxes[samples[i].position];
            boxes[samples[i].from] = 0;
            boxes[samples[i].to] = 1;
            found += deadlock_check_push(table, board, boxes, samples[i].to);
            boxes[samples[i].to] = 0;
            boxes[samples[i].from] = 1;
        }
    }
    double elapsed = now_ns() - started;
    *dead += found / repeat;
    return count ? elapsed / ((double)count * repeat) : 0;
}

/* The parts of the check of a position, in the order they are asked (--proofs). */
enum { BY_PUSH, BY_MATCHING, BY_FROZEN, BY_PAIRS, BY_EVERY_CORRAL, BY_ONE_TOUCHING, PARTS };
static const char *const part_names[PARTS] = {
    "deadlock module (dead square, freeze)", "no matching to the goals",
    "behind boxes frozen on goals",          "two- and three-box deadlocks",
    "every corral, touching boxes",          "each touching box alone"};

/* True when some box of the search's state and another (or two) are a two- or three-box
 * deadlock: the first part of solver_search_start_lost(). */
static bool any_pair_lost(const solver_search *s)
{
    for (int i = 0; i < s->box_count; i++)
        if (solver_search_pair_lost(s, s->box_square[i])) return true;
    return false;
}

/* The part that proves the position after `sample` lost, or PARTS. */
static int proven_by(const deadlock_table *table, const board *board, solver_search *s,
                     solver_frozen *frozen, uint8_t *boxes, push_sample sample)
{
    boxes[sample.from] = 0;
    boxes[sample.to] = 1;
    int part = BY_PUSH;
    if (!deadlock_check_push(table, board, boxes, sample.to)) {
        int count = 0;
        for (int q = 0; q < board->size; q++)
            if (boxes[q]) s->box_square_scratch[count++] = (uint16_t)q;
        solver_search_set(s, s->box_square_scratch, sample.from); /* the player pushed */
        solver_search_key(s);
        solver_corral_deadlocks *c = s->corral_deadlocks;
        part = solver_search_bound(s) >= IDA_INFINITY       ? BY_MATCHING
               : solver_frozen_lost(frozen, s)              ? BY_FROZEN
               : any_pair_lost(s)                           ? BY_PAIRS
               : solver_corral_deadlock_anywhere(c, s)      ? BY_EVERY_CORRAL
               : solver_corral_deadlock_each_touching(c, s) ? BY_ONE_TOUCHING
                                                            : PARTS;
    }
    boxes[sample.to] = 0;
    boxes[sample.from] = 1;
    return part;
}

/* Counts by part the positions of `level`'s every-push samples, from every `every`th
 * position, proven lost (proven[PARTS] those that are not); adds the seconds the checks took
 * to *seconds. False when the solver's tables cannot be made. */
static bool count_proofs(const board *board, const position *start, const deadlock_table *table,
                         level_samples *level, int every, long proven[PARTS + 1], double *seconds)
{
    solver_distances distances;
    solver_search search;
    solver_pairs pairs = {0};
    solver_triples triples = {0};
    solver_frozen frozen;
    solver_options options = {.mode = SOLVER_FAST};
    solver_stop stop = {0};
    if (!solver_distances_init(&distances, board)) return false;
    if (!solver_frozen_init(&frozen, board, &distances)) {
        solver_distances_free(&distances);
        return false;
    }
    if (!solver_search_init(&search, board, start, &distances, table, NULL, NULL, &options)) {
        solver_frozen_free(&frozen);
        solver_distances_free(&distances);
        return false;
    }
    /* the two- and three-box deadlocks, with the solver's cap (solver.c) */
    size_t most = (size_t)16 << 20;
    if (solver_pairs_init(&pairs, board, &distances, most))
        solver_search_use_pairs(&search, &pairs,
                                solver_triples_init(&triples, &pairs, board, most, &stop) ? &triples
                                                                                          : NULL);
    double started = now_ns();
    for (int i = 0; i < level->every_count; i++) {
        push_sample sample = level->every[i];
        if (sample.position % every != 0) continue;
        proven[proven_by(table, board, &search, &frozen, level->boxes[sample.position], sample)]++;
    }
    *seconds += (now_ns() - started) / 1e9;
    solver_search_free(&search);
    solver_triples_free(&triples);
    solver_pairs_free(&pairs);
    solver_frozen_free(&frozen);
    solver_distances_free(&distances);
    return true;
}

static void print_proofs(const char *levels_path, int measured, int every,
                         const long proven[PARTS + 1], double seconds)
{
    long total = 0, lost = 0;
    for (int part = 0; part <= PARTS; part++) total += proven[part];
    printf("positions one push off the solutions of %s: %d levels, every push from every "
           "%dth position, %ld positions, %.1f s of checks\n",
           levels_path, measured, every, total, seconds);
    printf("  %-40s %8s %8s\n", "proven lost by", "more", "in all");
    for (int part = 0; part < PARTS; part++) {
        lost += proven[part];
        printf("  %-40s %8ld %8ld (%.1f%%)\n", part_names[part], proven[part], lost,
               total ? 100.0 * (double)lost / (double)total : 0);
    }
    printf("  %-40s %8ld\n", "not proven", proven[PARTS]);
}

int main(int argc, char **argv)
{
    const char *levels_path = SOKOBAN_SOURCE_LEVELS_DIR "/xsokoban.xsb";
    const char *directory = "/usr/share/games/cavepacker/maps";
    const char *prefix = "xsokoban";
    int repeat = 20, every = 0;
    static const struct option long_options[] = {
        {"levels", required_argument, NULL, 'l'}, {"dir", required_argument, NULL, 'd'},
        {"prefix", required_argument, NULL, 'p'}, {"repeat", required_argument, NULL, 'r'},
        {"proofs", required_argument, NULL, 'P'}, {NULL, 0, NULL, 0}};
    int option;
    while ((option = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
        switch (option) {
        case 'l':
            levels_path = optarg;
            break;
        case 'd':
            directory = optarg;
            break;
        case 'p':
            prefix = optarg;
            break;
        case 'r':
            repeat = atoi(optarg) > 0 ? atoi(optarg) : 1;
            break;
        case 'P':
            every = atoi(optarg) > 0 ? atoi(optarg) : 1;
            break;
        default:
            fputs("usage: deadlock_bench [--levels FILE] [--dir DIR] [--prefix NAME] "
                  "[--repeat R] [--proofs N]\n",
                  stderr);
            return 2;
        }
    }
    collection levels;
    level_error error;
    if (!collection_load(levels_path, &levels, &error)) {
        fprintf(stderr, "deadlock_bench: %s\n", error.message);
        return 2;
    }
    double *solution_ns = calloc((size_t)levels.count, sizeof *solution_ns);
    double *every_ns = calloc((size_t)levels.count, sizeof *every_ns);
    double *table_us = calloc((size_t)levels.count, sizeof *table_us);
    if (!solution_ns || !every_ns || !table_us) return 2;
    int measured = 0;
    long solution_calls = 0, every_calls = 0, solution_dead = 0, every_dead = 0;
    long proven[PARTS + 1] = {0};
    double proof_seconds = 0;
    if (every) repeat = 1;
    for (int i = 0; i < levels.count; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s%04d.sol", directory, prefix, i + 1);
        char *text = read_text(path);
        lurd_steps steps;
        lurd_error lurd_error;
        if (!text || !lurd_parse(text, &steps, &lurd_error)) {
            free(text);
            continue;
        }
        free(text);
        board board;
        position start;
        deadlock_table table;
        if (!board_from_level(&levels.levels[i], &board, &start)) return 2;
        double started = now_ns();
        for (int r = 0; r < repeat; r++) {
            if (!deadlock_table_init(&table, &board)) return 2;
            if (r + 1 < repeat) deadlock_table_free(&table);
        }
        table_us[measured] = (now_ns() - started) / repeat / 1000;
        level_samples samples = {0};
        if (every && collect(&board, &start, &steps, &samples)) {
            if (!count_proofs(&board, &start, &table, &samples, every, proven, &proof_seconds))
                return 2;
            measured++;
        } else if (!every && collect(&board, &start, &steps, &samples)) {
            solution_ns[measured] = time_samples(&table, &board, &samples, samples.solution,
                                                 samples.solution_count, repeat, &solution_dead);
            every_ns[measured] = time_samples(&table, &board, &samples, samples.every,
                                              samples.every_count, repeat, &every_dead);
            solution_calls += samples.solution_count;
            every_calls += samples.every_count;
            measured++;
        }
        for (int k = 0; k < samples.position_count; k++) free(samples.boxes[k]);
        free(samples.boxes);
        free(samples.solution);
        free(samples.every);
        lurd_steps_free(&steps);
        deadlock_table_free(&table);
        board_free(&board);
        position_free(&start);
    }
    if (every) {
        print_proofs(levels_path, measured, every, proven, proof_seconds);
        free(solution_ns);
        free(every_ns);
        free(table_us);
        collection_free(&levels);
        return measured > 0 ? 0 : 1;
    }
    printf("deadlock_check_push on %s: %d levels with solutions, %d repetitions\n", levels_path,
           measured, repeat);
    printf("  solution pushes:    %7ld calls, median %.1f ns/call (mean over levels %.1f), "
           "%ld called dead\n",
           solution_calls, median(solution_ns, measured), mean(solution_ns, measured),
           solution_dead);
    printf("  every legal push:   %7ld calls, median %.1f ns/call (mean over levels %.1f), "
           "%ld called dead (%.1f%%)\n",
           every_calls, median(every_ns, measured), mean(every_ns, measured), every_dead,
           every_calls ? 100.0 * (double)every_dead / (double)every_calls : 0);
    printf("deadlock_table_init: median %.1f us per level (mean %.1f)\n",
           median(table_us, measured), mean(table_us, measured));
    free(solution_ns);
    free(every_ns);
    free(table_us);
    collection_free(&levels);
    return measured > 0 ? 0 : 1;
}

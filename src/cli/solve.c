/* solve.c - sokoban --solve: runs the solver on one level or all of a file and prints one
 * line of key=value fields per level. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules/board.h"
#include "cli.h"
#include "rules/lurd.h"
#include "solver/solver.h"

enum { DEFAULT_SECONDS = 30 };

typedef struct progress_line {
    int level;
} progress_line;

/* The techniques to turn off, for measurements: SOKOBAN_SOLVER_DISABLE holds a
 * comma-separated list of tunnels, deadlocks, inertia, table, goalroom, corrals, features,
 * pullhome, backward, corralproof, parking, packlist, frozen, rows, stuck, ordersearch,
 * restarts, earlyorder, pairs, triples, penalties, below, joinmoves, openmoves, plansearch,
 * fromstart, planpick (docs/SOLVER.md). */
static unsigned disabled_techniques(void)
{
    static const struct {
        const char *name;
        unsigned flag;
    } names[] = {{"tunnels", SOLVER_NO_TUNNELS},
                 {"deadlocks", SOLVER_NO_DEADLOCKS},
                 {"inertia", SOLVER_NO_INERTIA},
                 {"table", SOLVER_NO_TABLE},
                 {"goalroom", SOLVER_NO_GOAL_ROOM},
                 {"corrals", SOLVER_NO_CORRALS},
                 {"features", SOLVER_NO_FEATURES},
                 {"pullhome", SOLVER_NO_PULL_HOME},
                 {"backward", SOLVER_NO_BACKWARD},
                 {"corralproof", SOLVER_NO_CORRAL_DEADLOCKS},
                 {"parking", SOLVER_NO_PARKING},
                 {"packlist", SOLVER_NO_PACKING_LIST},
                 {"frozen", SOLVER_NO_FROZEN},
                 {"rows", SOLVER_NO_ROWS},
                 {"stuck", SOLVER_NO_STUCK},
                 {"ordersearch", SOLVER_NO_ORDER_SEARCH},
                 {"restarts", SOLVER_NO_RESTARTS},
                 {"earlyorder", SOLVER_NO_EARLY_ORDER},
                 {"pairs", SOLVER_NO_PAIRS},
                 {"triples", SOLVER_NO_TRIPLES},
                 {"penalties", SOLVER_NO_PENALTIES},
                 {"below", SOLVER_NO_BELOW},
                 {"joinmoves", SOLVER_NO_JOINER_MOVES},
                 {"openmoves", SOLVER_NO_OPENER_MOVES},
                 {"plansearch", SOLVER_NO_PLAN_SEARCH},
                 {"fromstart", SOLVER_NO_FROM_START},
                 {"planpick", SOLVER_NO_PLAN_PICK}};
    const char *list = getenv("SOKOBAN_SOLVER_DISABLE");
    unsigned flags = 0;
    for (size_t i = 0; list && i < sizeof names / sizeof names[0]; i++)
        if (strstr(list, names[i].name)) flags |= names[i].flag;
    return flags;
}

/* Rewrites one line on stderr (only when it is a terminal). */
static void show_progress(void *argument, const solver_progress *p)
{
    const progress_line *line = argument;
    fprintf(stderr, "\rlevel %d: threshold %d, %llu nodes, %.1f s, %.0f nodes/s\033[K", line->level,
            p->threshold, (unsigned long long)p->nodes, p->seconds, p->nodes_per_second);
}

/* What --optimize-time made of a solution found. */
typedef struct chained_optimizer {
    bool ran;
    int pushes_before, moves_before;
    double seconds;
} chained_optimizer;

/* Optimizes the solution in *result for --optimize-time and puts the better one in its
 * place (the optimizer replays it before handing it back). */
static void optimize_found(const cli_options *options, const board *b, const position *start,
                           solver_result *result, chained_optimizer *chained)
{
    if (result->moves == 0) return;
    optimizer_result optimized;
    if (cli_optimize_steps(options, b, start, result->steps, result->moves, options->optimize_time,
                           &optimized)) {
        *chained = (chained_optimizer){.ran = true,
                                       .pushes_before = result->pushes,
                                       .moves_before = result->moves,
                                       .seconds = optimized.seconds};
        free(result->steps);
        result->steps = optimized.steps;
        optimized.steps = NULL;
        result->moves = optimized.moves;
        result->pushes = optimized.pushes;
    }
    optimizer_result_free(&optimized);
}

/* What --solve --all adds up for its closing line. */
typedef struct solve_total {
    int tried, solved;
    double seconds;
    long long pushes, moves;
} solve_total;

/* Solves one level, prints its line and adds it to `total`; returns its status. */
static solver_status solve_level(const cli_options *options, const collection *c, const level *lv,
                                 bool progress, solve_total *total)
{
    board b;
    position start;
    solver_result result = {.status = SOLVER_ERROR};
    chained_optimizer chained = {0};
    progress_line line = {.level = lv->number};
    if (board_from_level(lv, &b, &start)) {
        solver_options solver = {
            /* The fast mode unless optimal is asked for: a solution soon is what a first try
             * wants (the game's hints answer fast first too). */
            .mode = options->mode && strcmp(options->mode, "optimal") == 0 ? SOLVER_OPTIMAL
                                                                           : SOLVER_FAST,
            .max_nodes = options->node_limit,
            .memory_bytes = options->memory_bytes,
            .threads = options->threads,
            .progress = progress ? show_progress : NULL,
            .progress_argument = &line,
            .disable = disabled_techniques(),
        };
        /* the level's time counts from here */
        solver.deadline =
            ida_clock() + (options->time_seconds > 0 ? options->time_seconds : DEFAULT_SECONDS);
        /* until the search's first report: it builds its tables (and the fast mode searches a
         * quarter of a second before it reports) */
        if (progress) fprintf(stderr, "\rlevel %d: setting up\033[K", lv->number);
        solver_solve(&b, &start, &solver, &result);
        if (result.status == SOLVER_SOLVED && options->optimize_time > 0)
            optimize_found(options, &b, &start, &result, &chained);
        board_free(&b);
        position_free(&start);
    } else {
        result.reason = "out-of-memory";
        snprintf(result.message, sizeof result.message, "out of memory building the board");
    }
    if (progress) fputs("\r\033[K", stderr);
    bool solved = result.status == SOLVER_SOLVED;
    /* LURD text only here, at the edge. */
    char *lurd = solved && result.moves > 0 ? lurd_format(result.steps, result.moves, false) : NULL;
    const char *solution = lurd ? lurd : "-";
    char pushes[16] = "-", moves[16] = "-";
    if (solved) {
        snprintf(pushes, sizeof pushes, "%d", result.pushes);
        snprintf(moves, sizeof moves, "%d", result.moves);
    }
    /* an error always says why: a token at the end of the line, a sentence on stderr */
    bool error = result.status == SOLVER_ERROR;
    const char *reason = error && result.reason ? result.reason : "unknown";
    char before[96] = "";
    if (chained.ran)
        snprintf(before, sizeof before, "pushes_before=%d moves_before=%d optimize_seconds=%.3f ",
                 chained.pushes_before, chained.moves_before, chained.seconds);
    printf("level=%d status=%s pushes=%s moves=%s nodes=%llu seconds=%.3f %ssolution=%s%s%s\n",
           lv->number, solver_status_name(result.status), pushes, moves,
           (unsigned long long)result.nodes, result.seconds, before, solution,
           error ? " reason=" : "", error ? reason : "");
    cli_flush();
    if (error)
        cli_say("%s: level %d: %s", c->path, lv->number,
                result.message[0] ? result.message : "the solver failed for an unknown reason");
    free(lurd);
    total->tried++;
    total->seconds += result.seconds;
    if (solved) {
        total->solved++;
        total->pushes += result.pushes;
        total->moves += result.moves;
    }
    solver_status status = result.status;
    solver_result_free(&result);
    return status;
}

int cli_solve(const cli_options *options)
{
    collection c;
    if (!cli_load_collection(options, &c)) return CLI_BAD_INPUT;
    int first = 0, last = 0;
    if (options->all) {
        last = c.count - 1;
    } else {
        const level *lv = cli_pick_level(options, &c);
        if (!lv) {
            collection_free(&c);
            return CLI_BAD_INPUT;
        }
        first = last = lv->number - 1;
    }
    bool progress = isatty(STDERR_FILENO);
    bool all_solved = true;
    solve_total total = {0};
    /* a line that could not be written (a full disk) ends the run: the rest would be lost */
    for (int i = first; i <= last && !ferror(stdout); i++) {
        if (c.levels[i].error) { /* --all goes past a level that cannot be played */
            cli_say("%s (skipped)", c.levels[i].error);
            all_solved = false;
        } else if (solve_level(options, &c, &c.levels[i], progress, &total) != SOLVER_SOLVED) {
            all_solved = false;
        }
    }
    /* pushes and moves add up the solved levels only */
    if (options->all)
        printf("total levels=%d solved=%d seconds=%.3f pushes=%lld moves=%lld\n", total.tried,
               total.solved, total.seconds, total.pushes, total.moves);
    collection_free(&c);
    return all_solved ? CLI_OK : CLI_NO;
}

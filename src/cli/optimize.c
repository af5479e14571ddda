/* optimize.c - sokoban --optimize: makes given solutions shorter and prints one line of
 * key=value fields per level, as --solve does, with the counts before and after. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rules/board.h"
#include "rules/lurd.h"
#include "solver/optimizer.h"

enum { DEFAULT_SECONDS = 10 };

/* What --optimize --all adds up for its closing line. */
typedef struct optimize_total {
    int tried, improved;
    long long moves_before, pushes_before, moves, pushes;
    double seconds;
} optimize_total;

optimizer_metric cli_optimizer_metric(const cli_options *options)
{
    return options->by && strcmp(options->by, "pushes") == 0 ? OPTIMIZER_BY_PUSHES
                                                             : OPTIMIZER_BY_MOVES;
}

bool cli_optimize_steps(const cli_options *options, const board *b, const position *start,
                        const game_step *steps, int count, double seconds, optimizer_result *result)
{
    optimizer_options optimizer = {
        .metric = cli_optimizer_metric(options),
        .max_seconds = seconds,
        .max_nodes = options->node_limit,
        .memory_bytes = options->memory_bytes,
    };
    /* for measurements: SOKOBAN_OPTIMIZER_DISABLE=base,trips (docs/SOLVER.md, section 32) */
    const char *disable = getenv("SOKOBAN_OPTIMIZER_DISABLE");
    optimizer.no_base = disable && strstr(disable, "base") != NULL;
    optimizer.no_trips = disable && strstr(disable, "trips") != NULL;
    optimizer_status status = optimizer_optimize(b, start, steps, count, &optimizer, result);
    return status != OPTIMIZER_INVALID;
}

/* The level a line of --solve's format names: the whole number after "level=" at its start,
 * followed by a space, a tab or the line's end; 0 when there is no such number (a number
 * past the range of long, one with more after it). */
static long line_level(const char *line)
{
    if (strncmp(line, "level=", strlen("level=")) != 0) return 0;
    const char *digits = line + strlen("level=");
    if (!isdigit((unsigned char)*digits)) return 0;
    char *end;
    errno = 0;
    long number = strtol(digits, &end, 10);
    if (errno == ERANGE || (*end && !strchr(" \t\r\n", *end))) return 0;
    return number;
}

/* The solution text for level `number`: in lines of --solve's format ("level=N ...
 * solution=LURD"), the one of that level; in any other text, all of it. A string to free(),
 * or NULL when the lines name no such level. */
static char *solution_for(const char *text, int number)
{
    if (!strstr(text, "level=")) return strdup(text);
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line += line != NULL) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        if (line_level(line) != number) continue;
        const char *field = strstr(line, "solution=");
        if (!field || field >= line + length) continue;
        field += strlen("solution=");
        size_t n = strcspn(field, " \t\r\n");
        char *lurd = strndup(field, n);
        if (lurd && strcmp(lurd, "-") == 0) lurd[0] = '\0';
        return lurd;
    }
    return NULL;
}

/* Optimizes one level's solution and prints its line; false when the solution is bad. */
static bool optimize_level(const cli_options *options, const level *lv, const char *text,
                           optimize_total *total)
{
    lurd_steps steps;
    lurd_error error;
    if (!lurd_parse(text, &steps, &error)) {
        cli_say("level %d: bad solution: %s", lv->number, error.message);
        return false;
    }
    board b;
    position start;
    if (!board_from_level(lv, &b, &start)) {
        lurd_steps_free(&steps);
        fputs("sokoban: out of memory\n", stderr);
        return false;
    }
    double seconds = options->time_seconds > 0 ? options->time_seconds : DEFAULT_SECONDS;
    optimizer_result result;
    bool valid =
        cli_optimize_steps(options, &b, &start, steps.steps, steps.count, seconds, &result);
    if (!valid) {
        cli_say("level %d: the solution does not solve the level", lv->number);
    } else {
        char *lurd = result.moves > 0 ? lurd_format(result.steps, result.moves, false) : NULL;
        bool improved = result.moves < steps.count || result.pushes < result.pushes_before;
        printf("level=%d status=%s pushes=%d moves=%d pushes_before=%d moves_before=%d "
               "nodes=%llu seconds=%.3f vicinity=\"%s\" solution=%s\n",
               lv->number, improved ? "improved" : "unchanged", result.pushes, result.moves,
               result.pushes_before, result.moves_before, (unsigned long long)result.nodes,
               result.seconds, result.vicinity, lurd ? lurd : "-");
        cli_flush();
        free(lurd);
        total->tried++;
        total->improved += improved;
        total->moves_before += result.moves_before;
        total->pushes_before += result.pushes_before;
        total->moves += result.moves;
        total->pushes += result.pushes;
        total->seconds += result.seconds;
    }
    optimizer_result_free(&result);
    board_free(&b);
    position_free(&start);
    lurd_steps_free(&steps);
    return valid;
}

/* The solution text the argument names: "-" standard input, "@FILE" a file, else itself.
 * A string to free(), or NULL after printing why. */
static char *solution_text(const char *argument)
{
    if (strcmp(argument, "-") == 0 || strcmp(argument, "@-") == 0) return cli_read_stdin();
    if (argument[0] == '@') return cli_read_text_file(argument + 1);
    char *copy = strdup(argument);
    if (!copy) fputs("sokoban: out of memory\n", stderr);
    return copy;
}

int cli_optimize(const cli_options *options)
{
    collection c;
    if (!cli_load_collection(options, &c)) return CLI_BAD_INPUT;
    int first = 0, last = c.count - 1;
    if (!options->all) {
        const level *lv = cli_pick_level(options, &c);
        if (!lv) {
            collection_free(&c);
            return CLI_BAD_INPUT;
        }
        first = last = lv->number - 1;
    }
    char *text = solution_text(options->solution);
    if (!text) {
        collection_free(&c);
        return CLI_BAD_INPUT;
    }
    int status = CLI_OK;
    optimize_total total = {0};
    for (int i = first; i <= last && !ferror(stdout); i++) { /* main.c says why it stopped */
        const level *lv = &c.levels[i];
        char *lurd = solution_for(text, lv->number);
        if (lv->error || !lurd) {
            /* --all goes past a level that cannot be played or has no solution given */
            if (!options->all) {
                cli_say("%s", lv->error ? lv->error : "the solution lines name no such level");
                status = CLI_BAD_INPUT;
            }
        } else if (!optimize_level(options, lv, lurd, &total)) {
            status = CLI_BAD_INPUT;
        }
        free(lurd);
    }
    if (options->all)
        printf("total levels=%d improved=%d pushes=%lld moves=%lld pushes_before=%lld "
               "moves_before=%lld seconds=%.3f\n",
               total.tried, total.improved, total.pushes, total.moves, total.pushes_before,
               total.moves_before, total.seconds);
    free(text);
    collection_free(&c);
    return status;
}
